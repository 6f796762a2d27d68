// How many frames a Lottie render draws, at what rate, and which animation frame each one shows.
import { MAX_FPS } from '../limits.js';
import type { RenderTiming } from '../types.js';
import type { LottieAnimation } from './validate.js';

/** Output fps: as asked, else the animation's own (rounded, at most 60). */
export function outputFps(animation: LottieAnimation, requested?: number): number {
  return requested ?? Math.min(MAX_FPS, Math.max(1, Math.round(animation.fr)));
}

/** Output frames of the whole animation at `fps`. */
export const outputFrames = (animation: LottieAnimation, fps: number) =>
  Math.max(1, Math.round(((animation.op - animation.ip) / animation.fr) * fps));

/** Lottie frame (relative to the in point) shown at output frame `k`. */
export const lottieFrameAt = (k: number, animation: LottieAnimation, fps: number, totalFrames: number) =>
  Math.min(totalFrames - 1, (k * animation.fr) / fps);

/** The render's timing from the JSON alone; null when it is not an animation (validation says why). */
export function lottieTiming(source: string): RenderTiming | null {
  try {
    const animation = JSON.parse(source) as LottieAnimation;
    if (
      ![animation.fr, animation.ip, animation.op].every(Number.isFinite) ||
      animation.fr <= 0 ||
      animation.op <= animation.ip
    )
      return null;
    const fps = outputFps(animation);
    return { fps, frames: outputFrames(animation, fps) };
  } catch {
    return null;
  }
}
