// A user's own sound track (an `input_audio` part or an audio URL): what the bytes are, sniffed from the
// bytes themselves, and how long they play, read by ffprobe (confined where the caller says: the render
// sandbox). Anything else is the API's 400 naming the part: not sound, a format we do not take, a file
// too large or too long (README, "User media").
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { invalidInput } from '../errors.js';
import { sniffAudio, type AudioFormat } from '../sniff.js';
import { probeAudio, runVideoTool, SAMPLE_RATE, VideoToolError, type Confinement } from '../video/index.js';

const MiB = 1024 * 1024;
const mebibytes = (bytes: number) => `${(bytes / MiB).toFixed(1).replace(/\.0$/, '')} MiB`;

export const TRACK_LIMITS = {
  /** Bytes of one track: a few minutes of MP3/AAC/Opus, about a minute and a half of 48 kHz stereo WAV. */
  maxBytes: 20 * MiB,
  /** Length of one track: a video is far shorter; a longer track is trimmed to it anyway. */
  maxSeconds: 300,
} as const;

/** Containers report lengths like 300.02 s for a 300-second track. */
const DURATION_SLACK_SECONDS = 0.1;

export type IngestedAudio = { format: AudioFormat; durationSeconds: number };

const FORMAT_NAMES = 'MP3, WAV, AAC, M4A, Ogg (Vorbis or Opus) or FLAC';

/**
 * What the track's bytes are and how long they play. Throws the 400 (`invalid_audio`, naming `opts.param`, by default
 * `audio`) when they are not sound in one of AUDIO_FORMATS, cannot be decoded, or exceed TRACK_LIMITS.
 */
export async function ingestAudio(
  bytes: Buffer,
  opts: { ffmpegPath?: string; param?: string; signal?: AbortSignal; confine?: Confinement } = {},
): Promise<IngestedAudio> {
  const param = opts.param ?? 'audio';
  const refuse = (reason: string) => invalidInput(`${param}: ${reason}`, param, 'invalid_audio');
  if (bytes.length === 0) throw refuse('the track is empty');
  if (bytes.length > TRACK_LIMITS.maxBytes)
    throw refuse(`the track is ${mebibytes(bytes.length)}, over the limit of ${mebibytes(TRACK_LIMITS.maxBytes)}`);
  const sniffed = sniffAudio(bytes);
  if (!sniffed) throw refuse(`the bytes are not sound in a format we take (${FORMAT_NAMES})`);

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'track-'));
  const file = path.join(dir, `${randomUUID()}.${sniffed}`);
  try {
    await fs.writeFile(file, bytes);
    let probed;
    try {
      probed = await probeAudio(opts.ffmpegPath ?? 'ffmpeg', file, opts.signal, opts.confine);
    } catch (err) {
      if (!(err instanceof VideoToolError) || err.reason !== 'exited') throw err;
      const why = err.stderr.split('\n')[0]?.slice(0, 200);
      throw refuse(`the ${sniffed.toUpperCase()} data cannot be decoded${why ? ` (${why})` : ''}`);
    }
    if (sniffed === 'mp4' && (!probed || probed.hasVideo))
      throw refuse('the bytes are an MP4 video; give its sound as an audio file (M4A, MP3…)');
    if (!probed) throw refuse(`the ${sniffed.toUpperCase()} file holds no sound`);
    const durationSeconds = probed.durationSeconds;
    if (!Number.isFinite(durationSeconds) || durationSeconds <= 0)
      throw refuse('the length of the track cannot be read');
    if (durationSeconds > TRACK_LIMITS.maxSeconds + DURATION_SLACK_SECONDS)
      throw refuse(`the track lasts ${durationSeconds.toFixed(1)} s, over the limit of ${TRACK_LIMITS.maxSeconds} s`);
    return { format: sniffed === 'mp4' ? 'm4a' : sniffed, durationSeconds };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Decoding minutes of compressed sound takes seconds. */
const DECODE_TIMEOUT_MS = 120_000;

/**
 * A user's track decoded by ffmpeg, confined as `confine` says (the render sandbox), into `outFile`: 48 kHz stereo
 * 16-bit WAV of its first sound stream, at most TRACK_LIMITS.maxSeconds long. The mix then reads only what the decoder
 * wrote, never the user's bytes.
 */
export async function decodeTrack(
  file: string,
  outFile: string,
  opts: { ffmpegPath: string; confine?: Confinement; signal?: AbortSignal },
): Promise<void> {
  const args = ['-v', 'error', '-i', file, '-map', '0:a:0', '-vn', '-t', String(TRACK_LIMITS.maxSeconds)];
  args.push('-ac', '2', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', '-y', outFile);
  await runVideoTool(opts.ffmpegPath, 'ffmpeg', args, {
    timeoutMs: DECODE_TIMEOUT_MS,
    signal: opts.signal,
    confine: opts.confine,
    inputs: [file],
    outputs: [outFile],
  });
}
