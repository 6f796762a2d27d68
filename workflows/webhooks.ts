// Lifecycle webhook events (interface section 6). Each event is delivered by its own workflow
// (id = event id), started as an abandoned child so it outlives the generation and the generation
// never waits for a receiver. Retries are durable Temporal timers: worker and server restarts
// resume the schedule where it was. An event is prepared once, in one of two places: the completed
// event by the activity that records the terminal state (lifecycle.ts), which also makes its first
// attempt, and every other event here, in the workflow's first task; the steps themselves are
// src/webhooks/delivery.ts's.
import { log, ParentClosePolicy, patched, sleep, startChild, uuid4 } from '@temporalio/workflow';
import {
  deliveryPriority,
  TASK_QUEUES,
  type GenerationEventFacts,
  type GenerationWorkflowInput,
  type WebhookAttemptResult,
  type WebhookDeliveryInput,
  type WebhookDeliveryPlan,
  type WebhookDeliveryResult,
} from '../src/temporal/contract.js';
import { ATTEMPT_FAILURES } from '../src/webhooks/attemptFailures.js';
import { delayBeforeNextAttempt, statusAfterAttempt } from '../src/webhooks/retryPolicy.js';
import { webhookPreparation, webhookRecords, webhookSender } from './activities.js';

/** Emits one lifecycle event when the request carried a webhook_url; does not wait for delivery. */
export async function emitWebhookEvent(input: GenerationWorkflowInput, facts: GenerationEventFacts): Promise<void> {
  const event = webhookEvent(input, facts);
  if (event) await startDelivery(event);
}

/** A lifecycle event of the generation, with its id; null when the request carried no webhook_url. */
export function webhookEvent(input: GenerationWorkflowInput, facts: GenerationEventFacts): WebhookDeliveryInput | null {
  return input.request.webhook_url ? eventTo(input, facts, input.request.webhook_url) : null;
}

function eventTo(input: GenerationWorkflowInput, facts: GenerationEventFacts, url: string): WebhookDeliveryInput {
  return {
    eventId: `evt_${uuid4().replace(/-/g, '')}`,
    generationId: input.generationId,
    organizationId: input.organizationId,
    webhookUrl: url,
    engine: input.request.engine,
    model: input.request.model,
    facts,
  };
}

/**
 * The completed event to each of the organization's webhook endpoints (videos made on /v1/videos: OpenAI's
 * `video.completed` / `video.failed`), but the request's own webhook_url, which has it already.
 */
export async function emitToEndpoints(input: GenerationWorkflowInput, facts: GenerationEventFacts): Promise<void> {
  const { organizationId, generationId } = input;
  const urls = await webhookRecords(organizationId).webhookEndpointsFor({ organizationId, generationId });
  for (const url of urls) if (url !== input.request.webhook_url) await startDelivery(eventTo(input, facts, url));
}

/** Starts the event's delivery workflow; does not wait for it. */
export async function startDelivery(delivery: WebhookDeliveryInput): Promise<void> {
  await startChild(webhookDeliveryWorkflow, {
    workflowId: delivery.eventId,
    taskQueue: TASK_QUEUES.io,
    parentClosePolicy: ParentClosePolicy.ABANDON,
    // Its workflow tasks and activities overtake compositions and renders in the queues' backlogs.
    priority: deliveryPriority(delivery.organizationId),
    args: [delivery],
  });
}

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const records = webhookRecords(input.organizationId);
  const prepared = input.prepared ?? input.attempted;
  const plan = prepared ? prepared.plan : await prepare(input);
  if (!plan) return { status: 'disabled', attempts: 0 };
  const schedule = plan.retryScheduleMs;
  let previous: WebhookAttemptResult | null = null;
  if (prepared?.result) {
    if (prepared.status !== 'pending') return { status: prepared.status, attempts: 1 };
    previous = prepared.result;
  }
  for (let attempt = previous ? 2 : 1; attempt <= schedule.length; attempt++) {
    const scheduled = schedule[attempt - 1]!;
    const wait = previous ? delayBeforeNextAttempt(scheduled, previous) : scheduled;
    if (wait > 0) await sleep(wait);
    const result = await attemptOnce(input, attempt);
    const status = statusAfterAttempt(result, attempt, schedule.length);
    await records.recordWebhookAttempt(result, status);
    if (status !== 'pending') return { status, attempts: attempt };
    previous = result;
  }
  return { status: 'failed', attempts: 0 }; // an empty schedule (config forbids it)
}

/**
 * Records the event by a local activity, so the first attempt is scheduled in the workflow's first
 * task (issue 35). Executions started before `prepare-locally` replay the ordinary activity they ran.
 */
function prepare(input: WebhookDeliveryInput): Promise<WebhookDeliveryPlan | null> {
  if (patched('prepare-locally')) return webhookPreparation.prepareWebhookEvent(input);
  return webhookRecords(input.organizationId).prepareWebhookEvent(input);
}

/**
 * An attempt whose activity itself failed (worker lost, timeout) is a failed attempt, not the end. Its
 * record says so in fixed words; the cause goes to the worker's log.
 */
async function attemptOnce(
  { eventId, generationId, organizationId }: WebhookDeliveryInput,
  attempt: number,
): Promise<WebhookAttemptResult> {
  const startedAt = Date.now(); // workflow time: deterministic
  try {
    return await webhookSender(organizationId).attemptWebhookDelivery({ eventId, attempt });
  } catch (err) {
    const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
    log.warn('webhook attempt did not complete', { generation_id: generationId, event_id: eventId, attempt, cause });
    return {
      eventId,
      attempt,
      attemptedAtMs: startedAt,
      statusCode: null,
      durationMs: Date.now() - startedAt,
      error: ATTEMPT_FAILURES.incomplete,
      retryAfterMs: null,
      responseExcerpt: null,
    };
  }
}
