// What the engines accept, and how a request's width/height/aspect_ratio become a canvas.
import { invalidInput } from '../errors.js';
import { MAX_DURATION_SECONDS } from '../shared.js';
import { statedDurationSeconds } from '../storyboard/duration.js';
import { RenderError, type Canvas, type Finding, type RenderOptions } from './types.js';

/** Smallest and largest canvas side in pixels. Sides are even: H.264 with yuv420p needs it. */
export const MIN_CANVAS_SIDE = 16;
export const MAX_CANVAS_SIDE = 3840;
/** Default canvas (interface §8): portrait 1080×1920. */
export const DEFAULT_WIDTH = 1080;
export const DEFAULT_HEIGHT = 1920;
/** Long side of a canvas derived from aspect_ratio alone. */
export const ASPECT_LONG_SIDE = 1920;
export const MIN_FPS = 1;
export const MAX_FPS = 60;
export const DEFAULT_FPS = 30;
export { MAX_DURATION_SECONDS };
/** The most frames one render may produce (longest video at the highest frame rate). */
export const MAX_FRAMES = MAX_DURATION_SECONDS * MAX_FPS;
/** How far a composition's length may be from a requested length. */
export const DURATION_TOLERANCE_SECONDS = 0.5;
/** Largest composition source (HTML or Lottie JSON), in bytes of UTF-8. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

export type CanvasRequest = { width?: number | null; height?: number | null; aspect_ratio?: string | null };

const roundEven = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The canvas of a generation request. Rules:
 * - width and height both given: used as given (aspect_ratio is only checked for syntax);
 * - one given with aspect_ratio: the other is derived from the ratio;
 * - none given with aspect_ratio: the long side is 1920 (height for portrait and square, width for landscape);
 * - otherwise each missing side takes its default (1080 wide, 1920 high).
 * Every side is rounded to the nearest even number, then must lie in [16, 3840].
 * Invalid input throws an invalid_input DomainError whose `param` names the field (`aspectParam`: the request shape's
 * name of aspect_ratio, e.g. `aspectRatio` in the Chat shape).
 */
export function resolveCanvas(req: CanvasRequest, aspectParam = 'aspect_ratio'): Canvas {
  const width = checkSide(req.width, 'width');
  const height = checkSide(req.height, 'height');
  const ratio = req.aspect_ratio == null ? undefined : parseAspectRatio(req.aspect_ratio, aspectParam);

  let canvas: Canvas;
  if (width !== undefined && height !== undefined) canvas = { width, height };
  else if (ratio && width !== undefined) canvas = { width, height: (width * ratio.h) / ratio.w };
  else if (ratio && height !== undefined) canvas = { width: (height * ratio.w) / ratio.h, height };
  else if (ratio) {
    canvas =
      ratio.w > ratio.h
        ? { width: ASPECT_LONG_SIDE, height: (ASPECT_LONG_SIDE * ratio.h) / ratio.w }
        : { width: (ASPECT_LONG_SIDE * ratio.w) / ratio.h, height: ASPECT_LONG_SIDE };
  } else canvas = { width: width ?? DEFAULT_WIDTH, height: height ?? DEFAULT_HEIGHT };

  const out = { width: roundEven(canvas.width), height: roundEven(canvas.height) };
  for (const side of ['width', 'height'] as const) {
    if (out[side] < MIN_CANVAS_SIDE || out[side] > MAX_CANVAS_SIDE) {
      // Only a derived side can get here: given sides were checked above.
      throw invalidInput(
        `${aspectParam} gives a ${out.width}x${out.height} canvas; ` +
          `each side must be between ${MIN_CANVAS_SIDE} and ${MAX_CANVAS_SIDE}`,
        aspectParam,
      );
    }
  }
  return out;
}

function checkSide(value: number | null | undefined, param: 'width' | 'height'): number | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw invalidInput(`${param} must be an integer number of pixels`, param);
  if (value < MIN_CANVAS_SIDE || value > MAX_CANVAS_SIDE) {
    throw invalidInput(`${param} must be between ${MIN_CANVAS_SIDE} and ${MAX_CANVAS_SIDE}`, param);
  }
  return roundEven(value);
}

function parseAspectRatio(value: string, param: string): { w: number; h: number } {
  const m = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(value) : null;
  const w = Number(m?.[1]);
  const h = Number(m?.[2]);
  if (!m || !(w > 0) || !(h > 0))
    throw invalidInput(`${param} must look like "<w>:<h>" with positive numbers, e.g. "9:16"`, param);
  return { w, h };
}

/** Render options an engine accepts; anything else is a programming error upstream of the engine. */
export function checkRenderOptions(opts: Pick<RenderOptions, 'width' | 'height' | 'fps'>): void {
  for (const side of ['width', 'height'] as const) {
    const v = opts[side];
    if (!Number.isInteger(v) || v < MIN_CANVAS_SIDE || v > MAX_CANVAS_SIDE || v % 2 !== 0) {
      throw new RenderError(
        'invalid_render_options',
        `${side} must be an even integer between ${MIN_CANVAS_SIDE} and ${MAX_CANVAS_SIDE}, got ${v}`,
      );
    }
  }
  if (opts.fps !== undefined && (!Number.isInteger(opts.fps) || opts.fps < MIN_FPS || opts.fps > MAX_FPS)) {
    throw new RenderError(
      'invalid_render_options',
      `fps must be an integer between ${MIN_FPS} and ${MAX_FPS}, got ${opts.fps}`,
    );
  }
}

/** The size check every engine runs first: an oversized source is not even parsed. */
export function sourceSizeFinding(source: string): Finding | undefined {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes <= MAX_SOURCE_BYTES) return undefined;
  return {
    code: 'source_too_large',
    severity: 'error',
    message: `The composition is ${bytes} bytes; the limit is ${MAX_SOURCE_BYTES} bytes`,
    fix_hint: 'Simplify the composition: fewer layers or elements, no embedded images or fonts.',
  };
}

/** Duration/frame-count check shared by the engines (Lottie statically, HyperFrames once probed). */
export function durationFinding(durationSeconds: number, fps: number, location?: string): Finding | undefined {
  if (!(durationSeconds > 0)) {
    return {
      code: 'empty_duration',
      severity: 'error',
      location,
      message: 'The composition has no duration (0 seconds)',
    };
  }
  if (durationSeconds > MAX_DURATION_SECONDS + 1e-6 || Math.round(durationSeconds * fps) > MAX_FRAMES) {
    return {
      code: 'duration_too_long',
      severity: 'error',
      location,
      message: `The composition lasts ${durationSeconds.toFixed(2)} s; the limit is ${MAX_DURATION_SECONDS} s`,
      fix_hint: `Shorten the animation to at most ${MAX_DURATION_SECONDS} seconds.`,
    };
  }
  return undefined;
}

/**
 * The length a generation must have: the request's duration_seconds, else a length its prompt states
 * ("a 10-second teaser", clamped to the limits), else null (the composition decides).
 */
export function resolveDuration(requested: number | undefined, promptText: string): number | null {
  const seconds = requested ?? statedDurationSeconds(promptText);
  return seconds === null ? null : Math.min(MAX_DURATION_SECONDS, Math.max(1, Math.round(seconds * 100) / 100));
}

/** A composition that must last `requested` seconds and does not (within DURATION_TOLERANCE_SECONDS). */
export function requestedDurationFinding(
  actualSeconds: number,
  requested: number | null,
  location?: string,
): Finding | undefined {
  if (requested === null || Math.abs(actualSeconds - requested) <= DURATION_TOLERANCE_SECONDS) return undefined;
  return {
    code: 'wrong_duration',
    severity: 'error',
    location,
    message: `The composition lasts ${actualSeconds.toFixed(2)} s; this video must last ${requested} s`,
    fix_hint: `Make the animation exactly ${requested} seconds long.`,
  };
}
