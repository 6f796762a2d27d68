// Single frames out of videos and images, by ffmpeg: a finished video's poster, an image's first frame
// as a PNG (for engines that draw only PNG), and the SSIM of every frame of two videos (tests, benches).
import fs from 'node:fs';
import { runVideoTool } from './tools.js';

/** Poster frames: at most this wide (the dashboard shows them at most this large), JPEG. */
const POSTER_MAX_WIDTH = 540;
const POSTER_TIMEOUT_MS = 30_000;

/**
 * Writes a JPEG of the video's frame at 1 s (the middle of a shorter video), scaled down to at most
 * POSTER_MAX_WIDTH wide, to `dest`.
 */
export async function extractPoster(
  ffmpegPath: string,
  videoPath: string,
  durationSeconds: number,
  dest: string,
  signal?: AbortSignal,
): Promise<void> {
  const at = Math.max(0, Math.min(1, durationSeconds / 2));
  const args = [
    '-v',
    'error',
    '-ss',
    at.toFixed(3),
    '-i',
    videoPath,
    '-frames:v',
    '1',
    '-vf',
    `scale='min(${POSTER_MAX_WIDTH},iw)':-2`,
    '-q:v',
    '3',
    '-update',
    '1',
    '-y',
    dest,
  ];
  await runVideoTool(ffmpegPath, 'ffmpeg', args, { timeoutMs: POSTER_TIMEOUT_MS, signal });
  const { size } = await fs.promises.stat(dest);
  if (size === 0) throw new Error('ffmpeg wrote an empty poster');
}

/** The image's first frame as a PNG whose sides are at most `maxSide`; empty when ffmpeg decoded no frame. */
export async function imageToPng(ffmpegPath: string, file: string, maxSide: number): Promise<Buffer> {
  const fit = `scale='min(${maxSide},iw)':'min(${maxSide},ih)':force_original_aspect_ratio=decrease`;
  const args = ['-v', 'error', '-i', file, '-frames:v', '1', '-vf', fit, '-f', 'image2pipe', '-c:v', 'png', '-'];
  return runVideoTool(ffmpegPath, 'ffmpeg', args, { binary: true, maxBuffer: 64 * 1024 * 1024 });
}

/** SSIM (ffmpeg's `ssim` filter, "All") of every frame of `video` against the same frame of `reference`. */
export async function frameSsim(ffmpegPath: string, video: string, reference: string): Promise<number[]> {
  const stats = `${video}.ssim.log`;
  try {
    await runVideoTool(
      ffmpegPath,
      'ffmpeg',
      ['-v', 'error', '-i', video, '-i', reference, '-lavfi', `[0:v][1:v]ssim=stats_file=${stats}`, '-f', 'null', '-'],
      { maxBuffer: 16 * 2 ** 20 },
    );
    return fs
      .readFileSync(stats, 'utf8')
      .trim()
      .split('\n')
      .map((line) => Number(/All:([\d.]+)/.exec(line)?.[1]));
  } finally {
    fs.rmSync(stats, { force: true });
  }
}
