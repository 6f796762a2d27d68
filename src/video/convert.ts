// A rendered MP4 delivered as another file (`output_format`): WebM (VP9) or GIF, same size, length and timing;
// and an alpha overlay (burned captions) laid over a rendered MP4.
// GIF is palette-optimised (one palette for the video, made from what changes between frames, ordered dithering
// that compresses well) and bounded: at most GIF_MAX_FPS frames a second and GIF_COLOURS colours.
import { runVideoTool } from './tools.js';

export const GIF_MAX_FPS = 15;
export const GIF_COLOURS = 128;
const TIMEOUT_MS = 300_000;

export async function convertToWebm(
  ffmpegPath: string,
  source: string,
  dest: string,
  crf: number,
  signal?: AbortSignal,
): Promise<void> {
  const args = ['-v', 'error', '-i', source, '-an', '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', '-b:v', '0'];
  args.push('-crf', String(Math.min(63, crf + 10)), '-row-mt', '1', '-deadline', 'realtime', '-cpu-used', '8');
  await runVideoTool(ffmpegPath, 'ffmpeg', [...args, '-y', dest], { timeoutMs: TIMEOUT_MS, signal });
}

export async function convertToGif(
  ffmpegPath: string,
  source: string,
  dest: string,
  fps: number,
  signal?: AbortSignal,
): Promise<void> {
  const rate = Math.min(GIF_MAX_FPS, fps);
  const graph =
    `[0:v]fps=${rate},split[a][b];[a]palettegen=max_colors=${GIF_COLOURS}:stats_mode=diff[p];` +
    '[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle';
  const args = ['-v', 'error', '-i', source, '-filter_complex', graph, '-loop', '0', '-y', dest];
  await runVideoTool(ffmpegPath, 'ffmpeg', args, { timeoutMs: TIMEOUT_MS, signal });
}

/**
 * `overlay` (a WebM with alpha, as a transparent render is) laid over `source`'s picture from its start, written as
 * an H.264 MP4 at `dest` (x264 at `crf`, yuv420p, +faststart like every rendered video; no sound: the mix is muxed
 * after). The overlay is decoded by libvpx, ffmpeg's VP9 decoder that reads the alpha channel.
 */
export async function overlayVideo(
  ffmpegPath: string,
  source: string,
  overlay: string,
  dest: string,
  crf: number,
  signal?: AbortSignal,
): Promise<void> {
  const args = ['-v', 'error', '-i', source, '-c:v', 'libvpx-vp9', '-i', overlay];
  args.push('-filter_complex', '[0:v][1:v]overlay=eof_action=pass:format=auto,format=yuv420p[v]', '-map', '[v]');
  args.push('-an', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crf), '-movflags', '+faststart');
  await runVideoTool(ffmpegPath, 'ffmpeg', [...args, '-y', dest], { timeoutMs: TIMEOUT_MS, signal });
}
