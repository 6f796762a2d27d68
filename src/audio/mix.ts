// The one mix of a video's sound: the voice clips where the scenes speak, over a music bed (generated here
// or the user's track, trimmed or looped to the video, faded out), the music ducked under the voice, the
// whole mastered to what social platforms normalise to: -14 LUFS integrated, true peak at most -1 dBTP
// (ITU-R BS.1770, measured by ffmpeg's ebur128), written as AAC-LC 48 kHz stereo in an .m4a.
//
// How the levels are set (computed, not left to a compressor, so the voice-over-music margin holds for any
// voice and any track): each voice clip is measured and brought to VOICE_LUFS; the music stem (after its
// loop, trim and fade) is measured and set MUSIC_UNDER_VOICE_LU below the voice while someone speaks and
// MUSIC_IN_PAUSES_LU below it in the pauses, with smooth ramps around every phrase (gain automation by
// ffmpeg's volume filter). The sum is measured, then brought to -14 LUFS by one gain through a lookahead
// limiter; the encoded file is measured again, and corrected once more if it missed.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  AAC_BITRATE,
  measureLoudness,
  parseEbur128Summaries,
  probeAudio,
  runVideoToolForLog,
  SAMPLE_RATE,
  VideoToolError,
  type Loudness,
} from '../video/index.js';
import { synthesizeBed, wavFile } from './music.js';

/** A voice clip (any file ffmpeg reads) and where in the video it starts. */
export type SpeechClip = { file: string; startSeconds: number };

/** The music: a bed generated for the storyboard, the user's track, or none. */
export type MusicSource =
  | { kind: 'generated'; motion: 'calm' | 'smooth' | 'bouncy'; cutsSeconds: readonly number[]; seed: string }
  | { kind: 'track'; file: string }
  | null;

export type MixOptions = {
  durationSeconds: number;
  speech: SpeechClip[];
  music: MusicSource;
  outFile: string;
  /** ffmpeg to run (config `render.ffmpegPath`); ffprobe is the one beside it. */
  ffmpegPath?: string;
  signal?: AbortSignal;
};

/** What social platforms normalise to (BS.1770 integrated loudness), and the tolerance the mix aims within. */
export const TARGET_LUFS = -14;
export const TRUE_PEAK_LIMIT_DBTP = -1;
const LOUDNESS_TOLERANCE_LU = 0.3;
/** Each voice clip's loudness in the sum (before mastering moves everything by one gain). */
const VOICE_LUFS = -16;
/** The music's level below the voice while it speaks (the issue asks for at least 10), and in the pauses. */
export const MUSIC_UNDER_VOICE_LU = 16;
const MUSIC_IN_PAUSES_LU = 8;
/** The music starts to duck this long before a phrase and comes back over this long after it. */
const DUCK_ATTACK_SECONDS = 0.3;
const DUCK_RELEASE_SECONDS = 0.7;
/** Pauses shorter than this between phrases keep the music down (no pumping between sentences). */
const DUCK_BRIDGE_SECONDS = 1.5;
/** A user's track fades out over its last seconds in the video (a fifth of the video, within these bounds). */
const TRACK_FADE_MIN_SECONDS = 1;
const TRACK_FADE_MAX_SECONDS = 3;
/** Sample peak the limiter holds at first: AAC encoding adds a few tenths of a dB of inter-sample peak. */
const FIRST_LIMIT_DBFS = -2;
const MASTER_ATTEMPTS = 3;
const RUN_TIMEOUT_MS = 300_000;

const dbToGain = (db: number) => 10 ** (db / 20);
const fixed = (x: number) => x.toFixed(6);

type VoicePart = { file: string; startSeconds: number; durationSeconds: number; gainDb: number };
type MusicPart = { input: string[]; chain: string; gainDb: number };

/** Everything the mix needs, measured: the inputs and their gains. */
type MixPlan = {
  durationSeconds: number;
  samples: number;
  voice: VoicePart[];
  music: MusicPart | null;
  /** The music's gain automation (volume filter expression of t, linear), when it ducks under a voice. */
  duck: string | null;
};

/** Speech as [start, end) intervals, pauses shorter than the bridge closed. */
function speakingIntervals(voice: readonly VoicePart[]): [number, number][] {
  const sorted = voice.map((v) => [v.startSeconds, v.startSeconds + v.durationSeconds] as [number, number]);
  sorted.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from - last[1] < DUCK_BRIDGE_SECONDS) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/**
 * The music's duck as a volume expression of t: 1 in the pauses, MUSIC_UNDER_VOICE_LU - MUSIC_IN_PAUSES_LU dB lower
 * while a voice speaks, with raised ramps before and after each phrase.
 */
function duckExpression(intervals: readonly [number, number][]): string | null {
  if (intervals.length === 0) return null;
  const depth = MUSIC_UNDER_VOICE_LU - MUSIC_IN_PAUSES_LU;
  const ramps = intervals.map(
    ([a, b]) =>
      `min(clip((t-${fixed(a - DUCK_ATTACK_SECONDS)})/${DUCK_ATTACK_SECONDS},0,1),` +
      `clip((${fixed(b + DUCK_RELEASE_SECONDS)}-t)/${DUCK_RELEASE_SECONDS},0,1))`,
  );
  const presence = ramps.reduce((acc, r) => `max(${acc},${r})`);
  return `pow(10,-${depth}*${presence}/20)`;
}

const TO_STEREO = `aresample=${SAMPLE_RATE},aformat=sample_fmts=flt:sample_rates=${SAMPLE_RATE}:channel_layouts=stereo`;

async function run(opts: MixOptions, args: string[]): Promise<string> {
  return runVideoToolForLog(opts.ffmpegPath ?? 'ffmpeg', 'ffmpeg', ['-hide_banner', '-nostats', ...args], {
    timeoutMs: RUN_TIMEOUT_MS,
    signal: opts.signal,
    maxBuffer: 16 << 20,
  });
}

/** Loudness of each input (one ffmpeg run), in order: ebur128 per input, its output discarded. */
async function measureInputs(opts: MixOptions, inputs: { input: string[]; chain: string }[]): Promise<Loudness[]> {
  const args = inputs.flatMap((i) => i.input);
  const graph = inputs.map(
    (i, k) => `[${k}:a]${i.chain}${i.chain ? ',' : ''}ebur128=peak=true:framelog=verbose[o${k}]`,
  );
  args.push('-filter_complex', graph.join(';'));
  for (let k = 0; k < inputs.length; k++) args.push('-map', `[o${k}]`, '-f', 'null', '-');
  const summaries = [...parseEbur128Summaries(await run(opts, args)).values()];
  if (summaries.length !== inputs.length)
    throw new VideoToolError('ffmpeg', 'exited', '', `measured ${summaries.length} of ${inputs.length} inputs`);
  return summaries;
}

/** Probes and measures the voice clips and the music, and sets every gain. */
async function planMix(opts: MixOptions, workDir: string): Promise<MixPlan> {
  const ffmpegPath = opts.ffmpegPath ?? 'ffmpeg';
  const duration = opts.durationSeconds;
  const samples = Math.round(duration * SAMPLE_RATE);
  let music: Omit<MusicPart, 'gainDb'> | null = null;
  if (opts.music?.kind === 'generated') {
    const pcm = synthesizeBed({ ...opts.music, durationSeconds: duration, sampleRate: SAMPLE_RATE });
    const bed = path.join(workDir, 'bed.wav');
    await fs.writeFile(bed, wavFile(pcm));
    music = { input: ['-i', bed], chain: TO_STEREO };
  } else if (opts.music?.kind === 'track') {
    const track = await probeAudio(ffmpegPath, opts.music.file, opts.signal);
    if (!track) throw new VideoToolError('ffprobe', 'exited', '', `found no audio stream in ${opts.music.file}`);
    const loop = !(track.durationSeconds >= duration);
    const fade = Math.min(TRACK_FADE_MAX_SECONDS, Math.max(TRACK_FADE_MIN_SECONDS, duration / 5), duration / 2);
    music = {
      input: [...(loop ? ['-stream_loop', '-1'] : []), '-i', opts.music.file],
      chain:
        `${TO_STEREO},atrim=end_sample=${samples},asetpts=N/SR/TB,` +
        `afade=t=out:st=${fixed(duration - fade)}:d=${fixed(fade)}:curve=qsin`,
    };
  }

  const clips = await Promise.all(
    opts.speech.map(async (clip) => {
      const probed = await probeAudio(ffmpegPath, clip.file, opts.signal);
      if (!probed) throw new VideoToolError('ffprobe', 'exited', '', `found no audio stream in ${clip.file}`);
      return { ...clip, durationSeconds: probed.durationSeconds };
    }),
  );
  const toMeasure = [...clips.map((c) => ({ input: ['-i', c.file], chain: TO_STEREO })), ...(music ? [music] : [])];
  const measured = toMeasure.length ? await measureInputs(opts, toMeasure) : [];
  const gainTo = (target: number, loudness: Loudness) =>
    Number.isFinite(loudness.integratedLufs) ? target - loudness.integratedLufs : 0;
  const voice = clips.map((c, k) => ({ ...c, gainDb: gainTo(VOICE_LUFS, measured[k]!) }));
  const intervals = speakingIntervals(voice);
  const musicLevel = voice.length ? VOICE_LUFS - MUSIC_IN_PAUSES_LU : VOICE_LUFS;
  return {
    durationSeconds: duration,
    samples,
    voice,
    music: music && { ...music, gainDb: gainTo(musicLevel, measured[clips.length]!) },
    duck: music ? duckExpression(intervals) : null,
  };
}

/**
 * Renders the plan's sum (or only its voice or only its music, at the same levels) to a 32-bit float WAV, exactly
 * the video's length; returns its loudness.
 */
async function renderSum(opts: MixOptions, plan: MixPlan, parts: 'all' | 'voice' | 'music', outWav: string) {
  const voice = parts === 'music' ? [] : plan.voice;
  const music = parts === 'voice' ? null : plan.music;
  const args: string[] = ['-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=stereo`];
  const graph: string[] = [`[0:a]aformat=sample_fmts=flt,atrim=end_sample=${plan.samples}[base]`];
  const sums = ['[base]'];
  let input = 1;
  if (music) {
    args.push(...music.input);
    const duck = plan.duck ? `,asetnsamples=n=256,volume='${plan.duck}':eval=frame` : '';
    graph.push(`[${input++}:a]${music.chain},volume=${fixed(music.gainDb)}dB${duck}[music]`);
    sums.push('[music]');
  }
  for (const [k, clip] of voice.entries()) {
    args.push('-i', clip.file);
    const delay = Math.round(clip.startSeconds * SAMPLE_RATE);
    graph.push(`[${input++}:a]${TO_STEREO},volume=${fixed(clip.gainDb)}dB,adelay=delays=${delay}S:all=1[v${k}]`);
    sums.push(`[v${k}]`);
  }
  graph.push(
    `${sums.join('')}amix=inputs=${sums.length}:normalize=0:duration=first:dropout_transition=0,` +
      `ebur128=peak=true:framelog=verbose[sum]`,
  );
  args.push('-filter_complex', graph.join(';'), '-map', '[sum]', '-c:a', 'pcm_f32le', '-y', outWav);
  const [loudness] = parseEbur128Summaries(await run(opts, args)).values();
  if (!loudness) throw new VideoToolError('ffmpeg', 'exited', '', 'printed no ebur128 summary of the mix');
  return loudness;
}

/** Encodes the sum through one gain and a limiter as AAC-LC 48 kHz stereo. */
async function encodeMaster(opts: MixOptions, sumWav: string, gainDb: number, limitDbfs: number) {
  const limiter = `alimiter=limit=${fixed(dbToGain(limitDbfs))}:attack=5:release=80:level=0:latency=1`;
  const args = ['-i', sumWav, '-af', `volume=${fixed(gainDb)}dB,${limiter},${TO_STEREO}`];
  args.push('-c:a', 'aac', '-profile:a', 'aac_low', '-b:a', AAC_BITRATE, '-ar', String(SAMPLE_RATE), '-ac', '2');
  args.push('-movflags', '+faststart', '-y', opts.outFile);
  await run(opts, args);
}

/** A silent AAC track of the video's length. */
async function encodeSilence(opts: MixOptions) {
  const args = ['-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=stereo`, '-t', fixed(opts.durationSeconds)];
  args.push('-c:a', 'aac', '-profile:a', 'aac_low', '-b:a', AAC_BITRATE, '-movflags', '+faststart', '-y', opts.outFile);
  await run(opts, args);
}

/**
 * Mixes the video's sound into `outFile` (.m4a, AAC-LC 48 kHz stereo, exactly `durationSeconds` long) and returns
 * the loudness measured on that file: -14 LUFS ±1 LU integrated, true peak ≤ -1 dBTP.
 *
 * - voice and music: the music ducked at least MUSIC_UNDER_VOICE_LU (16 LU) under the voice while it speaks;
 * - voice only, or music only: that alone, mastered the same;
 * - no speech and no music: a silent track of the video's length, `-Infinity` for both figures (the caller may
 *   rather leave the video silent and not call this at all).
 *
 * A track shorter than the video loops; every track is cut at the video's end and fades out over its last fifth
 * (1–3 s). Clips may overlap each other and run past the end (cut there).
 */
export async function mixTimeline(opts: MixOptions): Promise<Loudness> {
  if (!(opts.durationSeconds > 0))
    throw new RangeError(`durationSeconds must be positive, not ${opts.durationSeconds}`);
  const workDir = await fs.mkdtemp(path.join(path.dirname(path.resolve(opts.outFile)), '.mix-'));
  try {
    const plan = await planMix(opts, workDir);
    const sumWav = path.join(workDir, 'sum.wav');
    const sum = plan.voice.length || plan.music ? await renderSum(opts, plan, 'all', sumWav) : null;
    if (!sum || !Number.isFinite(sum.integratedLufs)) {
      await encodeSilence(opts);
      return { integratedLufs: -Infinity, truePeakDbtp: -Infinity };
    }
    let gainDb = TARGET_LUFS - sum.integratedLufs;
    let limitDbfs = FIRST_LIMIT_DBFS;
    let result: Loudness = sum;
    for (let attempt = 1; attempt <= MASTER_ATTEMPTS; attempt++) {
      await encodeMaster(opts, sumWav, gainDb, limitDbfs);
      result = await measureLoudness(opts.ffmpegPath ?? 'ffmpeg', opts.outFile, {}, opts.signal);
      const loudnessOff = TARGET_LUFS - result.integratedLufs;
      const peakOver = result.truePeakDbtp - (TRUE_PEAK_LIMIT_DBTP - 0.2);
      if (Math.abs(loudnessOff) <= LOUDNESS_TOLERANCE_LU && peakOver <= 0) break;
      // The limiter took some loudness (raise the gain) or AAC overshot the ceiling (lower it).
      gainDb += loudnessOff;
      if (peakOver > 0) limitDbfs -= peakOver + 0.2;
    }
    return result;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The mix's two stems as mixTimeline levels them, before mastering: `voice.wav` and `music.wav` (32-bit float, 48 kHz
 * stereo, the video's length) in `dir`. Measuring one against the other over the speech shows the ducking.
 */
export async function mixStems(
  opts: Omit<MixOptions, 'outFile'>,
  dir: string,
): Promise<{ voice: string; music: string }> {
  const stems = { voice: path.join(dir, 'voice.wav'), music: path.join(dir, 'music.wav') };
  const full = { ...opts, outFile: stems.voice };
  const workDir = await fs.mkdtemp(path.join(dir, '.mix-'));
  try {
    const plan = await planMix(full, workDir);
    await renderSum(full, plan, 'voice', stems.voice);
    await renderSum(full, plan, 'music', stems.music);
    return stems;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
