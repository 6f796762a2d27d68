// Figures in the user's text: digits of any script (Arabic-Indic, Devanagari, full-width…) with the
// separators as written ("1,250", "1.250", "3 200", "١٢٬٠٠٠", "1,20,000"), their prefix and suffix
// ("$", "%", "million", "km", "家"), and whether each is a quantity worth counting — money, a
// percentage, a measure, a count of a named thing — or not: a time of day, a date, a year, an id or a
// code ("4B", "A320", "Desk 12"), a phone number, an address.
import { endsWithCjkLetter, hasCjkLetter } from '../text/scripts.js';
import { pattern, type Lexicon } from './lexicon.js';
import type { Figure } from './types.js';
import type { Span } from './text.js';

/** The value of one decimal digit of any script: its distance from the zero of its run of ten. */
export function digitValue(ch: string): number {
  let cp = ch.codePointAt(0)!;
  let n = 0;
  while (n < 10 && /\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
    cp--;
    n++;
  }
  // Runs of digits are blocks of ten (some blocks follow each other: mathematical digits).
  return n % 10;
}

const zeroOf = (ch: string) => ch.codePointAt(0)! - digitValue(ch);

/** Digits of a number word's value, or of a figure, in the digits of `zero`. */
function inDigits(text: string, zero: number): string {
  return text.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

const SPACES = new Set([' ', '\u00A0', '\u202F']);
const GROUP_ONLY = new Set([...SPACES, '٬', "'", '’']);

/** The number a run of digits and separators writes, and how (null when it is not one number). */
function readNumber(
  run: string,
  lex: Lexicon,
): { digits: string; value: number; decimals: number; group: string; decimal: string; lakh: boolean } | null {
  const parts = run.split(/([^\p{Nd}])/u);
  // parts: group, sep, group, sep, group…
  let groups = parts.filter((_, i) => i % 2 === 0);
  let seps = parts.filter((_, i) => i % 2 === 1);
  // A space separates groups of three only; otherwise it ends the number ("020 7946 0018").
  const cut = seps.findIndex((s, i) => SPACES.has(s) && groups[i + 1]!.length !== 3);
  if (cut >= 0) {
    groups = groups.slice(0, cut + 1);
    seps = seps.slice(0, cut);
  }
  let group = '';
  let decimal: string = lex.decimal;
  let decimals = 0;
  const kinds = [...new Set(seps)];
  if (kinds.length === 1 && seps.length === 1) {
    const s = seps[0]!;
    const isGroup = GROUP_ONLY.has(s) || (s !== '٫' && groups[1]!.length === 3 && s !== lex.decimal);
    if (isGroup) group = s;
    else {
      decimal = s;
      decimals = groups[1]!.length;
    }
  } else if (kinds.length === 1 && seps.length > 1) {
    group = kinds[0]!;
  } else if (kinds.length === 2) {
    const last = seps[seps.length - 1]!;
    if (seps.slice(0, -1).some((s) => s === last)) return null;
    group = seps[0]!;
    decimal = last;
    decimals = groups[groups.length - 1]!.length;
  } else if (kinds.length > 2) return null;
  const intGroups = decimals ? groups.slice(0, -1) : groups;
  let lakh = false;
  if (group) {
    const tail = intGroups.slice(1).map((g) => g.length);
    const threes = tail.every((n) => n === 3) && intGroups[0]!.length <= 3;
    lakh =
      !threes &&
      tail.length >= 2 &&
      tail[tail.length - 1] === 3 &&
      tail.slice(0, -1).every((n) => n === 2) &&
      intGroups[0]!.length <= 2;
    if (!threes && !lakh) return null;
  }
  const int = intGroups.join('');
  const frac = decimals ? groups[groups.length - 1]! : '';
  const ascii = (d: string) => [...d].map(digitValue).join('');
  const value = Number(`${ascii(int)}${frac ? `.${ascii(frac)}` : ''}`);
  const digits = groups.map((g, i) => (i ? seps[i - 1]! : '') + g).join('');
  return Number.isFinite(value) ? { digits, value, decimals, group, decimal, lakh } : null;
}

export type FigureKind = 'money' | 'percent' | 'measure' | 'count' | 'plain';

export type FoundFigure = {
  figure: Figure;
  /** Where the whole figure (prefix, digits, suffix) is in the prompt. */
  span: Span;
  kind: FigureKind;
  /** Money, a percentage, a measure or a count of a named thing: worth a counter. */
  quantity: boolean;
  /** Part of a code or a name: glued to letters ("Q1", "4B", "A320"). */
  code: boolean;
};

/** Before a price: a currency's sign or its ISO code ("AED 45", "CHF 12"). */
const CURRENCY_BEFORE =
  /(?:R\$|US\$|(?<![\p{L}])(?:CHF|AED|SAR|QAR|KWD|BHD|OMR|EGP|USD|EUR|GBP|INR)\s?|[$€£¥₹₩₺₽])\s?$/u;

/** The figures of a span, left to right. */
export function figuresIn(s: Span, lex: Lexicon): FoundFigure[] {
  const out: FoundFigure[] = [];
  const text = s.text;
  const after = (re: string) => pattern(lex, `^\\s?(?:${re})`);
  // A scale word may come before the currency ("8만원", "2万円", "1,5 Mio. €").
  const suffixRe = after(
    `(?:{magnitudes})\\s?(?:{currencies}|€|\\$)|%|٪|{magnitudes}|{units}|{currencies}` +
      `|[kKMB](?![\\p{L}\\p{N}])|bn(?![\\p{L}])|€|\\$`,
  );
  const runs = /\p{Nd}+(?:[.,٫٬'’\u00A0\u202F ]\p{Nd}+)*/gu;
  for (let m = runs.exec(text); m; m = runs.exec(text)) {
    // Digits glued to letters ("Q1 120") are a code: a space after them ends it.
    const codeLike = /[\p{L}]$/u.test(text.slice(0, m.index));
    const run = codeLike ? /^\p{Nd}+(?:[.,٫٬'’]\p{Nd}+)*/u.exec(m[0])![0] : m[0];
    const read = readNumber(run, lex) ?? readNumber(/^\p{Nd}+/u.exec(run)![0], lex)!;
    // A run read only in part ("020 7946 0018", "Q1 12k"): the rest is read next.
    runs.lastIndex = m.index + read.digits.length;
    const at = m.index;
    const end = at + read.digits.length;
    const before = text.slice(0, at);
    const rest = text.slice(end);
    // Glued to letters or other figures: a code ("4B", "A320", "G102", "B12"), a time ("14:45"), a version.
    const glued = /[\p{L}\p{N}_/\\#№-]$/u.test(before) && !endsWithCjkLetter(before);
    const prefixM = CURRENCY_BEFORE.exec(before) ?? /%$/u.exec(before);
    const prefix = prefixM?.[0] ?? '';
    const suffixM = suffixRe.exec(rest);
    // A suffix is not a glued word's start ("4Bs"), except in scripts without spaces.
    const suffix =
      suffixM &&
      !(/\p{L}$/u.test(suffixM[0]) && /^[\p{L}]/u.test(rest.slice(suffixM[0].length)) && !hasCjkLetter(suffixM[0]))
        ? suffixM[0]
        : '';
    const figureText = prefix + read.digits + suffix;
    const span = { text: figureText, start: s.start + at - prefix.length };
    const percent = /[%٪]/u.test(prefix + suffix);
    const money =
      /[$€£¥₹₩₺₽]|R\$|[A-Z]{3}/u.test(prefix) ||
      (suffix !== '' && pattern(lex, `^\\s?(?:(?:{magnitudes})\\s?)?(?:{currencies}|€|\\$)$`).test(suffix));
    const measure = suffix !== '' && !percent && !money;
    const kind: FigureKind = money ? 'money' : percent ? 'percent' : measure ? 'measure' : 'plain';
    const figure: Figure = {
      text: figureText,
      prefix,
      digits: read.digits,
      suffix,
      value: read.value,
      decimals: read.decimals,
      group: read.group,
      decimal: read.decimal,
      zero: zeroOf(m[0][0]!),
      lakh: read.lakh,
    };
    const next = rest.slice(suffix.length);
    out.push({
      figure,
      span,
      kind,
      quantity: !glued && isQuantity(kind, figure, before.slice(0, before.length - prefix.length), next, lex),
      code: glued,
    });
  }
  return out;
}

/** The word right after (or before) a figure, letters only. */
const nextWord = (text: string) => /^\s*([\p{L}\p{M}][\p{L}\p{M}'’.-]*)/u.exec(text)?.[1] ?? '';
const prevWord = (text: string) => /([\p{L}\p{M}][\p{L}\p{M}'’.-]*)[\s.]*$/u.exec(text)?.[1] ?? '';

function isQuantity(kind: FigureKind, f: Figure, before: string, after: string, lex: Lexicon): boolean {
  // A time or a date: "14:45", "7 pm", "12 de agosto", "6月8日", "21. Juni", "7 to 14 h".
  if (/^\s?[:h.]\s?\p{Nd}{2}(?!\p{Nd})/u.test(after) && f.group === '' && f.decimals === 0) return false;
  if (/\p{Nd}\s?[:]\s?$/u.test(before)) return false;
  const near = `${prevWord(before)} ${nextWord(after)}`;
  const timeOrDate = pattern(lex, `{timeWords}|{dateWords}`);
  if (kind === 'plain' || kind === 'measure') {
    const following = /^[\s.]*((?:\S+\s*){0,3})/u.exec(after)?.[1] ?? '';
    if (
      pattern(lex, `^(?:{timeWords}|{dateWords})`).test(following.trim()) ||
      pattern(lex, `^\\s*(?:[-–—]|{functionWords})\\s*\\p{Nd}+\\s*(?:{timeWords})`).test(after)
    )
      return false;
    if (timeOrDate.test(prevWord(before)) && kind === 'plain') return false;
  }
  if (
    kind === 'plain' &&
    /^(?:\.|-?(?:st|nd|rd|th|er|e|ème|º|ª|°|го|й|я|ci|inci|ıncı|üncü|uncu))(?![\p{L}])/u.test(after) &&
    !/^\.\s+\p{L}/u.test(after)
  )
    return false;
  // An id or a place: "Desk 12", "Gate A32", "BA 2490", "portal 4B", "№ 752", an address.
  if (pattern(lex, `(?:{idWords})\\s*$`).test(before) || /(?:^|\s)(?:\p{Lu}{1,3}|[#№])\s*$/u.test(before)) return false;
  if (
    pattern(lex, `{streetWords}`).test(near) ||
    pattern(lex, `(?:{streetWords})[\\s\\p{L}\\p{M}'’.,-]{0,24}$`).test(before) ||
    pattern(lex, `^\\s(?:\\p{Lu}[\\p{L}\\p{M}'’.-]*\\s+){1,2}(?:{streetWords})`).test(after)
  )
    return false;
  // A phone number: a leading zero or a plus, or a long bare number.
  if (
    kind === 'plain' &&
    (/^0\p{Nd}{2,}/u.test(f.digits) || /\+\s?$/u.test(before) || (f.group === '' && f.digits.length >= 6))
  )
    return false;
  if (kind === 'money' || kind === 'percent') return true;
  // A year: four digits from 1800 to 2199 with no unit.
  if (f.group === '' && f.decimals === 0 && /^(?:1[89]|2[01])\p{Nd}{2}$/u.test([...f.digits].map(digitValue).join('')))
    return false;
  if (kind === 'measure') return true;
  // A count of a named thing: a word that is not a time, a date or a function word follows; small counts
  // ("3 new venues") read better in their sentence.
  // After a qualifier that follows the figure ("50,000 से ज़्यादा किसान", "1,200 plus members").
  const qualified = pattern(lex, `^\\s*(?:{atLeastAfter})`).exec(after);
  const word = nextWord(qualified ? after.slice(qualified[0].length) : after);
  if (!word || f.value < 10) return false;
  return !timeOrDate.test(word) && !pattern(lex, `^(?:{functionWords})$`).test(word);
}

/** The figure's text for a value on the way to it: same prefix, suffix, digits, separators and decimals. */
export function figureAt(f: Figure, value: number): string {
  const [int = '0', frac] = Math.abs(value).toFixed(f.decimals).split('.');
  let grouped = int;
  if (f.group) {
    if (f.lakh && int.length > 3) {
      const head = int.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, f.group);
      grouped = `${head}${f.group}${int.slice(-3)}`;
    } else grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, f.group);
  }
  const digits = inDigits(`${value < 0 ? '-' : ''}${grouped}${frac ? `\u0000${frac}` : ''}`, f.zero).replace(
    '\u0000',
    f.decimal,
  );
  return `${f.prefix}${digits}${f.suffix}`;
}

/** The number a number word names, or of digits (any script). */
export function numberOf(text: string, lex: Lexicon): number | null {
  const t = text.trim();
  if (/^\p{Nd}+$/u.test(t)) return Number([...t].map(digitValue).join(''));
  const key = Object.keys(lex.numberWords).find((w) => w.toLocaleLowerCase() === t.toLocaleLowerCase());
  return key === undefined ? null : lex.numberWords[key]!;
}

/**
 * A figure written as `digits` (one number, separators as written, digits of any script) between
 * `prefix` and `suffix`: what a storyboard's counter shows. Null when `digits` is not one number.
 */
export function figureOf(prefix: string, digits: string, suffix: string, lex: Lexicon): Figure | null {
  if (!/^\p{Nd}/u.test(digits)) return null;
  const read = readNumber(digits, lex);
  if (!read || read.digits !== digits) return null;
  return {
    text: `${prefix}${digits}${suffix}`,
    prefix,
    digits,
    suffix,
    value: read.value,
    decimals: read.decimals,
    group: read.group,
    decimal: read.decimal,
    zero: zeroOf(digits[0]!),
    lakh: read.lakh,
  };
}
