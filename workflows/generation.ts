// The generation state machine (interface section 3): queued → in_progress → completed | failed | cancelled.
// Deterministic: it only says what happens in which order; activities do the I/O.
import {
  ActivityFailure,
  ApplicationFailure,
  ActivityCancellationType,
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  defineQuery,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { MediaActivities } from '../activities/media.js';
import type { RecordActivities } from '../activities/records.js';
import type { RenderActivities, RenderPlanActivities } from '../activities/render.js';
import type { WebhookActivities } from '../activities/webhooks.js';
import { combineChunkProgress, stageProgress } from '../src/progress/percent.js';
import {
  SEARCH_ATTRIBUTES,
  TASK_QUEUES,
  TERMINAL_STATUSES,
  type GenerationError,
  type GenerationLiveState,
  type GenerationOutcome,
  type GenerationProgress,
  type GenerationStatus,
  type GenerationWorkflowInput,
  type MediaAsset,
  type RenderChunk,
  type RenderedChunk,
  type RenderedVideo,
  type RenderInput,
  type RenderProgressReport,
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
  // A cancelled generation waits for the download to stop: nothing is left running behind it.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  // Unusable media (4xx, size, type) fail at once (non-retryable); network trouble gets two more tries.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

const webhookChecks = proxyActivities<WebhookActivities>({
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const renderer = proxyActivities<RenderActivities>({
  taskQueue: TASK_QUEUES.render,
  startToCloseTimeout: '20 minutes',
  // Render activities heartbeat every second; a dead worker is noticed within this window, and
  // cancellation reaches the render within ~0.8 of it (the SDK throttles heartbeats to that).
  heartbeatTimeout: '5 seconds',
  // A cancelled generation waits for the render to stop (its processes killed, its files removed).
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  // Engine failures say themselves whether a retry can help (RenderError.retryable).
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

const renderPlanner = proxyActivities<RenderPlanActivities>({
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
});

export const stateQuery = defineQuery<GenerationLiveState>('state');
/** From the render activity: how far the render is (throttled there). */
export const renderProgressSignal = defineSignal<[RenderProgressReport]>('renderProgress');

/** A progress webhook event at most every this many percentage points. */
const PROGRESS_EVENT_STEP = 10;

export async function generationWorkflow(input: GenerationWorkflowInput): Promise<GenerationStatus> {
  const { generationId, request } = input;
  const state: GenerationLiveState = { status: 'queued', provider: null, progress: stageProgress('queued'), seq: 1 };
  setHandler(stateQuery, () => state);
  // While a split render runs: its chunks and each one's latest report (reports from chunks are summed).
  let chunked: { chunks: RenderChunk[]; reports: Map<number, RenderProgressReport> } | null = null;
  setHandler(renderProgressSignal, (signalled) => {
    let report = signalled;
    if (signalled.chunk !== undefined) {
      if (!chunked) return; // a late report from a chunk already joined
      chunked.reports.set(signalled.chunk, signalled);
      report = combineChunkProgress(chunked.chunks, chunked.reports);
    }
    if (state.progress && (state.progress.stage === 'rendering' || state.progress.stage === 'encoding' || state.progress.stage === 'storing')) {
      setProgress(state, { ...stageProgress(report.stage, report.fraction), frames_rendered: report.frames_rendered, frames_total: report.frames_total, eta_seconds: report.eta_seconds });
    }
  });
  await emitWebhookEvent(input, { type: 'video.generation.queued', status: 'queued', provider: input.firstProvider ?? null, errorMessage: null, videoKey: null });
  let startedEmitted = false;
  let reachedInProgress = false;
  const emitStarted = async (provider: string | null) => {
    startedEmitted = true;
    await emitWebhookEvent(input, { type: 'video.generation.started', status: 'in_progress', provider, errorMessage: null, videoKey: null });
  };

  const outcome: GenerationOutcome = { generationId, status: 'failed', provider: null, usage: null, rendered: null, error: null, eventSeq: 0 };
  // Tokens consumed by the composition step, whatever happens next (billed on every outcome).
  const consumed: TokenUsage = { input_tokens: 0, output_tokens: 0 };
  let failure: unknown = null;
  // Outside cancellation: it ends by itself when the generation does.
  const progressEvents = CancellationScope.nonCancellable(() => emitProgressEvents(input, state));
  try {
    await records.markStarted(generationId);
    setStatus(state, 'in_progress');
    reachedInProgress = true;
    setProgress(state, stageProgress('composing'));
    // The requester's images and videos, stored as the generation's assets (only their descriptions enter history).
    const parts = mediaPartsOf(request);
    const assets: MediaAsset[] = parts.length > 0 ? await media.fetchMedia({ generationId, parts }) : [];
    let calls = 0;
    const composition = await composeComposition(input, assets, consumed, async (provider, repairRound) => {
      setProgress(state, { ...stageProgress('composing', 0, ++calls), provider, repair_round: repairRound });
      // Processing begins with the first provider call.
      if (calls === 1) await emitStarted(provider);
    });
    state.provider = outcome.provider = composition.provider;
    setProgress(state, stageProgress('rendering'));
    const renderInput: RenderInput = {
      generationId,
      engine: request.engine,
      compositionKey: composition.key,
      width: request.width,
      height: request.height,
      assets: assets.map((a) => ({ ...a, key: mediaAssetKey(generationId, a.name) })),
    };
    // Executions begun before chunked rendering existed render in one piece, as they did.
    outcome.rendered = patched('chunked-render')
      ? await renderVideo(renderInput, (chunks) => (chunked = chunks ? { chunks, reports: new Map() } : null))
      : await renderer.renderComposition(renderInput);
    outcome.status = 'completed';
  } catch (err) {
    failure = err;
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
  // setStatus below numbers the terminal state.
  outcome.eventSeq = state.seq + 1;
  await CancellationScope.nonCancellable(async () => {
    await records.finishGeneration(outcome);
    setStatus(state, outcome.status);
    await progressEvents;
    if (outcome.status !== 'cancelled') {
      // In progress without a provider call (none usable, or media that could not be fetched): the
      // started event still comes first. Executions from before this rule replay as they ran.
      if (reachedInProgress && !startedEmitted && patched('started-before-completed')) await emitStarted(outcome.provider ?? input.firstProvider ?? null);
      await emitWebhookEvent(input, {
        type: 'video.generation.completed',
        status: outcome.status,
        provider: outcome.provider,
        errorMessage: outcome.error?.message ?? null,
        videoKey: outcome.rendered?.video.key ?? null,
      });
    }
  });
  // Operators see the truth in Temporal: a cancelled generation's workflow ends Canceled, a failed
  // one Failed with the error's code as its type. The API reads the record, not this result.
  if (outcome.status === 'cancelled') throw failure;
  if (outcome.status === 'failed' && outcome.error) throw ApplicationFailure.create({ type: outcome.error.code, message: outcome.error.message, nonRetryable: true });
  return outcome.status;
}

/**
 * Renders the video: in one piece, or (a long video) as chunks on any render workers, all at once,
 * then joined. `onChunks` is told the chunks while they run, and null once they are over.
 */
async function renderVideo(input: RenderInput, onChunks: (chunks: RenderChunk[] | null) => void): Promise<RenderedVideo> {
  const { chunks } = await renderPlanner.planRender(input);
  if (chunks.length === 0) return renderer.renderComposition(input);
  onChunks(chunks);
  let rendered: RenderedChunk[];
  try {
    rendered = await allOrCancel(chunks.map((chunk) => () => renderer.renderChunk({ ...input, chunk })));
  } finally {
    onChunks(null);
  }
  return renderer.joinChunks({ ...input, chunks: rendered });
}

/**
 * Runs every task; the first failure cancels the others. Either way it returns or throws only once
 * every task has ended (cancelled renders have stopped: nothing runs behind a finished generation).
 */
async function allOrCancel<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const scope = new CancellationScope();
  const running: Promise<T>[] = [];
  try {
    return await scope.run(() => {
      running.push(...tasks.map((task) => task()));
      return Promise.all(running);
    });
  } catch (err) {
    scope.cancel();
    await Promise.allSettled(running);
    throw err;
  }
}

function setProgress(state: GenerationLiveState, next: GenerationProgress) {
  const previous = state.progress;
  // The percentage never goes back (a provider fallback, a late report).
  state.progress = { ...next, percent: Math.max(previous?.percent ?? 0, next.percent) };
  state.seq += 1;
  if (previous?.stage !== next.stage) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.stage, value: next.stage }]);
}

function setStatus(state: GenerationLiveState, status: GenerationStatus) {
  state.status = status;
  state.seq += 1;
  const terminal = TERMINAL_STATUSES.includes(status);
  if (terminal) state.progress = null;
  upsertSearchAttributes([
    { key: SEARCH_ATTRIBUTES.status, value: status },
    // Terminal: no stage (the UI's list of in-flight generations filters on it).
    ...(terminal ? [{ key: SEARCH_ATTRIBUTES.stage, value: null }] : []),
  ]);
}

/**
 * `video.generation.progress` events (off unless the organization turned them on): one each time the
 * percentage passes another PROGRESS_EVENT_STEP points, until the generation ends.
 */
async function emitProgressEvents(input: GenerationWorkflowInput, state: GenerationLiveState): Promise<void> {
  if (!input.request.webhook_url) return;
  const ended = () => state.progress === null;
  let next = PROGRESS_EVENT_STEP;
  await condition(() => ended() || (state.progress?.percent ?? 0) >= next);
  if (ended()) return;
  if (!(await webhookChecks.webhookEventEnabled({ organizationId: input.organizationId, type: 'video.generation.progress' }))) return;
  for (;;) {
    await condition(() => ended() || (state.progress?.percent ?? 0) >= next);
    const progress = state.progress;
    if (!progress) return;
    next = (Math.floor(progress.percent / PROGRESS_EVENT_STEP) + 1) * PROGRESS_EVENT_STEP;
    await emitWebhookEvent(input, { type: 'video.generation.progress', status: 'in_progress', provider: state.provider, errorMessage: null, videoKey: null, progress });
  }
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
