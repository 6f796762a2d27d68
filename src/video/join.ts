// Chunks of a split render, joined into one video without re-encoding: every chunk is its own encode
// starting on a keyframe with the same settings, so ffmpeg's concat demuxer copies the streams.
import fs from 'node:fs/promises';
import path from 'node:path';
import { runVideoTool } from './tools.js';

/** Joining copies streams: seconds even for the longest video. */
const JOIN_TIMEOUT_MS = 120_000;

/** Writes `chunks` (MP4 files, in order) as one MP4 at `outputPath`. */
export async function joinChunkFiles(
  ffmpegPath: string,
  chunks: readonly string[],
  outputPath: string,
  signal?: AbortSignal,
): Promise<void> {
  const list = `${outputPath}.chunks.txt`;
  // The concat demuxer's list syntax: one quoted path per line, quotes escaped.
  await fs.writeFile(list, chunks.map((f) => `file '${path.resolve(f).replaceAll("'", "'\\''")}'`).join('\n'));
  try {
    const args = [
      '-v',
      'error',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-y',
      outputPath,
    ];
    await runVideoTool(ffmpegPath, 'ffmpeg', args, { timeoutMs: JOIN_TIMEOUT_MS, signal });
  } finally {
    await fs.rm(list, { force: true });
  }
}
