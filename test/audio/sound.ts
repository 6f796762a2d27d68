// Sound for the audio tests, made on the spot: speech by espeak-ng (installed for `npm test`), tones and
// tracks by ffmpeg's own sources, and what ffmpeg's measuring filters say of a file (silencedetect).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runVideoTool, runVideoToolForLog } from '../../src/video/index.js';

/** Writes `text` spoken by espeak-ng (22.05 kHz mono WAV) to `file`. */
export function speak(file: string, text: string): string {
  execFileSync('espeak-ng', ['-v', 'en', '-w', file, text], { stdio: 'ignore' });
  return file;
}

/** Writes `seconds` of an ffmpeg lavfi source (an expression of sines, a chord, noise) encoded by `codecArgs`. */
export function synthesize(file: string, source: string, seconds: number, codecArgs: string[] = []): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', source, '-t', String(seconds), ...codecArgs, '-y', file],
    {
      stdio: 'ignore',
    },
  );
  return file;
}

/** A little tune for a user's track: an A major chord pulsing twice a second, stereo 44.1 kHz. */
export const CHORD_SOURCE =
  "aevalsrc='0.2*(sin(2*PI*440*t)+sin(2*PI*554.37*t)+sin(2*PI*659.25*t))*(0.6+0.4*cos(4*PI*t))':s=44100:c=stereo";

/** Silent stretches ffmpeg's silencedetect finds (below `noiseDb` for at least `minSeconds`), as [start, end]. */
export async function silences(file: string, noiseDb = -50, minSeconds = 0.3): Promise<[number, number][]> {
  const log = await runVideoToolForLog('ffmpeg', 'ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-af',
    `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`,
    '-f',
    'null',
    '-',
  ]);
  const starts = [...log.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...log.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.map((s, k) => [Math.max(0, s), ends[k] ?? Infinity]);
}

/** The first audio stream's facts as ffprobe gives them, for checking a file's format independently of the code. */
export function audioStreams(file: string): Record<string, string>[] {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,profile,sample_rate,channels:format=duration',
    '-of',
    'json',
    file,
  ]).toString();
  const info = JSON.parse(out) as { streams: Record<string, string>[]; format: { duration: string } };
  return info.streams.map((s) => ({ ...s, duration: info.format.duration }));
}

/**
 * RMS level (dB) of every `frameSeconds` of the file, by ffmpeg's astats, in order; above 300 Hz only (the ear
 * hears a new note by its attack and overtones, not by the bass's steady energy), unless `fullBand`.
 */
export async function rmsFrames(file: string, frameSeconds = 0.02, fullBand = false): Promise<number[]> {
  const samples = Math.round(48_000 * frameSeconds);
  const out = await runVideoTool(
    'ffmpeg',
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      file,
      '-af',
      `aresample=48000,${fullBand ? '' : 'highpass=f=300:poles=2,'}asetnsamples=n=${samples},` +
        'astats=metadata=1:reset=1,' +
        'ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-',
      '-f',
      'null',
      '-',
    ],
    { maxBuffer: 64 << 20 },
  );
  return [...out.matchAll(/RMS_level=(\S+)/g)].map((m) => (m[1] === '-inf' ? -200 : Number(m[1])));
}

/**
 * Onsets: times where a frame's level jumps at least `riseDb` above the mean of the `history` frames before it (in
 * seconds; a new onset at least 100 ms after the last).
 */
export function onsets(levels: readonly number[], frameSeconds = 0.02, riseDb = 4, history = 5): number[] {
  const found: number[] = [];
  for (let i = history; i < levels.length; i++) {
    const before = levels.slice(i - history, i).reduce((a, b) => a + b, 0) / history;
    const t = i * frameSeconds;
    if (levels[i]! - before >= riseDb && (found.length === 0 || t - found[found.length - 1]! >= 0.1)) found.push(t);
  }
  return found;
}
