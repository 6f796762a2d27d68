// What a downloaded video is, read with ffprobe: its first video stream's size and the length.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 30_000;

export type VideoFacts = { width: number; height: number; durationSeconds: number; codec: string };

/** The video's facts, or a reason it is not a readable video (no video stream, unknown length). */
export async function probeMediaVideo(filePath: string, ffprobePath: string): Promise<VideoFacts | { problem: string }> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobePath,
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,duration:format=duration', '-of', 'json', filePath],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 },
    ));
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0];
    return { problem: `ffprobe cannot read it as a video${stderr ? ` (${stderr.slice(0, 200)})` : ''}` };
  }
  const info = JSON.parse(stdout) as {
    streams?: { codec_name?: string; width?: number; height?: number; duration?: string }[];
    format?: { duration?: string };
  };
  const stream = info.streams?.[0];
  if (!stream?.width || !stream.height) return { problem: 'it has no video stream' };
  const durationSeconds = Number(info.format?.duration ?? stream.duration);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return { problem: 'its length cannot be read' };
  return { width: stream.width, height: stream.height, durationSeconds, codec: stream.codec_name ?? 'unknown' };
}
