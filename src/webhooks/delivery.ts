// Webhook delivery, owned here from end to end: an event is prepared once (the organization's toggles
// checked, its body built and recorded, so every attempt sends the same bytes), then attempted (one
// signed POST each) and every attempt recorded with the event's status after it. When each step runs
// is the delivery workflow's (workflows/webhooks.ts); the webhook activities (activities/webhooks.ts)
// and the terminal record, which sends the completed event (activities/records.ts), call these.
import fs from 'node:fs';
import tls from 'node:tls';
import type { Config } from '../config.js';
import type { Db } from '../db/pool.js';
import {
  activeSigningSecrets,
  getWebhookEvent,
  getWebhookSettings,
  insertWebhookEvent,
  listWebhookAttempts,
  recordWebhookAttempt,
  type WebhookAttemptRow,
} from '../db/webhooks.js';
import { isOpenAiVideo } from '../db/videos.js';
import { listWebhookEndpoints } from '../db/webhookEndpoints.js';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';
import type { WebhookEventStatus, WebhookEventType } from '../shared.js';
import type { Storage } from '../storage/index.js';
import type {
  PreparedDelivery,
  WebhookAttemptResult,
  WebhookDeliveryInput,
  WebhookDeliveryPlan,
} from '../temporal/contract.js';
import { ATTEMPT_FAILURES, isAttemptFailure } from './attemptFailures.js';
import { buildOpenAiVideoEvent, buildWebhookEvent, isOpenAiVideoEventBody } from './events.js';
import { statusAfterAttempt } from './retryPolicy.js';
import { sendWebhook, type SendOptions } from './send.js';
import { signatureHeaders, STANDARD_WEBHOOK_HEADERS, WEBHOOK_HEADERS } from './signing.js';
import { systemResolver, urlPolicyFromConfig, type HostResolver } from '../outbound/urlPolicy.js';

export type WebhookDelivery = {
  /** Whether the organization wants events of this type (checked once before optional, frequent events). */
  isEnabled(organizationId: string, type: WebhookEventType): Promise<boolean>;
  /**
   * The organization's webhook endpoints that receive a generation's completed event: all of them for a video made in
   * the OpenAI Videos shape, none otherwise.
   */
  endpointsFor(organizationId: string, generationId: string): Promise<string[]>;
  /**
   * Records the event with its body, once (a repeat finds it recorded); null when the organization does not want this
   * type.
   */
  prepare(input: WebhookDeliveryInput): Promise<WebhookDeliveryPlan | null>;
  /**
   * One signed POST; every outcome is a result to record. Null when the event is gone (its generation or organization
   * was deleted).
   */
  attempt(eventId: string, attempt: number): Promise<WebhookAttemptResult | null>;
  /** Records one attempt and the event's status after it. */
  record(result: WebhookAttemptResult, status: WebhookEventStatus): Promise<void>;
  /**
   * The completed event, sent by the activity that writes the terminal state: prepared, then attempt 1
   * at once when the schedule starts with no wait. `retried`: that activity runs again, and finds
   * attempt 1 recorded rather than sending it twice.
   */
  prepareAndAttemptFirst(input: WebhookDeliveryInput, retried: boolean): Promise<PreparedDelivery>;
};

export type DeliveryDeps = { config: Config; db: Db; storage: Storage; logger: Logger };

/** `resolve` is injectable so tests control DNS; the worker uses the system resolver. */
export function createWebhookDelivery(
  { config, db, storage, logger }: DeliveryDeps,
  resolve: HostResolver = systemResolver,
): WebhookDelivery {
  const { unsafeAllowLoopback, unsafeCaFile } = config.outbound;
  if (unsafeAllowLoopback || unsafeCaFile) {
    logger.warn({ unsafeAllowLoopback, unsafeCaFile }, 'UNSAFE webhook settings are on: for local testing only');
  }
  const sendOptions: SendOptions = {
    ...urlPolicyFromConfig(config, resolve),
    // Extra trust is added to the system CAs, never instead of them.
    ca: unsafeCaFile ? [...tls.rootCertificates, fs.readFileSync(unsafeCaFile, 'utf8')] : undefined,
  };

  const delivery: WebhookDelivery = {
    async isEnabled(organizationId, type) {
      const settings = await getWebhookSettings(db, organizationId);
      return settings?.enabled_events.includes(type) ?? false;
    },

    async endpointsFor(organizationId, generationId) {
      if (!(await isOpenAiVideo(db, generationId))) return [];
      return (await listWebhookEndpoints(db, organizationId)).map((e) => e.url);
    },

    async prepare(input) {
      if (!(await delivery.isEnabled(input.organizationId, input.facts.type))) return null;
      if (!(await getWebhookEvent(db, input.eventId))) {
        const outputUrl =
          input.facts.status === 'completed' && input.facts.videoKey
            ? (await storage.url(input.facts.videoKey)).url
            : null;
        const createdAt = new Date();
        // A video created in the OpenAI Videos shape gets OpenAI's event, and only the ones OpenAI has.
        const openAi = (await isOpenAiVideo(db, input.generationId))
          ? buildOpenAiVideoEvent(input, createdAt.getTime())
          : undefined;
        if (openAi === null) return null;
        const event = openAi ?? buildWebhookEvent(input, createdAt.getTime(), outputUrl);
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

    async attempt(eventId, attempt) {
      const event = await getWebhookEvent(db, eventId);
      const settings = event && (await getWebhookSettings(db, event.organization_id));
      if (!event || !settings) return null;
      const sentAt = new Date();
      const names = isOpenAiVideoEventBody(event.body) ? STANDARD_WEBHOOK_HEADERS : WEBHOOK_HEADERS;
      const headers = signatureHeaders(activeSigningSecrets(settings, sentAt), event.id, sentAt, event.body, names);
      const { cause, ...outcome } = await sendWebhook({ url: event.url, body: event.body, headers }, sendOptions);
      const log = { event_id: event.id, generation_id: event.generation_id, attempt, status_code: outcome.statusCode };
      if (outcome.error) logger.warn({ ...log, error: outcome.error, cause }, 'webhook attempt failed');
      else logger.info({ ...log, duration_ms: outcome.durationMs }, 'webhook attempt answered');
      return { ...outcome, eventId: event.id, attempt, attemptedAtMs: sentAt.getTime() };
    },

    async record(result, status) {
      metrics.webhookAttempts.inc({ outcome: attemptOutcome(result.statusCode) });
      await recordWebhookAttempt(
        db,
        {
          event_id: result.eventId,
          attempt: result.attempt,
          attempted_at: new Date(result.attemptedAtMs),
          status_code: result.statusCode,
          duration_ms: result.durationMs,
          error: await memberSafeError(result),
          response_excerpt: result.responseExcerpt,
        },
        status,
      );
    },

    async prepareAndAttemptFirst(input, retried) {
      const plan = await delivery.prepare(input);
      if (!plan) return { plan: null };
      if (plan.retryScheduleMs[0] !== 0) return { plan }; // the delivery workflow waits, then makes attempt 1
      const attempts = plan.retryScheduleMs.length;
      const earlier = retried ? (await listWebhookAttempts(db, input.eventId)).find((a) => a.attempt === 1) : undefined;
      const result = earlier ? resultOfRow(earlier) : await delivery.attempt(input.eventId, 1).catch(() => null);
      // Not attempted (the event went with its generation, or could not be read): the delivery workflow's attempt says
      // why.
      if (!result) return { plan };
      const status = statusAfterAttempt(result, 1, attempts);
      if (!earlier) await delivery.record(result, status);
      return { plan, result, status };
    },
  };

  /**
   * What the record keeps of why an attempt failed: always fixed words. A result made before they were
   * (an attempt of an older worker, recorded after an upgrade) carries its error's own text: logged, and
   * kept as the general "could not be reached".
   */
  async function memberSafeError({ error, eventId, attempt }: WebhookAttemptResult): Promise<string | null> {
    if (error === null || isAttemptFailure(error)) return error;
    const event = await getWebhookEvent(db, eventId);
    logger.warn(
      { event_id: eventId, generation_id: event?.generation_id, attempt, cause: error },
      'webhook attempt failed',
    );
    return ATTEMPT_FAILURES.unreachable;
  }

  return delivery;
}

/**
 * Attempt 1 as recorded by an earlier run of the same activity (its Retry-After is not kept: attempt 2 follows the
 * schedule alone).
 */
function resultOfRow(row: WebhookAttemptRow): WebhookAttemptResult {
  return {
    eventId: row.event_id,
    attempt: row.attempt,
    attemptedAtMs: row.attempted_at.getTime(),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    retryAfterMs: null,
    responseExcerpt: row.response_excerpt,
  };
}

/** Metric label of one attempt: no_response (policy, DNS, TLS, timeout), delivered (2xx), gone (410), rejected. */
function attemptOutcome(statusCode: number | null): string {
  if (statusCode === null) return 'no_response';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  return statusCode === 410 ? 'gone' : 'rejected';
}
