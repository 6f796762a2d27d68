// The video length a prompt asks for: "a 10-second ad", "un anuncio de 8 segundos", "ein 10-Sekunden-
// Video", "8秒の広告", "إعلان مدته ٨ ثوانٍ", "half a minute promo". A length counts only next to what
// names the video (a noun like "video", "anuncio", "広告", or a word like "long", "de duración"), or as
// the adjective opening the prompt ("A 4-second hello"): "Wait 30 seconds" in a how-to and "pasta in
// 15 minutes" are what the video says, not how long it lasts.
import { LEXICONS, pattern, type Lexicon } from './lexicon.js';
import { digitValue, numberOf } from './numbers.js';
import type { Span } from './text.js';

export type StatedLength = { seconds: number; span: Span };

/** How far (characters) a length may be from the noun that makes it the video's. */
const NEAR = 28;

function lengthsIn(text: string, lex: Lexicon): StatedLength[] {
  const found: StatedLength[] = [];
  const number = `(\\p{Nd}+(?:[.,]\\p{Nd}+)?|{numberWords})`;
  const unit = pattern(lex, `${number}[\\s\\u00A0-]*(?:({seconds})|({minutes}))`, 'giu');
  const half = pattern(lex, `{halfMinute}`, 'giu');
  const whole = pattern(lex, `{wholeMinute}`, 'giu');
  for (const m of text.matchAll(unit)) {
    const n = /^\p{Nd}/u.test(m[1]!)
      ? Number([...m[1]!].map((c) => (/\p{Nd}/u.test(c) ? String(digitValue(c)) : '.')).join(''))
      : numberOf(m[1]!, lex);
    if (n === null || !Number.isFinite(n)) continue;
    // A one-letter unit follows digits only: "один с преподавателем" is "one with the teacher".
    if (!/^\p{Nd}/u.test(m[1]!) && [...(m[2] ?? m[3] ?? '')].length < 2) continue;
    // "the 80s": a decade, not a length.
    if (/^[2-9]0s$/i.test(m[0])) continue;
    found.push({ seconds: m[3] ? n * 60 : n, span: { text: m[0], start: m.index } });
  }
  for (const m of text.matchAll(half)) found.push({ seconds: 30, span: { text: m[0], start: m.index } });
  for (const m of text.matchAll(whole)) found.push({ seconds: 60, span: { text: m[0], start: m.index } });
  const names = pattern(lex, `{videoNouns}|{lengthWords}`, 'giu');
  const opening = pattern(lex, `^\\s*(?:(?:{metaVerbs}|{metaWords})[\\s,]+){0,3}$`);
  return found.filter((l) => {
    // "A 4-second hello": a length made an adjective at the prompt's start describes the video.
    if (/\p{N}\s*-\s*\p{L}/u.test(l.span.text) && opening.test(text.slice(0, l.span.start))) return true;
    // Within the length's sentence, near it.
    const from = Math.max(0, l.span.start - NEAR);
    const to = Math.min(text.length, l.span.start + l.span.text.length + NEAR);
    const before = text
      .slice(from, l.span.start)
      .split(/[.!?。！？\n]/u)
      .pop()!;
    const after = text.slice(l.span.start + l.span.text.length, to).split(/[.!?。！？\n]/u)[0]!;
    names.lastIndex = 0;
    return names.test(before) || ((names.lastIndex = 0), names.test(after));
  });
}

/**
 * The length the text asks for, in the language `lex` (default: every language we have), and where it
 * says so; null when it names none. Not clamped: the caller applies the limits.
 */
export function statedLength(text: string, lex?: Lexicon): StatedLength | null {
  const lexicons = (lex ? [lex] : [...LEXICONS.values()]).filter((l) =>
    pattern(l, `{seconds}|{minutes}|{halfMinute}|{wholeMinute}`).test(text),
  );
  const all = lexicons.flatMap((l) => lengthsIn(text, l));
  // The earliest mention wins ("a 30-second cut of the 2 minute film").
  return all.sort((a, b) => a.span.start - b.span.start || b.span.text.length - a.span.text.length)[0] ?? null;
}

/** Seconds the text asks for, or null when it names no length. */
export function statedDurationSeconds(text: string): number | null {
  return statedLength(text)?.seconds ?? null;
}
