// What a rendered file really is, read back with ffprobe: the source of every RenderResult.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { RenderResult } from './types.js';

/** A video file as ffprobe describes it. */
export type ProbedVideo = Omit<RenderResult, 'framesSkipped'>;

const run = promisify(execFile);

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

const parseRate = (rate = '0/1') => {
  const [n, d] = rate.split('/').map(Number);
  return d ? n! / d : Number(n) || 0;
};

/** Probes the first video stream of `filePath`. `countPackets` reads the whole file for an exact frame count. */
export async function probeVideo(filePath: string, ffprobePath = 'ffprobe', countPackets = false): Promise<ProbedVideo> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-show_format', '-of', 'json'];
  if (countPackets) args.push('-count_packets');
  const { stdout } = await run(ffprobePath, [...args, filePath], { maxBuffer: 1 << 20 });
  const info = JSON.parse(stdout) as { streams?: FfprobeStream[]; format?: { duration?: string } };
  const stream = info.streams?.[0];
  if (!stream) throw new Error(`${filePath} has no video stream`);
  const frames = Number(stream.nb_read_packets ?? stream.nb_frames ?? 0);
  return {
    path: filePath,
    codec: stream.codec_name ?? 'unknown',
    width: stream.width ?? 0,
    height: stream.height ?? 0,
    fps: parseRate(stream.avg_frame_rate !== '0/0' ? stream.avg_frame_rate : stream.r_frame_rate),
    frames,
    durationSeconds: Number(stream.duration ?? info.format?.duration ?? 0),
    bytes: fs.statSync(filePath).size,
  };
}

/** SSIM (ffmpeg's `ssim` filter, "All") of every frame of `video` against the same frame of `reference`. */
export async function frameSsim(video: string, reference: string, ffmpegPath = 'ffmpeg'): Promise<number[]> {
  const stats = `${video}.ssim.log`;
  try {
    await run(ffmpegPath, ['-v', 'error', '-i', video, '-i', reference, '-lavfi', `[0:v][1:v]ssim=stats_file=${stats}`, '-f', 'null', '-'], { maxBuffer: 16 * 2 ** 20 });
    return fs.readFileSync(stats, 'utf8').trim().split('\n').map((line) => Number(/All:([\d.]+)/.exec(line)?.[1]));
  } finally {
    fs.rmSync(stats, { force: true });
  }
}
