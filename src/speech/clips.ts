// A spoken clip on the timeline: how long it plays, fitted to its scene (sped up within the allowed
// pace when it is longer than the scene leaves it), and where speech is in it (for the captions).
import { runVideoTool } from '../video/index.js';

/** Silence below this level and at least this long separates phrases. */
const SILENCE_DB = -35;
const SILENCE_SECONDS = 0.18;
/** Reading a clip's headers or filtering a minute of speech takes well under this. */
const RUN_TIMEOUT_MS = 120_000;

export type SpeechSpan = { start: number; end: number };

/** Seconds `file` plays. */
export async function clipSeconds(ffmpegPath: string, file: string, signal?: AbortSignal): Promise<number> {
  const out = await runVideoTool(
    ffmpegPath,
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
    { timeoutMs: RUN_TIMEOUT_MS, signal },
  );
  const seconds = Number(out.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`no duration for ${file}: ${out.trim()}`);
  return seconds;
}

/**
 * `file` as 48 kHz mono WAV at `outFile`, sped up by `tempo` (1: as spoken; the caller keeps it within
 * the allowed pace), leading and trailing silence kept.
 */
export async function fitClip(
  ffmpegPath: string,
  file: string,
  outFile: string,
  tempo: number,
  signal?: AbortSignal,
): Promise<void> {
  const filters = Math.abs(tempo - 1) > 1e-3 ? ['-af', `atempo=${tempo.toFixed(4)}`] : [];
  await runVideoTool(
    ffmpegPath,
    'ffmpeg',
    ['-v', 'error', '-i', file, ...filters, '-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', '-y', outFile],
    { timeoutMs: RUN_TIMEOUT_MS, signal },
  );
}

/** Where `file` has speech: the stretches between silences that ffmpeg's silencedetect finds. */
export async function speechSpans(ffmpegPath: string, file: string, signal?: AbortSignal): Promise<SpeechSpan[]> {
  const total = await clipSeconds(ffmpegPath, file, signal);
  const out = await runVideoTool(
    ffmpegPath,
    'ffmpeg',
    [
      ...['-v', 'error', '-i', file, '-af'],
      `silencedetect=n=${SILENCE_DB}dB:d=${SILENCE_SECONDS},ametadata=mode=print:file=-`,
      ...['-f', 'null', '-'],
    ],
    { timeoutMs: RUN_TIMEOUT_MS, signal, maxBuffer: 8 << 20 },
  );
  const silences: SpeechSpan[] = [];
  let open: number | null = null;
  for (const m of out.matchAll(/lavfi\.silence_(start|end)=(-?[\d.]+)/g)) {
    const t = Number(m[2]);
    if (m[1] === 'start') open = Math.max(0, t);
    else if (open !== null) {
      silences.push({ start: open, end: t });
      open = null;
    }
  }
  if (open !== null) silences.push({ start: open, end: total });
  const spans: SpeechSpan[] = [];
  let from = 0;
  for (const s of silences) {
    if (s.start - from > 0.05) spans.push({ start: from, end: s.start });
    from = s.end;
  }
  if (total - from > 0.05) spans.push({ start: from, end: total });
  return spans;
}
