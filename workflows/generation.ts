// The generation state machine (interface section 3): queued → in_progress → completed | failed | cancelled.
// Deterministic: it only says what happens in which order; activities do the I/O.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  defineQuery,
  isCancellation,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { MediaActivities } from '../activities/media.js';
import type { RecordActivities } from '../activities/records.js';
import type { RenderActivities } from '../activities/render.js';
import {
  SEARCH_ATTRIBUTES,
  TASK_QUEUES,
  type GenerationError,
  type GenerationLiveState,
  type GenerationOutcome,
  type GenerationStatus,
  type GenerationWorkflowInput,
  type MediaAsset,
  type TokenUsage,
  mediaAssetKey,
  mediaPartsOf,
} from '../src/shared.js';
import { composeComposition } from './compose.js';
import { emitWebhookEvent } from './webhooks.js';

const records = proxyActivities<RecordActivities>({
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '30 seconds',
  // Records must land: keep retrying through a database outage.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const media = proxyActivities<MediaActivities>({
  taskQueue: TASK_QUEUES.io,
  // Up to 16 downloads, each bounded in time (src/media/limits.ts); the activity heartbeats every second.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Unusable media (4xx, size, type) fail at once (non-retryable); network trouble gets two more tries.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

const renderer = proxyActivities<RenderActivities>({
  taskQueue: TASK_QUEUES.render,
  startToCloseTimeout: '20 minutes',
  // Render activities heartbeat every second; a dead worker is noticed within this window, and
  // cancellation reaches the render within ~0.8 of it (the SDK throttles heartbeats to that).
  heartbeatTimeout: '5 seconds',
  // Engine failures say themselves whether a retry can help (RenderError.retryable).
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

export const stateQuery = defineQuery<GenerationLiveState>('state');

export async function generationWorkflow(input: GenerationWorkflowInput): Promise<GenerationStatus> {
  const { generationId, request } = input;
  const state: GenerationLiveState = { status: 'queued', provider: null };
  setHandler(stateQuery, () => state);
  await emitWebhookEvent(input, { type: 'video.generation.queued', status: 'queued', provider: null, errorMessage: null, videoKey: null });

  const outcome: GenerationOutcome = { generationId, status: 'failed', provider: null, usage: null, rendered: null, error: null };
  // Tokens consumed by the composition step, whatever happens next (billed on every outcome).
  const consumed: TokenUsage = { input_tokens: 0, output_tokens: 0 };
  try {
    await records.markStarted(generationId);
    setStatus(state, 'in_progress');
    // The requester's images and videos, stored as the generation's assets (only their descriptions enter history).
    const parts = mediaPartsOf(request);
    const assets: MediaAsset[] = parts.length > 0 ? await media.fetchMedia({ generationId, parts }) : [];
    const composition = await composeComposition(input, assets, consumed, (provider) =>
      emitWebhookEvent(input, { type: 'video.generation.started', status: 'in_progress', provider, errorMessage: null, videoKey: null }),
    );
    state.provider = outcome.provider = composition.provider;
    outcome.rendered = await renderer.renderComposition({
      generationId,
      engine: request.engine,
      compositionKey: composition.key,
      width: request.width,
      height: request.height,
      assets: assets.map((a) => ({ ...a, key: mediaAssetKey(generationId, a.name) })),
    });
    outcome.status = 'completed';
  } catch (err) {
    if (isCancellation(err)) {
      outcome.status = 'cancelled';
      outcome.error = { code: 'cancelled', message: 'Generation was cancelled' };
    } else {
      outcome.status = 'failed';
      outcome.error = toGenerationError(err);
    }
  }
  if (consumed.input_tokens + consumed.output_tokens > 0) outcome.usage = consumed;
  // The record is written, and the completion announced, even while the workflow is being cancelled.
  await CancellationScope.nonCancellable(async () => {
    await records.finishGeneration(outcome);
    setStatus(state, outcome.status);
    if (outcome.status !== 'cancelled') {
      await emitWebhookEvent(input, {
        type: 'video.generation.completed',
        status: outcome.status,
        provider: outcome.provider,
        errorMessage: outcome.error?.message ?? null,
        videoKey: outcome.rendered?.video.key ?? null,
      });
    }
  });
  return outcome.status;
}

function setStatus(state: GenerationLiveState, status: GenerationStatus) {
  state.status = status;
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.status, value: status }]);
}

/** The failure an activity or a child raised, under Temporal's wrappers. */
function rootFailure(err: unknown): unknown {
  let e = err;
  while (e instanceof ActivityFailure || e instanceof ChildWorkflowFailure) e = e.cause;
  return e;
}

const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

function toGenerationError(err: unknown): GenerationError {
  const cause = rootFailure(err);
  // Our failure types are snake_case codes; Temporal names any other error's failure after its class
  // ("Error", "TypeError"): an unexpected crash, not a code to show clients.
  if (cause instanceof ApplicationFailure && cause.type && ERROR_CODE.test(cause.type)) return { code: cause.type, message: cause.message };
  if (cause instanceof Error && cause.name === 'TimeoutFailure') {
    return { code: 'timeout', message: 'A step of the generation timed out' };
  }
  return { code: 'internal_error', message: cause instanceof Error ? cause.message : 'Generation failed' };
}
