// What a video file is, read with ffprobe from its first video stream: a rendered video (the source
// of every RenderResult) or a video a request brought (its size and length, or why it is unusable).
import fs from 'node:fs';
import { runVideoTool, VideoToolError, type Confinement } from './tools.js';

/** A rendered video file as ffprobe describes it. */
export type ProbedVideo = {
  path: string;
  durationSeconds: number;
  frames: number;
  width: number;
  height: number;
  fps: number;
  bytes: number;
  codec: string;
};

/** A request's video: what a composition needs to show it. */
export type VideoFacts = { width: number; height: number; durationSeconds: number; codec: string };

/** A request's video is read within this, however it is made. */
const MEDIA_PROBE_TIMEOUT_MS = 30_000;

type FfprobeStream = {
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  nb_frames?: string;
  nb_read_packets?: string;
  duration?: string;
};

type FfprobeOutput = { streams?: FfprobeStream[]; format?: { duration?: string } };

const ENTRIES =
  'stream=codec_name,width,height,r_frame_rate,avg_frame_rate,nb_frames,nb_read_packets,duration:format=duration';

/**
 * ffprobe's answer about the first video stream of `filePath`. `countPackets` reads the whole file for an exact frame
 * count.
 */
async function ffprobe(
  ffmpegPath: string,
  filePath: string,
  opts: { countPackets?: boolean; timeoutMs?: number; confine?: Confinement },
): Promise<FfprobeOutput> {
  const args = [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    ENTRIES,
    ...(opts.countPackets ? ['-count_packets'] : []),
    '-of',
    'json',
    filePath,
  ];
  const run = { timeoutMs: opts.timeoutMs, confine: opts.confine, inputs: [filePath] };
  return JSON.parse(await runVideoTool(ffmpegPath, 'ffprobe', args, run)) as FfprobeOutput;
}

const parseRate = (rate = '0/1') => {
  const [n, d] = rate.split('/').map(Number);
  return d ? n! / d : Number(n) || 0;
};

/**
 * Probes a rendered video; throws when it has no video stream. `countPackets` reads the whole file for an exact frame
 * count.
 */
export async function probeVideo(
  ffmpegPath: string,
  filePath: string,
  { countPackets = false } = {},
): Promise<ProbedVideo> {
  const info = await ffprobe(ffmpegPath, filePath, { countPackets });
  const stream = info.streams?.[0];
  if (!stream) throw new Error(`${filePath} has no video stream`);
  return {
    path: filePath,
    codec: stream.codec_name ?? 'unknown',
    width: stream.width ?? 0,
    height: stream.height ?? 0,
    fps: parseRate(stream.avg_frame_rate !== '0/0' ? stream.avg_frame_rate : stream.r_frame_rate),
    frames: Number(stream.nb_read_packets ?? stream.nb_frames ?? 0),
    durationSeconds: Number(stream.duration ?? info.format?.duration ?? 0),
    bytes: fs.statSync(filePath).size,
  };
}

/**
 * A request's video: its facts, or a reason it is not a readable video (no video stream, unknown length). `confine`:
 * where ffprobe parses the user's bytes (the render sandbox).
 */
export async function probeMediaVideo(
  ffmpegPath: string,
  filePath: string,
  confine?: Confinement,
): Promise<VideoFacts | { problem: string }> {
  let info: FfprobeOutput;
  try {
    info = await ffprobe(ffmpegPath, filePath, { timeoutMs: MEDIA_PROBE_TIMEOUT_MS, confine });
  } catch (err) {
    if (!(err instanceof VideoToolError)) throw err;
    const stderr = err.stderr.split('\n')[0];
    return { problem: `ffprobe cannot read it as a video${stderr ? ` (${stderr.slice(0, 200)})` : ''}` };
  }
  const stream = info.streams?.[0];
  if (!stream?.width || !stream.height) return { problem: 'it has no video stream' };
  const durationSeconds = Number(info.format?.duration ?? stream.duration);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return { problem: 'its length cannot be read' };
  return { width: stream.width, height: stream.height, durationSeconds, codec: stream.codec_name ?? 'unknown' };
}
