// Narration: what the voice says over a scene, and how long that takes. The planner's narration is the
// scene's own text (the user's words, in reading order); a storyboard request may write its own. A
// scene lasts at least its narration plus a breath; when the video's length is fixed, the voice may
// speak up to MAX_SPEECH_RATE times its natural pace to fit, never faster (README, Sound).
import { sceneTexts, type Scene } from './types.js';

/** Silence before the voice starts in a scene, and after it ends (the breath before the next scene). */
export const NARRATION_LEAD_SECONDS = 0.2;
export const NARRATION_BREATH_SECONDS = 0.5;
/** The voice's pace stays within these multiples of its natural pace. */
export const MIN_SPEECH_RATE = 0.85;
export const MAX_SPEECH_RATE = 1.2;
/**
 * Characters a video's narration has at most: a minute said at the fastest pace allowed by the fastest
 * voice. The credit hold reserves it (speech is billed per character, src/credits/hold.ts).
 */
export const MAX_NARRATION_CHARACTERS = Math.floor(60 * 14 * MAX_SPEECH_RATE);

/**
 * Characters a second the voices say at their natural pace, by language (measured on the embedded
 * voice: Festival's English voice says about 14 a second); scripts without spaces say fewer characters.
 */
const CHARS_PER_SECOND: Record<string, number> = { ja: 2.5, zh: 3, ko: 6, ar: 12, hi: 12, ru: 11 };
const DEFAULT_CHARS_PER_SECOND = 14;

/** Seconds a voice takes to say `text` at its natural pace (an estimate the mix later corrects). */
export function narrationSeconds(text: string, lang: string): number {
  const rate = CHARS_PER_SECOND[lang.toLowerCase().split('-')[0]!] ?? DEFAULT_CHARS_PER_SECOND;
  return [...text.trim()].length / rate;
}

/** The least a scene with this narration may last: lead, speech at the fastest pace allowed, breath. */
export function narrationMinSeconds(text: string, lang: string): number {
  return NARRATION_LEAD_SECONDS + narrationSeconds(text, lang) / MAX_SPEECH_RATE + NARRATION_BREATH_SECONDS;
}

/** What a scene lasts at least to be read aloud at the natural pace. */
export function narrationNaturalSeconds(text: string, lang: string): number {
  return NARRATION_LEAD_SECONDS + narrationSeconds(text, lang) + NARRATION_BREATH_SECONDS;
}

/**
 * The planner's narration of a scene: the texts it shows, in reading order, as sentences; a figure is
 * said in one phrase with its qualifier and label ("Over 12,000 teams use Ledgerly"), as the user wrote it.
 */
export function narrationOf(scene: Scene): string | null {
  const phrase = (...xs: (string | null | undefined)[]) => xs.filter((x) => x?.trim()).join(' ');
  const texts =
    scene.kind === 'counter'
      ? [phrase(scene.qualifier, scene.figure.text, scene.label)]
      : scene.kind === 'progress'
        ? [phrase(scene.figure.text, scene.label)]
        : scene.kind === 'bars'
          ? [scene.label, ...scene.bars.map((b) => phrase(b.label, b.figure.text))]
          : sceneTexts(scene);
  const parts = texts.map((t) => t.trim()).filter(Boolean);
  if (parts.length === 0) return null;
  // A phrase without its own closing punctuation gets a full stop, so the voice pauses between them.
  return parts.map((p) => (/[.!?。！？…:;,،؟।]$/u.test(p) ? p : `${p}.`)).join(' ');
}

/** A line of narration an LLM wrote with its composition: said from `at` seconds (README, Sound). */
export type NarrationLine = { at: number; text: string };

/** How a composition's narration is written, whatever carries it: a JSON array of lines. */
export const NARRATION_LINES_FORMAT =
  '[{"at": <seconds from the start when the line begins>, "text": "<what the voice says>"}, …]';

/**
 * The lines of a narration as an LLM wrote them (`[{"at": 0.3, "text": "…"}]`), in time order; lines without text
 * or a time within the video are left out, and so is anything that is not such an array (a composition without
 * narration is read by the voice from the prompt).
 */
export function narrationLines(value: unknown): NarrationLine[] {
  if (!Array.isArray(value)) return [];
  return value
    .flatMap((v) => {
      const line = v as { at?: unknown; text?: unknown };
      return typeof line?.at === 'number' && Number.isFinite(line.at) && line.at >= 0 && typeof line.text === 'string'
        ? [{ at: line.at, text: line.text.replace(/\s+/g, ' ').trim() }]
        : [];
    })
    .filter((l) => l.text)
    .sort((a, b) => a.at - b.at);
}
