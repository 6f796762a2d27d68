// A finished video's previews, stored with every video (src/storage/keys.ts):
//  - the poster: the frame at 1 s (the middle of a shorter video), at most POSTER_MAX_WIDTH wide (the dashboard's
//    player and list);
// and, served by the OpenAI Videos shape's content variants and as `thumbnail_url` / `spritesheet_url`:
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

/** The poster: at most this wide (the dashboard shows it at most this large). */
const POSTER_MAX_WIDTH = 540;

/** Where the title may be: the first scene, at most this long (and at most 45 % of the video). */
const TITLE_WINDOW_SECONDS = 2.5;
/** Not before this: nothing is drawn yet at the very start. */
const EARLIEST_THUMBNAIL_SECONDS = 0.2;
/** Frames a second looked at, and the side of the greyscale copy measured. */
const SAMPLE_FPS = 5;
const SAMPLE_SIDE = 96;
const TIMEOUT_MS = 60_000;

export type PreviewFiles = { poster: string; thumbnail: string; spriteSheet: string };

/**
 * Writes the video's three previews (poster, thumbnail, sprite sheet: the top of this module) with one decode of the
 * whole video — one ffmpeg run splits the decoded frames into the poster, the sprite sheet's tiles and small
 * greyscale copies of the first scene to measure — and a second run that decodes up to the chosen thumbnail only.
 */
export async function extractPreviews(
  ffmpegPath: string,
  videoPath: string,
  durationSeconds: number,
  files: PreviewFiles,
  signal?: AbortSignal,
): Promise<void> {
  const window = Math.max(EARLIEST_THUMBNAIL_SECONDS, Math.min(TITLE_WINDOW_SECONDS, durationSeconds * 0.45));
  const rate = `${SPRITE_FRAMES}/${Math.max(durationSeconds, 0.04).toFixed(3)}`;
  const graph = [
    '[0:v]split=3[poster][first][sprites]',
    // The poster's branch takes one frame only: the frames after it would be filtered for nothing.
    `[poster]trim=start=${Math.max(0, Math.min(1, durationSeconds / 2)).toFixed(3)},trim=end_frame=1,` +
      `setpts=PTS-STARTPTS,scale='min(${POSTER_MAX_WIDTH},iw)':-2[p]`,
    `[first]trim=end=${window.toFixed(3)},fps=${SAMPLE_FPS},scale=${SAMPLE_SIDE}:${SAMPLE_SIDE},format=gray[gray]`,
    `[sprites]fps=${rate},scale=${SPRITE_TILE_WIDTH}:-2,tile=${SPRITE_COLUMNS}x${SPRITE_ROWS}[sheet]`,
  ].join(';');
  const args = ['-v', 'error', '-i', videoPath, '-filter_complex', graph];
  args.push('-map', '[p]', '-frames:v', '1', '-q:v', '3', '-update', '1', '-y', files.poster);
  args.push('-map', '[sheet]', '-frames:v', '1', '-q:v', '3', '-update', '1', '-y', files.spriteSheet);
  args.push('-map', '[gray]', '-f', 'rawvideo', 'pipe:1');
  const options = { timeoutMs: TIMEOUT_MS, signal };
  const gray = await runVideoTool(ffmpegPath, 'ffmpeg', args, {
    ...options,
    binary: true,
    maxBuffer: 64 * 1024 * 1024,
  });
  const time = (thumbnailSample(gray) / SAMPLE_FPS).toFixed(3);
  const thumbnail = ['-v', 'error', '-ss', time, '-i', videoPath, '-frames:v', '1', '-q:v', '2', '-update', '1'];
  await runVideoTool(ffmpegPath, 'ffmpeg', [...thumbnail, '-y', files.thumbnail], options);
  for (const [what, file] of Object.entries(files))
    if ((await fs.promises.stat(file)).size === 0) throw new Error(`ffmpeg wrote an empty ${what}`);
}

/**
 * Which sample (SAMPLE_FPS a second from 0) shows the thumbnail: from EARLIEST_THUMBNAIL_SECONDS, the one with the
 * most edge energy (the most drawn), the earliest of equals; the first when none is that late.
 */
function thumbnailSample(gray: Buffer): number {
  const size = SAMPLE_SIDE * SAMPLE_SIDE;
  let best = { index: 0, energy: -1 };
  for (let i = 0; (i + 1) * size <= gray.length; i++) {
    if (i / SAMPLE_FPS < EARLIEST_THUMBNAIL_SECONDS) continue;
    const energy = edgeEnergy(gray.subarray(i * size, (i + 1) * size), SAMPLE_SIDE);
    // A frame must be clearly more drawn (1 %) to win over an earlier one.
    if (energy > best.energy * 1.01) best = { index: i, energy };
  }
  return best.index;
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
