// Writing systems of text: which script a string is in (to pick its font), Arabic letters joined into
// their contextual forms (ThorVG lays text out without OpenType shaping), and emoji found in text
// (ThorVG cannot draw colour fonts: the composer shows them as images).

export type Script =
  | 'latin' | 'cjk-jp' | 'cjk-kr' | 'cjk-sc' | 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'bengali' | 'tamil'
  | 'gujarati' | 'gurmukhi' | 'kannada' | 'malayalam' | 'telugu' | 'georgian' | 'armenian' | 'ethiopic' | 'khmer'
  | 'lao' | 'sinhala' | 'myanmar';

/** Scripts with their own Noto family (`Noto Sans <Name>`); Latin, Cyrillic and Greek share Noto Sans. */
const SCRIPT_RANGES: [Script, RegExp][] = [
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
  ['bengali', /\p{Script=Bengali}/u],
  ['tamil', /\p{Script=Tamil}/u],
  ['gujarati', /\p{Script=Gujarati}/u],
  ['gurmukhi', /\p{Script=Gurmukhi}/u],
  ['kannada', /\p{Script=Kannada}/u],
  ['malayalam', /\p{Script=Malayalam}/u],
  ['telugu', /\p{Script=Telugu}/u],
  ['georgian', /\p{Script=Georgian}/u],
  ['armenian', /\p{Script=Armenian}/u],
  ['ethiopic', /\p{Script=Ethiopic}/u],
  ['khmer', /\p{Script=Khmer}/u],
  ['lao', /\p{Script=Lao}/u],
  ['sinhala', /\p{Script=Sinhala}/u],
  ['myanmar', /\p{Script=Myanmar}/u],
];

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/** The script of one character, or null for common characters (digits, punctuation, spaces, symbols). */
export function scriptOfChar(ch: string): Script | null {
  if (/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u.test(ch)) return 'latin';
  if (KANA.test(ch)) return 'cjk-jp';
  if (HANGUL.test(ch)) return 'cjk-kr';
  if (HAN.test(ch)) return 'cjk-sc';
  for (const [script, re] of SCRIPT_RANGES) if (re.test(ch)) return script;
  return null;
}

/**
 * The script a text layer's font must cover: the most frequent non-Latin script (its Noto face), with
 * Japanese when there is any kana (Han characters read as Japanese then), Korean with any Hangul.
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

export const isCjk = (s: Script) => s.startsWith('cjk-');
export const isRtl = (text: string) => {
  const rtl = (text.match(/[\p{Script=Arabic}\p{Script=Hebrew}]/gu) ?? []).length;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return rtl > 0 && rtl >= letters / 2;
};

// ---- Arabic joining ------------------------------------------------------------------------------

type Forms = { isolated: number; final: number; initial?: number; medial?: number };
let arabicForms: Map<string, Forms> | undefined;

/**
 * Base letter (or lam-alef pair) → its presentation forms, read from Unicode's compatibility
 * decompositions (NFKC maps each form back to its letter; the forms of a letter are consecutive:
 * isolated, final, initial, medial).
 */
function formsTable(): Map<string, Forms> {
  if (arabicForms) return arabicForms;
  const table = new Map<string, Forms>();
  // Presentation Forms-A (Persian, Urdu… letters), then B (the basic letters) overriding it.
  for (const [from, to] of [[0xfb50, 0xfdff], [0xfe70, 0xfefc]] as const) {
    const block = new Map<string, number[]>();
    let group: { base: string; cps: number[] } | null = null;
    const flush = () => {
      if (group && (block.get(group.base)?.length ?? 0) < group.cps.length) block.set(group.base, group.cps);
      group = null;
    };
    for (let cp = from; cp <= to; cp++) {
      const base = String.fromCodePoint(cp).normalize('NFKC');
      const letters = [...base];
      const ok = base !== String.fromCodePoint(cp) && letters.length <= 2 && letters.every((c) => /\p{Script=Arabic}/u.test(c) && /\p{L}/u.test(c));
      if (!ok) flush();
      else if (group && group.base === base && group.cps.length < 4) group.cps.push(cp);
      else {
        flush();
        group = { base, cps: [cp] };
      }
    }
    flush();
    for (const [base, cps] of block) {
      if (cps.length === 3) continue; // not a letter's form set
      const [isolated, final = isolated, initial, medial] = cps;
      table.set(base, { isolated: isolated!, final, ...(cps.length === 4 ? { initial, medial } : {}) });
    }
  }
  arabicForms = table;
  return table;
}

const TRANSPARENT = /[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/u;
const TATWEEL = 'ـ';
const ALEFS = new Set(['آ', 'أ', 'إ', 'ا']);

/** Whether `ch` connects to the letter after it (dual-joining letters and tatweel). */
const joinsForward = (ch: string | undefined) => ch === TATWEEL || (ch !== undefined && formsTable().get(ch)?.initial !== undefined);
/** Whether `ch` connects to the letter before it (every Arabic letter with a final form, and tatweel). */
const joinsBackward = (ch: string | undefined) => ch === TATWEEL || (ch !== undefined && formsTable().has(ch));

/**
 * Arabic letters replaced by their contextual presentation forms (initial, medial, final, isolated,
 * and the lam-alef ligatures), so a renderer without OpenType shaping draws joined script. `has`
 * says whether the font has a code point; forms it lacks leave the letter as it is.
 */
export function joinArabic(text: string, has: (cp: number) => boolean = () => true): string {
  if (!/\p{Script=Arabic}/u.test(text)) return text;
  const table = formsTable();
  const chars = [...text];
  const neighbour = (i: number, step: 1 | -1) => {
    for (let k = i + step; k >= 0 && k < chars.length; k += step) if (!TRANSPARENT.test(chars[k]!)) return { ch: chars[k]!, at: k };
    return undefined;
  };
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const forms = table.get(ch);
    if (!forms) {
      out += ch;
      continue;
    }
    const prev = neighbour(i, -1);
    const next = neighbour(i, 1);
    const fromPrev = joinsForward(prev?.ch);
    if (ch === 'ل' && next && ALEFS.has(next.ch)) {
      const lig = table.get(`ل${next.ch}`);
      const cp = lig && (fromPrev ? lig.final : lig.isolated);
      if (cp !== undefined && has(cp)) {
        out += String.fromCodePoint(cp) + chars.slice(i + 1, next.at).join('');
        i = next.at;
        continue;
      }
    }
    const toNext = forms.initial !== undefined && joinsBackward(next?.ch);
    const cp = fromPrev && toNext ? forms.medial : fromPrev ? forms.final : toNext ? forms.initial : forms.isolated;
    out += cp !== undefined && has(cp) ? String.fromCodePoint(cp) : ch;
  }
  return out;
}

// ---- Emoji ---------------------------------------------------------------------------------------

/** One emoji: a pictograph with its modifiers and variation selector, a ZWJ sequence, a flag or a keycap. */
const EMOJI = new RegExp(
  String.raw`\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)(?:\p{EMod}|\uFE0F|[\u{E0020}-\u{E007F}])*(?:\u200D\p{Extended_Pictographic}(?:\p{EMod}|\uFE0F)*)*`,
  'gu',
);

/** Emoji of a text, in order. */
export const emojiIn = (text: string): string[] => text.match(EMOJI) ?? [];

/** The text without its emoji (and without the spaces they leave doubled). */
export const withoutEmoji = (text: string): string =>
  text.replace(EMOJI, ' ').replace(/[\uFE0F\u200D]/g, '').replace(/[ \t]{2,}/g, ' ').replace(/ ([,.!?;:])/g, '$1').trim();

// ---- Right-to-left lines -------------------------------------------------------------------------

// Letters only: Arabic-Indic digits and the Arabic separators (٬ ٫ ٪) are part of a number, which keeps its order.
const STRONG_RTL = /(?=[\p{L}\p{M}])[\p{Script=Arabic}\p{Script=Hebrew}\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const STRONG_LTR = /[\p{L}\p{N}]/u;
const MIRRORED: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«' };

/**
 * One line of right-to-left text in display order, left to right: runs of left-to-right text
 * (Latin words, numbers) keep their order, everything else is reversed and brackets mirrored. For
 * text whose Arabic letters were replaced by presentation forms, which ThorVG lays out left to right.
 */
export function visualOrder(line: string): string {
  const chars = [...line];
  const rtl = chars.map((c) => (STRONG_RTL.test(c) ? 1 : STRONG_LTR.test(c) && !STRONG_RTL.test(c) ? 0 : -1));
  // Neutrals between two left-to-right characters join them; others follow the line's direction (RTL).
  const resolved = rtl.map((d, i) => {
    if (d !== -1) return d;
    const before = rtl.slice(0, i).reverse().find((x) => x !== -1);
    const after = rtl.slice(i + 1).find((x) => x !== -1);
    return before === 0 && after === 0 ? 0 : 1;
  });
  const out: string[] = [];
  let i = chars.length - 1;
  while (i >= 0) {
    if (resolved[i] === 1) {
      out.push(MIRRORED[chars[i]!] ?? chars[i]!);
      i--;
    } else {
      let start = i;
      while (start > 0 && resolved[start - 1] === 0) start--;
      out.push(...chars.slice(start, i + 1));
      i = start - 1;
    }
  }
  return out.join('');
}

/** Arabic vowel marks and tatweel, which a renderer without mark positioning cannot place. */
export const withoutArabicMarks = (text: string) => text.replace(/[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/gu, '');
