// The planner corpus (test/storyboard/corpus/<lang>.json, and held-out/<lang>.json kept apart) and its
// checker: each prompt is planned and composed by both engines' offline composers, the on-screen text
// is read back from each composition (HTML text elements, Lottie text layers), and each property the
// issue names is checked on it:
//   fidelity   every on-screen text is the user's own words: a contiguous run of the prompt or the
//              instructions (case, whitespace and punctuation aside), every word a word of the input;
//   coverage   at least 90 % of the prompt's content words are on screen, unless the plan says it summarised
//              (the words of the directions the plan lists — length, "a video about", style — aside);
//   structure  the prompt's expectations: steps, lists, countdowns, counters, whole sentences, title;
//   twice      no figure is shown in more scenes than the prompt writes it, no phrase of three words or more in two;
//   labels     no empty text, no text ending on a word that cannot end a phrase ("the", "de", "の");
//   length     the plan and both compositions last the length the prompt asks for.
// The checker knows nothing of the planner's data: its few word lists are its own.
import fs from 'node:fs';
import path from 'node:path';
import { getEngine } from '../../src/engines/index.js';
import { plan } from '../../src/storyboard/plan.js';

export type Expectations = {
  length?: number;
  notLength?: number;
  steps?: string[];
  list?: string[];
  countdown?: string[];
  payoff?: string;
  noCounter?: boolean;
  counter?: string[];
  whole?: string[];
  title?: string;
  titleNot?: string;

  // The designed corpus (issue 43): corpus/designed/<lang>.json (tuning), corpus/designed/seen/<lang>.json (the
  // earlier held-out parts, each written before the planner changed; their results have since been looked at, so they
  // are reported apart, not judged) and corpus/designed/held-out/<lang>.json (the newest held-out part, written by
  // someone who had not read the planner, before the planner changed again; reported apart, judged at 90 %), five
  // prompts a part per language: a comparison, a timeline, features, step markers, abbreviations. Every string below
  // but the icons' meanings is verbatim in its prompt. Checked as `kinds` (comparison, timeline, features, icons,
  // stepMarkers) and `cuts` (noAbbreviationEnd).

  /**
   * A comparison scene: its options' names in the prompt's order, the figures written for them (a price, a time;
   * in the prompt's order), the option the prompt singles out.
   */
  comparison?: { options: string[]; figures?: string[]; highlight?: string };
  /**
   * A timeline scene: its times as written ("9:00", "9 h", "午前9時", "Ocak 2027", "10–19 Uhr"), in order, and what
   * each times (a day for opening hours).
   */
  timeline?: { times: string[]; items?: string[] };
  /** A features scene: its items, in order. */
  features?: string[];
  /**
   * Pictograms chosen by meaning: a word of a feature (as written) → the meaning its icon shows, loosely named in
   * English ("コーヒー" → "cup").
   */
  icons?: Record<string, string>;
  /**
   * Step markers as written ("Schritt 1", "第一步", "1단계", "①"): they mark the `steps`, and are neither items nor a
   * quantity to count.
   */
  stepMarkers?: string[];
  /**
   * No text on screen ends in an abbreviation or ordinal of the prompt's language ("Std.", "z. B.", "1.", "т. е.",
   * "Vol.").
   */
  noAbbreviationEnd?: true;
};

export type CorpusPrompt = {
  id: string;
  lang: string;
  prompt: string;
  instructions?: string;
  duration_seconds?: number;
  expect?: Expectations;
};

export const PROPERTIES = ['fidelity', 'coverage', 'structure', 'twice', 'labels', 'length', 'kinds', 'cuts'] as const;
export type Property = (typeof PROPERTIES)[number];

const CORPUS_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'corpus');

export type CorpusPart = 'tuning' | 'held-out' | 'designed' | 'designed-seen' | 'designed-held-out';
const PART_DIRS: Record<CorpusPart, string> = {
  tuning: '',
  'held-out': 'held-out',
  designed: 'designed',
  'designed-seen': 'designed/seen',
  'designed-held-out': 'designed/held-out',
};

/**
 * The corpus of one part: `tuning` (corpus/<lang>.json), `held-out` (corpus/held-out/<lang>.json), and the designed
 * corpus of issue 43 (corpus/designed/<lang>.json, corpus/designed/seen/<lang>.json: the earlier held-out parts,
 * since looked at, and corpus/designed/held-out/<lang>.json: the newest, written before the planner changed again).
 */
export function loadCorpus(part: CorpusPart): CorpusPrompt[] {
  const dir = path.join(CORPUS_DIR, PART_DIRS[part]);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) =>
      (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Omit<CorpusPrompt, 'lang'>[]).map((p) => ({
        ...p,
        lang: f.replace(/\.json$/, ''),
      })),
    );
}

// ---- What the planner and the composers give ---------------------------------------------------

/** The planner's answer as the checker reads it (loosely, so the checker reads any version of it). */
export type PlanView = {
  durationSeconds: number;
  summarised?: boolean;
  /** Phrases of the prompt addressed to the composer (the length, "a video about", style). */
  directions?: string[];
  scenes: Array<{ kind: string } & Record<string, unknown>>;
};

/** One text on screen: its scene, the element or layer it is drawn by, its (joined) text. */
export type ShownText = { scene: number; role: string; text: string };
export type Composition = { texts: ShownText[]; durationSeconds: number };

export type Subject = {
  plan(p: CorpusPrompt): PlanView;
  engines: Record<string, (p: CorpusPrompt) => Composition>;
};

/** This checkout's planner and both engines' offline composers (1080×1920), as the checker reads them. */
export function composerSubject(): Subject {
  const spec = (p: CorpusPrompt) => ({
    prompt: p.prompt,
    instructions: p.instructions ?? null,
    durationSeconds: p.duration_seconds ?? null,
    assets: [],
    width: 1080,
    height: 1920,
  });
  return {
    plan: (p) => {
      const r = plan({
        prompt: p.prompt,
        instructions: p.instructions ?? null,
        durationSeconds: p.duration_seconds ?? null,
      });
      return { ...r.storyboard, summarised: r.summarised, directions: r.directions } as unknown as PlanView;
    },
    engines: {
      hyperframes: (p) => hyperframesTexts(getEngine('hyperframes').composeOffline(spec(p))),
      lottie: (p) => lottieTexts(getEngine('lottie').composeOffline(spec(p))),
    },
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The texts of a HyperFrames storyboard document: every fitted text element (`class="t …"`) of a scene. */
export function hyperframesTexts(html: string): Composition {
  const texts: ShownText[] = [];
  for (const m of html.matchAll(/<div id="s(\d+)-([\w-]+)" class="t(?: [^"]*)?"[^>]*>([\s\S]*?)<\/div>/g)) {
    const text = m[3]!.replace(/<[^>]+>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
    texts.push({ scene: Number(m[1]), role: m[2]!, text });
  }
  const durationSeconds = Number(/data-composition-id="[^"]*"[^>]*data-duration="([\d.]+)"/.exec(html)?.[1]);
  return { texts, durationSeconds };
}

type LottieLayer = { ty: number; nm?: string; t?: { d: { k: { s: { t: string } }[] } } };

/**
 * The texts of a Lottie storyboard animation: per scene (precomposition `scene_<n>`), the text layers
 * of one block (named "<block> <line>") joined line by line; a layer whose text changes over time (a
 * counter counting up) counts with its last text.
 */
export function lottieTexts(json: string): Composition {
  const a = JSON.parse(json) as {
    fr: number;
    ip: number;
    op: number;
    assets: { id: string; layers?: LottieLayer[] }[];
  };
  const texts: ShownText[] = [];
  for (const asset of a.assets) {
    const m = /^scene_(\d+)$/.exec(asset.id);
    if (!m || !asset.layers) continue;
    const scene = Number(m[1]) - 1;
    const blocks = new Map<string, { line: number; text: string }[]>();
    for (const layer of asset.layers) {
      if (layer.ty !== 5 || !layer.t) continue;
      const name = layer.nm ?? '';
      const lm = /^(.*) (\d+)$/.exec(name);
      const [role, line] = lm ? [lm[1]!, Number(lm[2])] : [name, 1];
      const docs = layer.t.d.k;
      const text = docs[docs.length - 1]!.s.t;
      if (!blocks.has(role)) blocks.set(role, []);
      blocks.get(role)!.push({ line, text });
    }
    for (const [role, lines] of blocks) {
      texts.push({
        scene,
        role,
        text: lines
          .sort((x, y) => x.line - y.line)
          .map((l) => l.text)
          .join(' '),
      });
    }
  }
  return { texts, durationSeconds: (a.op - a.ip) / a.fr };
}

// ---- Text comparison ---------------------------------------------------------------------------

/**
 * Case-folded letters, marks and digits only: what two texts must share to be "the same words" (the
 * Turkish dotted capital İ, which a look's capitals may or may not use, folds with I).
 */
export const fold = (s: string) =>
  s
    .normalize('NFC')
    .toUpperCase()
    .replace(/İ/g, 'I')
    .replace(/[^\p{L}\p{M}\p{N}]/gu, '');

const segmenters = new Map<string, Intl.Segmenter>();
/** Word tokens (Intl.Segmenter, word-like segments), case-folded. */
export function words(text: string, lang: string): string[] {
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(lang, { granularity: 'word' })));
  return [...seg.segment(text.normalize('NFC'))]
    .filter((s) => s.isWordLike)
    .map((s) => s.segment.toUpperCase().replace(/İ/g, 'I'));
}

const SPACED = (lang: string) => !['ja', 'zh'].includes(lang);

/**
 * Words that leave a phrase hanging when it ends on them: articles, conjunctions, prepositions that
 * cannot end a phrase (not German and Dutch verb particles, nor the postpositions of Hindi, Turkish,
 * Japanese and Korean, which end phrases as a rule).
 */
const DANGLING: Record<string, string[]> = {
  en: 'the a an of to for with and or by from into our your their its this that'.split(' '),
  es: 'el la los las un una unos unas de del al a en con por para y o que su sus nuestro nuestra'.split(' '),
  fr: 'le la les un une des de du au aux à en et ou pour avec par sur dans notre votre son sa ses'.split(' '),
  de: 'der die das den dem des ein eine einen einem einer und oder für von im am bei unser unsere'.split(' '),
  pt: 'o a os as um uma de do da dos das em no na nos nas e ou para com por ao nossa nosso'.split(' '),
  it: 'il lo la i gli le un una uno di del della dei delle a al alla in nel nella e o per con da su'.split(' '),
  nl: 'de het een en of van voor met te ons onze'.split(' '),
  ru: 'и или в во на с со к по из от для о об у за'.split(' '),
  tr: ['ve'],
  hi: ['और', 'या'],
  ar: 'و في من إلى على عن مع أو'.split(' '),
  ja: ['の'],
  zh: ['的', '和', '与', '把'],
  ko: [],
};

/**
 * Function words, not counted as the prompt's content (articles, prepositions, conjunctions, particles, auxiliaries).
 */
const STOP: Record<string, string[]> = {
  en: (
    'the a an of to for with and or by from into our your their its this that at in on is are was were be ' +
    'it we you us'
  ).split(' '),
  es: (
    'el la los las un una unos unas de del al a en con por para y e o u que su sus nuestro nuestra nuestros es ' +
    'son lo se tu'
  ).split(' '),
  fr: (
    'le la les l un une des de du d au aux à en et ou pour avec par sur dans notre votre son sa ses nos vos est ' +
    'sont ce qui que'
  ).split(' '),
  de: (
    'der die das den dem des ein eine einen einem einer und oder mit für von zu im in am an auf bei um unser ' +
    'unsere ist sind es wir du sie'
  ).split(' '),
  pt: 'o a os as um uma de do da dos das em no na nos nas e ou para com por ao à nossa nosso é são que se'.split(' '),
  it: (
    'il lo la i gli le l un una uno di del della dei delle a al alla in nel nella e ed o per con da ' + 'su è sono che'
  ).split(' '),
  nl: 'de het een en of van voor met in op aan bij naar te ons onze is zijn'.split(' '),
  ru: 'и или в во на с со к по из от для о об у за а это'.split(' '),
  tr: 've ile için bir de da bu'.split(' '),
  hi: 'का की के को में से पर और या ने है हैं था थे तक'.split(' '),
  ar: 'و في من إلى على عن مع أو أن ب بـ هي هو'.split(' '),
  ja: 'の を に が と へ で や は も から まで です ます'.split(' '),
  zh: '的 和 与 把 在 了 是 我们'.split(' '),
  ko: '은 는 이 가 을 를 의 에 에서 와 과 로 으로 입니다 라고'.split(' '),
};
const stopOf = (lang: string) => new Set((STOP[lang] ?? []).map((w) => w.toUpperCase()));

// ---- The checks --------------------------------------------------------------------------------

export type Failure = { property: Property; engine: string | null; detail: string };
export type PromptResult = { prompt: CorpusPrompt; failures: Failure[] };

const counterKinds = new Set(['counter', 'progress', 'bars']);

function stepScenes(plan: PlanView, kind: string): number[] {
  return plan.scenes.flatMap((s, i) => (s.kind === kind ? [i] : []));
}

/** Every text of one engine's composition checked against the input and the expectations. */
function checkComposition(
  p: CorpusPrompt,
  plan: PlanView,
  engine: string,
  c: Composition,
  fail: (property: Property, detail: string) => void,
) {
  const input = [p.prompt, p.instructions ?? ''].join('\n');
  const foldedInput = fold(input);
  const inputWords = new Set(words(input, p.lang));
  const shown = c.texts.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
  // A step's number or marker ("3", "Passo 3") numbers the step: no figure.
  const isMarker = (t: ShownText) =>
    (/^\p{N}+$/u.test(t.text.trim()) || /marker|^n\d/.test(t.role)) &&
    ['steps', 'countdown'].includes(plan.scenes[t.scene]?.kind ?? '');

  // Fidelity: each text a contiguous run of the input; in spaced scripts, each word one of the input's. A run of
  // items set apart by middle dots (a Lottie comparison card's features) is checked item by item.
  const items = shown.flatMap((t) => t.text.split(' · ').map((text) => ({ ...t, text })));
  for (const t of items) {
    if (isMarker(t)) continue;
    const f = fold(t.text);
    if (!foldedInput.includes(f))
      fail('fidelity', `${engine} scene ${t.scene} ${t.role}: "${t.text}" is not in the input`);
    else if (SPACED(p.lang)) {
      // (An Arabic text may start after the "و" or "ف" joined to its first word: "والذهبية" shows "الذهبية".)
      const joined = (w: string, i: number) =>
        p.lang === 'ar' && i === 0 && ['و', 'ف'].some((c) => inputWords.has(c + w));
      const foreign = words(t.text, p.lang).filter((w, i) => !inputWords.has(w) && !joined(w, i));
      if (foreign.length)
        fail(
          'fidelity',
          `${engine} scene ${t.scene} ${t.role}: "${t.text}" has words not in the input: ${foreign.join(', ')}`,
        );
    }
  }

  // Coverage: the prompt's content words on screen, the plan's directions aside.
  if (!plan.summarised) {
    const directed = new Set((plan.directions ?? []).flatMap((d) => words(d, p.lang)));
    const stop = stopOf(p.lang);
    const wanted = [...new Set(words(p.prompt, p.lang))].filter((w) => !directed.has(w) && !stop.has(w));
    const onScreen = new Set(shown.flatMap((t) => words(t.text, p.lang)));
    const screenFold = fold(shown.map((t) => t.text).join(' '));
    // (Arabic joins "and", "by", "for" to a word: "والذهبية" is on screen as "الذهبية".)
    const shownAs = (w: string) =>
      onScreen.has(w) || (p.lang === 'ar' && /^[وفبلك]../u.test(w) && onScreen.has(w.slice(1)));
    const missing = wanted.filter((w) => !shownAs(w) && !(!SPACED(p.lang) && screenFold.includes(fold(w))));
    const share = wanted.length ? 1 - missing.length / wanted.length : 1;
    if (share < 0.9)
      fail(
        'coverage',
        `${engine}: ${Math.round(share * 100)} % of the prompt's words on screen; ` +
          `missing: ${missing.slice(0, 12).join(' ')}`,
      );
  }

  // Twice: a figure, or a phrase of three words or more, in two scenes.
  const byScene = new Map<number, string[]>();
  for (const t of shown) if (!isMarker(t)) byScene.set(t.scene, [...(byScene.get(t.scene) ?? []), t.text]);
  const scenes = [...byScene.entries()];
  const figureScenes = new Map<string, Set<number>>();
  // A time ("12:30") is one figure.
  const figuresIn = (text: string) => text.match(/\p{N}+(?:[.,٫٬: ]\p{N}+)*/gu) ?? [];
  for (const [scene, texts] of scenes) {
    for (const n of figuresIn(texts.join(' '))) figureScenes.set(n, new Set([...(figureScenes.get(n) ?? []), scene]));
  }
  // A figure the prompt writes twice in two meanings ("samedi 14 mars", "14 h 15") may be shown twice.
  const written = figuresIn(p.prompt);
  for (const [n, where] of figureScenes)
    if (where.size > Math.max(1, written.filter((w) => w === n).length))
      fail('twice', `${engine}: the figure ${n} is shown in scenes ${[...where].join(', ')}`);
  for (const [i, [a, ta]] of scenes.entries()) {
    for (const [b, tb] of scenes.slice(i + 1)) {
      for (const x of ta) {
        for (const y of tb) {
          const [short, long] = fold(x).length <= fold(y).length ? [x, y] : [y, x];
          const long3 = SPACED(p.lang) ? words(short, p.lang).length >= 3 : fold(short).length >= 6;
          if (long3 && fold(long).includes(fold(short)))
            fail('twice', `${engine}: "${short}" is shown in scenes ${a} and ${b}`);
        }
      }
    }
  }

  // Labels: none empty, none ending on a word that leaves it hanging.
  const dangling = DANGLING[p.lang] ?? [];
  for (const t of c.texts) {
    // A counter's qualifier ("more than", "más de") leads into its figure.
    if (isMarker(t) || /^(?:q|qualifier)$/.test(t.role)) continue;
    if (!/[\p{L}\p{N}]/u.test(t.text) && !/^[“"”«»„‘’'「」]+$/u.test(t.text.trim()))
      fail('labels', `${engine} scene ${t.scene} ${t.role}: empty text "${t.text}"`);
    const ws = SPACED(p.lang) ? t.text.trim().split(/\s+/) : [t.text.replace(/[\s\p{P}]+$/u, '').slice(-1)];
    const last = (ws[ws.length - 1] ?? '').replace(/^[\p{P}]+|[\p{P}]+$/gu, '').toLowerCase();
    if (ws.length > 1 || !SPACED(p.lang)) {
      if (dangling.includes(last) && !/[.!?。！？]$/u.test(t.text.trim()))
        fail('labels', `${engine} scene ${t.scene} ${t.role}: "${t.text}" ends on "${last}"`);
    }
  }
  for (const s of plan.scenes) {
    if (
      (s.kind === 'counter' || s.kind === 'progress') &&
      typeof s.label === 'string' &&
      !/[\p{L}\p{N}]/u.test(s.label)
    )
      fail('labels', `${s.kind} without a label`);
  }

  // Length.
  const e = p.expect ?? {};
  const length = e.length ?? p.duration_seconds;
  if (length !== undefined && Math.abs(c.durationSeconds - length) > 0.1)
    fail('length', `${engine} lasts ${c.durationSeconds} s, not ${length} s`);
  if (e.notLength !== undefined && Math.abs(c.durationSeconds - e.notLength) <= 0.1)
    fail('length', `${engine} lasts ${c.durationSeconds} s: a figure of the prompt taken for its length`);

  // Structure.
  const inScenes = (scenes: number[]) => shown.filter((t) => scenes.includes(t.scene));
  const inOrder = (items: string[], texts: ShownText[], what: string) => {
    let from = 0;
    for (const item of items) {
      const at = texts.findIndex((t, k) => k >= from && fold(t.text).includes(fold(item)));
      if (at < 0) {
        fail(
          'structure',
          `${engine}: ${what} "${item}" is not shown whole` +
            (texts.some((t) => fold(t.text).includes(fold(item))) ? ' in order' : ''),
        );
        return;
      }
      from = at + 1;
    }
  };
  if (e.steps) {
    const where = stepScenes(plan, 'steps');
    if (!where.length) fail('structure', `${engine}: no steps scene`);
    else inOrder(e.steps, inScenes(where), 'step');
  }
  if (e.list) {
    // Features are a list whose items have pictograms.
    const where = [...stepScenes(plan, 'list'), ...stepScenes(plan, 'features')].sort((a, b) => a - b);
    if (!where.length) fail('structure', `${engine}: no list scene`);
    else inOrder(e.list, inScenes(where), 'item');
  }
  if (e.countdown) {
    const where = stepScenes(plan, 'countdown');
    if (!where.length) fail('structure', `${engine}: no countdown scene`);
    else {
      const numbers = c.texts.filter(
        (t) => where.includes(t.scene) && e.countdown!.some((n) => fold(n) === fold(t.text)),
      );
      const seen = numbers.map((t) => fold(t.text));
      if (seen.join(' ') !== e.countdown.map(fold).join(' '))
        fail('structure', `${engine}: countdown shows ${seen.join(' ')}, not ${e.countdown.join(' ')}`);
      if (e.payoff) {
        const after = shown.filter((t) => t.scene >= where[0]! && !seen.includes(fold(t.text)));
        if (!after.some((t) => fold(t.text).includes(fold(e.payoff!))))
          fail('structure', `${engine}: the payoff "${e.payoff}" is not shown whole after the countdown`);
      }
    }
  }
  if (e.noCounter) {
    const counters = plan.scenes.filter((s) => counterKinds.has(s.kind));
    if (counters.length)
      fail(
        'structure',
        `${engine}: ${counters.map((s) => s.kind).join(', ')} scene for a prompt with no quantity to count`,
      );
  }
  if (e.counter) {
    for (const figure of e.counter) {
      // The figure as written, perhaps with its unit or counter word ("12,000家").
      const hit = plan.scenes.some(
        (s, i) => counterKinds.has(s.kind) && shown.some((t) => t.scene === i && fold(t.text).startsWith(fold(figure))),
      );
      if (!hit) fail('structure', `${engine}: no counter shows ${figure}`);
    }
  }
  // Whole: within one text, or across the consecutive texts of one scene (a title and its subtitle).
  for (const text of e.whole ?? []) {
    const inScene = [...byScene.values()].some((texts) => fold(texts.join(' ')).includes(fold(text)));
    if (!shown.some((t) => fold(t.text).includes(fold(text))) && !inScene)
      fail('structure', `${engine}: "${text}" is not shown whole`);
  }
  const title = shown.filter((t) => t.scene === 0).map((t) => t.text)[0] ?? '';
  if (e.title && fold(title) !== fold(e.title))
    fail('structure', `${engine}: the title is "${title}", not "${e.title}"`);
  if (e.titleNot && fold(title).includes(fold(e.titleNot)))
    fail('structure', `${engine}: the title is the meta sentence "${title}"`);
}

// ---- The designed corpus: new kinds, pictograms, markers, cuts (issue 43) ---------------------------

/**
 * Pictograms by meaning: the meaning a prompt expects (loosely named in English) → the icon names of the set (Lucide)
 * that show it. The checker's own list: a planner that picks any of these shows the meaning.
 */
const MEANINGS: Record<string, RegExp> = {
  wifi: /^wifi/,
  pool: /^(?:waves|waves-ladder|pool|swimming)/,
  cup: /^(?:coffee|cup-soda|milk|glass-water|cup)/,
  car: /^(?:car|square-parking|circle-parking|parking)/,
  bicycle: /^(?:bike|bicycle)/,
  sun: /^(?:sun|sunrise|sunset)/,
  breakfast: /^(?:coffee|croissant|egg|egg-fried|sandwich|utensils|cup|sunrise)/,
  cooking: /^(?:chef-hat|cooking-pot|utensils|microwave|refrigerator|soup|cook)/,
  paw: /^(?:paw-print|dog|cat|bone)/,
  lock: /^(?:lock|key|shield)/,
  beach: /^(?:umbrella|waves|tree-palm|palmtree|sun|shell)/,
  shower: /^(?:shower|shower-head|droplets|bath)/,
  child: /^(?:baby|users|user-round|child|smile)/,
  battery: /^(?:battery|zap|plug)/,
  shield: /^(?:shield|lock)/,
  phone: /^(?:phone|smartphone|tablet-smartphone)/,
  bread: /^(?:croissant|wheat|sandwich|bread|cake-slice)/,
  plug: /^(?:plug|power|zap|unplug)/,
  sea: /^(?:waves|sailboat|ship|anchor|fish)/,
  food: /^(?:utensils|soup|cooking-pot|chef-hat|salad|sandwich|ham|pizza|hamburger|beef)/,
  lightning: /^(?:zap|bolt|lightning)/,
  camera: /^(?:camera|aperture)/,
  plane: /^(?:plane|plane-takeoff|plane-landing)/,
  'water drop': /^(?:droplet|droplets|glass-water|waves)/,
  cake: /^(?:cake|cake-slice|cupcake)/,
  'no smoking': /^(?:cigarette-off|ban)/,
  cookie: /^(?:cookie)/,
  tree: /^(?:tree|trees|tree-deciduous|tree-pine|sprout|leaf|flower)/,
  snowflake: /^(?:snowflake|air-vent|fan|thermometer-snowflake)/,
  elevator: /^(?:arrow-up-down|elevator|move-vertical|building)/,
  mountain: /^(?:mountain|mountain-snow)/,
  umbrella: /^(?:umbrella)/,
  grill: /^(?:flame|beef|ham|grill|drumstick)/,
  dog: /^(?:dog|paw-print|bone)/,
  headphones: /^(?:headphones|headset|music)/,
  fire: /^(?:flame|fire)/,
  delivery: /^(?:truck|package|bike|send)/,
  'hot spring': /^(?:waves|droplets|thermometer|bath|flame|heater)/,
  bus: /^(?:bus)/,
  'table tennis': /^(?:table-tennis|ping-pong|trophy)/,
  'location pin': /^(?:map-pin|map|navigation|locate)/,
  spa: /^(?:flower|sparkles|bath|leaf|droplets|heart-pulse)/,
  train: /^(?:train|tram|train-front)/,
  museum: /^(?:landmark|building-2|castle|museum|gallery)/,
  film: /^(?:film|clapperboard|popcorn|video|tv|projector)/,
  heart: /^(?:heart|hand-heart)/,
  moon: /^(?:moon|bed|bed-double|moon-star)/,
  plant: /^(?:sprout|leaf|flower|trees|tree|salad|carrot|vegan)/,
  clock: /^(?:clock|alarm-clock|timer|hourglass)/,
  money: /^(?:banknote|coins|wallet|piggy-bank|badge-percent|euro|dollar|hand-coins|credit-card)/,
  microphone: /^(?:mic|mic-vocal|audio-lines)/,
  dumbbell: /^(?:dumbbell|biceps-flexed)/,
  'juice glass': /^(?:cup-soda|glass-water|citrus|apple)/,
  'credit card': /^(?:credit-card|wallet)/,
  laptop: /^(?:laptop|monitor|computer)/,
  package: /^(?:package|box|truck)/,
  'washing machine': /^(?:washing-machine|shirt)/,
  'key card': /^(?:key|key-round|credit-card|id-card|lock)/,
  coffee: /^(?:coffee|cup-soda|cup)/,
  parking: /^(?:square-parking|circle-parking|parking|car)/,
  bike: /^(?:bike|bicycle)/,
  key: /^(?:key|key-round|lock|door)/,
  locker: /^(?:lock|key|vault|archive)/,
  utensils: /^(?:utensils|soup|cooking-pot|chef-hat|salad|sandwich|pizza)/,
  bed: /^(?:bed|bed-double|bed-single|moon|hotel)/,
  egg: /^(?:egg|egg-fried)/,
  leaf: /^(?:leaf|sprout|salad|carrot|vegan|trees|tree)/,
  chair: /^(?:armchair|sofa|chair|lamp-desk)/,
  dryer: /^(?:washing-machine|wind|shirt|heater)/,
  music: /^(?:music|headphones|mic|guitar|piano|radio)/,
  hanger: /^(?:shirt|hanger)/,
  skate: /^(?:snowflake|footprints|skate)/,
  book: /^(?:book|library|notebook|graduation-cap)/,
  cards: /^(?:spade|club|diamond|dice|gamepad|puzzle|swords)/,
  wheelchair: /^(?:accessibility|wheelchair)/,
  'swimming pool': /^(?:waves|waves-ladder|pool|swimming)/,
  'coffee cup': /^(?:coffee|cup)/,
  'tea cup': /^(?:coffee|cup|leaf)/,
  'breakfast cup': /^(?:coffee|croissant|egg|cup)/,
  'charging plug': /^(?:plug|zap|battery)/,
  truck: /^(?:truck)/,
  'delivery truck': /^(?:truck|package)/,
  'tow truck': /^(?:truck|car|wrench)/,
  calendar: /^(?:calendar)/,
  gift: /^(?:gift)/,
  family: /^(?:users|baby|house|heart)/,
  lake: /^(?:waves|sailboat|fish|droplet|ship)/,
  'video call': /^(?:video|camera|laptop|smartphone|phone|tv)/,
  tent: /^(?:tent)/,
  ticket: /^(?:ticket)/,
  star: /^(?:star|sparkles|trophy)/,
  trophy: /^(?:trophy|star)/,
  medicine: /^(?:pill|stethoscope|heart-pulse)/,
  doctor: /^(?:stethoscope|pill|heart)/,
  wine: /^(?:wine)/,
  beer: /^(?:beer)/,
  printer: /^(?:printer)/,
  mail: /^(?:mail|package)/,
  luggage: /^(?:luggage|briefcase)/,
  scissors: /^(?:scissors)/,
  wrench: /^(?:wrench)/,
  fuel: /^(?:fuel)/,
  palette: /^(?:palette)/,
  'graduation cap': /^(?:graduation-cap|book|library)/,
  'ice cream': /^(?:ice-cream)/,
  pizza: /^(?:pizza)/,
  fish: /^(?:fish)/,
  tv: /^(?:tv|film|clapperboard)/,
  house: /^(?:house|home)/,
  bell: /^(?:bell)/,
  briefcase: /^(?:briefcase|luggage)/,
  ship: /^(?:ship|sailboat)/,
};

/**
 * Abbreviations and ordinals a text must not end on, per language (the checker's own list): a scene's text ending in
 * one was cut where the language does not cut. Matched case-insensitively at the text's end, after a space or the
 * text's start.
 */
const ABBREVIATIONS: Record<string, string[]> = {
  en: ['dr.', 'st.', 'no.', 'e.g.', 'i.e.', 'etc.', 'approx.', 'mr.', 'mrs.', 'ms.', 'vs.', 'ave.', 'rd.', 'vol.'],
  de: [
    'std.',
    'z. b.',
    'z.b.',
    'ca.',
    'nr.',
    'dr.',
    'st.',
    'fr.',
    'hr.',
    'str.',
    'bahnhofstr.',
    'usw.',
    'inkl.',
    'bzw.',
  ],
  es: ['sr.', 'sra.', 'dr.', 'dra.', 'aprox.', 'p. ej.', 'n.º', 'izda.', 'dcha.', 'lun.', 'vie.', 'etc.', 'c/', 'av.'],
  fr: ['m.', 'mme', 'dr.', 'env.', 'p. ex.', 'etc.', 'dim.', 'av.', 'bd.', 'n°', 'cf.'],
  it: ['dott.', 'sig.', 'v.le', 'lun.', 'ven.', 'ca.', 'p. es.', 'ecc.', 'dr.', 'n.'],
  pt: ['dr.ª', 'dr.', 'sr.', 'av.', 'n.º', 'esq.', 'aprox.', 'p. ex.', 'etc.', '2.ª', '6.ª'],
  nl: ['ca.', 'p/w', 'm.i.v.', 'o.a.', 'dhr.', 'mevr.', 'bijv.', 'nr.', 'dr.', 'enz.'],
  ru: ['г.', 'ул.', 'д.', 'т. е.', 'т. д.', 'руб.', 'т.е.', 'т.д.', 'пр.', 'др.', 'им.', 'тыс.'],
  tr: ['dr.', 'cad.', 'no:', 'vb.', 'örn.', 'yakl.', 'sok.', 'mah.', 'prof.'],
  hi: ['डॉ.', 'नं.', 'रु.', 'सोम.', 'शनि.', 'आदि'],
  ar: ['د.', 'ش.', 'ر.س', 'ص', 'م'],
  ja: ['vol.', 'no.'],
  zh: ['no.'],
  ko: ['제'],
};
/** Ordinals written with a full stop (German, Dutch, Turkish, Nordic), and Korean dates' "2027." pieces. */
const ORDINAL_END = /(?:^|\s)\p{Nd}{1,4}\.$/u;

/** The checks of the designed corpus's fields on one engine's composition. */
function checkDesigned(
  p: CorpusPrompt,
  plan: PlanView,
  engine: string,
  c: Composition,
  fail: (property: Property, detail: string) => void,
) {
  const e = p.expect ?? {};
  const shown = c.texts.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
  const inScenes = (kind: string) => {
    const where = stepScenes(plan, kind);
    return { where, texts: shown.filter((t) => where.includes(t.scene)) };
  };
  /** Each of `items` shown whole, in order, in the texts. */
  const inOrder = (items: string[], texts: ShownText[], what: string) => {
    let from = 0;
    for (const item of items) {
      const at = texts.findIndex((t, k) => k >= from && fold(t.text).includes(fold(item)));
      if (at < 0) {
        const anywhere = texts.some((t) => fold(t.text).includes(fold(item)));
        fail('kinds', `${engine}: ${what} "${item}" is not shown whole${anywhere ? ' in order' : ''}`);
        return;
      }
      from = at + 1;
    }
  };
  if (e.comparison) {
    const { where, texts } = inScenes('comparison');
    if (!where.length) fail('kinds', `${engine}: no comparison scene`);
    else {
      inOrder(e.comparison.options, texts, 'option');
      if (e.comparison.figures) inOrder(e.comparison.figures, texts, 'figure');
      const scene = plan.scenes[where[0]!]!;
      const options = (scene.options as { name: string }[] | undefined) ?? [];
      const highlight = scene.highlight as number | null | undefined;
      const named = highlight == null ? null : (options[highlight]?.name ?? null);
      // The option the prompt singles out, shown with its whole name ("billet Flex" for "Flex") at its place.
      const at = e.comparison.options.findIndex((o) => fold(o) === fold(e.comparison!.highlight ?? ''));
      const right =
        named !== null && fold(named).includes(fold(e.comparison.highlight ?? '')) && (at < 0 || at === highlight);
      if (e.comparison.highlight && !right)
        fail('kinds', `${engine}: the highlighted option is ${named ?? 'none'}, not ${e.comparison.highlight}`);
      if (!e.comparison.highlight && named !== null)
        fail('kinds', `${engine}: ${named} is highlighted; the prompt singles out none`);
    }
  }
  if (e.timeline) {
    const { where, texts } = inScenes('timeline');
    if (!where.length) fail('kinds', `${engine}: no timeline scene`);
    else {
      inOrder(e.timeline.times, texts, 'time');
      if (e.timeline.items) inOrder(e.timeline.items, texts, 'timed item');
    }
  }
  if (e.features) {
    const { where, texts } = inScenes('features');
    if (!where.length) fail('kinds', `${engine}: no features scene`);
    else inOrder(e.features, texts, 'feature');
  }
  if (e.icons) {
    // The pictogram beside the word: a features item's, an option's, or its scene's.
    const pictured: { text: string; icon: string | null }[] = plan.scenes.flatMap((s) => {
      const own = typeof s.icon === 'string' ? [{ text: JSON.stringify(s), icon: s.icon }] : [];
      const items = Array.isArray(s.items)
        ? (s.items as unknown[]).flatMap((it) =>
            it && typeof it === 'object' && 'icon' in it
              ? [{ text: String((it as { text?: unknown }).text ?? ''), icon: (it as { icon: string | null }).icon }]
              : [],
          )
        : [];
      return [...items, ...own];
    });
    for (const [word, meaning] of Object.entries(e.icons)) {
      const re = MEANINGS[meaning];
      const item = pictured.find((x) => fold(x.text).includes(fold(word)));
      if (!re) fail('kinds', `the checker knows no icons for the meaning "${meaning}"`);
      else if (!item?.icon) fail('kinds', `${engine}: no pictogram beside "${word}" (${meaning})`);
      else if (!re.test(item.icon)) fail('kinds', `${engine}: "${word}" shows the icon ${item.icon}, not ${meaning}`);
    }
  }
  if (e.stepMarkers) {
    const { where, texts } = inScenes('steps');
    if (!where.length) fail('kinds', `${engine}: no steps scene for the markers`);
    else {
      const markers = where.flatMap((i) =>
        ((plan.scenes[i]!.steps as { marker: string | null }[] | undefined) ?? []).map((s) => s.marker ?? ''),
      );
      if (markers.map(fold).join('|') !== e.stepMarkers.map(fold).join('|'))
        fail('kinds', `${engine}: the steps' markers are ${markers.join(', ')}, not ${e.stepMarkers.join(', ')}`);
      for (const m of e.stepMarkers) {
        if (texts.some((t) => !/marker|^n\d/.test(t.role) && fold(t.text) === fold(m)))
          fail('kinds', `${engine}: the marker "${m}" is shown as an item`);
      }
      inOrder(e.stepMarkers, texts, 'marker');
    }
  }
  if (e.noAbbreviationEnd) {
    const list = (ABBREVIATIONS[p.lang] ?? []).map((a) => a.toLowerCase());
    for (const t of shown) {
      const text = t.text.trim().toLowerCase();
      // A counter's figure with its unit as the language abbreviates it ("500 रु.") is the figure as written.
      if (/^(?:num|number)$/u.test(t.role) && /^\p{N}/u.test(text)) continue;
      // (Arabic "٥ م", "9 ص" after a figure is the time of day, as "5 pm" is.)
      const timeOfDay = p.lang === 'ar' && /\p{Nd}\s+[صم]$/u.test(text);
      const hit = timeOfDay
        ? undefined
        : list.find((a) => text === a || (text.endsWith(a) && /[\s(]/u.test(text.at(-a.length - 1) ?? '')));
      if (hit) fail('cuts', `${engine} scene ${t.scene} ${t.role}: "${t.text}" ends in the abbreviation "${hit}"`);
      else if (ORDINAL_END.test(text))
        fail('cuts', `${engine} scene ${t.scene} ${t.role}: "${t.text}" ends in an ordinal or a date's piece`);
    }
  }
}

export function checkPrompt(p: CorpusPrompt, subject: Subject): PromptResult {
  const failures: Failure[] = [];
  let plan: PlanView;
  try {
    plan = subject.plan(p);
  } catch (err) {
    return {
      prompt: p,
      failures: PROPERTIES.map((property) => ({ property, engine: null, detail: `planner threw: ${String(err)}` })),
    };
  }
  const e = p.expect ?? {};
  const length = e.length ?? p.duration_seconds;
  if (length !== undefined && Math.abs(plan.durationSeconds - length) > 0.1)
    failures.push({
      property: 'length',
      engine: null,
      detail: `the plan lasts ${plan.durationSeconds} s, not ${length} s`,
    });
  for (const [engine, compose] of Object.entries(subject.engines)) {
    let c: Composition;
    try {
      c = compose(p);
    } catch (err) {
      failures.push({ property: 'fidelity', engine, detail: `composer threw: ${String(err)}` });
      continue;
    }
    const fail = (property: Property, detail: string) => failures.push({ property, engine, detail });
    checkComposition(p, plan, engine, c, fail);
    checkDesigned(p, plan, engine, c, fail);
  }
  return { prompt: p, failures };
}

/** Per language and property: prompts that fail it (a prompt counts once per property, whatever the engine). */
export function tally(results: PromptResult[]) {
  const langs = [...new Set(results.map((r) => r.prompt.lang))].sort();
  return langs.map((lang) => {
    const of = results.filter((r) => r.prompt.lang === lang);
    const row: Record<string, number | string> = {
      lang,
      prompts: of.length,
      passed: of.filter((r) => r.failures.length === 0).length,
    };
    for (const prop of PROPERTIES) row[prop] = of.filter((r) => r.failures.some((f) => f.property === prop)).length;
    return row;
  });
}
