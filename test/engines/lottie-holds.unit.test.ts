// Which Lottie frames hold still (holds.ts), read from the JSON alone.
import { describe, expect, it } from 'vitest';
import { frameHolds } from '../../src/engines/lottie/holds.js';
import type { LottieAnimation } from '../../src/engines/lottie/validate.js';

const ease = { i: { x: 0.4, y: 1 }, o: { x: 0.6, y: 0 } };
const still = (k: unknown) => ({ a: 0, k });
const layer = (extra: Record<string, unknown> = {}, p: unknown = still([0, 0, 0])) => ({
  ty: 4,
  ind: 1,
  ip: 0,
  op: 100,
  st: 0,
  ks: { o: still(100), p, s: still([100, 100, 100]) },
  shapes: [],
  ...extra,
});
const animation = (layers: Record<string, unknown>[], assets: Record<string, unknown>[] = []): LottieAnimation => ({
  fr: 30,
  ip: 0,
  op: 100,
  w: 100,
  h: 100,
  layers,
  assets,
});
const moving = (keys: Array<[number, number[], Record<string, unknown>?]>) => ({
  a: 1,
  k: keys.map(([t, s, extra], i) => ({ t, s, ...(i < keys.length - 1 ? ease : {}), ...extra })),
});

describe('frameHolds', () => {
  it('holds between keyframes of equal value and after the last, not while a value moves', () => {
    const holds = frameHolds(
      animation([
        layer(
          {},
          moving([
            [0, [0, 0, 0]],
            [10, [50, 0, 0]],
            [40, [50, 0, 0]],
            [60, [90, 0, 0]],
          ]),
        ),
      ]),
    )!;
    expect(holds.same(5, 6)).toBe(false); // moving
    expect(holds.same(10, 11)).toBe(false); // a keyframe's own frame is drawn again, either way round
    expect(holds.same(11, 39)).toBe(true); // resting
    expect(holds.same(39, 40)).toBe(false);
    expect(holds.same(61, 90)).toBe(true); // after the last keyframe
    expect(holds.same(20, 20)).toBe(true);
  });

  it('counts a layer coming in or going out, and a hold keyframe jumping, as change', () => {
    const holds = frameHolds(
      animation([
        layer({ ip: 30, op: 70 }),
        layer(
          { ind: 2 },
          moving([
            [0, [0, 0, 0], { h: 1 }],
            [50, [9, 9, 0]],
          ]),
        ),
      ]),
    )!;
    expect(holds.same(10, 20)).toBe(true);
    expect(holds.same(29, 31)).toBe(false);
    expect(holds.same(49, 51)).toBe(false);
    expect(holds.same(71, 80)).toBe(true);
  });

  it('does not take equal ends for rest when a spatial tangent moves the value between them', () => {
    const holds = frameHolds(
      animation([
        layer(
          {},
          moving([
            [0, [0, 0, 0], { to: [30, 0, 0], ti: [-30, 0, 0] }],
            [20, [0, 0, 0]],
          ]),
        ),
      ]),
    )!;
    expect(holds.same(5, 6)).toBe(false);
    expect(holds.same(21, 30)).toBe(true);
  });

  it('places a precomposition’s keyframes at its layer’s start time', () => {
    const inner = {
      id: 'scene',
      layers: [
        layer(
          {},
          moving([
            [0, [0, 0, 0]],
            [10, [20, 0, 0]],
          ]),
        ),
      ],
    };
    const holds = frameHolds(animation([{ ty: 0, ind: 1, refId: 'scene', ip: 0, op: 100, st: 50, ks: {} }], [inner]))!;
    expect(holds.same(20, 40)).toBe(true);
    expect(holds.same(52, 55)).toBe(false); // the inner 2–5, shown 50 frames later
  });

  it(
    'gives up on what it does not follow: ' + 'time remapping, stretched layers, expressions, missing precompositions',
    () => {
      expect(frameHolds(animation([layer({ tm: still(0) })]))).toBeNull();
      expect(frameHolds(animation([layer({ sr: 2 })]))).toBeNull();
      expect(frameHolds(animation([layer({}, { a: 0, k: [0, 0, 0], x: 'time' })]))).toBeNull();
      expect(frameHolds(animation([{ ty: 0, ind: 1, refId: 'nowhere', ip: 0, op: 100, st: 0, ks: {} }]))).toBeNull();
    },
  );
});
