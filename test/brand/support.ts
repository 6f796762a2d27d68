// Frames of a rendered video, read back as pixels: the colour most of a frame has; contact sheets.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Downloads a video to a temporary file; `use` gets its path, the file is removed after. */
export async function withVideo<T>(url: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brand-video-'));
  try {
    const file = path.join(dir, 'v.mp4');
    fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    return await use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One frame at `seconds` as RGB bytes. */
export async function frameRgb(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 25 },
  );
  return stdout as unknown as Buffer;
}

/**
 * The colour most pixels have (channels in steps of 8, so encoding noise falls together), as [r, g, b] and its share.
 */
export function dominantColour(rgb: Buffer): { colour: [number, number, number]; share: number } {
  const counts = new Map<number, number>();
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    const k = ((rgb[i]! >> 3) << 10) | ((rgb[i + 1]! >> 3) << 5) | (rgb[i + 2]! >> 3);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const [k, n] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  return {
    colour: [((k >> 10) << 3) + 4, (((k >> 5) & 31) << 3) + 4, ((k & 31) << 3) + 4],
    share: n / (rgb.length / 3),
  };
}

/** Largest channel difference between a colour and `#rrggbb`. */
export function distance(colour: [number, number, number], hex: string): number {
  return Math.max(...colour.map((c, i) => Math.abs(c - parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16))));
}

/** A contact sheet: `count` frames spread over the video, tiled in one row, written as PNG to `out`. */
export async function contactSheet(file: string, out: string, durationSeconds: number, count = 6): Promise<void> {
  const fps = count / durationSeconds;
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    `fps=${fps},tile=${count}x1:padding=4:color=white`,
    '-frames:v',
    '1',
    out,
  ]);
}
