// Writing systems: the one definition of each script's characters, of a text's direction, and of
// the emoji in a text. Pure (no fonts, no WASM): the storyboard planner imports it too.

export type Script =
  | 'latin'
  | 'cjk-jp'
  | 'cjk-kr'
  | 'cjk-sc'
  | 'arabic'
  | 'hebrew'
  | 'devanagari'
  | 'thai'
  | 'bengali'
  | 'tamil'
  | 'gujarati'
  | 'gurmukhi'
  | 'kannada'
  | 'malayalam'
  | 'telugu'
  | 'georgian'
  | 'armenian'
  | 'ethiopic'
  | 'khmer'
  | 'lao'
  | 'sinhala'
  | 'myanmar';

/** Unicode script name of each script with its own Noto family (`Noto Sans <Name>`). */
export const SCRIPT_NAMES = {
  arabic: 'Arabic',
  hebrew: 'Hebrew',
  devanagari: 'Devanagari',
  thai: 'Thai',
  bengali: 'Bengali',
  tamil: 'Tamil',
  gujarati: 'Gujarati',
  gurmukhi: 'Gurmukhi',
  kannada: 'Kannada',
  malayalam: 'Malayalam',
  telugu: 'Telugu',
  georgian: 'Georgian',
  armenian: 'Armenian',
  ethiopic: 'Ethiopic',
  khmer: 'Khmer',
  lao: 'Lao',
  sinhala: 'Sinhala',
  myanmar: 'Myanmar',
} as const satisfies Partial<Record<Script, string>>;

const OWN_SCRIPTS = Object.entries(SCRIPT_NAMES).map(
  ([script, name]) => [script as Script, new RegExp(`\\p{Script=${name}}`, 'u')] as const,
);

/** Chinese, Japanese and Korean letters (`g` flag: to count or replace them all). */
export const CJK_LETTERS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** Whether a text ends with a Chinese, Japanese or Korean letter. */
export const endsWithCjkLetter = (text: string) => new RegExp(`${CJK_LETTERS.source}$`, 'u').test(text);
/** Whether a text holds a Chinese, Japanese or Korean letter. */
export const hasCjkLetter = (text: string) => new RegExp(CJK_LETTERS.source, 'u').test(text);
/** A Chinese, Japanese or Korean character (letters, CJK punctuation, full-width forms). */
export const CJK = new RegExp(`${CJK_LETTERS.source.slice(0, -1)}\\u3000-\\u303f\\uff00-\\uffef]`, 'u');
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const LATIN = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
/** Letters written right to left. */
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/** The script of one character, or null for common characters (digits, punctuation, spaces, symbols, marks). */
export function scriptOfChar(ch: string): Script | null {
  if (LATIN.test(ch)) return 'latin';
  if (KANA.test(ch)) return 'cjk-jp';
  if (HANGUL.test(ch)) return 'cjk-kr';
  if (CJK.test(ch)) return 'cjk-sc';
  for (const [script, re] of OWN_SCRIPTS) if (re.test(ch)) return script;
  return null;
}

/**
 * The main script of a text (to choose its face and line spacing): the most frequent script other
 * than Latin, Japanese when there is any kana (Han characters read as Japanese then), Korean with any
 * Hangul, else Latin.
 */
export function scriptOf(text: string): Script {
  const counts = new Map<Script, number>();
  for (const ch of text) {
    const s = scriptOfChar(ch);
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  if (counts.has('cjk-jp')) return 'cjk-jp';
  if (counts.has('cjk-kr')) return 'cjk-kr';
  let best: Script = 'latin';
  let n = 0;
  for (const [s, c] of counts) if (s !== 'latin' && c > n) [best, n] = [s, c];
  return best;
}

export const isCjk = (script: Script) => script.startsWith('cjk-');

export type Direction = 'ltr' | 'rtl';

/** A text's direction: right to left when more than half of its letters are Arabic or Hebrew. */
export function directionOf(text: string): Direction {
  let rtl = 0;
  let letters = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (RTL_LETTER.test(ch)) rtl++;
  }
  return rtl > letters / 2 ? 'rtl' : 'ltr';
}

// ---- Emoji ---------------------------------------------------------------------------------------

// Unicode's own list of emoji sequences (RGI: keycaps, flags, skin tones, ZWJ sequences), as the
// JavaScript engine knows it; built from a string because the `v` flag is newer than the compile target.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
let graphemes: Intl.Segmenter | undefined;

/** The user-perceived characters of a text (grapheme clusters). */
export function graphemesOf(text: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return [...graphemes.segment(text)].map((s) => s.segment);
}

/** Whether a grapheme cluster is one emoji (a pictograph with its modifiers, a flag, a keycap, a ZWJ sequence). */
export const isEmoji = (cluster: string): boolean =>
  RGI_EMOJI.test(cluster) || RGI_EMOJI.test(cluster.replace(/\uFE0E/g, ''));

/** Emoji of a text, in order. */
export const emojiIn = (text: string): string[] => graphemesOf(text).filter(isEmoji);

/** The text without its emoji (and without the spaces they leave doubled). */
export const withoutEmoji = (text: string): string =>
  graphemesOf(text)
    .map((g) => (isEmoji(g) ? ' ' : g))
    .join('')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ ([,.!?;:])/g, '$1')
    .trim();
