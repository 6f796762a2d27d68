// Prompt → storyboard. A title scene; then one scene per further sentence or clause: numbers become
// counters, progress bars or bar charts, enumerations staggered lists, quoted text a quote card; a
// call to action (a URL, a date, a price, "sign up"…) closes. Long prompts are summarised: sentences
// are ranked (numbers, lists, quotes and the call to action first) and only what the length allows is
// shown, each scene a whole sentence or clause, never cut mid-clause. Deterministic.
import crypto from 'node:crypto';
import { CJK_LETTERS, directionOf } from '../../text/scripts.js';
import { MAX_DURATION_SECONDS } from '../limits.js';
import { statedDurationSeconds, withoutDurationPhrase } from './duration.js';
import { lookFor } from './look.js';
import type { Bar, Scene, Storyboard, TimedScene } from './types.js';

export type StoryboardRequest = {
  prompt: string;
  instructions: string | null;
  /** Requested length (the request's duration_seconds, or a length the prompt states); null: natural. */
  durationSeconds: number | null;
  /** Local name of the first user image, shown on the title scene. */
  image?: string | null;
};

/** Natural length of a scene (seconds); the title holds a little longer. */
const SCENE_SECONDS = 2.5;
const TITLE_SECONDS = 3;
/** Shortest time a scene is shown: below it text cannot be read. */
const MIN_SCENE_SECONDS = 1.6;
const MAX_SCENES = 12;
/** Words one scene shows at most (a clause longer than this is split at its commas, or summarised). */
const MAX_SCENE_WORDS = 18;
const MAX_TITLE_WORDS = 10;

export function planStoryboard(req: StoryboardRequest): Storyboard {
  const prompt = req.prompt.replace(/\s+/g, ' ').trim() || 'Hello';
  const hash = crypto.createHash('sha256').update(`${prompt}\n${req.instructions ?? ''}`).digest().readUInt32BE(0);
  const look = lookFor(`${prompt} ${req.instructions ?? ''}`, hash);
  const requested = req.durationSeconds ?? statedDurationSeconds(prompt);
  const sentences = splitSentences(withoutStylePhrases(withoutDurationPhrase(prompt))).map(capitalise);

  const [first = 'Hello', ...rest] = sentences;
  let title = titleScene(first, req.image ?? null);
  const candidates: Ranked[] = [];
  // "Three tips for better sleep: dim the lights, skip coffee, keep a schedule": the list after the
  // headline's colon is its own scene.
  const listed = title.kind === 'title' && title.subtitle && numberScenes(title.subtitle)[0]?.kind !== 'bars' ? listScene(title.subtitle) : null;
  if (listed && title.kind === 'title') {
    candidates.push({ scene: listed, order: 0, rank: 2 });
    title = { ...title, subtitle: null };
  }
  // A quote after the headline ("Meet Nimbus: "The best notes app" says Jane") is its own card.
  const subtitleQuote = title.kind === 'title' && title.subtitle ? quoteScene(title.subtitle) : null;
  if (subtitleQuote && title.kind === 'title') {
    candidates.push({ scene: subtitleQuote, order: 0, rank: 2 });
    title = { ...title, subtitle: null };
  }
  // Numbers in the title sentence still get their own scene (a headline says it, a counter shows it).
  const titleText = title.kind === 'title' ? [title.title, title.subtitle].filter(Boolean).join('; ') : first;
  for (const s of numberScenes(titleText)) candidates.push({ scene: s, order: 0, rank: 1 });
  rest.forEach((sentence, i) => {
    for (const scene of scenesOf(sentence)) candidates.push({ scene, order: i + 1, rank: rankOf(scene) });
  });
  // The last call to action closes the video; earlier ones (a date, an opening) stay in order.
  const cta = candidates.findLast((c) => c.scene.kind === 'cta') ?? ctaFromAnywhere(prompt);

  const maxScenes = requested === null ? MAX_SCENES : Math.max(1, Math.min(MAX_SCENES, Math.floor(requested / MIN_SCENE_SECONDS)));
  const middle = candidates.filter((c) => c !== cta);
  const room = maxScenes - 1 - (cta ? 1 : 0);
  const kept = [...middle]
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, Math.max(0, room))
    .sort((a, b) => a.order - b.order);
  const scenes: Scene[] = [title, ...kept.map((c) => c.scene)];
  if (cta && scenes.length < maxScenes) scenes.push(cta.scene);

  const natural = scenes.reduce((t, s) => t + (s.kind === 'title' ? TITLE_SECONDS : SCENE_SECONDS), 0);
  const total = clampDuration(requested ?? natural);
  return { look, scenes: timed(scenes, total), durationSeconds: total, direction: directionOf(prompt) };
}

type Ranked = { scene: Scene; order: number; rank: number };

const RANKS: Record<Scene['kind'], number> = { title: 0, counter: 1, progress: 1, bars: 1, list: 2, quote: 2, cta: 2, statement: 3 };
const rankOf = (s: Scene) => RANKS[s.kind];

export const clampDuration = (seconds: number) => Math.min(MAX_DURATION_SECONDS, Math.max(1, Math.round(seconds * 10) / 10));

/** Scene times: proportional to each scene's natural length, summing exactly to `total`. */
function timed(scenes: Scene[], total: number): TimedScene[] {
  const weights = scenes.map((s) => (s.kind === 'title' ? TITLE_SECONDS : SCENE_SECONDS));
  const sum = weights.reduce((a, b) => a + b, 0);
  let start = 0;
  return scenes.map((scene, i) => {
    const end = i === scenes.length - 1 ? total : round3(start + (weights[i]! / sum) * total);
    const out = { ...scene, start: round3(start), duration: round3(end - start) };
    start = end;
    return out;
  });
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---- Text ----------------------------------------------------------------------------------------

/** Sentences (Latin and CJK punctuation, line breaks); quotes are kept whole. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoteDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    current += c;
    if ('"“«「'.includes(c) && !(c === '"' && quoteDepth > 0)) quoteDepth++;
    else if ('"”»」'.includes(c) && quoteDepth > 0) quoteDepth--;
    const next = text[i + 1];
    const ends = '。！？'.includes(c) || ('.!?'.includes(c) && (next === undefined || next === ' ') && !isAbbreviation(current));
    if (ends && quoteDepth === 0) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out.map((s) => s.replace(/^[\s,;:–—-]+/, '')).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

// A decimal point is never followed by a space, so "31. " and "$2.50. " end sentences.
const isAbbreviation = (s: string) => /\b(?:e\.g|i\.e|vs|etc|Mr|Mrs|Ms|Dr|St|Inc|Ltd|No)\.$/i.test(s);

/** Words for length budgets: CJK counts two characters as one word. */
export function wordCount(text: string): number {
  const cjk = (text.match(CJK_LETTERS) ?? []).length;
  const words = text.replace(CJK_LETTERS, ' ').split(/\s+/).filter(Boolean).length;
  return words + Math.ceil(cjk / 2);
}

/** Clauses of a sentence: split at commas, semicolons and dashes that are not inside numbers. */
function clauses(sentence: string): string[] {
  return sentence
    .split(/(?<!\d)[,;](?!\d)\s*|\s+[–—]\s+|[、，；]/)
    .map((c) => c.trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

/**
 * A sentence short enough for one scene: itself when it fits, else its leading clauses that fit
 * (whole clauses only), else its first clause.
 */
function fitted(sentence: string, maxWords: number): string[] {
  const clean = trimEnd(sentence);
  if (wordCount(clean) <= maxWords) return [clean];
  const parts = clauses(clean);
  const groups: string[] = [];
  let current = '';
  for (const part of parts) {
    const joined = current ? `${current}, ${part}` : part;
    if (current && wordCount(joined) > maxWords) {
      groups.push(current);
      current = part;
    } else current = joined;
  }
  if (current) groups.push(current);
  // A single clause longer than a scene: shown whole, the renderer shrinks the type to fit.
  return groups.map(trimEnd);
}

const trimEnd = (s: string) => s.replace(/[\s,;:：、，–—-]+$/, '').replace(/[.。]$/, '').replace(/[\s,;:：、，–—-]+$/, '').trim();

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Words that name what the video is rather than what it says: "A short explainer: …". */
const META_WORDS = new Set(
  'a an the short quick little brief video clip explainer teaser promo promotional ad advert animation animated intro trailer reel story motion graphic graphics make create for about of on vertical square landscape social media instagram tiktok youtube'.split(' '),
);
/** "A short launch teaser for …", "An explainer about …": what the video is, before what it says. */
const META_LEAD =
  /^(?:an?\s+|the\s+)?(?:[\p{L}-]+\s+){0,3}?(?:video|clip|explainer|teaser|promo|ad|advert|trailer|intro|reel|animation|reveal|announcement|showcase)\s+(?:for|about|of|on|introducing|showing)\s+/iu;
const isMeta = (phrase: string) => phrase.toLowerCase().split(/\s+/).every((w) => META_WORDS.has(w));

/**
 * Style requests are for the look, not the screen: "with teal accents", "in serif type", "minimal".
 * Words that are also subjects ("neon city", "dark forest") stay.
 */
export function withoutStylePhrases(text: string): string {
  return text
    .replace(/,?\s*\b(?:with|in|using)\s+(?:[\p{L}-]+\s+){0,3}?(?:accents?|colou?rs?|palette|tones?|theme|type(?:face)?|typography|fonts?|style|background|backdrop|look|vibes?)\b(?:\s+(?:and|&)\s+(?:[\p{L}-]+\s+){0,3}?(?:accents?|colou?rs?|palette|tones?|theme|type(?:face)?|typography|fonts?|style|background|backdrop|look|vibes?)\b)?/giu, '')
    .replace(/\b(?:minimal(?:ist)?|sepia|serif|sans-serif|monospace)\s+(?=[\p{L}])/giu, '')
    .replace(/\b(a)\s+(?=[aeiou])/gi, (_m, a: string) => `${a}n `)
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function titleScene(sentence: string, image: string | null): Scene {
  const colon = /^(.{2,80}?)\s*[:：]\s+(.+)$/.exec(sentence);
  if (colon && isMeta(colon[1]!)) return titleScene(capitalise(colon[2]!), image);
  if (colon && wordCount(colon[1]!) <= MAX_TITLE_WORDS) {
    const subtitle = fitted(colon[2]!, MAX_SCENE_WORDS)[0];
    return { kind: 'title', title: trimEnd(colon[1]!), subtitle: subtitle ? capitalise(subtitle) : null, image };
  }
  const lead = META_LEAD.exec(sentence);
  if (lead && lead[0].length < sentence.length) return titleScene(capitalise(sentence.slice(lead[0].length)), image);
  const [head, ...more] = fitted(sentence, MAX_TITLE_WORDS);
  return { kind: 'title', title: head ?? sentence, subtitle: more.length ? more.join(', ') : null, image };
}

// ---- Scene kinds -------------------------------------------------------------------------------

function scenesOf(sentence: string): Scene[] {
  const quote = quoteScene(sentence);
  if (quote) return [quote];
  const cta = ctaScene(sentence);
  if (cta) return [cta];
  const numbers = numberScenes(sentence);
  if (numbers[0]?.kind === 'bars') return numbers;
  const list = listScene(sentence);
  if (list) return [list];
  if (numbers.length) return numbers;
  return fitted(sentence, MAX_SCENE_WORDS).map((text) => ({ kind: 'statement', text }));
}

const QUOTE = /["“«「]([^"”»」]{3,240})["”»」]/;

function quoteScene(sentence: string): Scene | null {
  const m = QUOTE.exec(sentence);
  if (!m || wordCount(m[1]!) < 3) return null;
  const after = sentence.slice(m.index + m[0].length);
  const before = sentence.slice(0, m.index);
  const by =
    /^\s*[,–—-]*\s*(?:says|said|wrote|—|–|-)?\s*((?:\p{Lu}[\p{L}.'-]*\s?){1,4})/u.exec(after)?.[1] ??
    /((?:\p{Lu}[\p{L}.'-]*\s?){1,4})\s*(?:says|said|wrote)\s*[:,]?\s*$/u.exec(before)?.[1] ??
    null;
  return { kind: 'quote', quote: m[1]!.trim().replace(/[\s,;:–—-]+$/, ''), attribution: by ? trimEnd(by) || null : null };
}

/** An address a call to action names: a URL, www., or a domain with a common ending. */
const URL_LIKE =
  /\b(?:https?:\/\/[^\s]+|www\.[^\s]+|(?:[a-z0-9-]+\.)+(?:com|io|dev|app|org|net|ai|co|shop|store|(?:co\.|com\.)?(?:uk|jp|de|fr|es|it|nl|br|in|cn|kr|au|ca|se|ch|at|be|pl|mx|pt|ie|nz|sg|ae|sa|il|tr|eu|us))(?![\w.]*[a-z0-9-])(?:\/[^\s]*)?)/i;
/** Within a sentence that asks for action, any domain-looking word ("lisbon.travel") is the address. */
const DOMAIN = /(?<![@\w.])[a-z0-9][a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,12}(?:\/[^\s]*)?(?![\w])/i;
const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.]+\b/;
const DATE =
  /\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?:\s+\d{4})?|\d{4}-\d{2}-\d{2}|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|today|tomorrow|tonight)(?:,?\s+(?:at\s+)?\d{1,2}(?::\d{2})?\s?(?:am|pm))?\b/i;
const PRICE = /[$€£¥]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:usd|eur|dollars|euros)\b/i;
/** Words that make a date, a price or an address an announcement ("Available March 3 for $4.99"). */
const ANNOUNCE = /\b(?:available|launch(?:es|ing)?|coming|opens?|starts?|release[sd]?|on\s+sale|only|from|at|on|via)\b/i;
const ACTION =
  /\b(?:sign\s+up|join|register|subscribe|download|try|book|visit|get\s+started|order|buy|shop|learn\s+more|call|contact|apply|pre-?order|reserve|follow|start|plan|discover|explore)\b/i;
/** The same in a few other languages (Spanish, French, German, Portuguese, Japanese, Chinese, Arabic). */
const ACTION_ELSEWHERE =
  /(?<![\p{L}])(?:visít\p{L}*|visita\p{L}*|reserv\p{L}*|regístrate|inscr[ií]b\p{L}*|descarg\p{L}*|compr[ae]\p{L}*|visitez|inscrivez|téléchargez|réservez|achetez|besuchen|anmelden|herunterladen|bestellen|jetzt|baixe|今すぐ|ダウンロード|登録|予約|お申し込み|下载|注册|立即|预订|سجل|سجّل|حمّل|احجز|تسوق|زوروا|زورونا)/iu;
const asksForAction = (sentence: string) => ACTION.test(sentence) || ACTION_ELSEWHERE.test(sentence);

function ctaScene(sentence: string): Scene | null {
  const where = URL_LIKE.exec(sentence)?.[0] ?? EMAIL.exec(sentence)?.[0] ?? (asksForAction(sentence) || ANNOUNCE.test(sentence) ? DOMAIN.exec(sentence)?.[0] : undefined) ?? null;
  const when = DATE.exec(sentence)?.[0] ?? null;
  const price = PRICE.exec(sentence)?.[0] ?? null;
  const detail = where ?? when ?? price;
  if (!asksForAction(sentence) && !(detail && ANNOUNCE.test(sentence))) return null;
  let action = sentence;
  if (detail) {
    action = action.replace(new RegExp(`(?:\\s+(?:at|on|via|from|for|en|à|sur|auf|bei|unter|em|no|na|على|في))?\\s*${escapeRegExp(detail)}`, 'u'), '');
  }
  action = action.replace(/\s{2,}/g, ' ').replace(/\s+([!?.,])/g, '$1');
  return { kind: 'cta', action: trimEnd(fitted(action, 10)[0] ?? action), detail: detail ? detail.replace(/[.,;]+$/, '') : null };
}

/** A call to action from a URL anywhere in the prompt, when no sentence is one. */
function ctaFromAnywhere(prompt: string): Ranked | undefined {
  const url = URL_LIKE.exec(prompt)?.[0];
  return url ? { scene: { kind: 'cta', action: 'Learn more', detail: url.replace(/[.,;]+$/, '') }, order: Infinity, rank: 2 } : undefined;
}

/** "fast, secure, and cheap", "features: A, B, C": three or more short items. */
function listScene(sentence: string): Scene | null {
  const clean = trimEnd(sentence);
  const colon = /^(.*?)[:：]\s*(.+)$/.exec(clean);
  const [head, body] = colon ? [colon[1]!, colon[2]!] : ['', clean];
  // Commas inside figures ("$1,250,000") separate nothing.
  const parts = body.split(/(?<!\d),\s*(?:and\s+|or\s+)?|,(?!\d)\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[^,]*$)|[、،]/).map((p) => p.trim()).filter(Boolean);
  if (parts.length < 3 || parts.some((p) => wordCount(p) > 6)) return null;
  // Without a colon, the first item carries the sentence's lead-in ("We offer speed"): split it off.
  let heading = head.trim() || null;
  if (!heading) {
    const lead = /^(.*\b(?:offers?|includes?|including|features?|with|are|is|has|have|supports?|brings?)\s+)(.+)$/i.exec(parts[0]!);
    if (lead) {
      // "It is fast, private and free": a pronoun and a verb make no heading.
      const words = trimEnd(lead[1]!);
      heading = /^(?:(?:it|they|we|you|this|that|these|those|our|its|their)\s+)*(?:is|are|has|have|offers?|includes?|features?|supports?|brings?)$/i.test(words) ? null : words;
      parts[0] = lead[2]!;
    } else if (wordCount(parts[0]!) > 3) return null;
  }
  return { kind: 'list', heading, items: parts.slice(0, 6).map((p) => capitalise(trimEnd(p))) };
}

type NumberToken = { raw: string; value: number; decimals: number; prefix: string; suffix: string; percent: boolean; index: number };

const NUMBER_TOKEN =
  /(?<![\p{L}\d.,])([$€£¥])?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(%|percent\b|[kKmMbB]\b|bn\b|million\b|billion\b|thousand\b|x\b)?/gu;

function numbersIn(sentence: string): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of sentence.matchAll(NUMBER_TOKEN)) {
    const [raw, currency = '', digits = '', unit = ''] = m;
    // Years read as words, not as figures; "80s", "8pm", "4K" are not amounts.
    if (!currency && !unit && /^(19|20)\d{2}$/.test(digits)) continue;
    if (!unit && /^[\p{L}]/u.test(sentence.slice(m.index + raw.trimEnd().length))) continue;
    const value = Number(digits.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    const decimals = digits.includes('.') ? digits.split('.')[1]!.length : 0;
    const percent = unit === '%' || unit.toLowerCase() === 'percent';
    const suffix = percent ? '%' : unit ? (/^[kmb]$/i.test(unit) ? unit.toUpperCase() : unit === 'x' ? '×' : ` ${unit}`) : '';
    // The pattern may take the space before a figure: the index is where the figure itself starts.
    out.push({ raw: raw.trim(), value, decimals, prefix: currency, suffix, percent, index: m.index + raw.length - raw.trimStart().length });
  }
  return out;
}

/** Figures of a sentence: one percentage → progress; three or more of a kind → bars; else counters. */
function numberScenes(sentence: string): Scene[] {
  const numbers = numbersIn(sentence);
  if (numbers.length === 0) return [];
  const clean = trimEnd(sentence);
  const sameKind = numbers.filter((n) => n.prefix === numbers[0]!.prefix && n.suffix === numbers[0]!.suffix);
  if (sameKind.length >= 3) {
    const bars: Bar[] = sameKind.slice(0, 6).map((n, i) => ({ label: labelBefore(clean, n, i), value: n.value, display: n.raw }));
    // The chart's caption: what leads up to the first figure ("Signups by quarter: Q1 12, …"), if anything.
    const first = sameKind[0]!.index;
    const labelAt = clean.lastIndexOf(bars[0]!.label, first);
    const lead = trimEnd(clean.slice(0, labelAt >= 0 ? labelAt : first));
    return [{ kind: 'bars', label: wordCount(lead) >= 2 ? lead : '', bars }];
  }
  // Each clause with figures is one scene (at most two a sentence), labelled by its own words; in a
  // clause, the most telling figure leads: money, then units, then a percentage, then a plain number.
  const scenes: Scene[] = [];
  for (const part of clauseSpans(clean)) {
    const inPart = numbers.filter((n) => n.index >= part.start && n.index < part.end);
    if (inPart.length === 0) continue;
    const primary = [...inPart].sort((a, b) => weight(b) - weight(a))[0]!;
    const text = clean.slice(part.start, part.end);
    const bare = labelOf(text, [primary]) || labelOf(clean, numbers);
    // "98% of customers come back": a label that continues the figure stays lower case.
    const label = /^(?:of|in|for|to|with|per|more|less|off)\b/.test(bare) ? bare : capitalise(bare);
    if (primary.percent && primary.value <= 100 && inPart.length === 1) scenes.push({ kind: 'progress', percent: primary.value, label });
    else {
      // "Over 10,000 teams": the counter says 10,000+.
      const atLeast = new RegExp(`${AT_LEAST.source}\\s+$`, 'i').test(clean.slice(0, primary.index));
      scenes.push({ kind: 'counter', value: primary.value, decimals: primary.decimals, prefix: primary.prefix, suffix: `${primary.suffix}${atLeast ? '+' : ''}`, label });
    }
  }
  return scenes.slice(0, 2);
}

/** Where a sentence's clauses start and end (split at commas, semicolons, "and", "but" between words). */
function clauseSpans(sentence: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (const m of sentence.matchAll(/(?<!\d),(?!\d)\s*|;\s*|\s+(?:and|but|while)\s+/g)) {
    spans.push({ start, end: m.index });
    start = m.index + m[0].length;
  }
  spans.push({ start, end: sentence.length });
  return spans;
}

/** Words that qualify a figure: shown as "+" (at least) or dropped (about) with the figure. */
const AT_LEAST = /\b(?:over|more\s+than|above|at\s+least)/;
const ABOUT = /\b(?:nearly|almost|about|around|approximately|roughly|some|up\s+to)/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const weight = (n: NumberToken) => (n.prefix ? 4 : n.suffix && !n.percent ? 3 : n.percent ? 2 : 1);

/** The sentence without the shown figures and the little words that led to them ("grew 42% to"). */
function labelOf(sentence: string, shown: NumberToken[]): string {
  let label = sentence;
  for (const n of shown) label = label.replace(new RegExp(`(?:(?:${AT_LEAST.source}|${ABOUT.source})\\s+)?${escapeRegExp(n.raw)}`, 'i'), ' ');
  label = label
    .replace(/\s+(?:to|by|of|at|reached|hit|up|down|from|is|was|were|are)\s*(?=[,.;]|\s*$)/gi, '')
    .replace(/\s+(?:to|by|of|at|from)\s+(?:to|by|of|at|from)\s+/gi, ' ')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.;:])/g, '$1');
  return fitted(label.trim(), MAX_SCENE_WORDS)[0] ?? label.trim();
}

/**
 * A bar's label: the words just before its figure within its clause ("Q1 was 12" → "Q1"), else the
 * words after it ("300 stalls" → "stalls"), else its place.
 */
function labelBefore(sentence: string, n: NumberToken, i: number): string {
  const content = (text: string) => text.split(/\s+/).filter((w) => w && !/^(?:in|at|of|to|and|or|the|was|were|is|are|a|an)$/i.test(w));
  const before = content(sentence.slice(0, n.index).split(/[,;:]|\band\b|\bor\b/).pop() ?? '');
  if (before.length) return before.slice(-2).join(' ');
  const after = content(sentence.slice(n.index + n.raw.length).split(/[,;:.]|\band\b|\bor\b/)[0] ?? '');
  return after.slice(0, 3).join(' ') || `#${i + 1}`;
}
