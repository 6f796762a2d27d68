// Prompt → storyboard, in any language. The prompt's language picks its word lists (lexicon.ts); what
// digits, punctuation and layout say is read the same in every language. Structure is found by meaning:
// numbered or bulleted steps become a steps scene, "3 tips for …: a, b and c" a list of those three, a
// countdown a countdown, a quantity a counter — never a time, a date, an id or the video's own length.
// The first sentence, without what names the video ("An 8-second ad for …"), is the title; every
// further sentence becomes its scene. Long prompts are summarised by whole sentences and clauses.
//
// The fidelity rule: every text a scene shows is a piece of the prompt as written — trimmed of spaces
// and punctuation around it, its first letter perhaps capitalised — never a word changed, inserted or
// reordered. Pieces are cut from the prompt by offset (Span), never rebuilt.
import crypto from 'node:crypto';
import { isBrandLogo, MAX_DURATION_SECONDS } from '../shared.js';
import { directionOf } from '../text/scripts.js';
import { statedLength } from './duration.js';
import { comparisonIn, enumerated, featuresOf, timelineIn, titleIcon } from './designed.js';
import { escape, GLUED_LETTERS, lexiconFor, pattern, type Lexicon } from './lexicon.js';
import { lookFor } from './look.js';
import { narrationNaturalSeconds, narrationOf } from './narration.js';
import { figuresIn, numberOf, type FoundFigure } from './numbers.js';
import { capitalise, clauses, sentences, spanEnd, sub, trimEdges, trimSpan, wordCount, type Span } from './text.js';
import type { ComparisonOption, Scene, Step, Storyboard, TimedItem, TimedScene } from './types.js';

export type StoryboardRequest = {
  prompt: string;
  instructions: string | null;
  /** Requested length (the request's duration_seconds, or a length the prompt states); null: natural. */
  durationSeconds: number | null;
  /** Local name of the first user image, shown on the title scene. */
  image?: string | null;
  /** The video has a voice: each scene gets its narration (its own text) and time to say it. */
  narrate?: boolean;
};

/** A storyboard and what the planner did to the prompt to make it. */
export type Plan = {
  storyboard: Storyboard;
  /** The length allowed fewer scenes than the prompt has: some sentences are not shown. */
  summarised: boolean;
  /** Phrases of the prompt addressed to the composer, not shown: the length, "a video about", style. */
  directions: string[];
};

/** Shortest time a scene is shown: below it text cannot be read. */
const MIN_SCENE_SECONDS = 1.6;
const MAX_SCENES = 12;
/** Words one scene shows at most (a longer sentence is split at its clauses). */
const MAX_SCENE_WORDS = 18;
const MAX_TITLE_WORDS = 12;
const MAX_SUBTITLE_WORDS = 14;
/** A beat: how long one step or one countdown number holds the screen at the natural pace. */
const STEP_BEAT = 1.8;
const COUNT_BEAT = 0.8;

export function planStoryboard(req: StoryboardRequest): Storyboard {
  return plan(req).storyboard;
}

/** The embedded composer's storyboard of an offline composition request: its first image on the title. */
export function offlineStoryboard(spec: {
  prompt: string;
  instructions: string | null;
  durationSeconds: number | null;
  assets: readonly { kind: string; name: string }[];
  narrate?: boolean;
}): Storyboard {
  const image = spec.assets.find((a) => a.kind === 'image' && !isBrandLogo(a))?.name ?? null;
  return planStoryboard({
    prompt: spec.prompt,
    instructions: spec.instructions,
    durationSeconds: spec.durationSeconds,
    image,
    narrate: spec.narrate ?? false,
  });
}

export function plan(req: StoryboardRequest): Plan {
  const text = req.prompt.normalize('NFC');
  let all: Span = trimSpan({ text, start: 0 });
  const hash = crypto
    .createHash('sha256')
    .update(`${text}\n${req.instructions ?? ''}`)
    .digest()
    .readUInt32BE(0);
  const look = lookFor(`${text} ${req.instructions ?? ''}`, hash);
  const lex = lexiconFor(text);
  const lang = lex.language;
  const directions: string[] = [];
  const stated = statedLength(text, lex) ?? statedLength(text);
  const requested = req.durationSeconds ?? stated?.seconds ?? null;

  // "Hallo! Bitte ein kurzes Video …", "Bonjour, je voudrais une vidéo …": a greeting before asking for the video is
  // said to whoever makes it, a direction. ("Hello. Over 12,000 teams use it" greets the viewer: a scene.)
  const greeting = pattern(lex, `^(?:{greetings})\\s*(?:[!！,，.。、،।]+|\\n)\\s*`).exec(all.text);
  const asking = (rest: Span) => pattern(lex, `{videoNouns}`).test(sentencesOf(rest, lex)[0]?.text ?? '');
  if (greeting && asking(sub(all, greeting[0].length))) {
    directions.push(trimEdges(sub(all, 0, greeting[0].length)).text);
    all = sub(all, greeting[0].length);
  }
  const pieces = structure(all, lex);
  const candidates: Ranked[] = [];
  let order = 0;
  // A heading that only asks what to show or for the video ("Highlight:", "Noem:", "Bitte als kurzes Erklärvideo:") is
  // a direction.
  const askedHeading = pattern(
    lex,
    `^(?:(?:{metaVerbs}|{highlightAsks}|{showAsks}|{metaWords}|{videoNouns}|{functionWords})[\\s,]*)+$`,
  );
  const add = (scene: Scene | null) => {
    if (scene && 'heading' in scene && scene.heading && askedHeading.test(scene.heading)) {
      directions.push(scene.heading);
      scene = { ...scene, heading: null };
    }
    if (scene) candidates.push({ scene, order: order++, rank: RANKS[scene.kind] });
  };

  let first = true;
  for (const piece of pieces) {
    if (piece.kind === 'comparison' || piece.kind === 'timeline') {
      let heading = piece.head ? trimEdges(piece.head) : null;
      if (first && heading) {
        const title = titleOf(heading, lex, directions, req.image ?? null);
        add(title.scene);
        title.more.forEach(add);
        heading = null;
      }
      if (piece.kind === 'comparison') {
        directions.push(...piece.asked);
        add({
          kind: 'comparison',
          heading: heading?.text ?? null,
          options: piece.options,
          highlight: piece.highlight,
          badge: piece.badge,
        });
      } else add({ kind: 'timeline', heading: heading?.text ?? null, items: piece.items });
    } else if (piece.kind === 'steps' || piece.kind === 'list') {
      let heading = piece.head ? trimEdges(piece.head) : null;
      if (first && heading) {
        const title = titleOf(heading, lex, directions, req.image ?? null);
        add(title.scene);
        title.more.forEach(add);
        heading = null;
      }
      if (piece.kind === 'steps') {
        // At most six steps a scene: more go on in a second scene.
        for (let i = 0; i < piece.items.length; i += 6) {
          const steps: Step[] = piece.items
            .slice(i, i + 6)
            .map((s) => ({ marker: s.marker ? trimEdges(s.marker).text : null, text: trimEdges(s.text).text }));
          add({ kind: 'steps', heading: i === 0 && heading ? heading.text : null, steps });
        }
      } else {
        const tips = piece.head !== null && pattern(lex, `{listNouns}`).test(piece.head.text);
        const items = piece.items.map((s) => capitalise(trimEdges(s.text).text, lang));
        add(listScene(heading?.text ?? null, items, lex, !tips));
      }
    } else if (piece.kind === 'countdown') {
      add({
        kind: 'countdown',
        numbers: piece.numbers.map((n) => n.text),
        payoff: piece.payoff ? trimEdges(piece.payoff).text : null,
      });
    } else if (requestOnly(piece.span, lex)) {
      directions.push(trimEdges(piece.span).text);
      continue;
    } else if (first) {
      // A quote opens as a quote card; any other first sentence is the title.
      const quote = quoteOf(trimEdges(piece.span), lex);
      if (quote) quote.forEach(add);
      else {
        const title = titleOf(piece.span, lex, directions, req.image ?? null);
        add(title.scene);
        title.more.forEach(add);
      }
    } else scenesOf(piece.span, lex).forEach(add);
    first = false;
  }
  if (stated && !directions.some((d) => d.includes(stated.span.text))) directions.push(stated.span.text);
  if (candidates.length === 0) add({ kind: 'title', title: all.text, subtitle: null, image: req.image ?? null });

  // Summarise: the opening scene stays; the rest by rank (structure, figures, quotes, the call to
  // action, then statements), in their order; the last call to action closes.
  const maxScenes =
    requested === null ? MAX_SCENES : Math.max(1, Math.min(MAX_SCENES, Math.floor(requested / MIN_SCENE_SECONDS)));
  const [opening, ...rest] = candidates;
  const cta = rest.findLast((c) => c.scene.kind === 'cta');
  const middle = rest.filter((c) => c !== cta);
  const room = Math.max(0, maxScenes - 1 - (cta ? 1 : 0));
  const kept = [...middle]
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, room)
    .sort((a, b) => a.order - b.order);
  const scenes = [opening!, ...kept, ...(cta && 1 + kept.length < maxScenes ? [cta] : [])].map((c) => c.scene);
  const summarised = scenes.length < candidates.length;

  // With a voice, a scene lasts at least its narration at the natural pace plus a breath.
  const narrations = scenes.map((s) => (req.narrate ? narrationOf(s) : null));
  const weights = scenes.map((s, i) =>
    Math.max(naturalSeconds(s, lang), narrations[i] ? narrationNaturalSeconds(narrations[i], lang) : 0),
  );
  const natural = weights.reduce((t, w) => t + w, 0);
  const total = clampDuration(requested ?? natural);
  const storyboard: Storyboard = {
    look,
    scenes: timedBy(scenes, weights, total).map((s, i) => (narrations[i] ? { ...s, narration: narrations[i] } : s)),
    durationSeconds: total,
    lang,
    direction: directionOf(text),
  };
  return { storyboard, summarised, directions };
}

type Ranked = { scene: Scene; order: number; rank: number };

const RANKS: Record<Scene['kind'], number> = {
  title: 0,
  comparison: 1,
  timeline: 1,
  features: 1,
  steps: 1,
  countdown: 1,
  list: 1,
  bars: 1,
  counter: 1,
  progress: 1,
  quote: 2,
  cta: 2,
  image: 2,
  statement: 3,
};

const clampDuration = (seconds: number) => Math.min(MAX_DURATION_SECONDS, Math.max(1, Math.round(seconds * 10) / 10));

/** A scene's natural length: time to read it, one beat per step or countdown number. */
export function naturalSeconds(s: Scene, lang: string): number {
  switch (s.kind) {
    case 'title':
      return 3;
    case 'statement':
      return Math.min(4.5, Math.max(2.5, wordCount(s.text, lang) * 0.3));
    case 'steps':
      return Math.max(3, s.steps.length * STEP_BEAT);
    case 'countdown':
      return s.numbers.length * COUNT_BEAT + (s.payoff ? 2.2 : 0.4);
    case 'list':
      return 2 + 0.5 * s.items.length;
    case 'features':
      return 2 + 0.6 * s.items.length;
    case 'timeline':
      return Math.max(3, s.items.length * 1.3);
    case 'comparison':
      return 2.5 + 1.2 * s.options.length;
    case 'bars':
    case 'quote':
      return 3;
    default:
      return 2.5;
  }
}

/** Scene times proportional to `weights`, summing exactly to `total` (rounded to the millisecond). */
export function timedBy(scenes: Scene[], weights: number[], total: number): TimedScene[] {
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

// ---- Structure: steps, bullets, countdowns, and the sentences between them -----------------------

type Item = { marker: Span | null; text: Span };
type Piece =
  | { kind: 'sentence'; span: Span }
  | {
      kind: 'comparison';
      head: Span | null;
      options: ComparisonOption[];
      highlight: number | null;
      badge: string | null;
      asked: string[];
      span: Span;
    }
  | { kind: 'timeline'; head: Span | null; items: TimedItem[]; span: Span }
  | { kind: 'steps' | 'list'; head: Span | null; items: Item[]; span: Span }
  | { kind: 'countdown'; numbers: Span[]; payoff: Span | null; span: Span };

/** The prompt as an ordered list of structures (steps, lists of bullets, countdowns) and sentences. */
function structure(all: Span, lex: Lexicon): Piece[] {
  const compared = comparisonIn(all, lex, sentencesOf);
  const timed = timelineIn(all, lex, sentencesOf);
  const blocks = [
    compared && { kind: 'comparison' as const, ...compared },
    timed && { kind: 'timeline' as const, ...timed },
    numbered(all, lex),
    bulleted(all, lex),
    countdown(all, lex),
  ].filter((b): b is Exclude<Piece, { kind: 'sentence' }> => b !== null);
  // Overlapping structures: the earliest wins, except that a comparison or timeline wins over a plain list of the
  // same lines ("– 9 h 00 : accueil …" is a bullet's item and a time).
  blocks.sort((a, b) => a.span.start - b.span.start);
  const chosen: typeof blocks = [];
  const designed = (b: (typeof blocks)[number]) => b.kind === 'comparison' || b.kind === 'timeline';
  for (const b of blocks) {
    const clash = chosen.filter((c) => b.span.start < spanEnd(c.span) && c.span.start < spanEnd(b.span));
    if (clash.length === 0) chosen.push(b);
    else if (designed(b) && clash.length === 1 && clash[0]!.kind === 'list') chosen[chosen.indexOf(clash[0]!)] = b;
  }
  const pieces: Piece[] = [];
  let at = all.start;
  const textBetween = (from: number, to: number) => sub(all, from - all.start, to - all.start);
  for (const b of chosen) {
    for (const s of sentencesOf(textBetween(at, b.span.start), lex)) pieces.push({ kind: 'sentence', span: s });
    pieces.push(b);
    at = spanEnd(b.span);
  }
  for (const s of sentencesOf(textBetween(at, spanEnd(all)), lex)) pieces.push({ kind: 'sentence', span: s });
  return pieces;
}

const joinRules = new WeakMap<Lexicon, (before: string, after: string) => boolean>();
const abbreviationRules = new WeakMap<Lexicon, { asWritten: RegExp; anyCase: RegExp }>();

/**
 * Text ending in an abbreviation of the language ("Std.", "z. B.", "ул."), or in the first part of one written in
 * parts ("z." of "z. B."); `*` before one leaves its start open ("*str." ends "Bahnhofstr."). `asWritten` takes an
 * entry written with a capital as written ("Sun.", "No.": "sun." and "no." end sentences), `anyCase` takes every
 * entry in any case.
 */
function abbreviationEnd(lex: Lexicon): { asWritten: RegExp; anyCase: RegExp } {
  let rules = abbreviationRules.get(lex);
  if (!rules) {
    const all = Object.values(lex).flatMap((v) =>
      Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string' && /\.$/u.test(w)) : [],
    );
    const parts = all.flatMap((w) =>
      w
        .split(/(?<=\.)\s+/u)
        .slice(0, -1)
        .map((_p, i, a) => a.slice(0, i + 1).join(' ')),
    );
    const source = (w: string, anyCase: boolean) => {
      const open = w.startsWith('*');
      const chars = [...w.replace(/^\*/u, '')];
      const caseless = anyCase || w === w.toLowerCase();
      const body = chars
        .map((c) => {
          if (/\s/u.test(c)) return '\\s+';
          const [lower, upper] = [c.toLowerCase(), c.toUpperCase()];
          return caseless && lower !== upper ? `[${lower}${upper}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      // Not inside a word of a spaced script ("Hrn." is not "Ahrn."); an open start or a glued script may touch it.
      return open || !/\p{L}/u.test(chars[0]!) ? body : `(?<=^|[^\\p{L}\\p{M}]|[${GLUED_LETTERS}])${body}`;
    };
    const words = [...new Set([...all, ...parts])].sort((a, b) => b.length - a.length);
    const rule = (anyCase: boolean) => new RegExp(`(?:${words.map((w) => source(w, anyCase)).join('|')})$`, 'u');
    rules = { asWritten: rule(false), anyCase: rule(true) };
    abbreviationRules.set(lex, rules);
  }
  return rules;
}

/**
 * Sentences, kept together after an abbreviation of the language ("ул.", "Nr.", "Co., Ltd.）") and in dates ("12.
 * Mai"), and after an ordinal an article or preposition leads to ("an den 1. Vorsitzenden").
 */
function sentencesOf(s: Span, lex: Lexicon): Span[] {
  let joins = joinRules.get(lex);
  if (!joins) {
    const abbreviation = abbreviationEnd(lex);
    const date = pattern(lex, `^(?:{dateWords})`);
    // An ordinal or a date's piece written with a full stop ("3. kat", "2027. 4. 10.") goes on when a lower-case
    // word, a digit or a bracket follows; a month or weekday after a day's number ("1. Februar") too.
    const ordinal = /(?:^|[\s(~])\p{Nd}{1,4}\.$/u;
    // (Or a comma leads to: "Goethestr. 12, 2. OG".)
    const ledOrdinal = pattern(lex, `(?:(?:^|\\s)(?:{functionWords})\\s+|,\\s+)\\p{Nd}{1,3}\\.$`);
    const goesOn = /^(?:\p{Ll}|\p{Nd}{1,2}\.|\()/u;
    const lowerOrDigit = /^[\p{Ll}\p{Nd}]/u;
    // Initials go on to the next initial: "Петров И. С.", "J. R. R. Tolkien".
    const initial = /(?:^|\s)\p{Lu}\.$/u;
    const nextInitial = /^\p{Lu}\.(?:\s|$)/u;
    // A sentence never ends in an opening bracket ("10.(토)").
    joins = (before, after) => {
      const inside = before.replace(/[)）\]」』"”’»]+$/u, '');
      return (
        abbreviation.asWritten.test(inside) ||
        (abbreviation.anyCase.test(inside) && lowerOrDigit.test(after)) ||
        /[(（[]$/u.test(before) ||
        ledOrdinal.test(before) ||
        (initial.test(before) && nextInitial.test(after)) ||
        (ordinal.test(before) && (date.test(after) || goesOn.test(after)))
      );
    };
    joinRules.set(lex, joins);
  }
  return sentences(s, lex.language, joins);
}

/** The sentence that leads up to `at` (a heading before a list of steps), if any. */
function headBefore(all: Span, at: number, lex: Lexicon): Span | null {
  const before = sub(all, 0, at - all.start);
  const last = sentencesOf(before, lex).at(-1);
  return last && spanEnd(last) >= at - 3 - (before.text.length - before.text.trimEnd().length) ? last : null;
}

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳';

/**
 * "1. Unplug it. 2. Wait …", "Step 1: …", "Step one: …", "1. Schritt: …", "Primer paso: …", "첫째, …", "①…②…": numbered
 * steps, 1, 2, 3… in order. A marker with a step word or an ordinal may also end in a dash or a comma ("Paso 1, …",
 * "Шаг 1 — …"); a bare number only in a full stop, a bracket or a colon.
 */
function numbered(all: Span, lex: Lexicon): Piece | null {
  const bareEnd = `(?:[.)．）](?![\\p{Nd}ºª°])|\\s*[:：]|、)`;
  const wordEnd = `(?:${bareEnd}|\\s+[–—-]\\s+|\\s*[,，](?=\\s*\\p{L}))`;
  const re = pattern(
    lex,
    `(?<=^|[\\s:：。.!?！？،؛;；→⇒➔➡])(?:` +
      // Step 1, Step one, الخطوة الأولى, 第1步, STEP1
      `(?:{stepWords})\\s*(\\p{Nd}{1,2}|{numberWords}|{ordinals})(?:\\s*(?:{stepAfter}))?${wordEnd}` +
      // 1단계, 第一步 (第 is a step word), 一つ目
      `|(\\p{Nd}{1,2}|{numberWords})\\s*(?:{stepAfter})${wordEnd}` +
      // 1. Schritt, 1º passo, 1.º passo, 1re étape, 1. adım
      `|(\\p{Nd}{1,2})(?:\\.?[ºª°]|\\.|\\p{Ll}{1,3})?\\s*(?:{stepWords})${wordEnd}` +
      // Primer paso, पहला चरण
      `|({ordinals})\\s*(?:{stepWords})${wordEnd}` +
      // 첫째, First:
      `|({ordinals})\\s*[,，:：]` +
      `|(\\p{Nd}{1,2})${bareEnd}` +
      `|([${CIRCLED}])` +
      `)\\s*`,
    'giu',
  );
  const placeOf = (word: string) => {
    const key = Object.keys(lex.ordinals).find((w) => w.toLocaleLowerCase() === word.toLocaleLowerCase());
    return key === undefined ? numberOf(word, lex) : lex.ordinals[key]!;
  };
  // A bare "1." an article or preposition leads, or a month or weekday follows, is an ordinal or a date: "ab dem 1.
  // Okt.", "am 2. Mai".
  const ledBy = pattern(lex, `(?:^|\\s)(?:{functionWords})\\s+$`);
  const dated = pattern(lex, `^(?:{dateWords})(?![\\p{L}\\p{M}])`);
  const marks = [...all.text.matchAll(re)].flatMap((m) => {
    if (
      m[6] !== undefined &&
      (ledBy.test(all.text.slice(0, m.index)) || dated.test(all.text.slice(m.index + m[0].length)))
    )
      return [];
    const circled = m[7] ? CIRCLED.indexOf(m[7]) + 1 : null;
    const word = m.slice(1, 7).find((g) => g !== undefined);
    const n = circled ?? (word === undefined ? null : placeOf(word));
    return n === null ? [] : [{ at: m.index, end: m.index + m[0].length, n, text: m[0] }];
  });
  // The longest run 1, 2, 3… of markers in order.
  let best: typeof marks = [];
  for (let i = 0; i < marks.length; i++) {
    if (marks[i]!.n !== 1) continue;
    const run = [marks[i]!];
    for (const m of marks.slice(i + 1)) if (m.n === run.length + 1) run.push(m);
    if (run.length > best.length) best = run;
  }
  if (best.length < 2) return null;
  const items: Item[] = best.map((m, k) => {
    const end = k + 1 < best.length ? best[k + 1]!.at : all.text.length;
    let text = sub(all, m.end, end);
    // The last step ends with its sentence.
    if (k + 1 === best.length) text = sentencesOf(text, lex)[0] ?? text;
    return { marker: sub(all, m.at, m.end), text };
  });
  const head = headBefore(all, all.start + best[0]!.at, lex);
  const start = head?.start ?? all.start + best[0]!.at;
  const span = { text: all.text.slice(start - all.start, spanEnd(items.at(-1)!.text) - all.start), start };
  // Numbered tips are a list of tips, not instructions to follow in order (unless each is marked a step: "Passo 1").
  const steps = pattern(lex, `{howTo}|{stepWords}`);
  const tips =
    head &&
    pattern(lex, `{listNouns}`).test(head.text) &&
    !steps.test(head.text) &&
    !best.every((m) => steps.test(m.text));
  return { kind: tips ? 'list' : 'steps', head, items, span };
}

/** Lines starting with a bullet: a list, or steps when their heading says how to do something. */
function bulleted(all: Span, lex: Lexicon): Piece | null {
  const lines = [...all.text.matchAll(/^[ \t]*[-–—•·*▪►✓✔◦][ \t]+(.+)$/gmu)];
  // The first run of consecutive bullet lines.
  const run: RegExpMatchArray[] = [];
  for (const m of lines) {
    const prev = run.at(-1);
    if (prev && all.text.slice(prev.index! + prev[0].length, m.index).trim() !== '') break;
    run.push(m);
  }
  if (run.length < 2) return null;
  const items: Item[] = run.map((m) => ({
    marker: null,
    text: sub(all, m.index! + m[0].length - m[1]!.length, m.index! + m[0].length),
  }));
  const head = headBefore(all, all.start + run[0]!.index!, lex);
  const start = head?.start ?? all.start + run[0]!.index!;
  const last = run.at(-1)!;
  const span = { text: all.text.slice(start - all.start, last.index! + last[0].length), start };
  const steps = head && pattern(lex, `{howTo}|{stepWords}`).test(head.text);
  return { kind: steps ? 'steps' : 'list', head, items, span };
}

/**
 * "5, 4, 3, 2, 1 — Happy New Year!", "Drei, zwei, eins", "٣، ٢، ١": numbers counting down to 1 or 0, then the payoff.
 */
function countdown(all: Span, lex: Lexicon): Piece | null {
  const token = pattern(lex, `\\p{Nd}+|{numberWords}`, 'giu');
  const numbers = [...all.text.matchAll(token)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
    n: numberOf(m[0], lex),
  }));
  for (let i = 0; i < numbers.length; i++) {
    const run = [numbers[i]!];
    for (let j = i + 1; j < numbers.length; j++) {
      const prev = run.at(-1)!;
      const cur = numbers[j]!;
      if (cur.n === null || prev.n === null || cur.n !== prev.n - 1) break;
      if (!/^[\s,،、，.…!\-–—:;]*$/u.test(all.text.slice(prev.end, cur.at))) break;
      run.push(cur);
    }
    const lastN = run.at(-1)!.n;
    // At least three numbers, down to 1 (or 0), starting a sentence or a clause.
    if (run.length < 3 || (lastN !== 1 && lastN !== 0)) continue;
    const before = all.text.slice(0, run[0]!.at);
    if (!/(?:^|[.!?。！？:：—–\n]\s*)$/u.test(before)) continue;
    const after = sub(all, run.at(-1)!.end);
    const rest = trimEdges(after);
    const sentence = sentencesOf(rest, lex)[0] ?? null;
    // The payoff: the rest of the countdown's sentence, or the next sentence when the countdown ends it.
    const ownSentence = !/^[.!?。！？]/u.test(after.text.trimStart()) || /^[…]/u.test(after.text.trimStart());
    const payoff = sentence && (ownSentence || sentence) ? sentence : null;
    const end = payoff ? spanEnd(payoff) : all.start + run.at(-1)!.end;
    const start = all.start + run[0]!.at;
    return {
      kind: 'countdown',
      numbers: run.map((r) => sub(all, r.at, r.end)),
      payoff,
      span: { text: all.text.slice(start - all.start, end - all.start), start },
    };
  }
  return null;
}

// ---- The title -----------------------------------------------------------------------------------

/** A video's length as written ("15-second", "15秒", "half a minute"), as a pattern's source. */
const LENGTH =
  `(?:(?:\\p{Nd}+(?:[.,]\\p{Nd}+)?|{numberWords})[\\s\\u00A0-]*(?:{seconds}|{minutes})` +
  `|{halfMinute}|{wholeMinute})`;

/**
 * A sentence that only asks for the video ("Make a 15-second video.", "15秒の動画を作ってください。", "10초 영상
 * 만들어 주세요."): a direction, never a scene.
 */
function requestOnly(s: Span, lex: Lexicon): boolean {
  if (!pattern(lex, `{videoNouns}`).test(s.text)) return false;
  const rest = s.text.replace(
    pattern(lex, `${LENGTH}|{videoNouns}|{metaVerbs}|{metaWords}|{lengthWords}|{functionWords}`, 'giu'),
    ' ',
  );
  return !/\p{L}/u.test(rest);
}

/**
 * What names the video rather than what it says, at the start ("An 8-second ad for", "Un anuncio de 8
 * segundos para", "Make a short video about") or at the end ("…の8秒広告", "…için 10 saniyelik bir
 * reklam", "…के लिए 8 सेकंड का विज्ञापन") of the first sentence: the span left, and the phrase cut.
 */
function withoutMeta(s: Span, lex: Lexicon): { rest: Span; cut: string[] } {
  const len = LENGTH;
  const item = `(?:{metaWords}|{lengthWords}|${len}|[\\p{L}]{1,3}[\\s-]+${len})`;
  const lead = pattern(
    lex,
    `^(?:(?:{metaVerbs})[\\s,]*)*(?:(?:${item}[\\s-]*)+(?:[\\p{L}\\p{M}'’-]+[\\s-]+){0,3}?)?(?:{videoNouns})` +
      // (Arabic joins "for" to the word: "فيديو قصير لقاعة…" keeps "لقاعة…", the words as written.)
      `((?:[\\s,-]*${item})*)[\\s,:：،-]*(?:((?:{topicLinks})(?![\\p{L}])[\\s:：]*)|(?=(ل)\\p{L})|)`,
  );
  // (Cheap tests first: both forms need a word that names a video, the tail form at the sentence's end.)
  const noun = pattern(lex, `{videoNouns}`);
  if (!noun.test(s.text)) return { rest: s, cut: [] };
  const m = lead.exec(s.text);
  if (m) {
    // A request needs its link ("for", "about") unless a length or a colon marks it as one.
    const rest = trimEdges(sub(s, m[0].length));
    if ((m[2] || m[3] || pattern(lex, len).test(m[0]) || /[:：]\s*$/u.test(m[0])) && /[\p{L}\p{N}]/u.test(rest.text))
      return { rest, cut: [m[0].trim()] };
  }
  const tail = pattern(
    lex,
    `((?:{tailLinks})[\\s,]*)?((?:(?:{metaVerbs}|{metaWords}|{lengthWords}|${len})[\\s-]*)*)` +
      `(?:{videoNouns})((?:[\\s]*(?:{metaVerbs}))*)[\\s.!?。！？।]*$`,
  );
  const t = pattern(lex, `(?:{videoNouns})(?:[\\s]*(?:{metaVerbs}))*[\\s.!?。！？।]*$`).test(s.text)
    ? tail.exec(s.text)
    : null;
  // A request needs its link ("の", "için") unless a length marks it, or its verb ends it or opens it where verbs come
  // last ("…のメニュー紹介動画をお願いします", "做一个15秒的公司发展历程视频").
  const opening = pattern(lex, `^(?:(?:{metaVerbs})[\\s,]*)+(?:(?:{metaWords}|${len})[\\s,]*)*`).exec(s.text);
  const asking = lex.tailLinks.length > 0 && (/\p{L}/u.test(t?.[3] ?? '') || opening !== null);
  if (t && t.index > 0 && (t[1] || asking || pattern(lex, len).test(t[0]))) {
    let rest = trimEdges(sub(s, 0, t.index));
    const cut = [t[0].trim()];
    // "为我们的…" (for our …): a request's opening words, once its ending is known.
    if (opening && opening[0].length < rest.text.length) {
      rest = trimEdges(sub(rest, opening[0].length));
      cut.unshift(opening[0].trim());
    }
    if (/[\p{L}\p{N}]/u.test(rest.text)) return { rest, cut };
  }
  return { rest: s, cut: [] };
}

/** A style request ending the sentence: "with teal accents and serif type", "con acentos dorados". */
function withoutStyle(s: Span, lex: Lexicon): { rest: Span; cut: string | null } {
  const words = `(?:[\\p{L}\\p{M}-]+\\s+){0,3}?`;
  const re = pattern(
    lex,
    `[,\\s]*(?:{styleLinks})\\s+${words}(?:{styleNouns})` +
      `(?:\\s+(?:{conjunctions})\\s+${words}(?:{styleNouns}))?[\\s.!]*$`,
  );
  const m = re.exec(s.text);
  if (!m || m.index === 0) return { rest: s, cut: null };
  return { rest: trimEdges(sub(s, 0, m.index)), cut: m[0].trim() };
}

/** The title scene from the first sentence, and the scenes its remainder makes (a list after its colon…). */
function titleOf(
  sentence: Span,
  lex: Lexicon,
  directions: string[],
  image: string | null,
): { scene: Scene; more: Scene[] } {
  let s = trimEdges(sentence);
  const meta = withoutMeta(s, lex);
  directions.push(...meta.cut);
  s = meta.rest;
  const style = withoutStyle(s, lex);
  if (style.cut) directions.push(style.cut);
  s = style.rest;
  const lang = lex.language;
  const more: Scene[] = [];
  let title = s;
  let subtitle: Span | null = null;
  // "Head: the rest": the head is the title; the rest its subtitle, or its own scene (a list…). A long head stands
  // before its colon only when a list follows ("La nouvelle résidence …, à deux pas du campus de Grenoble : laverie,
  // local à vélos, …").
  const colon = /^(.{2,160}?)\s*[:：]\s+|^(.{2,160}?)[：]/u.exec(s.text);
  const headOf = (c: RegExpExecArray) => trimEdges(sub(s, 0, (c[1] ?? c[2]!).length));
  const long = colon !== null && wordCount(headOf(colon).text, lang) > MAX_TITLE_WORDS;
  const listed = colon && long ? listOf(trimEdges(sub(s, colon[0].length)), lex, headOf(colon)) : null;
  // "Our café has fresh pastries, sockets at every table and free Wi-Fi": the lead-in the title, the rest features.
  const featured = colon ? null : listOf(s, lex, null);
  if (featured?.kind === 'features' && featured.heading) {
    const lead = s.text.indexOf(featured.heading);
    title = trimEdges(sub(s, lead, lead + featured.heading.length));
    more.push({ ...featured, heading: null });
  } else if (colon && (!long || listed)) {
    // (The head may be the request alone: "做一个20秒的咖啡店开业视频：…".)
    const asked = meta.cut.length ? null : withoutMeta(headOf(colon), lex);
    directions.push(...(asked?.cut ?? []));
    const head = asked?.rest ?? headOf(colon);
    const tail = trimEdges(sub(s, colon[0].length));
    title = head;
    const structured = listed ?? listOf(tail, lex, head) ?? barsOf(tail, lex, '');
    if (structured) more.push(structured);
    else if (wordCount(tail.text, lang) <= MAX_SUBTITLE_WORDS && !quoteOf(tail, lex)) subtitle = tail;
    else more.push(...scenesOf(tail, lex));
  }
  // A long title: its first clauses; the rest its subtitle, or statements of their own.
  if (!subtitle && wordCount(title.text, lang) > MAX_TITLE_WORDS) {
    const [head, ...rest] = fitted(title, MAX_TITLE_WORDS, lex);
    const restSpan = rest.length ? sub(title, rest[0]!.start - title.start, spanEnd(rest.at(-1)!) - title.start) : null;
    title = head!;
    if (restSpan && wordCount(restSpan.text, lang) <= MAX_SUBTITLE_WORDS) subtitle = trimEdges(restSpan);
    else if (restSpan) more.unshift(...rest.map((r) => ({ kind: 'statement' as const, text: trimEdges(r).text })));
  }
  // Its pictogram only when its words name something one shows (a cup for "コーヒー"): never a decoration.
  const icon = titleIcon(`${title.text} ${subtitle?.text ?? ''}`, lex);
  return {
    scene: {
      kind: 'title',
      title: capitalise(title.text, lang),
      subtitle: subtitle ? capitalise(subtitle.text, lang) : null,
      image,
      ...(icon && { icon }),
    },
    more,
  };
}

/**
 * A sentence in pieces of whole clauses, each at most `max` words (a longer clause stays whole). A piece never ends on
 * an abbreviation ("…быте XIX в., т. е. …"): its clause goes on into the next.
 */
function fitted(s: Span, max: number, lex: Lexicon): Span[] {
  const lang = lex.language;
  if (wordCount(s.text, lang) <= max) return [s];
  const abbreviated = pattern(lex, `(?:^|\\s)(?:{abbreviations})[\\s,;:،、，]*$`);
  const groups: Span[] = [];
  let current: Span | null = null;
  for (const c of clauses(s)) {
    const joined: Span | null = current
      ? { text: s.text.slice(current.start - s.start, spanEnd(c) - s.start), start: current.start }
      : null;
    if (current && joined && (wordCount(joined.text, lang) <= max || abbreviated.test(current.text))) current = joined;
    else {
      if (current) groups.push(current);
      current = c;
    }
  }
  if (current) groups.push(current);
  return groups.map(trimEdges);
}

// ---- Scenes of a sentence --------------------------------------------------------------------------

function scenesOf(sentence: Span, lex: Lexicon): Scene[] {
  const s = trimEdges(sentence);
  const lang = lex.language;
  const quote = quoteOf(s, lex);
  if (quote) return quote;
  const cta = ctaOf(s, lex);
  if (cta) return [cta];
  const structured = barsOf(s, lex, null) ?? listOf(s, lex, null);
  if (structured) return [structured];
  const figure = figureScene(s, lex);
  if (figure) return [figure];
  return fitted(s, MAX_SCENE_WORDS, lex).map((p) => ({ kind: 'statement', text: capitalise(p.text, lang) }));
}

const QUOTES: Array<[string, string]> = [
  ['“', '”'],
  ['«', '»'],
  ['„', '“'],
  ['„', '”'],
  ['"', '"'],
  ['「', '」'],
  ['『', '』'],
  ['‘', '’'],
  ['»', '«'],
];

/** "“The best coffee in Porto,” says Ana Ribeiro": a quote card, attributed when a name is given. */
function quoteOf(s: Span, lex: Lexicon): Scene[] | null {
  for (const [open, close] of QUOTES) {
    const a = s.text.indexOf(open);
    const b = a < 0 ? -1 : s.text.indexOf(close, a + 1);
    if (a < 0 || b < 0) continue;
    const inner = trimEdges(sub(s, a + 1, b));
    if (wordCount(inner.text, lex.language) < 2) continue;
    // The rest is the attribution when it is short (a name and the verb: "says Ana Ribeiro").
    const verbs = pattern(lex, `^[\\s,，、.:：—–-]*(?:{quoteParticles})?[\\s,，:：]*|[\\s,，.:：—–-]*$`, 'gu');
    const around = [trimEdges(sub(s, 0, a)), trimEdges(sub(s, b + 1))].filter((r) => /[\p{L}\p{N}]/u.test(r.text));
    // A quote is the sentence: what is around it can only be its attribution. (A name in quotes inside
    // a sentence — «Белые ночи», "Simit Sarayı" — is no quote.)
    const rest = around.map((r) => strip(r, verbs)).filter((r): r is Span => r !== null);
    if (rest.length > 1 || rest.some((r) => wordCount(r.text, lex.language) > 6 || r.text.length > 48)) return null;
    return [{ kind: 'quote', quote: inner.text, attribution: rest[0]?.text ?? null }];
  }
  return null;
}

/** The span without what `re` matches at its start and end. */
function strip(s: Span, re: RegExp): Span | null {
  let from = 0;
  let to = s.text.length;
  re.lastIndex = 0;
  for (const m of s.text.matchAll(re)) {
    if (m.index === 0) from = Math.max(from, m[0].length);
    else if (m.index + m[0].length === s.text.length) to = Math.min(to, m.index);
  }
  if (to <= from) return null;
  const out = trimEdges(sub(s, from, to));
  return /[\p{L}\p{N}]/u.test(out.text) ? out : null;
}

/** Latin letters and digits, as a character class's contents. */
const LATIN = String.raw`\p{Script=Latin}\p{N}`;
/** An address: a URL, an e-mail address, a domain name. */
const ADDRESS = new RegExp(
  `(?:${[
    String.raw`https?:\/\/[^\s]+`,
    String.raw`www\.[^\s]+`,
    String.raw`[${LATIN}._%+-]+@[${LATIN}-]+(?:\.[${LATIN}-]+)+`,
    String.raw`(?<![@${LATIN}.-])[${LATIN}][${LATIN}-]*(?:\.[${LATIN}-]+)*\.[a-z]{2,12}(?:\/[^\s]*)?(?![${LATIN}])`,
  ].join('|')})`,
  'iu',
);

/** Country endings of domain names (ISO 3166 codes that are delegated), less those that are also file types. */
const COUNTRY_DOMAINS = new Set(
  (
    'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt ' +
    'bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er ' +
    'es et eu fi fj fk fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht ' +
    'hu id ie il im in iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls ' +
    'lt lu lv ly ma mc me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl ' +
    'no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw qa re ro rs ru rw sa sb sc sd se sg si ' +
    'sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk ' +
    'us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
  ).split(' '),
);

/**
 * A domain name: a real ending ("brightsidedental.com", "impots.gouv.fr"), and a name with a letter before it — not
 * "Node.js", "sig.ra" or "1.er".
 */
function isDomain(host: string): boolean {
  const labels = host.toLowerCase().split('.');
  const ending = labels.at(-1)!;
  const known = /^(?:com|net|org|io|app|dev|ai|shop|store|info|travel|online|site|tech|gov|edu)$/u.test(ending);
  return (known || COUNTRY_DOMAINS.has(ending)) && /\p{L}/u.test(labels[0]!) && labels[0]!.length >= 2;
}

/**
 * A call to action: a sentence with an address ("Book at brightsidedental.com"), or one that asks the viewer to act.
 */
function ctaOf(s: Span, lex: Lexicon): Scene | null {
  const m = ADDRESS.exec(s.text);
  // "Node.js": a domain only when its ending is a real one, or the sentence asks for action.
  const asks = pattern(lex, `^(?:[\\p{L}\\p{M}]+\\s+){0,2}?(?:{callsToAction})`).test(s.text);
  if (m && (/[@/]|^www\./iu.test(m[0]) || isDomain(m[0].replace(/\/.*$/, '')))) {
    const address = trimEdges(sub(s, m.index, m.index + m[0].length));
    const links = pattern(lex, `(?:[\\s,:：-]*(?:{addressLinks}))+[\\s,:：-]*$`);
    let before = trimEdges(sub(s, 0, m.index));
    const linkBefore = links.exec(before.text);
    if (linkBefore) before = trimEdges(sub(before, 0, linkBefore.index));
    const after = trimEdges(sub(s, m.index + m[0].length));
    const afterLinks = pattern(lex, `^(?:[\\s,-]*(?:{addressLinks}))+[\\s,.!-]*$`);
    const afterText = afterLinks.test(after.text) ? '' : after.text;
    const action = /[\p{L}\p{N}]/u.test(before.text) ? before : /[\p{L}\p{N}]/u.test(afterText) ? after : null;
    return { kind: 'cta', action: action ? capitalise(action.text, lex.language) : '', detail: address.text };
  }
  if (asks && wordCount(s.text, lex.language) <= 12)
    return { kind: 'cta', action: capitalise(s.text, lex.language), detail: null };
  return null;
}

/**
 * "3 tips for better sleep: a, b, and c" (a list of the three, the count not a counter); "Features: a,
 * b, c"; "fast, private and free" (three or more short items).
 */
function listOf(s: Span, lex: Lexicon, head: Span | null): Scene | null {
  const lang = lex.language;
  let heading = head;
  let body = s;
  if (!head) {
    // "Head: a, b, c", "Head – a, b, c".
    const colon = /^(.{2,80}?)\s*[:：]\s*|^(.{2,80}?)\s+[–—]\s+/u.exec(s.text);
    if (colon) {
      heading = trimEdges(sub(s, 0, (colon[1] ?? colon[2]!).length));
      body = trimEdges(sub(s, colon[0].length));
    } else {
      // "Our bike has a rain cover, room for three kids and a lock": what it has, as features under what has them
      // ("Our bike": the verb, a link, not shown; "Incluye …" keeps it), when pictograms show them; "… avec piscine
      // chauffée, Wi-Fi gratuit, …" (a preposition before the first item, not inside one).
      const link =
        pattern(lex, `(?:^|\\s)(?:{featureLinks})\\s+`).exec(s.text) ??
        pattern(lex, `(?<=^[^,，、;；،]*)\\s(?:{featureWith})\\s+`).exec(s.text);
      let lead = link ? trimEdges(sub(s, 0, link.index)) : null;
      if (link && !/\p{L}/u.test(lead!.text)) lead = trimEdges(sub(s, 0, link.index + link[0].length));
      const rest = link ? trimEdges(sub(s, link.index + link[0].length)) : null;
      let listed = rest ? enumerated(rest, lex, true) : [];
      if (!link) ({ lead, listed } = verbLast(s, lex));
      if (lead && listed.length >= 3 && wordCount(lead.text, lang) <= 12) {
        const features = featuresOf(
          listed.map((i) => i.text),
          lex,
        );
        if (features) return { kind: 'features', heading: lead.text, items: features };
      }
    }
  }
  const items = enumerated(body, lex, true);
  // How many the heading promises: "3 tips", "three reasons", "3つのコツ".
  const promised = heading
    ? pattern(
        lex,
        `(\\p{Nd}+|{numberWords})\\s*(?:つの|个|個|가지|種類の)?\\s*(?:[\\p{L}\\p{M}-]+\\s+)?(?:{listNouns})`,
      ).exec(heading.text)
    : null;
  const count = promised ? numberOf(promised[1]!, lex) : null;
  // Pictograms for what a heading lists ("Stay at Harbor Loft: free Wi-Fi, …") or a sentence that is only a list
  // ("Piscina climatizada, pistas de pádel y cafetería"), not for a tip's words.
  const pictured =
    promised || (!heading && items.length < 3) || items.length > 6
      ? null
      : featuresOf(
          items.map((i) => i.text),
          lex,
          !heading,
        );
  // Features may say a little more ("sala pesi aperta 24 ore su 24").
  const shortItems = items.every((i) => wordCount(i.text, lang) <= (count ? 12 : pictured ? 8 : 6));
  if (items.length < 2 || !shortItems) return null;
  // Without a count, three or more items and no figures in them ("Friday, 21 June, from 3 pm" is a date).
  if (count === null && !pictured && (items.length < 3 || items.some((i) => /\p{Nd}/u.test(i.text)))) return null;
  if (count !== null && count !== items.length) return null;
  // Without a colon, the first item may carry the sentence's lead-in ("We offer speed"): such a list is a statement.
  if (!heading && wordCount(items[0]!.text, lang) > 4) return null;
  return listScene(
    head ? null : (heading?.text ?? null),
    items.map((i) => capitalise(i.text, lang)),
    lex,
    pictured !== null,
  );
}

/**
 * "Apart otelimizde her dairede mutfak, çamaşır makinesi, klima ve Wi-Fi bulunuyor", "저희 카페는 넓은 운동장, 수제 간식을
 * 제공합니다": what something has, listed before the verb (the language's `featureEnds`); the lead-in ends on the last
 * word of the first part with one of the language's `leadEnds` ("dairede", "카페는"), and is kept with the verb.
 */
function verbLast(s: Span, lex: Lexicon): { lead: Span | null; listed: Span[] } {
  const none = { lead: null, listed: [] };
  const end = pattern(lex, `\\s*(?:{featureEnds})[\\s.。!！]*$`).exec(s.text);
  if (!end || lex.leadEnds.length === 0) return none;
  const listed = enumerated(sub(s, 0, end.index), lex, true);
  const first = listed[0];
  if (!first) return none;
  // (The lead-in may be the whole first part: "道の駅みなかみには、地元野菜の直売所、…".)
  const ends = new RegExp(`(?:${lex.leadEnds.map(escape).join('|')})(?=\\s|$)`, 'gu');
  const cut = [...first.text.matchAll(ends)].at(-1);
  if (!cut) return none;
  const at = cut.index + cut[0].length;
  const lead = trimEdges(sub(first, 0, at));
  if (at === first.text.length) return { lead, listed: listed.slice(1) };
  return { lead, listed: [trimEdges(sub(first, at)), ...listed.slice(1)] };
}

/**
 * A list, or features when its items name things pictograms show — not tips or reasons ("3 tips: skip coffee…"),
 * whose words a pictogram would contradict.
 */
function listScene(heading: string | null, items: string[], lex: Lexicon, pictured = true): Scene {
  const features = pictured ? featuresOf(items, lex) : null;
  return features ? { kind: 'features', heading, items: features } : { kind: 'list', heading, items };
}

/** "Signups by quarter: Q1 12, Q2 18, Q3 25": three or more items, each a name and a figure. */
function barsOf(s: Span, lex: Lexicon, caption: string | null): Scene | null {
  const colon = /^(.{2,80}?)\s*[:：]\s*/u.exec(s.text);
  const body = colon ? trimEdges(sub(s, colon[0].length)) : s;
  const items = enumerated(body, lex, true);
  if (items.length < 3) return null;
  const bars = items.map((item) => {
    const figs = figuresIn(item, lex).filter((f) => !f.code);
    if (figs.length !== 1) return null;
    const f = figs[0]!;
    const before = trimEdges(sub(item, 0, f.span.start - item.start));
    const after = trimEdges(sub(item, spanEnd(f.span) - item.start));
    const label = before.text && !after.text ? before : !before.text && after.text ? after : null;
    if (!label || wordCount(label.text, lex.language) > 3) return null;
    return { label: label.text, figure: f.figure };
  });
  if (bars.some((b) => b === null)) return null;
  const kinds = new Set(bars.map((b) => `${b!.figure.prefix}|${b!.figure.suffix}`));
  if (kinds.size > 1) return null;
  return {
    kind: 'bars',
    label: caption ?? (colon ? trimEdges(sub(s, 0, colon[1]!.length)).text : ''),
    bars: bars as { label: string; figure: FoundFigure['figure'] }[],
  };
}

/**
 * A quantity that leads its sentence ("Over 12,000 teams use it", "98% of them renew", "Más de 15.000
 * familias…") or ends it ("Revenue hit $1.2M", "顧客満足度は98%です"): the figure counts, the rest is its
 * label. Anywhere else the sentence stays whole: taking the figure out would leave it broken.
 */
function figureScene(s: Span, lex: Lexicon): Scene | null {
  const lang = lex.language;
  if (clauses(s).length > 1) return null;
  const quantities = figuresIn(s, lex);
  if (quantities.length !== 1 || !quantities[0]!.quantity) return null;
  const f = quantities[0]!;
  const before = trimEdges(sub(s, 0, f.span.start - s.start));
  const after = trimEdges(sub(s, spanEnd(f.span) - s.start));
  const fn = pattern(lex, `(?:^|\\s)(?:{functionWords})$`);
  let qualifier: string | null = null;
  let label: Span | null = null;
  const leading = pattern(lex, `^(?:(?:{leadArticles}|{about})\\s*)*((?:{atLeast}))?\\s*(?:{about})?$`).exec(
    before.text,
  );
  if (!before.text || leading) {
    // The figure leads: what follows it is the label ("teams use it every day"), a qualifier after the figure ("以上")
    // shown with it.
    let rest = after;
    const afterQ = pattern(lex, `^(?:{atLeastAfter})`).exec(rest.text);
    if (afterQ) {
      qualifier = afterQ[0];
      rest = trimEdges(sub(rest, afterQ[0].length));
    }
    if (leading?.[1]) qualifier = leading[1];
    label = rest;
  } else if (!after.text || pattern(lex, `^(?:{copulas})[\\s.!。！]*$`).test(after.text)) {
    // The figure ends it: the words before it, without the verb that leads to it ("Revenue hit").
    let lead = before;
    const trim = pattern(lex, `(?:[\\s]*(?:{labelTrim}))+$`);
    const t = trim.exec(lead.text);
    if (t && t.index > 0) lead = trimEdges(sub(lead, 0, t.index));
    label = lead;
  }
  if (!label || !/[\p{L}]/u.test(label.text) || fn.test(label.text)) return null;
  const text = capitalise(label.text, lang);
  if (f.kind === 'percent' && f.figure.value <= 100 && !qualifier)
    return { kind: 'progress', figure: f.figure, percent: f.figure.value, label: label.text };
  return { kind: 'counter', figure: f.figure, qualifier, label: text };
}
