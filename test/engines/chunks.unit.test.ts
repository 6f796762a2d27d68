// When a video is split into chunks and which frames each draws; the engines' timing read from the
// source; the progress of a split render summed from its chunks' reports.
import { describe, expect, it } from 'vitest';
import { planChunks, splitFrames } from '../../src/engines/chunks.js';
import { frameCount, hyperframesTiming } from '../../src/engines/hyperframes/timing.js';
import { lottieTiming } from '../../src/engines/lottie/timing.js';
import { combineChunkProgress } from '../../src/progress/percent.js';
import type { RenderProgressReport } from '../../src/temporal/contract.js';

const policy = { thresholdSeconds: 8, minChunkSeconds: 4, maxChunks: 16 };
const at30 = (seconds: number) => ({ fps: 30, frames: seconds * 30 });

describe('planChunks', () => {
  it('keeps videos up to the threshold in one piece', () => {
    expect(planChunks(at30(8), policy, 16)).toEqual([]);
    expect(planChunks(at30(3), policy, 16)).toEqual([]);
  });
  it(
    'splits a longer video into as many chunks as render slots, at most the maximum, ' +
      'none shorter than the minimum',
    () => {
      expect(planChunks(at30(10), policy, 2).map((c) => [c.start, c.end])).toEqual([
        [0, 150],
        [150, 300],
      ]);
      expect(planChunks(at30(60), policy, 4)).toHaveLength(4);
      expect(planChunks(at30(60), policy, 100)).toHaveLength(15); // 60 s / 4 s
      expect(planChunks(at30(60), { ...policy, maxChunks: 6 }, 100)).toHaveLength(6);
      expect(planChunks(at30(10), policy, 16)).toHaveLength(2); // 10 s / 4 s
    },
  );
  it('one slot, or a maximum of one, renders in one piece', () => {
    expect(planChunks(at30(60), policy, 1)).toEqual([]);
    expect(planChunks(at30(60), { ...policy, maxChunks: 1 }, 16)).toEqual([]);
  });
});

describe('splitFrames', () => {
  it('cuts every frame exactly once into equal chunks, the last one shorter', () => {
    for (const [total, count] of [
      [300, 2],
      [301, 4],
      [100, 7],
      [10, 16],
      [1800, 16],
    ] as const) {
      const chunks = splitFrames(total, count);
      expect(chunks.length).toBeLessThanOrEqual(count);
      expect(chunks[0]!.start).toBe(0);
      expect(chunks.at(-1)!.end).toBe(total);
      for (const [i, c] of chunks.entries()) {
        expect(c).toMatchObject({ index: i, count: chunks.length, total, size: chunks[0]!.size });
        if (i > 0) expect(c.start).toBe(chunks[i - 1]!.end);
        expect(c.end - c.start).toBeGreaterThan(0);
        expect(c.end - c.start).toBeLessThanOrEqual(c.size);
      }
    }
    expect(splitFrames(100, 7).map((c) => c.end - c.start)).toEqual([15, 15, 15, 15, 15, 15, 10]);
  });
});

describe('timing from the source', () => {
  it('HyperFrames: the root element’s data-duration at 30 fps, counted as the producer counts frames', () => {
    const html = (d: string) =>
      `<html><body><div id="stage" data-composition-id="main" data-start="0" data-duration="${d}" data-width="1080" ` +
      `data-height="1920"></div></body></html>`;
    expect(hyperframesTiming(html('10'))).toEqual({ fps: 30, frames: 300 });
    expect(hyperframesTiming(html('2.5'))).toEqual({ fps: 30, frames: 75 });
    expect(hyperframesTiming(html('abc'))).toBeNull();
    expect(hyperframesTiming('<html><body><div data-composition-id="main"></div></body></html>')).toBeNull();
    expect(frameCount(1.00001, 30)).toBe(30); // within a thousandth of a frame
    expect(frameCount(1.01, 30)).toBe(31);
  });
  it('Lottie: (op − ip) / fr seconds at the animation’s own rate', () => {
    expect(lottieTiming(JSON.stringify({ v: '5.7.0', fr: 30, ip: 0, op: 300, w: 100, h: 100, layers: [] }))).toEqual({
      fps: 30,
      frames: 300,
    });
    expect(lottieTiming(JSON.stringify({ v: '5.7.0', fr: 24, ip: 12, op: 252, w: 100, h: 100, layers: [] }))).toEqual({
      fps: 24,
      frames: 240,
    });
    expect(lottieTiming('{"fr": 0, "ip": 0, "op": 10}')).toBeNull();
    expect(lottieTiming('not json')).toBeNull();
  });
});

describe('combineChunkProgress', () => {
  const chunks = splitFrames(300, 3);
  const report = (
    chunk: number,
    stage: RenderProgressReport['stage'],
    fraction: number,
    eta: number | null,
  ): RenderProgressReport => ({
    stage,
    fraction,
    frames_rendered: Math.round(fraction * 100),
    frames_total: 100,
    eta_seconds: eta,
    chunk,
  });
  it(
    'sums frames and weights fractions by chunk length; ' + 'the estimate is the slowest chunk’s, once all have one',
    () => {
      const reports = new Map([
        [0, report(0, 'rendering', 0.5, 20)],
        [1, report(1, 'encoding', 1, 1)],
      ]);
      expect(combineChunkProgress(chunks, reports)).toEqual({
        stage: 'rendering',
        fraction: 0.5,
        frames_rendered: 150,
        frames_total: 300,
        eta_seconds: null,
      });
      reports.set(2, report(2, 'rendering', 0.1, 40));
      expect(combineChunkProgress(chunks, reports)).toMatchObject({
        fraction: 1.6 / 3,
        frames_rendered: 160,
        eta_seconds: 40,
      });
    },
  );
  it('encoding once every chunk is', () => {
    const reports = new Map(chunks.map((c) => [c.index, report(c.index, 'encoding', 0.97, 1)]));
    expect(combineChunkProgress(chunks, reports)).toMatchObject({ stage: 'encoding', frames_rendered: 291 });
  });
});
