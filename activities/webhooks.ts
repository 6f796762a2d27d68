// Webhook delivery activities (task queue `video-io`), driven by workflows/webhooks.ts: build and
// record an event once, then one activity per delivery attempt (signed at send time), each recorded.
import fs from 'node:fs';
import tls from 'node:tls';
import { ApplicationFailure } from '@temporalio/activity';
import { activeSigningSecrets, getWebhookEvent, getWebhookSettings, insertWebhookEvent, listWebhookAttempts, recordWebhookAttempt } from '../src/db/webhooks.js';
import type { Db } from '../src/db/pool.js';
import type { WebhookEventStatus, WebhookEventType } from '../src/shared.js';
import { buildWebhookEvent } from '../src/webhooks/events.js';
import { sendWebhook, type SendOptions } from '../src/webhooks/send.js';
import { signatureHeaders } from '../src/webhooks/signing.js';
import { systemResolver, urlPolicyFromConfig, type HostResolver } from '../src/outbound/urlPolicy.js';
import { metrics } from '../src/metrics.js';
import { statusAfterAttempt } from '../src/webhooks/retryPolicy.js';
import type { AttemptedWithRecord, WebhookActivities, WebhookAttemptResult, WebhookDeliveryInput, WebhookDeliveryPlan } from '../src/temporal/contract.js';
import type { ActivityDeps } from './deps.js';

/** `resolve` is injectable so tests control DNS; the worker uses the system resolver. */
export function createWebhookActivities({ config, db, storage, logger }: ActivityDeps, resolve: HostResolver = systemResolver): WebhookActivities {
  const { unsafeAllowLoopback, unsafeCaFile } = config.outbound;
  if (unsafeAllowLoopback || unsafeCaFile) {
    logger.warn({ unsafeAllowLoopback, unsafeCaFile }, 'UNSAFE webhook settings are on: for local testing only');
  }
  const sendOptions: SendOptions = {
    ...urlPolicyFromConfig(config, resolve),
    // Extra trust is added to the system CAs, never instead of them.
    ca: unsafeCaFile ? [...tls.rootCertificates, fs.readFileSync(unsafeCaFile, 'utf8')] : undefined,
  };

  return {
    /** Whether the organization wants events of this type (checked once before optional, frequent events). */
    async webhookEventEnabled(input: { organizationId: string; type: WebhookEventType }): Promise<boolean> {
      const settings = await getWebhookSettings(db, input.organizationId);
      return settings?.enabled_events.includes(input.type) ?? false;
    },

    /**
     * Checks the organization's toggles and records the event with its body, built once so every
     * attempt sends the same bytes. Null when the organization does not want this event type.
     */
    async prepareWebhookEvent(input: WebhookDeliveryInput): Promise<WebhookDeliveryPlan | null> {
      const settings = await getWebhookSettings(db, input.organizationId);
      if (!settings?.enabled_events.includes(input.facts.type)) return null;
      if (!(await getWebhookEvent(db, input.eventId))) {
        const outputUrl = input.facts.status === 'completed' && input.facts.videoKey ? (await storage.url(input.facts.videoKey)).url : null;
        const createdAt = new Date();
        const event = buildWebhookEvent(input, createdAt.getTime(), outputUrl);
        await insertWebhookEvent(db, {
          id: input.eventId,
          organizationId: input.organizationId,
          generationId: input.generationId,
          type: input.facts.type,
          url: input.webhookUrl,
          body: JSON.stringify(event),
          createdAt,
        });
      }
      return { retryScheduleMs: config.webhooks.retryScheduleMs };
    },

    /** One signed POST. Never throws for the receiver's sake: every outcome is a result to record. */
    async attemptWebhookDelivery(req: { eventId: string; attempt: number }): Promise<WebhookAttemptResult> {
      const event = await getWebhookEvent(db, req.eventId);
      const settings = event && (await getWebhookSettings(db, event.organization_id));
      if (!event || !settings) throw ApplicationFailure.nonRetryable(`webhook event ${req.eventId} is gone`, 'webhook_event_missing');
      const sentAt = new Date();
      const headers = signatureHeaders(activeSigningSecrets(settings, sentAt), event.id, sentAt, event.body);
      const outcome = await sendWebhook({ url: event.url, body: event.body, headers }, sendOptions);
      const log = { event_id: event.id, generation_id: event.generation_id, attempt: req.attempt, status_code: outcome.statusCode };
      if (outcome.error) logger.warn({ ...log, error: outcome.error }, 'webhook attempt failed');
      else logger.info({ ...log, duration_ms: outcome.durationMs }, 'webhook attempt answered');
      return { ...outcome, eventId: event.id, attempt: req.attempt, attemptedAtMs: sentAt.getTime() };
    },

    async recordWebhookAttempt(result: WebhookAttemptResult, eventStatus: WebhookEventStatus): Promise<void> {
      metrics.webhookAttempts.inc({ outcome: attemptOutcome(result.statusCode) });
      await recordWebhookAttempt(
        db,
        {
          event_id: result.eventId,
          attempt: result.attempt,
          attempted_at: new Date(result.attemptedAtMs),
          status_code: result.statusCode,
          duration_ms: result.durationMs,
          error: result.error,
          response_excerpt: result.responseExcerpt,
        },
        eventStatus,
      );
    },
  };
}

/**
 * An event recorded and attempted once, inside another activity (the terminal record's: issue 35). A
 * retry of that activity (`retried`) finds the attempt recorded and sends nothing twice. Nothing is
 * attempted (undefined) when the schedule asks for a wait before the first attempt: the delivery
 * workflow waits.
 */
export async function recordAndAttemptOnce(webhooks: WebhookActivities, db: Db, event: WebhookDeliveryInput, retried: boolean): Promise<AttemptedWithRecord | undefined> {
  const plan = await webhooks.prepareWebhookEvent(event);
  if (!plan) return { plan: null };
  if (plan.retryScheduleMs[0] !== 0) return undefined;
  const attempts = plan.retryScheduleMs.length;
  const earlier = retried ? (await listWebhookAttempts(db, event.eventId)).find((a) => a.attempt === 1) : undefined;
  if (earlier) {
    const result: WebhookAttemptResult = {
      eventId: event.eventId,
      attempt: 1,
      attemptedAtMs: earlier.attempted_at.getTime(),
      statusCode: earlier.status_code,
      durationMs: earlier.duration_ms,
      error: earlier.error,
      retryAfterMs: null, // not kept: attempt 2 follows the schedule alone
      responseExcerpt: earlier.response_excerpt,
    };
    return { plan, result, status: statusAfterAttempt(result, 1, attempts) };
  }
  let result: WebhookAttemptResult;
  try {
    result = await webhooks.attemptWebhookDelivery({ eventId: event.eventId, attempt: 1 });
  } catch {
    return undefined; // not attempted: the delivery workflow makes attempt 1 itself
  }
  const status = statusAfterAttempt(result, 1, attempts);
  await webhooks.recordWebhookAttempt(result, status);
  return { plan, result, status };
}

/** Metric label of one attempt: no_response (policy, DNS, TLS, timeout), delivered (2xx), gone (410), rejected. */
function attemptOutcome(statusCode: number | null): string {
  if (statusCode === null) return 'no_response';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  return statusCode === 410 ? 'gone' : 'rejected';
}
