// The whole generation's percentage from its stage. Pure and deterministic: the workflow computes it.
// Rendering dominates the time of a generation, so it gets most of the bar; an LLM call moves it a
// little, each repair round a little more.
import type { GenerationProgress, GenerationStage, RenderChunk } from '../shared.js';
import type { RenderProgressReport } from '../temporal/contract.js';

const COMPOSING_FROM = 2;
const COMPOSING_TO = 14;
const RENDER_FROM = 15;
const RENDER_TO = 95;
const STORING = 97;

/**
 * Percent at a stage; `fraction`: how far the render is (rendering, encoding); `calls`: LLM calls begun (composing).
 */
export function percentAt(stage: GenerationStage, fraction = 0, calls = 0): number {
  switch (stage) {
    case 'queued':
      return 0;
    case 'composing':
      return Math.min(COMPOSING_TO, COMPOSING_FROM + 3 * calls);
    case 'rendering':
    case 'encoding':
      return Math.round(RENDER_FROM + Math.max(0, Math.min(1, fraction)) * (RENDER_TO - RENDER_FROM));
    case 'storing':
      return STORING;
  }
}

/** The progress of a stage, without frames or estimates. */
export function stageProgress(stage: GenerationStage, fraction = 0, calls = 0): GenerationProgress {
  return {
    stage,
    percent: percentAt(stage, fraction, calls),
    frames_rendered: null,
    frames_total: null,
    eta_seconds: null,
    provider: null,
    repair_round: null,
  };
}

/**
 * The progress of a render split into chunks, from each chunk's latest report: frames and fractions
 * summed (weighted by the chunk's frames), encoding once every chunk is.
 */
export function combineChunkProgress(
  chunks: readonly RenderChunk[],
  reports: ReadonlyMap<number, RenderProgressReport>,
): RenderProgressReport {
  const total = chunks[0]?.total ?? 0;
  let done = 0;
  let weighted = 0;
  let encoding = true;
  // Known only when every chunk has one; the slowest decides.
  let eta: number | null = 0;
  for (const chunk of chunks) {
    const report = reports.get(chunk.index);
    const frames = chunk.end - chunk.start;
    weighted += (report?.fraction ?? 0) * frames;
    done += Math.min(frames, report?.frames_rendered ?? 0);
    if (report?.stage === 'rendering' || !report) encoding = false;
    eta = eta === null || report?.eta_seconds == null ? null : Math.max(eta, report.eta_seconds);
  }
  return {
    stage: encoding ? 'encoding' : 'rendering',
    fraction: total ? weighted / total : 0,
    frames_rendered: done,
    frames_total: total,
    eta_seconds: eta,
  };
}
