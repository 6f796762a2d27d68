// Burned captions as a transparent overlay video: drawn by the Lottie engine (src/engines/lottie/captions.ts),
// whatever engine drew the video under them, and rendered in the render sandbox like any composition.
import type { Cue } from '../captions/webvtt.js';
import { captionsAnimation } from './lottie/captions.js';
import { getEngine } from './registry.js';
import type { Canvas, RenderTools } from './types.js';

/** Renders the cues over a transparent canvas as an alpha WebM at `outputPath`, as long as the video. */
export async function renderCaptionsOverlay(
  cues: readonly Cue[],
  video: Canvas & { durationSeconds: number; lang: string },
  opts: { outputPath: string; tools: RenderTools; signal?: AbortSignal },
): Promise<void> {
  const { width, height } = video;
  await getEngine('lottie').render(captionsAnimation(cues, { width, height }, video.durationSeconds, video.lang), {
    width,
    height,
    ...opts,
    transparent: true,
  });
}
