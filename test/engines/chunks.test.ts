// Chunked rendering, per engine: a video rendered as frame-range chunks and joined without
// re-encoding is the video rendered in one piece — same frame count, rate and duration, and the
// frames on both sides of every chunk boundary as the one-piece render draws them (SSIM ≥ 0.99).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitFrames } from '../../src/engines/chunks.js';
import { getEngine } from '../../src/engines/index.js';
import { frameSsim, joinChunkFiles, probeVideo } from '../../src/video/index.js';
import { tools, useRenderSandbox } from './support.js';

const canvas = { width: 270, height: 480 };
/** Lottie renders fast: 3 s in three chunks; HyperFrames 2 s in two (every chunk starts a browser). */
const VIDEOS: Record<string, { seconds: number; chunks: number; ranges: number[][] }> = {
  lottie: {
    seconds: 3,
    chunks: 3,
    ranges: [
      [0, 30],
      [30, 60],
      [60, 90],
    ],
  },
  hyperframes: {
    seconds: 2,
    chunks: 2,
    ranges: [
      [0, 30],
      [30, 60],
    ],
  },
};
const sandbox = useRenderSandbox('chunks', (e) => e.startsWith('video-render-'));

describe.each(['lottie', 'hyperframes'])('%s: chunks joined = one piece', (id) => {
  it('renders chunks of a video that join into the same video', { timeout: 300_000 }, async () => {
    const { seconds, chunks: count, ranges } = VIDEOS[id]!;
    const engine = getEngine(id);
    const source = engine.composeOffline({
      ...canvas,
      prompt: 'A launch teaser for a coffee brand',
      instructions: null,
      durationSeconds: seconds,
      assets: [],
    });
    const timing = engine.timing!(source);
    expect(timing).toEqual({ fps: 30, frames: seconds * 30 });

    const whole = path.join(sandbox.out, `${id}-whole.mp4`);
    await engine.render(source, { tools, ...canvas, outputPath: whole });
    const chunks = splitFrames(timing!.frames, count);
    expect(chunks.map((c) => [c.start, c.end])).toEqual(ranges);
    const files = chunks.map((c) => path.join(sandbox.out, `${id}-chunk-${c.index}.mp4`));
    for (const [i, chunk] of chunks.entries()) {
      const rendered = await engine.render(source, { tools, ...canvas, outputPath: files[i]!, chunk });
      expect(rendered.frames).toBe(chunk.end - chunk.start);
    }
    const joined = path.join(sandbox.out, `${id}-joined.mp4`);
    await joinChunkFiles(tools.ffmpegPath, files, joined);

    const [a, b] = await Promise.all([
      probeVideo('ffmpeg', whole, { countPackets: true }),
      probeVideo('ffmpeg', joined, { countPackets: true }),
    ]);
    expect(b).toMatchObject({ codec: 'h264', width: a.width, height: a.height, fps: a.fps, frames: a.frames });
    expect(b.frames).toBe(timing!.frames);
    expect(b.durationSeconds).toBeCloseTo(a.durationSeconds, 2);

    const ssim = await frameSsim(tools.ffmpegPath, joined, whole);
    expect(ssim).toHaveLength(timing!.frames);
    const boundaries = chunks.slice(1).flatMap((c) => [c.start - 1, c.start]);
    const atBoundaries = boundaries.map((n) => ({ frame: n, ssim: ssim[n]! }));
    expect(
      atBoundaries.filter((f) => !(f.ssim >= 0.99)),
      JSON.stringify(atBoundaries),
    ).toEqual([]);
    expect(Math.min(...ssim)).toBeGreaterThanOrEqual(0.98);
    for (const f of [whole, joined, ...files]) fs.rmSync(f);
  });
});
