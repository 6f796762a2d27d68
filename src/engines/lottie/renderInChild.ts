// Child side of a Lottie render: ThorVG renders each output frame over the canvas colour, ffmpeg
// encodes them. A frame whose animated properties hold still since the frame before (holds.ts) is not
// drawn again: the encoder receives the previous frame once more, so frame count and timing stay exact.
import type { ChildRenderer } from '../isolation/protocol.js';
import { RenderError } from '../types.js';
import { inlineLottieAssets } from './assets.js';
import { isOpaque, withBackground } from './background.js';
import { startEncoder } from './encoder.js';
import { frameHolds } from './holds.js';
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
  const holds = job.settings.skipHeldFrames ? frameHolds(animation) : null;
  // A transparent video keeps what the animation leaves unpainted: no canvas colour under it.
  const painted = job.transparent ? animation : withBackground(animation);
  const player = await loadPlayer(painted, painted === animation ? job.source : undefined, job);
  const frameAt = (k: number) => lottieFrameAt(k, animation, fps, player.totalFrames);
  let framesSkipped = 0;
  try {
    // A chunk starts with a drawn frame. Copied: the player's buffer is overwritten by the next frame.
    let shown = { at: frameAt(start), frame: Buffer.from(player.render(frameAt(start))) };
    // Opaque when the background was painted, unless `contain` leaves a margin it did not reach (ThorVG
    // clipping it to the box). Without it, a first frame that happens to be covered says nothing of the others.
    const opaque = painted !== animation && isOpaque(shown.frame);
    const encoder = startEncoder(job.ffmpegPath, {
      width: job.width,
      height: job.height,
      fps,
      frames,
      outputPath: job.outputPath,
      crf: job.crf,
      preset: job.settings.x264Preset,
      opaque,
      transparent: job.transparent,
    });
    for (let k = start; k < end; k++) {
      if (k > start) {
        const at = frameAt(k);
        if (holds?.same(shown.at, at)) framesSkipped++;
        else shown = { at, frame: Buffer.from(player.render(at)) };
      }
      await encoder.write(shown.frame);
      const done = k + 1 - start;
      // The encoder runs alongside; its last part (flushing the file) is the encoding stage.
      onProgress({ stage: 'rendering', fraction: (done / frames) * 0.97, framesRendered: done, framesTotal: frames });
    }
    onProgress({ stage: 'encoding', fraction: 0.97, framesRendered: frames, framesTotal: frames });
    await encoder.finish();
    return { framesSkipped };
  } catch (err) {
    throw new RenderError('render_failed', `Lottie render failed: ${(err as Error).message}`);
  } finally {
    player.destroy();
  }
};
