// A finished video's previews, stored with every video (src/storage/keys.ts) and served by the OpenAI Videos
// shape's content variants and as `thumbnail_url` / `spritesheet_url`:
//  - the thumbnail: one full-size JPEG frame where the title is fully drawn. Titles animate in (fade, rise,
//    type-on) and then hold, so within the first scene the frame with the most drawn detail (edge energy of a
//    small greyscale copy) is the one where the whole title shows; never frame 0, which is often empty.
//  - the sprite sheet: a JPEG grid of SPRITE_COLUMNS × SPRITE_ROWS evenly spaced frames, row by row from the
//    top left, frame k (0-based) at k·duration/25 s, each SPRITE_TILE_WIDTH pixels wide (height keeps the
//    video's aspect, rounded to even). Scrubbing previews read tile k for the time k·duration/25.
import fs from 'node:fs';
import { runVideoTool } from './tools.js';

export const SPRITE_COLUMNS = 5;
export const SPRITE_ROWS = 5;
export const SPRITE_TILE_WIDTH = 160;
const SPRITE_FRAMES = SPRITE_COLUMNS * SPRITE_ROWS;

/** Where the title may be: the first scene, at most this long (and at most 45 % of the video). */
const TITLE_WINDOW_SECONDS = 2.5;
/** Not before this: nothing is drawn yet at the very start. */
const EARLIEST_THUMBNAIL_SECONDS = 0.2;
/** Frames a second looked at, and the side of the greyscale copy measured. */
const SAMPLE_FPS = 5;
const SAMPLE_SIDE = 96;
const TIMEOUT_MS = 60_000;

/**
 * The time of the thumbnail: in the first scene, the sampled frame with the most edge energy (the most drawn);
 * the earliest of equals.
 */
export async function thumbnailTime(
  ffmpegPath: string,
  videoPath: string,
  durationSeconds: number,
  signal?: AbortSignal,
): Promise<number> {
  const window = Math.max(EARLIEST_THUMBNAIL_SECONDS, Math.min(TITLE_WINDOW_SECONDS, durationSeconds * 0.45));
  const args = ['-v', 'error', '-t', window.toFixed(3), '-i', videoPath];
  args.push('-vf', `fps=${SAMPLE_FPS},scale=${SAMPLE_SIDE}:${SAMPLE_SIDE},format=gray`, '-f', 'rawvideo', '-');
  const raw = await runVideoTool(ffmpegPath, 'ffmpeg', args, {
    binary: true,
    timeoutMs: TIMEOUT_MS,
    signal,
    maxBuffer: 64 * 1024 * 1024,
  });
  const size = SAMPLE_SIDE * SAMPLE_SIDE;
  let best = { time: Math.min(EARLIEST_THUMBNAIL_SECONDS, durationSeconds / 2), energy: -1 };
  for (let i = 0; (i + 1) * size <= raw.length; i++) {
    const time = i / SAMPLE_FPS;
    if (time < EARLIEST_THUMBNAIL_SECONDS) continue;
    const energy = edgeEnergy(raw.subarray(i * size, (i + 1) * size), SAMPLE_SIDE);
    // A frame must be clearly more drawn (1 %) to win over an earlier one.
    if (energy > best.energy * 1.01) best = { time, energy };
  }
  return best.time;
}

/** Sum of absolute differences between horizontally and vertically neighbouring pixels. */
function edgeEnergy(gray: Uint8Array, side: number): number {
  let sum = 0;
  for (let y = 0; y < side - 1; y++)
    for (let x = 0; x < side - 1; x++) {
      const i = y * side + x;
      sum += Math.abs(gray[i]! - gray[i + 1]!) + Math.abs(gray[i]! - gray[i + side]!);
    }
  return sum;
}

/** Writes the thumbnail (a full-size JPEG of the frame at `time`) to `dest`. */
export async function extractThumbnail(
  ffmpegPath: string,
  videoPath: string,
  time: number,
  dest: string,
  signal?: AbortSignal,
): Promise<void> {
  const args = ['-v', 'error', '-ss', time.toFixed(3), '-i', videoPath, '-frames:v', '1', '-q:v', '2'];
  await runVideoTool(ffmpegPath, 'ffmpeg', [...args, '-update', '1', '-y', dest], { timeoutMs: TIMEOUT_MS, signal });
  if ((await fs.promises.stat(dest)).size === 0) throw new Error('ffmpeg wrote an empty thumbnail');
}

/** Writes the sprite sheet (layout at the top of this module) to `dest`. */
export async function extractSpriteSheet(
  ffmpegPath: string,
  videoPath: string,
  durationSeconds: number,
  dest: string,
  signal?: AbortSignal,
): Promise<void> {
  const rate = `${SPRITE_FRAMES}/${Math.max(durationSeconds, 0.04).toFixed(3)}`;
  const filters = `fps=${rate},scale=${SPRITE_TILE_WIDTH}:-2,tile=${SPRITE_COLUMNS}x${SPRITE_ROWS}`;
  const args = ['-v', 'error', '-i', videoPath, '-vf', filters, '-frames:v', '1', '-q:v', '3'];
  await runVideoTool(ffmpegPath, 'ffmpeg', [...args, '-update', '1', '-y', dest], { timeoutMs: TIMEOUT_MS, signal });
  if ((await fs.promises.stat(dest)).size === 0) throw new Error('ffmpeg wrote an empty sprite sheet');
}
