// Which output frames of a Lottie render show the same picture as the frame before: motion graphics
// hold still a lot (text resting after its entrance), and a frame whose animated properties all keep
// their values need not be drawn again. Read from the JSON alone, conservatively: any keyframe segment
// whose values differ, and every layer's in and out point, count as change; what the analysis does not
// model (time remapping, stretched layers) turns skipping off for the whole animation.
import { isDeepStrictEqual } from 'node:util';
import type { LottieAnimation } from './validate.js';

type Json = Record<string, unknown>;
/**
 * Animation time (absolute Lottie frames) where the picture may change, both ends included (either side of a boundary
 * may be drawn differently).
 */
type Change = { from: number; to: number };

export type FrameHolds = {
  /**
   * Whether the picture at Lottie frame `b` (relative to the in point, as the player takes it) is the one at `a` < `b`.
   */
  same(a: number, b: number): boolean;
};

/** The animation's holds; null when it uses something the analysis cannot follow (every frame is drawn). */
export function frameHolds(animation: LottieAnimation): FrameHolds | null {
  const changes: Change[] = [];
  const assets = new Map((animation.assets ?? []).map((a) => [String(a.id), a]));
  if (!collectLayers(animation.layers, 0, assets, changes, 0)) return null;
  const changedBetween = (a: number, b: number) => changes.some((c) => b >= c.from && a <= c.to);
  return {
    // Whether the player counts frames from the in point or from 0 is not taken on trust: both readings must agree.
    same: (a, b) => a === b || (a < b && !changedBetween(a, b) && !changedBetween(a + animation.ip, b + animation.ip)),
  };
}

const MAX_DEPTH = 32;

/** Changes of `layers` (a composition) shown `offset` frames later in the root's time; false: not analysable. */
function collectLayers(
  layers: unknown,
  offset: number,
  assets: Map<string, Json>,
  out: Change[],
  depth: number,
): boolean {
  if (!Array.isArray(layers) || depth > MAX_DEPTH) return false;
  for (const layer of layers as Json[]) {
    if (typeof layer !== 'object' || layer === null) return false;
    if (layer.tm !== undefined || (layer.sr ?? 1) !== 1) return false;
    const st = typeof layer.st === 'number' ? layer.st : 0;
    // Appearing and disappearing.
    for (const p of [layer.ip, layer.op]) if (typeof p === 'number') out.push({ from: p + offset, to: p + offset });
    // Keyframes of a layer are in its own time: the composition's minus its start time.
    if (!collectProperties(layer, offset + st, out, 0)) return false;
    if (layer.ty === 0) {
      const asset = assets.get(String(layer.refId));
      if (!asset || !collectLayers(asset.layers, offset + st, assets, out, depth + 1)) return false;
    }
  }
  return true;
}

/** Every keyframed property under `value`: segments whose values differ are changes. False: an expression. */
function collectProperties(value: unknown, offset: number, out: Change[], depth: number): boolean {
  if (depth > 64) return false;
  if (Array.isArray(value)) return value.every((v) => collectProperties(v, offset, out, depth + 1));
  if (typeof value !== 'object' || value === null) return true;
  const obj = value as Json;
  if (typeof obj.x === 'string') return false; // an expression (validation refuses them; never assume they are static)
  const keys = obj.k;
  if (
    Array.isArray(keys) &&
    keys.length > 0 &&
    keys.every((k) => typeof k === 'object' && k !== null && typeof (k as Json).t === 'number')
  ) {
    const frames = keys as Json[];
    for (let i = 0; i + 1 < frames.length; i++) {
      const [from, to] = [frames[i]!, frames[i + 1]!];
      const end = from.e ?? to.s;
      const still = isDeepStrictEqual(from.s, end) && isDeepStrictEqual(end, to.s) && flat(from.to) && flat(from.ti);
      // A hold keyframe jumps at the next one; an interpolated one moves all the way from `from.t` to `to.t`.
      if (!still)
        out.push({
          from: (from.h === 1 ? (to.t as number) : (from.t as number)) + offset,
          to: (to.t as number) + offset,
        });
    }
    return true;
  }
  return Object.entries(obj).every(([key, v]) => key === 'layers' || collectProperties(v, offset, out, depth + 1));
}

/** No spatial tangent: a position keyframe whose ends agree does not move between them. */
const flat = (t: unknown) => t === undefined || (Array.isArray(t) && t.every((v) => v === 0));
