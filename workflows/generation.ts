// The generation state machine (interface section 3): queued → in_progress → completed | failed | cancelled.
// Deterministic: it says what happens in which order — fetch media, compose, render, record the
// outcome — and activities do the I/O. What clients see on the way (state query, progress, webhook
// events) is the lifecycle's (lifecycle.ts).
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  isCancellation,
  patched,
  TimeoutFailure,
} from '@temporalio/workflow';
import {
  mediaPartsOf,
  type GenerationError,
  type GenerationStatus,
  type MediaAsset,
  type TokenUsage,
} from '../src/shared.js';
import { mediaAssetKey } from '../src/storage/keys.js';
import type {
  Composition,
  GenerationOutcome,
  GenerationWorkflowInput,
  RenderedChunk,
  RenderedVideo,
  RenderInput,
} from '../src/temporal/contract.js';
import { media, planning, records, renderer, soundMixer, speech, terminalRecord } from './activities.js';
import { composeComposition, drawStoryboardComposition } from './compose.js';
import { GenerationLifecycle } from './lifecycle.js';

export async function generationWorkflow(input: GenerationWorkflowInput): Promise<GenerationStatus> {
  const lifecycle = new GenerationLifecycle(input);
  await lifecycle.queued();
  // Tokens the composition step consumed, whatever happens next: billed on every outcome.
  const consumed: TokenUsage = { input_tokens: 0, output_tokens: 0 };
  // Where the composition's storyboard is, once known (kept on every outcome).
  const storyboard: { key: string | null } = { key: null };
  let ended: Pick<GenerationOutcome, 'status' | 'rendered' | 'error' | 'internalCause'>;
  let failure: unknown = null;
  try {
    ended = { status: 'completed', rendered: await makeVideo(input, lifecycle, consumed, storyboard), error: null };
  } catch (err) {
    failure = err;
    ended = isCancellation(err)
      ? { status: 'cancelled', rendered: null, error: { code: 'cancelled', message: 'Generation was cancelled' } }
      : failedWith(input, err);
  }
  const outcome: GenerationOutcome = {
    generationId: input.generationId,
    provider: lifecycle.state.provider,
    usage: consumed.input_tokens + consumed.output_tokens > 0 ? consumed : null,
    ...ended,
    ...(storyboard.key && { storyboardKey: storyboard.key }),
  };
  // The record is written, and the end announced, even while the workflow is being cancelled.
  await CancellationScope.nonCancellable(() =>
    lifecycle.end(outcome, (eventSeq, completedEvent) =>
      terminalRecord(input.organizationId).finishGeneration(
        { ...outcome, eventSeq },
        ...(completedEvent ? [completedEvent] : []),
      ),
    ),
  );
  // Operators see the truth in Temporal: a cancelled generation's workflow ends Canceled, a failed
  // one Failed with the error's code as its type. The API reads the record, not this result.
  if (outcome.status === 'cancelled') throw failure;
  if (outcome.status === 'failed' && outcome.error)
    throw ApplicationFailure.create({ type: outcome.error.code, message: outcome.error.message, nonRetryable: true });
  return outcome.status;
}

/** The steps of a generation, in order: start, fetch its media, compose, render. */
async function makeVideo(
  input: GenerationWorkflowInput,
  lifecycle: GenerationLifecycle,
  consumed: TokenUsage,
  storyboard: { key: string | null },
): Promise<RenderedVideo> {
  await records.markStarted(input.generationId);
  lifecycle.inProgress();
  const assets = await fetchMedia(input);
  const onCall = (provider: string, round: number) => lifecycle.providerCall(provider, round);
  // A storyboard request is drawn as written; a prompt goes to the providers.
  const composition = input.request.storyboard
    ? await drawStoryboardComposition(input, assets, consumed, onCall)
    : await composeComposition(input, assets, consumed, onCall);
  storyboard.key = composition.storyboardKey ?? null;
  lifecycle.rendering(composition.provider);
  const rendered = await render(input, lifecycle, composition, assets);
  // Executions begun before sound existed had no `audio`: they never reach the marker.
  if (input.request.audio && patched('sound')) await addSound(input, composition, rendered, consumed);
  return rendered;
}

/** Characters of the user's prompt the fallback narration may read (it is cut to the video's length anyway). */
const FALLBACK_NARRATION_CHARS = 2_000;

/**
 * The video's sound, after the render or the join (one mix, no seam): the narration spoken (its
 * characters billed as output tokens, once: a retry of the step speaks nothing twice), then mixed with
 * the music, mastered and muxed into the stored video.
 */
async function addSound(
  { generationId, request }: GenerationWorkflowInput,
  composition: Composition,
  rendered: RenderedVideo,
  consumed: TokenUsage,
): Promise<void> {
  const audio = request.audio!;
  let narrationKey: string | null = null;
  if (audio.voice !== 'none') {
    const fallbackText = request.messages
      .filter((m) => m.role === 'user')
      .flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])))
      .join('\n')
      .slice(0, FALLBACK_NARRATION_CHARS);
    const spoken = await speech.speakNarration({
      generationId,
      storyboardKey: composition.storyboardKey ?? null,
      compositionKey: composition.key,
      engine: request.engine,
      fallbackText,
      durationSeconds: rendered.duration_seconds,
      voice: audio.voice,
    });
    consumed.output_tokens += spoken.characters;
    narrationKey = spoken.key;
  }
  await soundMixer.mixSound({
    generationId,
    videoKey: rendered.video.key,
    durationSeconds: rendered.duration_seconds,
    narrationKey,
    storyboardKey: composition.storyboardKey ?? null,
    compositionKey: composition.key,
    music: audio.music,
    track: audio.track ?? null,
    captions: audio.captions,
  });
}

/**
 * The requester's images and videos, stored as the generation's assets (only their descriptions enter
 * history), and the brand kit's logo, which the API stored with the generation when it created it.
 */
async function fetchMedia({ generationId, request }: GenerationWorkflowInput): Promise<MediaAsset[]> {
  const parts = mediaPartsOf(request);
  const fetched = parts.length > 0 ? await media.fetchMedia({ generationId, parts }) : [];
  return request.brand?.logo ? [...fetched, request.brand.logo] : fetched;
}

/**
 * Renders the video: in one piece, or (a long video) as chunks on any render workers, all at once,
 * then joined. Executions begun before chunked rendering existed render in one piece, as they did.
 */
async function render(
  input: GenerationWorkflowInput,
  lifecycle: GenerationLifecycle,
  composition: Composition,
  assets: MediaAsset[],
): Promise<RenderedVideo> {
  const { generationId, request } = input;
  const renderInput: RenderInput = {
    generationId,
    engine: request.engine,
    compositionKey: composition.key,
    width: request.width,
    height: request.height,
    assets: assets.map((a) => ({ ...a, key: mediaAssetKey(generationId, a.name) })),
    // Only when asked for: an MP4 generation's activity input stays as it always was.
    ...(request.output ? { output: request.output } : {}),
  };
  if (!patched('chunked-render')) return renderer.renderComposition(renderInput);
  const { chunks } = await planning.planRender(renderInput);
  if (chunks.length === 0) return renderer.renderComposition(renderInput);
  lifecycle.chunksRunning(chunks);
  let rendered: RenderedChunk[];
  try {
    rendered = await allOrCancel(chunks.map((chunk) => () => renderer.renderChunk({ ...renderInput, chunk })));
  } finally {
    lifecycle.chunksRunning(null);
  }
  return renderer.joinChunks({ ...renderInput, chunks: rendered });
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

/** The failure an activity or a child raised, under Temporal's wrappers. */
function rootFailure(err: unknown): unknown {
  let e = err;
  while (e instanceof ActivityFailure || e instanceof ChildWorkflowFailure) e = e.cause;
  return e;
}

const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

/**
 * A failed generation as clients see it. Our failure types are snake_case codes with messages written
 * for clients; anything else (Temporal names an unexpected error's failure after its class: "Error",
 * "TypeError") is an internal error: clients get a fixed message, the operator's log the cause.
 */
function failedWith(
  { generationId }: GenerationWorkflowInput,
  err: unknown,
): Pick<GenerationOutcome, 'status' | 'rendered' | 'error' | 'internalCause'> {
  const cause = rootFailure(err);
  const failed = (error: GenerationError, internalCause?: string) => ({
    status: 'failed' as const,
    rendered: null,
    error,
    ...(internalCause === undefined ? {} : { internalCause }),
  });
  if (cause instanceof ApplicationFailure && cause.type && ERROR_CODE.test(cause.type))
    return failed({ code: cause.type, message: cause.message });
  if (cause instanceof TimeoutFailure)
    return failed({ code: 'timeout', message: 'A step of the generation timed out' });
  return failed(
    {
      code: 'internal_error',
      message: `The generation failed on an internal error; its cause is in the service's logs under ${generationId}`,
    },
    cause instanceof ApplicationFailure
      ? `${cause.type || cause.name}: ${cause.message}`
      : cause instanceof Error
        ? `${cause.name}: ${cause.message}`
        : String(cause),
  );
}
