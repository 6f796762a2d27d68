// Every activity the workflows call: one proxy per activity group (src/temporal/contract.ts), each
// on its task queue, with options named for why they differ.
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
} from '@temporalio/workflow';
import {
  deliveryPriority,
  TASK_QUEUES,
  type MediaActivities,
  type PlannedAttempt,
  type ProviderActivities,
  type RecordActivities,
  type RenderActivities,
  type RenderPlanActivities,
  type SoundMixActivities,
  type SpeechActivities,
  type StoryboardActivities,
  type WebhookActivities,
} from '../src/temporal/contract.js';

/** Writes that must land (records, event bookkeeping): retried without limit through a database outage. */
const UNTIL_WRITTEN: ActivityOptions = {
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
};

/** Quick local decisions (routing, validation, render planning): a few tries, then the step fails. */
const QUICK: ActivityOptions = {
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
};

/**
 * Long work that heartbeats: a dead worker is noticed within the heartbeat timeout, and a cancelled
 * generation waits until the work has stopped (nothing is left running behind it).
 */
const AWAITED_ON_CANCEL = { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } as const;

export const records = proxyActivities<RecordActivities>(UNTIL_WRITTEN);

/** The terminal record, which the completed event follows: ahead of the queues' backlogs, as deliveries are. */
export const terminalRecord = (organizationId: string) =>
  proxyActivities<RecordActivities>({ ...UNTIL_WRITTEN, priority: deliveryPriority(organizationId) });

export const planning = proxyActivities<ProviderActivities & RenderPlanActivities & StoryboardActivities>(QUICK);

export const media = proxyActivities<MediaActivities>({
  ...AWAITED_ON_CANCEL,
  taskQueue: TASK_QUEUES.io,
  // Up to 16 downloads, each bounded in time (src/media/limits.ts); the activity heartbeats every second.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Unusable media (4xx, size, type) fail at once (non-retryable); network trouble gets two more tries.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export const renderer = proxyActivities<RenderActivities>({
  ...AWAITED_ON_CANCEL,
  taskQueue: TASK_QUEUES.render,
  startToCloseTimeout: '20 minutes',
  // Render activities heartbeat every second; cancellation reaches the render within ~0.8 of this
  // (the SDK throttles heartbeats to that).
  heartbeatTimeout: '5 seconds',
  // Engine failures say themselves whether a retry can help (RenderError.retryable).
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

/**
 * Speaking the narration: each provider call is bounded by its own timeout (src/speech/); a retry speaks only
 * the clips not yet stored. A provider failure is the fallback's business, so only lost workers are retried.
 */
export const speech = proxyActivities<SpeechActivities>({
  ...AWAITED_ON_CANCEL,
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

/** The one mix of the video's sound, on the render queue (CPU work, like the render it follows). */
export const soundMixer = proxyActivities<SoundMixActivities>({
  ...AWAITED_ON_CANCEL,
  taskQueue: TASK_QUEUES.render,
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

/** Time beyond the provider's own HTTP timeout before Temporal gives a call up (queueing, extraction). */
export const CALL_GRACE_MS = 15_000;

/**
 * Calls to one provider: the timeout follows the provider's HTTP timeout. Provider failures come back
 * classified and final (the fallback to the next provider is the retry); Temporal retries only what
 * the provider did not answer: a lost worker or a crash.
 */
export function providerCalls(attempt: PlannedAttempt) {
  return proxyActivities<ProviderActivities>({
    ...AWAITED_ON_CANCEL,
    taskQueue: TASK_QUEUES.io,
    startToCloseTimeout: attempt.timeoutMs + CALL_GRACE_MS,
    heartbeatTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumAttempts: 2 },
  });
}

/** Event bookkeeping (in delivery workflows, and the progress events' check), at delivery priority. */
export const webhookRecords = (organizationId: string) =>
  proxyActivities<WebhookActivities>({ ...UNTIL_WRITTEN, priority: deliveryPriority(organizationId) });

/**
 * Recording an event before its first attempt, as a local activity: run by the worker of the delivery
 * workflow inside its workflow task, so neither a task queue nor a second workflow task stands
 * between the workflow's start and its first attempt. Retried until written, as a database outage needs.
 */
export const webhookPreparation = proxyLocalActivities<Pick<WebhookActivities, 'prepareWebhookEvent'>>({
  startToCloseTimeout: '30 seconds',
  retry: UNTIL_WRITTEN.retry,
});

/** One POST per activity run: the delivery workflow's schedule is the retry policy. */
export const webhookSender = (organizationId: string) =>
  proxyActivities<WebhookActivities>({
    taskQueue: TASK_QUEUES.io,
    // The send is bounded at 15 s (src/webhooks/send.ts); a lost worker shows up as a timeout.
    startToCloseTimeout: '30 seconds',
    retry: { maximumAttempts: 1 },
    priority: deliveryPriority(organizationId),
  });
