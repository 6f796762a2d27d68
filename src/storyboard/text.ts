// Language-neutral text handling for the planner: sentences, words and graphemes by Intl.Segmenter
// (every language, Japanese, Chinese and Thai without spaces included), and the trimming the fidelity
// rule allows — whitespace and surrounding punctuation, never a letter.

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(lang: string, granularity: 'sentence' | 'word' | 'grapheme'): Intl.Segmenter {
  const key = `${lang} ${granularity}`;
  let s = segmenters.get(key);
  if (!s) segmenters.set(key, (s = new Intl.Segmenter(lang === 'und' ? undefined : lang, { granularity })));
  return s;
}

/** A piece of the prompt: its text and where it starts in the prompt. */
export type Span = { text: string; start: number };

export const spanEnd = (s: Span) => s.start + s.text.length;

/** The span without surrounding whitespace. */
export function trimSpan(s: Span): Span {
  const lead = s.text.length - s.text.trimStart().length;
  return { text: s.text.trim(), start: s.start + lead };
}

/** A part of a span, by offsets within it. */
export const sub = (s: Span, from: number, to = s.text.length): Span =>
  trimSpan({ text: s.text.slice(from, to), start: s.start + from });

/** Punctuation a piece of text may lose at its ends (closing marks a quote or bracket needs stay). */
const EDGE_START = /^[\s,;:.!?、，；：。！？،؛।॥…–—\-•·*|/→⇒➔➡]+/u;
const EDGE_END = /[\s,;:.、，；：。،؛।॥…–—\-•·*|/→⇒➔➡]+$/u;

/** The text without the separators around it (a trailing "!" or "?" stays: it is part of the sentence). */
export function trimEdges(s: Span): Span {
  let t = trimSpan(s);
  const lead = EDGE_START.exec(t.text)?.[0].length ?? 0;
  const trail = EDGE_END.exec(t.text.slice(lead))?.[0].length ?? 0;
  t = sub(t, lead, t.text.length - trail);
  // A bracket or quote mark left without its partner is punctuation too.
  return balanced(t);
}

const PAIRS: Record<string, string> = {
  '(': ')',
  '[': ']',
  '«': '»',
  '“': '”',
  '„': '“',
  '「': '」',
  '『': '』',
  '‘': '’',
  '"': '"',
};

/** Drops an opening mark at the start whose closing mark is missing, and the reverse at the end. */
function balanced(s: Span): Span {
  let t = s;
  for (let i = 0; i < 2; i++) {
    const first = t.text[0];
    const last = t.text[t.text.length - 1];
    if (first && PAIRS[first] && !t.text.slice(1).includes(PAIRS[first]!)) t = sub(t, 1);
    else if (last && Object.values(PAIRS).includes(last)) {
      const open = Object.keys(PAIRS).filter((k) => PAIRS[k] === last);
      if (
        !open.some((o) => t.text.slice(0, -1).includes(o)) &&
        !(last === '"' && (t.text.match(/"/g)?.length ?? 0) % 2 === 0)
      )
        t = sub(t, 0, t.text.length - 1);
      else break;
    } else break;
  }
  return t;
}

/**
 * Sentences, by Intl.Segmenter; also split where ICU keeps going after a full stop followed by a figure
 * ("Cookies cost $2.50. 98% come back.") and at line breaks; no break after a full stop a letter follows at
 * once ("एम.जी."); `joins(before, after)` says where else a break ICU found is none (after an abbreviation, "ул.",
 * "12. Mai").
 */
export function sentences(s: Span, lang: string, joins?: (before: string, after: string) => boolean): Span[] {
  let out: Span[] = [];
  for (const seg of segmenter(lang, 'sentence').segment(s.text)) {
    const piece = { text: seg.segment, start: s.start + seg.index };
    let from = 0;
    for (const m of piece.text.matchAll(/(?<=[\p{L}\p{N}%)）»”"’」』\]][.!?])\s+(?=[\p{N}$€£¥₹])|\n+/gu)) {
      out.push(sub(piece, from, m.index));
      from = m.index + m[0].length;
    }
    out.push(sub(piece, from));
  }
  out = out.filter((x) => /[\p{L}\p{N}]/u.test(x.text));
  // A full stop with a letter right after it (no space) ends no sentence: letters written with dots ("एम.जी.").
  const dotted = (prev: Span, x: Span) => /\.$/u.test(prev.text) && spanEnd(prev) === x.start && /^\p{L}/u.test(x.text);
  // Nor does a mark inside brackets when the sentence goes on (in lower case, or after a comma): "110 € (¡el más
  // vendido!) y …", "15,400円（一番人気！）、…".
  const bracketed = (prev: Span, x: Span) =>
    /[!?！？][)）]\s*$/u.test(prev.text) && /^(?:\p{Ll}|[,、，;；])/u.test(x.text);
  const joined: Span[] = [];
  for (const x of out) {
    const prev = joined.at(-1);
    if (prev && (dotted(prev, x) || bracketed(prev, x) || joins?.(prev.text, x.text)))
      joined[joined.length - 1] = { text: s.text.slice(prev.start - s.start, spanEnd(x) - s.start), start: prev.start };
    else joined.push(x);
  }
  return joined;
}

/** Word-like segments (letters or digits) with their offsets. */
function wordSpans(s: Span, lang: string): Span[] {
  const out: Span[] = [];
  for (const seg of segmenter(lang, 'word').segment(s.text))
    if (seg.isWordLike) out.push({ text: seg.segment, start: s.start + seg.index });
  return out;
}

const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/** Words, for length budgets: text without spaces counts two characters as a word. */
export function wordCount(text: string, lang: string): number {
  const dense = (text.match(DENSE) ?? []).length;
  const rest = wordSpans({ text: text.replace(DENSE, ' '), start: 0 }, lang).length;
  return rest + Math.ceil(dense / 2);
}

/** The first grapheme in upper case (case is the look's to choose; the letters stay the user's). */
export function capitalise(text: string, lang: string): string {
  const first = segmenter(lang, 'grapheme').segment(text)[Symbol.iterator]().next().value;
  if (!first) return text;
  return first.segment.toLocaleUpperCase(lang === 'und' ? undefined : lang) + text.slice(first.segment.length);
}

/**
 * Clauses of a sentence: split after commas, semicolons, colons and dashes (Latin, CJK and Arabic
 * forms), not inside figures ("1,250", "3,5": a comma between two digits) nor inside brackets ("（Chenguang Tech Co.,
 * Ltd.）").
 */
export function clauses(s: Span): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (const m of s.text.matchAll(/(?:(?<!\p{N})[,;]|[,;](?!\p{N}))\s*|\s+[–—]\s+|[、，；،؛]\s*|:\s+|：/gu)) {
    const before = s.text.slice(0, m.index);
    if ((before.match(/[(（[]/gu)?.length ?? 0) > (before.match(/[)）\]]/gu)?.length ?? 0)) continue;
    out.push(sub(s, from, m.index));
    from = m.index + m[0].length;
  }
  out.push(sub(s, from));
  return out.filter((c) => /[\p{L}\p{N}]/u.test(c.text));
}
