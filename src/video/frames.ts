// Single frames out of images and videos, by ffmpeg: an image's first frame as a PNG (for engines that draw only
// PNG), and the SSIM of every frame of two videos (tests, benches).
import fs from 'node:fs';
import { runVideoTool } from './tools.js';

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
