// Languages as data: one file per language in languages/<tag>.json (its words for lengths, "a video
// about", calls to action, list conjunctions, steps, number words…), checked against this schema when
// loaded. The language of a prompt is chosen by the `eld` detector; a prompt in a language without a
// file is planned by the language-neutral rules alone (digits, punctuation, symbols). Adding a language
// is adding one file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eld } from 'eld/small';
import { z } from 'zod';

const words = z.array(z.string().min(1)).default([]);

const lexiconSchema = z
  .object({
    /** BCP 47 tag, the file's name. */
    language: z.string(),
    name: z.string(),
    /** The decimal separator: "1.250" is a thousand and a quarter where it is ",". */
    decimal: z.enum(['.', ',']),
    /** Number words and the numbers they name ("three", "drei", "三"). */
    numberWords: z.record(z.string(), z.number()).default({}),
    /** Ordinal words and the places they name ("first", "Primer", "पहला", "첫째"): spelled step markers. */
    ordinals: z.record(z.string(), z.number()).default({}),
    // ---- The video's length ----
    seconds: words,
    minutes: words,
    /** Phrases meaning half a minute / a whole minute. */
    halfMinute: words,
    wholeMinute: words,
    /** Words that make a length the video's own ("long", "de duración", "مدته"). */
    lengthWords: words,
    // ---- What the video is, rather than what it says ----
    /** "video", "ad", "anuncio", "広告": a length next to one is the video's length. */
    videoNouns: words,
    /** "make", "create", "haz", "作って", "ください": asking for the video. */
    metaVerbs: words,
    /** Articles and adjectives of the request: "a", "short", "vertical", "promotional". */
    metaWords: words,
    /** After the request, before its subject: "for", "about", "para", "sobre", "für", "über". */
    topicLinks: words,
    /** Before the request, after its subject, where the request comes last: "の", "的", "için", "के लिए". */
    tailLinks: words,
    /** Style requests at a sentence's end: "with teal accents", "in serif type". */
    styleLinks: words,
    styleNouns: words,
    // ---- Structure ----
    /** "and", "or": the last item of an enumeration follows one. */
    conjunctions: words,
    /** Endings that join an item to the next clause, glued to the item: "이고", "이며". */
    listJoins: words,
    /**
     * "etc.", "usw.", "и т. д.", "など", "e.g.", "z. B.": an enumeration that ends open, or gives examples, is part of
     * its sentence, not a list.
     */
    andSoOn: words,
    /** "tips", "ways", "reasons": "3 tips for …: a, b, c" is a list of three. */
    listNouns: words,
    /** "Step", "Paso", "Schritt" before a step's number. */
    stepWords: words,
    /** "how to", "cómo": bullets under such a heading are steps. */
    howTo: words,
    /** Greetings opening a message ("Hi", "Hallo", "こんにちは"): said to whoever makes the video, never shown. */
    greetings: words,
    /** Verbs and phrases that ask the viewer to act: "sign up", "visita", "jetzt bestellen". */
    callsToAction: words,
    /** Words between an action and its address, dropped with it: "at", "en", "auf", "पर". */
    addressLinks: words,
    /** Particles that join a quote to its attribution, dropped with the quote marks: "と", "라고". */
    quoteParticles: words,
    // ---- Figures ----
    /** Before a figure: "over", "más de", "plus de" (shown with the figure). */
    atLeast: words,
    /** After a figure: "以上", "से ज़्यादा". */
    atLeastAfter: words,
    /** Before a figure, dropped with it from a label: "about", "nearly", "casi". */
    about: words,
    /** Articles a clause may start with before its figure ("El 92 % repite"). */
    leadArticles: words,
    /** Words between a label and its figure at the clause's end, dropped with it ("Revenue hit"). */
    labelTrim: words,
    /** Words after a figure at the clause's end, dropped with it ("です", "입니다"). */
    copulas: words,
    /** Scale words after a figure: "million", "Mio.", "万". */
    magnitudes: words,
    /** Measure units and counters after a figure: "km", "kg", "家", "개". */
    units: words,
    /** Currency words after a figure: "euros", "рублей", "元". */
    currencies: words,
    /** A figure next to these is a time of day, not a quantity: "h", "Uhr", "pm", "時". */
    timeWords: words,
    /** A figure next to these is a date: months, weekdays. */
    dateWords: words,
    /** A figure after these is an id or a place: "Desk", "Gate", "Gleis", "portal", "№". */
    idWords: words,
    /** A figure within a few words of these is part of an address: "Street", "calle", "rue". */
    streetWords: words,
    /** Words a label must not end on: articles, prepositions, conjunctions. */
    functionWords: words,
    // ---- Designed kinds (issue 43) ----
    /** Abbreviations and ordinals written with a full stop ("Std.", "z. B.", "Dr."): a sentence never ends on one. */
    abbreviations: words,
    /** After a step's number: "단계" (1단계), "步" (第一步). */
    stepAfter: words,
    /** Words that single an option out: "most popular", "el más elegido", "一番人気". */
    highlightWords: words,
    /**
     * Asks to raise an option, addressed to whoever makes the video: "make that one stand out", "hervorheben",
     * "mettez en avant", "目立たせて" (never shown: a direction).
     */
    highlightAsks: words,
    /**
     * Asks for what to show, addressed to whoever makes the video: "mention", "noem", "punti da mostrare", "강조할 점".
     * A list's heading of only these (and request words) is a direction ("Highlight: a, b, c" shows a, b, c).
     */
    showAsks: words,
    /** Verbs that lead into what something has: "has", "offers", "heeft", "есть" (features without a colon). */
    featureLinks: words,
    /** Prepositions that lead into what something has when nothing is listed before them: "with", "avec". */
    featureWith: words,
    /**
     * Verbs after what something has, in languages that put the verb last: "bulunuyor", "를 제공합니다", "उपलब्ध हैं".
     */
    featureEnds: words,
    /** Endings of the last word of the lead-in before such a list ("카페는", "dairede", "होटल में"): suffixes. */
    leadEnds: words,
    /** Between an option's name and its price: "for", "für", "à". */
    priceLinks: words,
    /** Before a time, dropped with it: "at", "um", "alle", "a las". */
    timeLinks: words,
    /** Between the two ends of a time range: "to", "bis", "à", "a", "до", "至" (dashes and tildes need no entry). */
    rangeWords: words,
    /** After a clock figure: "am", "pm", "Uhr", "h", "uur", "時", "点", "시", "बजे". */
    clockWords: words,
    /** Before a bare hour, shown with it as its time: "ore 10". */
    hourWords: words,
    /** After the minutes of a clock time: "分", "분". */
    minuteWords: words,
    /** Half past, after a clock word: "半" ("8時半"), "반" ("8시 반"). */
    halfHours: words,
    /** Parts of the day around a clock time: "上午", "午前", "오전", "सुबह", "صباحًا". */
    dayParts: words,
    /** Times without digits: "noon", "midnight", "正午". */
    clockTimes: words,
    /** Icon names of the set (src/storyboard/icons.ts) → the words that mean them; `*` leaves a word's end open. */
    icons: z.record(z.string(), z.array(z.string().min(1))).default({}),
  })
  .strict();

export type Lexicon = z.infer<typeof lexiconSchema>;

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'languages');

/** Every language file, by tag. */
export const LEXICONS: ReadonlyMap<string, Lexicon> = new Map(
  fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const parsed = lexiconSchema.safeParse(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')));
      if (!parsed.success) throw new Error(`src/storyboard/languages/${f}: ${parsed.error.message}`);
      if (parsed.data.language !== f.replace(/\.json$/, ''))
        throw new Error(`src/storyboard/languages/${f}: "language" must be its file name`);
      return [parsed.data.language, parsed.data] as const;
    }),
);

/** The language-neutral rules: no words, only what digits, symbols and punctuation say. */
export const NEUTRAL: Lexicon = lexiconSchema.parse({ language: 'und', name: 'language-neutral', decimal: '.' });

const detector = eld.newInstance();

/**
 * Scripts only one of our languages writes, in the order to test them (kana before Han: Japanese writes both): a short
 * prompt the detector cannot place ("Тарифы: «Мини» — 900 ₽, …") is that language's.
 */
const SCRIPTS: Array<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/** The prompt's language: its file when the detector names one we have, else its script's, else the neutral rules. */
export function lexiconFor(text: string): Lexicon {
  const letters = text
    .replace(/[^\p{L}\p{M}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!letters) return NEUTRAL;
  const found = LEXICONS.get(detector.detect(letters).language);
  if (found) return found;
  const script = SCRIPTS.find(([re]) => re.test(letters))?.[1];
  return (script && LEXICONS.get(script)) || NEUTRAL;
}

// ---- Words as patterns -----------------------------------------------------------------------------

/** Scripts written without spaces between words: a word of theirs may touch any letter. */
const UNSPACED = new RegExp(
  `[${['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar'].map((s) => `\\p{Script=${s}}`).join('')}]`,
  'u',
);
/** Korean words and particles attach to each other: a Hangul word may touch letters on either side. */
const SUFFIXED = /\p{Script=Hangul}/u;
/** Letters of the scripts whose words touch their neighbours (a class's contents): "担当はDr.", "パンなど". */
export const GLUED_LETTERS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const BEFORE = '(?<![\\p{L}\\p{M}])';
const AFTER = '(?![\\p{L}\\p{M}])';

/**
 * The combining marks a text may add after a letter of these scripts (Arabic vowel signs, the Devanagari nukta), as
 * a class of that script's marks; other scripts' letters take no marks the word does not write (prompts are NFC).
 * Small explicit classes: a Unicode property class after every letter made each list's pattern cost tens of
 * milliseconds to compile, and a language's first prompt seconds.
 */
const MARKED_SCRIPTS = [
  [0x0600, 0x06ff],
  [0x0750, 0x077f],
  [0x08a0, 0x08ff],
  [0x0900, 0x097f],
].map(([from, to]) => {
  const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  const marks: string[] = [];
  for (let c = from!; c <= to!; c++)
    if (/\p{Mn}/u.test(String.fromCodePoint(c))) {
      let end = c;
      while (end < to! && /\p{Mn}/u.test(String.fromCodePoint(end + 1))) end++;
      marks.push(end === c ? hex(c) : `${hex(c)}-${hex(end)}`);
      c = end;
    }
  return { from: from!, to: to!, marks: `[${marks.join('')}]*` };
});
const marksAfter = (c: string) => {
  const code = c.codePointAt(0)!;
  return MARKED_SCRIPTS.find((s) => code >= s.from && code <= s.to)?.marks ?? '';
};

/**
 * A word or phrase as a pattern, in three parts: the bound before it (or ''), its letters, the bound after it (or '').
 * Case-insensitive with the `iu` flags; combining marks the text adds (Arabic vowel signs, the Devanagari nukta)
 * allowed after each letter of those scripts; spaces match any run of spaces; bounded by non-letters on each side
 * that is a letter of a spaced script (never `\b`, which knows ASCII only); a digit may touch a word ("8s",
 * "10-Sekunden", "8초").
 */
export function wordParts(word: string): { before: string; body: string; after: string } {
  const chars = [...word];
  // An apostrophe as typed either way ("j'aimerais", "j’aimerais").
  const body = chars
    .map((c) => (/\s/u.test(c) ? '\\s+' : /['’]/u.test(c) ? "['’]" : `${escape(c)}${marksAfter(c)}`))
    .join('');
  const bounded = (c: string) => /\p{L}/u.test(c) && !UNSPACED.test(c) && !SUFFIXED.test(c);
  return { before: bounded(chars[0]!) ? BEFORE : '', body, after: bounded(chars.at(-1)!) ? AFTER : '' };
}

/**
 * Any of the words (longest first, so "more than" wins over "more"), as a pattern; one that never matches when there
 * are none. Words in a row with the same bounds share them (one lookaround per run, not per word: cheaper to compile).
 */
export function anyOf(list: readonly string[]): string {
  if (list.length === 0) return '(?!)';
  const runs: { before: string; after: string; bodies: string[] }[] = [];
  for (const word of [...new Set(list)].sort((a, b) => b.length - a.length)) {
    const { before, body, after } = wordParts(word);
    const last = runs.at(-1);
    if (last && last.before === before && last.after === after) last.bodies.push(body);
    else runs.push({ before, after, bodies: [body] });
  }
  return `(?:${runs.map((r) => `${r.before}(?:${r.bodies.join('|')})${r.after}`).join('|')})`;
}

const cache = new WeakMap<Lexicon, Map<string, RegExp>>();

/**
 * A compiled pattern per lexicon (built once). `source` names word lists as {field} (lower-case names: `\\p{Nd}` stays
 * a class).
 */
export function pattern(lex: Lexicon, source: string, flags = 'iu'): RegExp {
  let map = cache.get(lex);
  if (!map) cache.set(lex, (map = new Map()));
  const key = `${flags} ${source}`;
  let re = map.get(key);
  if (!re) {
    const expanded = source.replace(/\{([a-z]\w*)\}/g, (_m, field: string) => {
      const value = (lex as Record<string, unknown>)[field];
      if (field === 'numberWords' || field === 'ordinals') return anyOf(Object.keys(lex[field]));
      if (!Array.isArray(value)) throw new Error(`no word list ${field}`);
      return anyOf(value as string[]);
    });
    re = new RegExp(expanded, flags);
    map.set(key, re);
  }
  return re;
}
