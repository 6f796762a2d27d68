// Line breaking and type sizing: lines break where Intl.Segmenter's word boundaries allow (between
// words; in Chinese, Japanese, Thai, Lao, Khmer and Myanmar, which put no spaces between words, at the
// words ICU's dictionaries find), never before closing punctuation or after opening punctuation; the
// size is the largest at which the wrapped lines fit a box. Widths come from a measure function (the
// advances HarfBuzz gives, shape.ts).
import { CJK, graphemesOf } from './scripts.js';

/** Characters a line must not start with (closing punctuation, small kana). */
const NO_LINE_START =
  /^[、。，．・：；？！）」』】〉》〕］｝ー…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?;:)\]}%’”।॥]/u;
const NO_LINE_END = /[（「『【〈《〔［｛([{‘“]$/u;
/** Scripts written without spaces between words: a line may break between any two of their words. */
const NO_SPACES = new RegExp(
  `${CJK.source.slice(0, -1)}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}]`,
  'u',
);
const LOCALES: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Lao}/u, 'lo'],
  [/\p{Script=Khmer}/u, 'km'],
  [/\p{Script=Myanmar}/u, 'my'],
];
const segmenters = new Map<string, Intl.Segmenter>();

/**
 * Unbreakable pieces of a text, each with its trailing space: its words with the punctuation that
 * clings to them ("cafe.jp", "3.5", "(now)!" stay whole; closing punctuation stays on the word before,
 * opening brackets on the word after).
 */
function pieces(text: string): string[] {
  const locale = LOCALES.find(([re]) => re.test(text))?.[1] ?? 'en';
  let segmenter = segmenters.get(locale);
  if (!segmenter) segmenters.set(locale, (segmenter = new Intl.Segmenter(locale, { granularity: 'word' })));
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const prev = out[out.length - 1];
    const joinsPrev =
      prev !== undefined &&
      (segment.trim() === '' || // spaces end the piece before them
        NO_LINE_START.test(segment) ||
        NO_LINE_END.test(prev) ||
        // Words with no space between them stay together, unless written in a script without spaces
        (!prev.endsWith(' ') && !NO_SPACES.test(segment[0]!) && !NO_SPACES.test(prev.at(-1)!)));
    if (joinsPrev && !(prev.endsWith(' ') && segment.trim() !== '')) out[out.length - 1] = prev + segment;
    else out.push(segment);
  }
  return out;
}

/**
 * Greedy line breaking at `maxWidth`; a piece wider than a line is broken between characters (and
 * `info.split` set, so a caller can prefer a smaller size).
 */
export function wrapText(
  text: string,
  maxWidth: number,
  measure: (s: string) => number,
  info?: { split: boolean },
): string[] {
  const lines: string[] = [];
  let current = '';
  for (const piece of pieces(text.trim())) {
    const candidate = current + piece;
    if (!current || measure(candidate.trimEnd()) <= maxWidth) {
      if (!current && measure(piece.trimEnd()) > maxWidth) {
        // One word wider than the line: split it where it must.
        if (info) info.split = true;
        let part = '';
        for (const ch of graphemesOf(piece)) {
          if (part && measure(part + ch) > maxWidth) {
            lines.push(part);
            part = '';
          }
          part += ch;
        }
        current = part;
      } else current = candidate;
    } else {
      lines.push(current.trimEnd());
      current = piece.trimStart();
    }
  }
  if (current.trim()) lines.push(current.trimEnd());
  return lines.length ? lines : [''];
}

/** The same number of lines as greedy breaking gives, at the narrowest width that keeps it: even lines. */
export function balancedWrap(
  text: string,
  maxWidth: number,
  measure: (s: string) => number,
  info?: { split: boolean },
): string[] {
  const greedy = wrapText(text, maxWidth, measure, info);
  if (greedy.length < 2) return greedy;
  let lo = maxWidth / greedy.length;
  let hi = maxWidth;
  let best = greedy;
  for (let i = 0; i < 10; i++) {
    const mid = (lo + hi) / 2;
    const split = { split: false };
    const lines = wrapText(text, mid, measure, split);
    // Narrower, but never by breaking a word the full width kept whole.
    if (lines.length <= greedy.length && (!split.split || info?.split)) {
      best = lines;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

export type FitOptions = {
  maxWidth: number;
  maxHeight: number;
  maxSize: number;
  /** Size below which the text is not shrunk unless it does not fit otherwise. */
  minSize: number;
  /** Line height as a multiple of the size. */
  leading: number;
  maxLines?: number;
  balance?: boolean;
  /** Ascent and descent as fractions of the size (the font's): the block's first and last line extents. */
  ascent: number;
  descent: number;
};

/** `split`: a word is broken across lines (only when even the smallest size allowed cannot hold it). */
export type FittedText = {
  size: number;
  lines: string[];
  lineHeight: number;
  width: number;
  height: number;
  split?: boolean;
};

/** The largest size (down from maxSize) at which the wrapped text fits the box; below minSize only if it must. */
export function fitText(text: string, measureAt: (s: string, size: number) => number, o: FitOptions): FittedText {
  let size = o.maxSize;
  const floor = Math.max(4, Math.min(o.minSize, o.maxSize) * 0.35);
  for (;;) {
    size = round1(size);
    const measure = (s: string) => measureAt(s, size);
    const info = { split: false };
    const lines = (o.balance ? balancedWrap : wrapText)(text, o.maxWidth, measure, info);
    const lineHeight = size * o.leading;
    const height = size * (o.ascent + o.descent) + (lines.length - 1) * lineHeight;
    const width = Math.max(...lines.map(measure));
    // A word broken across lines only when even the smallest size cannot hold it.
    const fits =
      !info.split && width <= o.maxWidth + 0.5 && height <= o.maxHeight && lines.length <= (o.maxLines ?? Infinity);
    const fitsSoftly = width <= o.maxWidth + 0.5 && height <= o.maxHeight;
    if (fits || (size <= o.minSize && fitsSoftly) || size <= floor) {
      const found = { size, lines, lineHeight: round1(lineHeight), width, height, split: info.split };
      return o.balance && lines.length > 1 ? fewerLines(text, measureAt, o, found) : found;
    }
    size = Math.max(floor, size * 0.94);
  }
}

/** A headline a little smaller (down to 80 %) when that saves a line: "Launch day / for Nova", not three lines. */
function fewerLines(
  text: string,
  measureAt: (s: string, size: number) => number,
  o: FitOptions,
  found: FittedText,
): FittedText {
  for (let k = 1; k <= 5; k++) {
    const size = round1(found.size * 0.96 ** k);
    if (size >= found.size) continue; // rounding: tiny sizes
    const measure = (s: string) => measureAt(s, size);
    const info = { split: false };
    const lines = balancedWrap(text, o.maxWidth, measure, info);
    if (lines.length < found.lines.length && !info.split) {
      const lineHeight = size * o.leading;
      return {
        size,
        lines,
        lineHeight: round1(lineHeight),
        width: Math.max(...lines.map(measure)),
        height: size * (o.ascent + o.descent) + (lines.length - 1) * lineHeight,
      };
    }
  }
  return found;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
