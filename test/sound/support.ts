// Measuring a video's sound from outside, as a user's tools would: ffprobe for the stream, ffmpeg's
// ebur128 filter (ITU-R BS.1770) for loudness and true peak, silencedetect for where speech starts.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Downloads a URL to a temporary file. */
export async function download(url: string, name: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sound-test-'));
  const file = path.join(dir, name);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

export type AudioStream = { codec: string; profile: string; sampleRate: number; channels: number; duration: number };

/** The file's audio streams as ffprobe lists them. */
export async function audioStreams(file: string): Promise<AudioStream[]> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_streams',
    '-select_streams',
    'a',
    '-of',
    'json',
    file,
  ]);
  const streams = (JSON.parse(stdout).streams ?? []) as Record<string, string | number>[];
  return streams.map((s) => ({
    codec: String(s.codec_name),
    profile: String(s.profile ?? ''),
    sampleRate: Number(s.sample_rate),
    channels: Number(s.channels),
    duration: Number(s.duration),
  }));
}

/** Integrated loudness (LUFS) and true peak (dBTP) by ebur128's summary. */
export async function loudness(file: string): Promise<{ lufs: number; truePeak: number }> {
  const { stderr } = await run('ffmpeg', ['-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'], {
    maxBuffer: 64 << 20,
  });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const lufs = Number(/I:\s*(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/Peak:\s*(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  return { lufs, truePeak };
}

/** Where speech starts: the ends of the silences silencedetect finds (and 0 when the sound starts loud). */
export async function speechOnsets(file: string, noiseDb = -35, minSilence = 0.18): Promise<number[]> {
  const { stderr } = await run(
    'ffmpeg',
    ['-nostats', '-i', file, '-af', `silencedetect=n=${noiseDb}dB:d=${minSilence}`, '-f', 'null', '-'],
    { maxBuffer: 64 << 20 },
  );
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  return starts[0] !== undefined && starts[0] > 0.05 ? [0, ...ends] : ends;
}

/** A WebVTT document's cues: start and end in seconds, and text. */
export function vttCues(vtt: string): { start: number; end: number; text: string }[] {
  const secs = (t: string) => {
    const [h, m, s] = t.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(s);
  };
  return [...vtt.matchAll(/(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n([^\n]+)/g)].map((m) => ({
    start: secs(m[1]!),
    end: secs(m[2]!),
    text: m[3]!,
  }));
}

/** A WAV of `seconds` of a 220 Hz tone after 0.1 s of silence: what a speech server answers, as bytes. */
export function toneWav(seconds: number, rate = 24_000): Buffer {
  const samples = Math.round(rate * (seconds + 0.1));
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const v = t < 0.1 ? 0 : Math.sin(2 * Math.PI * 220 * t) * 0.4;
    data.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** The RGB24 pixels of the frame of `file` shown at `seconds`. */
export async function frameAt(file: string, seconds: number, size: { width: number; height: number }): Promise<Buffer> {
  const args = ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo'];
  const { stdout } = await run('ffmpeg', [...args, '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: size.width * size.height * 3 + (1 << 20),
  });
  return stdout as unknown as Buffer;
}

/**
 * The rows where two frames of the same size differ: rows where over `minShare` of the pixels differ visibly (the
 * channels by over 60 in all), so that a re-encode's scattered changes at sharp edges do not count.
 */
export function changedRows(a: Buffer, b: Buffer, width: number, minShare = 0.05): number[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < Math.min(a.length, b.length); i += 3)
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 60) {
      const row = Math.floor(i / 3 / width);
      counts.set(row, (counts.get(row) ?? 0) + 1);
    }
  return [...counts]
    .filter(([, n]) => n > width * minShare)
    .map(([row]) => row)
    .sort((x, y) => x - y);
}
