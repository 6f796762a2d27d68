// Sound beside the picture: what ffprobe says of a file's first audio stream, the loudness ffmpeg's
// ebur128 filter (ITU-R BS.1770) measures, and the mix muxed into a rendered video with its video
// stream copied untouched.
import { runVideoTool, runVideoToolForLog, VideoToolError, type Confinement } from './tools.js';

/** A file's first audio stream as ffprobe describes it; `hasVideo` when it also holds a picture. */
export type ProbedAudio = {
  codec: string;
  /** The codec's profile as ffprobe names it ("LC" for AAC-LC), '' when it has none. */
  profile: string;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  hasVideo: boolean;
};

/** Measured with ebur128: integrated loudness (LUFS) and true peak (dBTP); -Infinity for digital silence. */
export type Loudness = { integratedLufs: number; truePeakDbtp: number };

/** ffprobe reads headers only: well under this for any file. */
const PROBE_TIMEOUT_MS = 30_000;
/** Decoding minutes of audio for a measurement, or muxing a minute of video, takes seconds. */
const AUDIO_RUN_TIMEOUT_MS = 300_000;
/** AAC-LC at 48 kHz stereo: transparent for a voice over music at this rate. */
export const AAC_BITRATE = '192k';
export const SAMPLE_RATE = 48_000;

type FfprobeAudio = {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    profile?: string;
    sample_rate?: string;
    channels?: number;
    duration?: string;
  }[];
  format?: { duration?: string };
};

/**
 * The first audio stream of `file`; a VideoToolError when ffprobe cannot read it, null when it has no audio.
 * `confine`: where ffprobe parses a user's bytes (the render sandbox).
 */
export async function probeAudio(
  ffmpegPath: string,
  file: string,
  signal?: AbortSignal,
  confine?: Confinement,
): Promise<ProbedAudio | null> {
  const args = [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,profile,sample_rate,channels,duration:format=duration',
    '-of',
    'json',
    file,
  ];
  const out = await runVideoTool(ffmpegPath, 'ffprobe', args, {
    timeoutMs: PROBE_TIMEOUT_MS,
    signal,
    confine,
    inputs: [file],
  });
  const info = JSON.parse(out) as FfprobeAudio;
  const streams = info.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!audio) return null;
  return {
    codec: audio.codec_name ?? 'unknown',
    profile: audio.profile ?? '',
    sampleRate: Number(audio.sample_rate ?? 0),
    channels: audio.channels ?? 0,
    durationSeconds: Number(info.format?.duration ?? audio.duration ?? NaN),
    hasVideo: streams.some((s) => s.codec_type === 'video'),
  };
}

/** ebur128's figure in a summary line: a number, or -Infinity for "-inf" (nothing above the gate or no peak). */
const figure = (text: string | undefined): number =>
  text === undefined || /inf/.test(text) ? -Infinity : Number(text);

/** Parses every ebur128 summary in an ffmpeg log, by the filter's name (`Parsed_ebur128_<n>`), in log order. */
export function parseEbur128Summaries(log: string): Map<string, Loudness> {
  const found = new Map<string, Loudness>();
  const summary = /\[(Parsed_ebur128_\d+) @ [^\]]*\] Summary:([\s\S]*?)(?=\[Parsed_|\n\S|$)/g;
  for (const m of log.matchAll(summary)) {
    const body = m[2]!;
    const integrated = /Integrated loudness:\s*\n\s*I:\s*(\S+) LUFS/.exec(body)?.[1];
    const truePeak = /True peak:\s*\n\s*Peak:\s*(\S+) dBFS/.exec(body)?.[1];
    // ebur128 reports -70 LUFS (its absolute gate) when nothing passes it: silence.
    const lufs = figure(integrated);
    found.set(m[1]!, { integratedLufs: lufs <= -70 ? -Infinity : lufs, truePeakDbtp: figure(truePeak) });
  }
  return found;
}

/**
 * Loudness of a file's first audio stream, or of its window [fromSeconds, toSeconds) when given: integrated (LUFS,
 * gated as BS.1770 says) and true peak (dBTP, 4× oversampled).
 */
export async function measureLoudness(
  ffmpegPath: string,
  file: string,
  window: { fromSeconds?: number; toSeconds?: number } = {},
  signal?: AbortSignal,
): Promise<Loudness> {
  const trim =
    window.fromSeconds !== undefined || window.toSeconds !== undefined
      ? `atrim=start=${window.fromSeconds ?? 0}${window.toSeconds !== undefined ? `:end=${window.toSeconds}` : ''},`
      : '';
  const args = ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0'];
  args.push('-af', `${trim}ebur128=peak=true:framelog=verbose`, '-f', 'null', '-');
  const log = await runVideoToolForLog(ffmpegPath, 'ffmpeg', args, { timeoutMs: AUDIO_RUN_TIMEOUT_MS, signal });
  const [result] = parseEbur128Summaries(log).values();
  if (!result) throw new VideoToolError('ffmpeg', 'exited', log.slice(-500), 'printed no ebur128 summary');
  return result;
}

/**
 * Writes `videoFile`'s picture with `audioFile`'s sound as one MP4 at `outFile`: the video stream copied as it is, the
 * audio as AAC-LC 48 kHz stereo (copied when it already is that, as mixTimeline's output is; encoded otherwise), the
 * index at the front (+faststart) as every rendered video has it. The audio should last as long as the video (a mix
 * is made to the video's length); the MP4 lasts as long as the longer of the two.
 */
export async function muxAudio(
  videoFile: string,
  audioFile: string,
  outFile: string,
  opts: { ffmpegPath?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const ffmpegPath = opts.ffmpegPath ?? 'ffmpeg';
  const audio = await probeAudio(ffmpegPath, audioFile, opts.signal);
  if (!audio) throw new VideoToolError('ffprobe', 'exited', '', `found no audio stream in ${audioFile}`);
  const isReady =
    audio.codec === 'aac' && audio.profile === 'LC' && audio.sampleRate === SAMPLE_RATE && audio.channels === 2;
  const audioCodec = isReady
    ? ['-c:a', 'copy']
    : ['-c:a', 'aac', '-profile:a', 'aac_low', '-b:a', AAC_BITRATE, '-ar', String(SAMPLE_RATE), '-ac', '2'];
  const args = ['-v', 'error', '-i', videoFile, '-i', audioFile, '-map', '0:v:0', '-map', '1:a:0', '-c:v', 'copy'];
  args.push(...audioCodec, '-movflags', '+faststart', '-y', outFile);
  await runVideoTool(ffmpegPath, 'ffmpeg', args, { timeoutMs: AUDIO_RUN_TIMEOUT_MS, signal: opts.signal });
}
