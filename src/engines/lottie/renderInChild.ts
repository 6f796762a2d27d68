// Child side of a Lottie render: ThorVG renders each output frame, ffmpeg encodes them.
import type { ChildRenderer } from '../isolation/protocol.js';
import { MAX_FPS } from '../limits.js';
import { RenderError } from '../types.js';
import { inlineLottieAssets } from './assets.js';
import { startEncoder } from './encoder.js';
import { loadPlayer, preloadPlayer } from './player.js';
import type { LottieAnimation } from './validate.js';

// Loaded when the render process starts, before its job arrives: compile the WASM meanwhile.
const preloaded = preloadPlayer();
preloaded.catch(() => {}); // loadPlayer reports a broken WASM

/** Output fps: as asked, else the animation's own (rounded, at most 60). */
export function outputFps(animation: LottieAnimation, requested?: number): number {
  return requested ?? Math.min(MAX_FPS, Math.max(1, Math.round(animation.fr)));
}

/** Lottie frame (relative to the in point) shown at output frame `k`. */
export const lottieFrameAt = (k: number, animation: LottieAnimation, fps: number, totalFrames: number) =>
  Math.min(totalFrames - 1, (k * animation.fr) / fps);

export const render: ChildRenderer = async (job, { onProgress }) => {
  job.source = await inlineLottieAssets(job.source, job.assetsDir, job.ffmpegPath); // the requester's images, embedded
  const animation = JSON.parse(job.source) as LottieAnimation; // validated by the parent before it sent the job
  const fps = outputFps(animation, job.fps);
  const frames = Math.max(1, Math.round(((animation.op - animation.ip) / animation.fr) * fps));

  await preloaded.catch(() => {});
  const player = await loadPlayer(animation, job.source, job);
  const encoder = startEncoder(job.ffmpegPath, { width: job.width, height: job.height, fps, frames, outputPath: job.outputPath, crf: job.encoding.crf, preset: job.encoding.lottiePreset });
  try {
    for (let k = 0; k < frames; k++) {
      await encoder.write(player.render(lottieFrameAt(k, animation, fps, player.totalFrames)));
      // The encoder runs alongside; its last part (flushing the file) is the encoding stage.
      onProgress({ stage: 'rendering', fraction: ((k + 1) / frames) * 0.97, framesRendered: k + 1, framesTotal: frames });
    }
    onProgress({ stage: 'encoding', fraction: 0.97, framesRendered: frames, framesTotal: frames });
    await encoder.finish();
  } catch (err) {
    throw new RenderError('render_failed', `Lottie render failed: ${(err as Error).message}`);
  } finally {
    player.destroy();
  }
};
