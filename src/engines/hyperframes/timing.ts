// How long a HyperFrames video is, from its source: the producer renders exactly the root element's
// data-duration (a shorter GSAP timeline holds its last state, a longer one is cut).
import { DEFAULT_FPS } from '../limits.js';
import type { RenderTiming } from '../types.js';
import { findRootComposition, getAttr, scanStartTags } from './html.js';

/** The root composition element's data-duration in seconds; undefined when it has none. */
export function rootDuration(html: string): number | undefined {
  const root = findRootComposition(scanStartTags(html));
  const value = root && getAttr(root.raw, 'data-duration');
  return value && Number.isFinite(Number(value)) ? Number(value) : undefined;
}

/** Within this of a whole frame, a duration counts as that frame (the producer's own rounding). */
const FRAME_EPSILON = 1e-3;

/** Output frames of `seconds` at `fps`, counted as the producer counts them. */
export function frameCount(seconds: number, fps: number): number {
  const exact = seconds * fps;
  const nearest = Math.round(exact);
  return Math.max(1, Math.abs(exact - nearest) <= FRAME_EPSILON ? nearest : Math.ceil(exact));
}

/** Null without a positive data-duration: then only the producer's probe of the page knows the length. */
export function hyperframesTiming(source: string): RenderTiming | null {
  const seconds = rootDuration(source);
  if (seconds === undefined || !(seconds > 0)) return null;
  return { fps: DEFAULT_FPS, frames: frameCount(seconds, DEFAULT_FPS) };
}
