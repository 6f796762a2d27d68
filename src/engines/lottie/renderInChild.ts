// Child side of a Lottie render: ThorVG renders each output frame, ffmpeg encodes them.
import type { ChildRenderer } from '../isolation/protocol.js';
import { RenderError } from '../types.js';
import { inlineLottieAssets } from './assets.js';
import { startEncoder } from './encoder.js';
import { loadPlayer, preloadPlayer } from './player.js';
import type { LottieSettings } from './settings.js';
import { lottieFrameAt, outputFps, outputFrames } from './timing.js';
import type { LottieAnimation } from './validate.js';

// Loaded when the render process starts, before its job arrives: compile the WASM meanwhile.
const preloaded = preloadPlayer();
preloaded.catch(() => {}); // loadPlayer reports a broken WASM

export const render: ChildRenderer<LottieSettings> = async (job, { onProgress }) => {
  job.source = await inlineLottieAssets(job.source, job.assetsDir, job.ffmpegPath); // the requester's images, embedded
  const animation = JSON.parse(job.source) as LottieAnimation; // validated by the parent before it sent the job
  const fps = outputFps(animation, job.fps);
  // A chunk draws its own range of the whole render's frames, each frame exactly as the whole render would.
  const { start, end } = job.chunk ?? { start: 0, end: outputFrames(animation, fps) };
  const frames = end - start;

  await preloaded.catch(() => {});
  const player = await loadPlayer(animation, job.source, job);
  const encoder = startEncoder(job.ffmpegPath, { width: job.width, height: job.height, fps, frames, outputPath: job.outputPath, crf: job.crf, preset: job.settings.x264Preset });
  try {
    for (let k = start; k < end; k++) {
      await encoder.write(player.render(lottieFrameAt(k, animation, fps, player.totalFrames)));
      const done = k + 1 - start;
      // The encoder runs alongside; its last part (flushing the file) is the encoding stage.
      onProgress({ stage: 'rendering', fraction: (done / frames) * 0.97, framesRendered: done, framesTotal: frames });
    }
    onProgress({ stage: 'encoding', fraction: 0.97, framesRendered: frames, framesTotal: frames });
    await encoder.finish();
  } catch (err) {
    throw new RenderError('render_failed', `Lottie render failed: ${(err as Error).message}`);
  } finally {
    player.destroy();
  }
};
