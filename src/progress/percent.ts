// The whole generation's percentage from its stage. Pure and deterministic: the workflow computes it.
// Rendering dominates the time of a generation, so it gets most of the bar; an LLM call moves it a
// little, each repair round a little more.
import type { GenerationProgress, GenerationStage } from '../shared.js';

const COMPOSING_FROM = 2;
const COMPOSING_TO = 14;
const RENDER_FROM = 15;
const RENDER_TO = 95;
const STORING = 97;

/** Percent at a stage; `fraction`: how far the render is (rendering, encoding); `calls`: LLM calls begun (composing). */
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
  return { stage, percent: percentAt(stage, fraction, calls), frames_rendered: null, frames_total: null, eta_seconds: null, provider: null, repair_round: null };
}
