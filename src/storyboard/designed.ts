// The planner's designed kinds (issue 43), found by meaning in any language with a file:
//   comparison  2–4 consecutive sentences, each an option's short name, its price (money figure) and
//               its features ("Starter $12/month: 2 bags, free shipping. Regular $22/month: …"), and
//               the option a sentence singles out ("Regular is our most popular");
//   timeline    3 or more timed items in a row, each a time as written at its start or end ("9:30 am
//               doors open", "alle 12:30 pranzo", "Samstag 10–14 Uhr");
//   features    a list whose items name things a pictogram shows (Wi-Fi, parking, a kitchen): each item
//               gets the icon its words mean (the language file's `icons`).
// Every text is a span of the prompt (the fidelity rule of plan.ts).
import { isIconName } from './icons.js';
import { GLUED_LETTERS, pattern, wordParts, type Lexicon } from './lexicon.js';
import { figuresIn } from './numbers.js';
import { clauses, spanEnd, sub, trimEdges, wordCount, type Span } from './text.js';
import type { ComparisonOption, Feature, TimedItem } from './types.js';

export type Sentences = (s: Span, lex: Lexicon) => Span[];

// ---- Pictograms by meaning -------------------------------------------------------------------------

/**
 * One icon word: its pattern, compiled when first needed (a language has hundreds of icon words, and a pattern of
 * Unicode classes is slow to compile), and the pieces of its folded form (`folded`), all of which a text that it
 * matches contains: a cheap test first.
 */
type IconRule = { icon: string; source: string; re?: RegExp; pieces: string[]; length: number };

/**
 * Icons of qualities rather than things ("free", "fast", "fresh"): chosen only when an item names no thing ("free
 * Wi-Fi" shows Wi-Fi).
 */
const WEAK_ICONS = new Set(['banknote', 'zap', 'sprout', 'star', 'check', 'clock']);
/**
 * Icons of whom or what kind rather than the thing itself (people, water, lessons): a thing's own icon comes first
 * ("pool for children" shows the pool, "hot-water showers" the shower, "lessons on the beach" the beach).
 */
const GENERIC_ICONS = new Set(['users', 'droplet', 'graduation-cap']);
/** An icon's rank: a thing, then whom or what kind, then a quality. */
const rankOf = (icon: string) => (WEAK_ICONS.has(icon) ? 2 : GENERIC_ICONS.has(icon) ? 1 : 0);
const iconRules = new WeakMap<Lexicon, IconRule[]>();
/** Languages written without spaces between words: their icon words are found inside longer ones. */
const GLUED = new Set(['ja', 'zh', 'ko']);

/**
 * A text folded for the icon words' first test: lower case, without combining marks (an icon word's pattern lets
 * marks follow each letter), final sigma as sigma (case-insensitive patterns match either).
 */
const folded = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replaceAll('ς', 'σ');

/**
 * A word's pattern with an end left open (no bound there), and what may come before it when it is bounded
 * (`lead`: Arabic words take their joined conjunction, prepositions and article first).
 */
function loosened(word: string, open: { start: boolean; end: boolean }, lead: string): string {
  const { before, body, after } = wordParts(word);
  return `${open.start || !before ? '' : before + lead}${body}${open.end ? '' : after}`;
}

/**
 * A language's icon words as patterns: whole words, except that a `*` at a word's end leaves that end open
 * (compounds: "fahrrad*" finds "Fahrradverleih", "*parkplatz" finds "Gästeparkplatz").
 */
function rulesOf(lex: Lexicon): IconRule[] {
  let rules = iconRules.get(lex);
  if (!rules) {
    rules = Object.entries(lex.icons).flatMap(([icon, list]) =>
      isIconName(icon)
        ? list.map((w) => {
            const open = { start: w.startsWith('*'), end: w.endsWith('*') };
            const word = w.replace(/^\*|\*$/g, '');
            // Arabic joins its conjunction, prepositions and article to the word ("ومطبخ", "بالمطبخ"): they may come
            // first. Japanese, Chinese and Korean glue words together ("無料Wi-Fi"): their words are open at both ends.
            const glued = GLUED.has(lex.language);
            let source = loosened(
              word,
              { start: glued || open.start, end: glued || open.end },
              /^\p{Script=Arabic}/u.test(word) ? '(?:[وفبلك]?(?:ال|لل)?)' : '',
            );
            // Yet a short katakana word is not part of a longer one (パン is not in ジャパン), and a one-syllable Korean
            // word starts its word (차 "car" is not in 녹차 "green tea"; particles follow it: 차를).
            if (/^\p{Script=Katakana}{1,2}$/u.test(word))
              source = `(?<![\\p{Script=Katakana}ー])${source}(?![\\p{Script=Katakana}ー])`;
            if (/^\p{Script=Hangul}$/u.test(word)) source = `(?<!\\p{Script=Hangul})${source}`;
            return { icon, source, pieces: folded(word).split(/\s+/u).filter(Boolean), length: word.length };
          })
        : [],
    );
    iconRules.set(lex, rules);
  }
  return rules;
}

/**
 * The icon a text's words mean, or null: a thing, then whom or what kind, then a quality; then the longest word
 * ("vistas al mar" over "terraza", "café da manhã" over "café"), then the one met first. `first`: the one met first
 * before the longest; `minLength`: words of at least that many characters only.
 */
export function iconFor(text: string, lex: Lexicon, opts: { first?: boolean; minLength?: number } = {}): string | null {
  type Hit = { rule: IconRule; at: number; end: number; rank: number };
  const hits: Hit[] = [];
  const plain = folded(text);
  for (const rule of rulesOf(lex)) {
    if (rule.length < (opts.minLength ?? 0) || !rule.pieces.every((piece) => plain.includes(piece))) continue;
    rule.re ??= new RegExp(rule.source, 'iu');
    const m = rule.re.exec(text);
    if (m) hits.push({ rule, at: m.index, end: m.index + m[0].length, rank: rankOf(rule.icon) });
  }
  // A word inside a longer term found is that term's ("parque" in "parque infantil", "park" in "skate park").
  const within = (h: Hit) => hits.some((o) => o !== h && o.at <= h.at && h.end <= o.end && o.end - o.at > h.end - h.at);
  let best: Hit | null = null;
  for (const hit of hits.filter((h) => !within(h))) {
    const longer = hit.rule.length - (best?.rule.length ?? 0);
    const earlier = (best?.at ?? 0) - hit.at;
    const [a, b] = opts.first ? [earlier, longer] : [longer, earlier];
    const better = !best || hit.rank < best.rank || (best.rank === hit.rank && (a > 0 || (a === 0 && b > 0)));
    if (better) best = hit;
  }
  return best?.rule.icon ?? null;
}

/**
 * A title's pictogram, or null: the first thing its words name (a title names its subject first: "Fresh coffee
 * delivered to your door" shows the coffee, not the delivery), never a quality alone ("fast", "free"), and in a
 * language written without spaces no word of one character (물 "water" is in 동물 "animal", 산 "mountain" in 부산).
 */
export function titleIcon(text: string, lex: Lexicon): string | null {
  const icon = iconFor(text, lex, { first: true, minLength: GLUED.has(lex.language) ? 2 : 0 });
  return icon && !WEAK_ICONS.has(icon) ? icon : null;
}

/**
 * Features: a list's items with their pictograms, when at least half of them (and two or more) name something a
 * pictogram shows (with `things`, a thing rather than a quality: "fast, private and free" stays a list); the others
 * get a neutral check mark. Null: a plain list.
 */
export function featuresOf(items: string[], lex: Lexicon, things = false): Feature[] | null {
  if (items.length < 2 || items.length > 6) return null;
  const icons = items.map((i) => iconFor(i, lex));
  const found = icons.filter((icon) => icon && !(things && WEAK_ICONS.has(icon))).length;
  if (found < 2 || found * 2 < items.length) return null;
  return items.map((text, i) => ({ text, icon: icons[i] ?? 'check' }));
}

// ---- Comparison ------------------------------------------------------------------------------------

/** A separator between an option's name and its price: a colon or a dash. */
const NAME_SEPARATOR = /\s*[:：]\s*|\s+[—–-]\s+/u;

/** An option as found: `listed`, how many of its features follow its figure (a list of its own). */
type Option = ComparisonOption & { span: Span; listed: number };

/** Where a figure's clause ends: a comma or semicolon that is not a decimal one ("9,90 €"), a full stop. */
const FIGURE_END = /(?<!\p{Nd})[,;]|[,;](?!\p{Nd})|[，、；،]|\.(?:\s|$)|。/u;
/** A dash set apart by spaces: before a remark ("€ 1.795 – meest gekozen"), after a heading ("… from — The Vault"). */
const SPACED_DASH = /\s+[—–]\s+/u;
/**
 * Where a price's clause ends: as a figure's, at a colon, or at a remark in brackets or after a dash ("22,000円（一番人気！）",
 * "69 € – unser Bestseller –").
 */
const PRICE_END = new RegExp(`${FIGURE_END.source}|[:：]|\\s*[(（]|^[—–]\\s+|${SPACED_DASH.source}`, 'u');
/** What a price is per, written right after it: "$15/month", "9 €/Monat". */
const PER_UNIT = /^\s*\/\s*\p{L}+/u;
/** A remark in brackets ending a text: "unlimited data and hotspot (our most popular)". */
const REMARK_END = /\s*([(（][^()（）]*[)）])$/u;
const isRemark = (text: string) => /^[(（].*[)）]$/u.test(text);

/**
 * "Starter $12/month: 2 bags, free shipping", "Frecciarossa: 2 ore e 59 minuti, da 29,90 €", "Kısa tur 1,5 saat, kişi
 * başı ₺350": an option, or null. Its figure is its price, or — when another figure comes first (a journey's time, a
 * tour's length) — the clause that starts with that one; a price later on is one of its features.
 */
function optionOf(s: Span, lex: Lexicon): Option | null {
  const inBrackets = bracketedOption(s, lex);
  if (inBrackets) return inBrackets;
  const figures = figuresIn(s, lex).filter((f) => !f.code);
  const money = figures.find((f) => f.kind === 'money');
  if (!money) return null;
  const lang = lex.language;
  let lead = figures[0]!;
  // "Plan 2: $10/month", "300 Mega por R$ 89,90": a figure before the name's separator, or with no name before it, is
  // the name's.
  const sepBeforeMoney = NAME_SEPARATOR.exec(s.text.slice(0, money.span.start - s.start));
  const named = /\p{L}/u.test(s.text.slice(0, lead.span.start - s.start));
  if (!named || (sepBeforeMoney && sepBeforeMoney.index >= spanEnd(lead.span) - s.start)) lead = money;
  // "Basic mit 50 Mbit/s für 24,99 €": a figure in the price's clause is a feature, the price the figure; only one
  // with a clause of its own leads ("2 ore e 59 minuti, da 29,90 €").
  if (lead !== money && !FIGURE_END.test(s.text.slice(spanEnd(lead.span) - s.start, money.span.start - s.start)))
    lead = money;
  let before = sub(s, 0, lead.span.start - s.start);
  let between = '';
  const sep = NAME_SEPARATOR.exec(before.text);
  if (sep) {
    between = before.text.slice(sep.index + sep[0].length);
    before = sub(before, 0, sep.index);
  } else {
    // "Mini con 10 GB por 9 €": the word joining the name to its figure is neither's.
    // (A Japanese word may end in a function word's kana: "キッチン丸ごと".)
    const link = pattern(lex, `[\\s,]*(?:{priceLinks}|(?<!\\p{Script=Hiragana})(?:{functionWords}))\\s*$`).exec(
      before.text,
    );
    if (link) before = sub(before, 0, link.index);
  }
  let name = trimEdges(before);
  // A name is short: three words at most, or one unspaced word of ten characters ("スタンダード", "基础版").
  const isShort = (t: string) => wordCount(t, lang) <= 3 || (!/\s/u.test(t) && t.length <= 10);
  // What a name brings along before its price is its first feature: "VIP with snacks included $25", "Basic mit
  // 50 Mbit/s für 24,99 €", "ライトプラン月4回 8,800円" (a count glued to the name).
  let brought: Span | null = null;
  const link =
    /(?<!\p{Nd}),\s/u.exec(name.text) ??
    (GLUED.has(lang)
      ? (/(?<=\S{2})(?:\s(?=\S*\p{Nd})|[月週年日毎]?\p{Nd})/u.exec(name.text) ??
        // "プレミアムプラン通い放題": a long name in katakana, then what it brings in kanji.
        (isShort(name.text)
          ? null
          : /(?<=\p{Script=Katakana}{3})(?=[\p{Script=Han}\p{Script=Hiragana}])/u.exec(name.text)))
      : isShort(name.text)
        ? null
        : // (Not after a figure: "Plano 2x por semana" is a name.)
          pattern(lex, `(?<=(?:^|\\s)[^\\s\\p{Nd}]+\\s+)(?:(?:{styleLinks}|{functionWords})\\s|[(（])`).exec(
            name.text,
          ));
  if (link) {
    brought = trimEdges(sub(name, link.index));
    name = trimEdges(sub(name, 0, link.index));
  }
  const fits = isShort(name.text) || (wordCount(name.text, lang) <= 4 && /\p{Nd}/u.test(name.text));
  if (!/\p{L}/u.test(name.text) || !fits || name.text.length > 28) return null;
  // Between the separator and the figure, a word or two of the price ("ab", "desde"); another figure first comes
  // right after it, or after "about" ("Auto: ruim 5 uur", "夜行バス：約8時間"); a name after a colon is an option under
  // a heading ("Prijzen per dagdeel: Fluisterboot € 65").
  const loose = between.replace(pattern(lex, `^\\s*(?:{about}|{atLeast})\\s*$`), '');
  if (wordCount(between, lang) > 2 || (lead !== money && /\p{L}/u.test(loose))) return null;
  if (sep && /[:：]/u.test(sep[0]) && /^\s*\p{Lu}/u.test(between)) return null;
  const figureStart = sep ? spanEnd(before) + sep[0].length : lead.span.start;
  const afterLead = sub(s, spanEnd(lead.span) - s.start);
  let figureEnd: number;
  if (lead === money) {
    // The price runs to the next separator when what follows the figure is short ("/month", "al mes", "за 3 часа").
    const cut = PRICE_END.exec(afterLead.text);
    const tail = cut ? afterLead.text.slice(0, cut.index) : afterLead.text;
    const isShortTail = (t: string) => wordCount(t, lang) <= 2 || (wordCount(t, lang) <= 3 && /\p{Nd}/u.test(t));
    // A longer one keeps what comes before 'with' ("85 € al mes | con dos clases"), or its unit ("$15/month").
    const withAt = pattern(lex, `\\s(?:{featureWith})\\s`).exec(tail)?.index;
    const perUnit = PER_UNIT.exec(afterLead.text)?.[0].length ?? 0;
    figureEnd = isShortTail(tail)
      ? afterLead.start + tail.trimEnd().length
      : withAt !== undefined && isShortTail(tail.slice(0, withAt))
        ? afterLead.start + withAt
        : spanEnd(money.span) + perUnit;
  } else {
    // Another figure first: its clause is the option's figure ("2 ore e 59 minuti", "1,5 saat", "4小时 199元").
    const cut = FIGURE_END.exec(afterLead.text);
    const tail = cut ? afterLead.text.slice(0, cut.index) : afterLead.text;
    if (wordCount(tail, lang) > 4) return null;
    figureEnd = afterLead.start + tail.trimEnd().length;
  }
  const figure = trimEdges({ text: s.text.slice(figureStart - s.start, figureEnd - s.start), start: figureStart });
  const rest = trimEdges(sub(s, figureEnd - s.start));
  // "11,000円です": a copula after the price is no feature. A remark in brackets after a feature is one of its own.
  const listed =
    rest.text && !pattern(lex, `^(?:{copulas})$`).test(rest.text) ? enumerated(rest, lex).flatMap(remarkApart) : [];
  const features = [...(brought ? [brought] : []), ...listed];
  if (features.some((f) => wordCount(f.text, lang) > 10)) return null;
  // At most four features: the fourth keeps the rest (each text stays a run of the prompt).
  const shown =
    features.length > 4
      ? [
          ...features.slice(0, 3),
          trimEdges({
            text: s.text.slice(features[3]!.start - s.start, spanEnd(rest) - s.start),
            start: features[3]!.start,
          }),
        ]
      : features;
  return {
    name: name.text,
    figure: figure.text,
    features: shown.map((f) => f.text),
    span: s,
    // (A remark in brackets is not a list: "149,90 TL (sadece İstanbul içi)".)
    listed: listed.filter((f) => !isRemark(f.text)).length,
  };
}

/**
 * "The Vault (45 min, $25 per player)", "Corso base (3 ore, 65 €) – il più richiesto": a name, then in brackets its
 * price and what it comes with; what follows the brackets is a feature of its own. Null when the price is elsewhere.
 */
function bracketedOption(s: Span, lex: Lexicon): Option | null {
  const m = /^([^(（]+?)\s*[(（]([^()（）]+)[)）]/u.exec(s.text);
  if (!m) return null;
  const lang = lex.language;
  const priced = (x: Span) => figuresIn(x, lex).some((f) => f.kind === 'money' && !f.code);
  const name = trimEdges(sub(s, 0, m[1]!.length));
  const parts = enumerated(sub(s, m[0].length - 1 - m[2]!.length, m[0].length - 1), lex);
  const k = parts.findIndex(priced);
  if (priced(name) || k < 0 || parts.filter(priced).length > 1) return null;
  if (!/\p{L}/u.test(name.text) || wordCount(name.text, lang) > 5 || name.text.length > 28) return null;
  // The price's clause ends at a dash: "€ 1.795 – meest gekozen".
  const dash = SPACED_DASH.exec(parts[k]!.text);
  const figure = dash ? trimEdges(sub(parts[k]!, 0, dash.index)) : parts[k]!;
  const after = trimEdges(sub(s, m[0].length));
  const features = [
    ...parts.filter((_, i) => i !== k),
    ...(dash ? [trimEdges(sub(parts[k]!, dash.index + dash[0].length))] : []),
    ...(after.text ? enumerated(after, lex).flatMap(remarkApart) : []),
  ];
  if (wordCount(figure.text, lang) > 4 || features.length > 4 || features.some((f) => wordCount(f.text, lang) > 10))
    return null;
  return { name: name.text, figure: figure.text, features: features.map((f) => f.text), span: s, listed: 0 };
}

/** A feature and the remark in brackets ending it, apart ("hotspot (our most popular)"); the feature alone else. */
function remarkApart(f: Span): Span[] {
  const m = REMARK_END.exec(f.text);
  if (!m || m.index === 0) return [f];
  return [trimEdges(sub(f, 0, m.index)), sub(f, m.index + m[0].length - m[1]!.length)];
}

/**
 * The parts of an enumeration ("2 bags, free shipping and a tasting card"), split at its separators ("a、b、c",
 * "a، b و c", "a / b", "a vs b", "…원이고 …") and, with `lastConjunction`, at the conjunction before its last item
 * ("… and c"); a part may start with a conjunction ("and c"), left out.
 */
export function enumerated(s: Span, lex: Lexicon, lastConjunction = false): Span[] {
  // "museos, etc. y un café", "чипирование и пр.": the writer's list runs on inside the sentence.
  if (pattern(lex, `(?:^|\\s|(?<=[${GLUED_LETTERS}]))(?:{andSoOn})(?=$|[\\s,.;:!?，。、)）])`).test(s.text)) return [];
  const parts: Span[] = [];
  let from = 0;
  const separators = pattern(
    lex,
    `(?:(?<!\\p{Nd})[,;]|[,;](?!\\p{Nd}))\\s*|[、，；،؛]\\s*|\\s+(?:vs\\.?|[/|·•])\\s+|(?<=\\S)(?:{listJoins})\\s+`,
    'giu',
  );
  // (Not inside brackets: "Corso base (3 ore, 65 €), …" is one part.)
  const inBrackets = (at: number) => {
    const before = s.text.slice(0, at);
    return (before.match(/[(（]/gu)?.length ?? 0) > (before.match(/[)）]/gu)?.length ?? 0);
  };
  let semicolons = true;
  for (const m of s.text.matchAll(separators)) {
    if (inBrackets(m.index)) continue;
    parts.push(sub(s, from, m.index));
    from = m.index + m[0].length;
    semicolons &&= /^[;；؛]/u.test(m[0]);
  }
  parts.push(sub(s, from));
  // Items parted by semicolons keep their own "and": "…; koffie en appeltaart in de kantine".
  if (lastConjunction && !(semicolons && parts.length > 2)) {
    const last = parts.pop()!;
    const inLast = [...last.text.matchAll(pattern(lex, `\\s+(?:{conjunctions})\\s+`, 'giu'))].at(-1);
    if (inLast) parts.push(sub(last, 0, inLast.index), sub(last, inLast.index + inLast[0].length));
    else parts.push(last);
  }
  // Arabic writes "and" joined to the word: "والباقة".
  const lead = pattern(lex, lex.language === 'ar' ? `^(?:(?:{conjunctions})\\s+|و(?=ال))` : `^(?:{conjunctions})\\s+`);
  return parts
    .map((p) => {
      const l = lead.exec(p.text);
      return trimEdges(l ? sub(p, l[0].length) : p);
    })
    .filter((p) => /[\p{L}\p{N}]/u.test(p.text));
}

/**
 * The words a sentence may name each option by, best first: its whole name; the part telling it apart, without a word
 * every name shares ("billet Flex" → "Flex", "Başlangıç paketi" → "Başlangıç": a shared stem of four letters or more);
 * its first word, when no other name has it ("Standard à domicile" → "Standard"). Cards show whole names.
 */
function nameKeys(options: Option[]): string[][] {
  const words = options.map((o) => o.name.split(/\s+/u));
  const shared = (pick: (w: string[]) => string) => {
    const all = words.map((w) => pick(w).toLocaleLowerCase());
    let stem = all[0]!;
    for (const w of all) while (!w.startsWith(stem)) stem = stem.slice(0, -1);
    return [...stem].length >= 4 || all.every((w) => w === all[0]);
  };
  const several = words.every((w) => w.length >= 2);
  const [first, last] = several ? [shared((w) => w[0]!), shared((w) => w.at(-1)!)] : [false, false];
  return options.map((o, i) => {
    const w = words[i]!;
    const keys = [o.name];
    if (first || last) {
      const from = first ? o.name.indexOf(w[1]!, w[0]!.length) : 0;
      const to = last ? o.name.lastIndexOf(w.at(-1)!) : o.name.length;
      keys.push(o.name.slice(from, to).trim());
    }
    const lead = w[0]!.toLocaleLowerCase();
    const elsewhere = (j: number) => words[j]!.some((x) => x.toLocaleLowerCase() === lead);
    if (w.length >= 2 && words.every((_, j) => j === i || !elsewhere(j))) keys.push(w[0]!);
    return keys.filter((k) => /[\p{L}\p{N}]/u.test(k));
  });
}

/**
 * A pattern finding an option's name in a sentence: a whole word, but Arabic may join a conjunction or a preposition
 * to it ("بالذهبية"), and Japanese, Chinese and Korean glue what follows ("スタンダードプランです", "포장이사입니다").
 */
const namePattern = (name: string, lex: Lexicon) =>
  new RegExp(
    loosened(name, { start: false, end: GLUED.has(lex.language) }, /^ال/u.test(name) ? '(?:[وفبلك]|لل)?' : ''),
    'iu',
  );

export type FoundComparison = {
  span: Span;
  head: Span | null;
  options: ComparisonOption[];
  highlight: number | null;
  /** The words that single the highlighted option out ("most popular"), as written. */
  badge: string | null;
  /** What asked to raise it ("so make that one stand out"): directions, not shown. */
  asked: string[];
};

/** 2–4 option sentences in a row (the first may follow its heading's colon), and the sentence singling one out. */
export function comparisonIn(all: Span, lex: Lexicon, sentencesOf: Sentences): FoundComparison | null {
  const list = sentencesOf(all, lex);
  let best: { from: number; head: Span | null; options: Option[] } | null = null;
  for (let i = 0; i < list.length; i++) {
    const options: Option[] = [];
    let head: Span | null = null;
    for (let j = i; j < list.length && options.length < 4; j++) {
      let o = optionOf(trimEdges(list[j]!), lex);
      if (!o && j === i) {
        // "Planes de Gimnasio Ritmo: Básico 25 € al mes, …": the heading, then the first option.
        const colon = /[:：]\s*/u.exec(list[j]!.text);
        if (colon && !/\p{Nd}$/u.test(list[j]!.text.slice(0, colon.index))) {
          o = optionOf(trimEdges(sub(list[j]!, colon.index + colon[0].length)), lex);
          if (o) head = trimEdges(sub(list[j]!, 0, colon.index));
        }
      }
      if (!o) break;
      options.push(o);
    }
    if (options.length >= 2 && (!best || options.length > best.options.length)) best = { from: i, head, options };
  }
  if (!best) return inOneSentence(all, list, lex);
  // The sentence before is the heading when the first option has none ("Choose your Brewbox plan.").
  let head = best.head;
  let start = head?.start ?? best.options[0]!.span.start;
  if (!head && best.from > 0) {
    head = trimEdges(list[best.from - 1]!);
    start = head.start;
  }
  let end = spanEnd(best.options.at(-1)!.span);
  const next = nextSaying(all, list, best.from + best.options.length, lex.language);
  const single = next ? singledOut(next, best.options, lex) : null;
  if (single?.whole) end = spanEnd(next!);
  return {
    span: { text: all.text.slice(start - all.start, end - all.start), start },
    head,
    ...raised(best.options, single, lex),
  };
}

/**
 * The options as shown and the one raised: singled out by the sentence after them, or by a feature of its own that
 * praises it ("95 €, notre formule la plus populaire", "22,000円（一番人気！）"), which is then its badge.
 */
function raised(
  options: Option[],
  single: ReturnType<typeof singledOut>,
  lex: Lexicon,
): Pick<FoundComparison, 'options' | 'highlight' | 'badge' | 'asked'> {
  const shown = options.map(({ name, figure, features }) => ({ name, figure, features }));
  if (single) return { options: shown, highlight: single.highlight, badge: single.badge, asked: single.asked };
  const praise = pattern(lex, `{highlightWords}`);
  const praising = shown.flatMap((o, k) => o.features.flatMap((f, i) => (praise.test(f) ? [{ k, i, f }] : [])));
  // "… e Anual por R$ 1.199,00 — o Trimestral é o mais vendido": a remark naming an option singles that one out.
  for (const { k, i, f } of praising) {
    const named = singledOut({ text: f, start: 0 }, options, lex);
    if (!named?.whole) continue;
    shown[k] = { ...shown[k]!, features: shown[k]!.features.filter((_, n) => n !== i) };
    return { options: shown, highlight: named.highlight, badge: named.badge, asked: named.asked };
  }
  const badge = praising.length === 1 ? praising[0]!.f.replace(/^[(（]\s*|\s*[)）]$/gu, '') : null;
  if (!badge) return { options: shown, highlight: null, badge: null, asked: [] };
  const { k, i } = praising[0]!;
  // A longer one stays its feature ("(onze aanrader voor groepen tot 8 personen)"), the option raised without a badge.
  if (wordCount(badge, lex.language) > 5) return { options: shown, highlight: k, badge: null, asked: [] };
  shown[k] = { ...shown[k]!, features: shown[k]!.features.filter((_, n) => n !== i) };
  return { options: shown, highlight: k, badge, asked: [] };
}

/**
 * "次卡 49元，月卡 299元，季卡 799元，年卡最划算！", "मासिक प्लान: सिर्फ़ लंच ₹2,200, लंच + डिनर ₹3,900, वीकेंड थाली ₹900।": 2–4
 * options of a name and a price each, listed in one sentence (after its heading's colon), perhaps ending in the one
 * singled out; the sentence is the whole comparison.
 */
function inOneSentence(all: Span, list: Span[], lex: Lexicon): FoundComparison | null {
  for (const [i, sentence] of list.entries()) {
    let body = trimEdges(sentence);
    let head: Span | null = null;
    // A heading ends at a colon, or at a dash after three words or more and before any price: "Three rooms to choose
    // from — The Vault (…), …" (not "«Старт» — 3 900 ₽").
    const dash = SPACED_DASH.exec(body.text);
    const headed = (d: RegExpExecArray) =>
      wordCount(body.text.slice(0, d.index), lex.language) >= 3 &&
      !figuresIn(sub(body, 0, d.index), lex).some((f) => f.kind === 'money');
    const colon = /[:：]\s*/u.exec(body.text) ?? (dash && headed(dash) ? dash : null);
    if (colon && !/\p{Nd}$/u.test(body.text.slice(0, colon.index))) {
      head = trimEdges(sub(body, 0, colon.index));
      body = trimEdges(sub(body, colon.index + colon[0].length));
    }
    // "A 9 €, B 12 € and C 15 €": the last option after the conjunction, unless that leaves fewer options. The first
    // part may lead into them ("compara nuestros dos tratamientos, Básico por 120 € y Premium por 220 €").
    const [parts, found, lead, used] = [enumerated(body, lex, true), enumerated(body, lex)]
      .map((parts) => parts.flatMap((part) => pricedApart(part, lex)))
      .map((split) => {
        const found: Option[] = [];
        let lead: Span | null = null;
        let used = 0;
        for (const [k, part] of split.entries()) {
          const o = found.length < 4 ? optionOf(part, lex) : null;
          // "…, стандартная смена — 49 000 ₽, самая популярная, и …": praise of the option before, a remark of its own.
          if (!o && found.length && k < split.length - 1 && praiseOf(part, found, lex)) {
            used = k + 1;
            continue;
          }
          if (!o && k === 0 && split.length >= 3) lead = part;
          else if (!o || o.listed > 1) break;
          else found.push(o);
          used = k + 1;
        }
        return [split, found, lead, used] as const;
      })
      // The split finding more options, or as many with fewer parts left over.
      .reduce((a, b) =>
        b[1].length > a[1].length || (b[1].length === a[1].length && b[0].length < a[0].length) ? b : a,
      );
    if (found.length < 2) continue;
    const options = found;
    if (lead) head = lead;
    let left = parts.slice(used);
    // "…, Spa Completo por R$ 129,90, com hidratação e perfume": what comes with the last option, after it.
    const last = options.at(-1)!;
    if (left.length === 1 && last.features.length < 4 && pattern(lex, `^(?:{featureWith})\\s`).test(left[0]!.text)) {
      last.features.push(left[0]!.text);
      left = [];
    }
    const next = nextSaying(all, list, i + 1, lex.language);
    const single =
      left.length === 1
        ? (singledOut(left[0]!, options, lex) ?? praisedLast(left[0]!, options, lex))
        : left.length === 0 && next
          ? singledOut(next, options, lex)
          : null;
    // "月卡299元，季卡799元，年卡2699元，都可以免费预约场地": one last part about all of three or more options, no price in it, is
    // a scene of its own after them.
    const after =
      !single && left.length === 1 && options.length >= 3 && !figuresIn(left[0]!, lex).some((f) => f.kind === 'money');
    if (left.length > (single?.whole || after ? 1 : 0)) continue;
    if (!head && i > 0) head = trimEdges(list[i - 1]!);
    const start = head?.start ?? body.start;
    const end = after ? spanEnd(last.span) : single?.whole && left.length === 0 ? spanEnd(next!) : spanEnd(sentence);
    return {
      span: { text: all.text.slice(start - all.start, end - all.start), start },
      head,
      ...raised(options, single, lex),
    };
  }
  return null;
}

/**
 * A short praising part between options ("самая популярная"), naming none: added as a remark of the option before it
 * (the last found); true when it was.
 */
function praiseOf(part: Span, found: Option[], lex: Lexicon): boolean {
  const option = found.at(-1)!;
  if (wordCount(part.text, lex.language) > 5 || option.features.length >= 4 || figuresIn(part, lex).length)
    return false;
  if (!pattern(lex, `{highlightWords}`).test(part.text)) return false;
  if (nameKeys(found).some((keys) => keys.some((key) => namePattern(key, lex).test(part.text)))) return false;
  option.features.push(part.text);
  return true;
}

/** "A 180 € et B 210 €": two priced options a conjunction joins inside one part, apart. */
function pricedApart(part: Span, lex: Lexicon): Span[] {
  const priced = (x: Span) => figuresIn(x, lex).some((f) => f.kind === 'money');
  for (const m of part.text.matchAll(pattern(lex, `\\s+(?:{conjunctions})\\s+`, 'giu'))) {
    const [a, b] = [trimEdges(sub(part, 0, m.index)), trimEdges(sub(part, m.index + m[0].length))];
    if (priced(a) && priced(b)) return [a, ...pricedApart(b, lex)];
  }
  return [part];
}

/**
 * "…، والباقة الشاملة بـ 900 ريال، وهي الأكثر طلبًا": praise right after the options in their sentence, naming none of
 * them and no price, raises the last one; its praising words are the badge.
 */
function praisedLast(part: Span, options: Option[], lex: Lexicon): ReturnType<typeof singledOut> {
  const words = pattern(lex, `{highlightWords}`).exec(part.text);
  if (!words || wordCount(part.text, lex.language) > 5 || figuresIn(part, lex).some((f) => f.kind === 'money'))
    return null;
  if (nameKeys(options).some((keys) => keys.some((key) => namePattern(key, lex).test(part.text)))) return null;
  return { highlight: options.length - 1, badge: words[0], whole: true, asked: [] };
}

/**
 * The sentence at `at`, or a question and its answer together when the answer starts short ("Il più richiesto?
 * Giornata intera!", "Il più conveniente? L'Annuale, consigliato …"): what may single an option out.
 */
function nextSaying(all: Span, list: Span[], at: number, lang: string): Span | null {
  const [one, two] = [list[at], list[at + 1]];
  if (!one) return null;
  if (!two || !/[?？]\s*$/u.test(one.text) || wordCount(clauses(two)[0]?.text ?? '', lang) > 4) return trimEdges(one);
  return trimEdges(sub(all, one.start - all.start, spanEnd(two) - all.start));
}

/**
 * The sentence after the options singling one out: it names one option and says why in the language's words ("most
 * popular"), or it is short and says nothing else that needs a scene ("Most drivers pick Deluxe", "Il più conveniente è
 * l'Annuale", "いちばん人気はファミリーパック！"): the badge is then the rest of the sentence, its connecting words left out.
 */
function singledOut(
  next: Span,
  options: Option[],
  lex: Lexicon,
): { highlight: number; badge: string | null; whole: boolean; asked: string[] } | null {
  const patterns = nameKeys(options).map((keys) => keys.map((key) => namePattern(key, lex)));
  const nameIn = (text: string) =>
    patterns
      .map((res, k) => ({ k, m: res.map((re) => re.exec(text)).find((m) => m) ?? null }))
      .filter((x): x is { k: number; m: RegExpExecArray } => x.m !== null);
  const named = nameIn(next.text);
  if (named.length !== 1 || figuresIn(next, lex).some((f) => f.kind === 'money')) return null;
  // "Most customers pick Compact, so make that one stand out", "Mettez en avant le Flex, c'est notre best-seller": the
  // clauses asking for it are directions; the rest singles the option out (or, without the name, is its badge).
  const asks = pattern(lex, `{highlightAsks}`);
  const parts = clauses(next);
  const asking = parts.filter((p) => asks.test(p.text));
  if (asking.length > 0) {
    const rest = parts.filter((p) => !asking.includes(p));
    const asked = asking.map((p) => p.text);
    const k = named[0]!.k;
    if (rest.length === 0) return { highlight: k, badge: null, whole: true, asked };
    const kept = trimEdges(sub(next, rest[0]!.start - next.start, spanEnd(rest.at(-1)!) - next.start));
    // (An ask between the kept clauses stays inside them: no badge then.)
    if (asks.test(kept.text)) return { highlight: k, badge: null, whole: true, asked: [next.text] };
    if (nameIn(kept.text).length === 1) {
      const single = singledOut(kept, options, lex);
      return { highlight: k, badge: single?.badge ?? null, whole: true, asked };
    }
    const badge = wordCount(kept.text, lex.language) <= 5 ? kept.text : null;
    return { highlight: k, badge, whole: true, asked };
  }
  const { k, m: name } = named[0]!;
  const lang = lex.language;
  /** What the sentence says besides the name and the badge, its joining words aside. */
  const leftOver = (badge: string | null) => {
    const withoutName = next.text.replace(name[0], ' ');
    return (badge ? withoutName.replace(badge, ' ') : withoutName).replace(
      pattern(lex, `{functionWords}|{copulas}`, 'giu'),
      ' ',
    );
  };
  // The sentence is the badge and the name, or little more ("Te recomendamos la Media"): shown on the card, not as
  // a scene of its own. Otherwise it stays a scene ("7살 이상이라면 시니어 검진을 추천해요"), the option only raised.
  const withBadge = (badge: string | null) =>
    wordCount(leftOver(badge), lang) <= 2
      ? { highlight: k, badge, whole: true, asked: [] }
      : { highlight: k, badge: null, whole: false, asked: [] };
  // The longer side of the name, without the words joining it to the name ("Te recomendamos la").
  const sideOfName = (): string | null => {
    const edge = pattern(
      lex,
      // One piece at a time, from the end (a repeated group of alternatives that overlap backtracks for ever).
      `(?:[\\s:：,，、—–-]+|(?<=[\\s'’])(?:{functionWords}|{copulas}|{quoteParticles})` +
        `|(?<=\\s)\\p{L}{1,3}['’]|[はがをの은는이가을를])$`,
    );
    // (A Korean particle left after the name: "레슨이 가장 인기가 많아요".)
    const lead = pattern(lex, `^(?:[\\s:：,，、—–-]|(?:{functionWords}|{copulas}|[은는이가을를])(?=[\\s'’]))+`);
    const before = sub(next, 0, name.index);
    const after = sub(next, name.index + name[0].length);
    let side = before.text.trim().length >= after.text.trim().length ? before : after;
    for (let e = edge.exec(side.text); e && e[0].length > 0; e = edge.exec(side.text)) side = sub(side, 0, e.index);
    const l = lead.exec(side.text);
    if (l) side = sub(side, l[0].length);
    const badge = trimEdges(side).text;
    return /[\p{L}\p{N}]/u.test(badge) && wordCount(badge, lang) <= 5 ? badge : null;
  };
  const words = pattern(lex, `{highlightWords}`).exec(next.text);
  if (words) {
    // A Korean word takes its endings with it ("추천해요").
    const end =
      words.index +
      words[0].length +
      (/^\p{Script=Hangul}+/u.exec(next.text.slice(words.index + words[0].length))?.[0].length ?? 0);
    const praise = trimEdges(sub(next, words.index, end)).text;
    // The whole side of the name when the praise alone would leave words out ("Чаще всего родители берут").
    const side = sideOfName();
    const leftOut = (badge: string) => /\p{L}/u.test(leftOver(badge));
    return withBadge(side?.includes(praise) && leftOut(praise) && !leftOut(side) ? side : praise);
  }
  if (wordCount(next.text, lang) > 8) return null;
  return withBadge(sideOfName());
}

// ---- Timeline --------------------------------------------------------------------------------------

/**
 * A time of day, a range of them or a date as written: "9:30 am", "14 Uhr", "9 h 30", "10–14 Uhr", "de 9 h à 18 h",
 * "11:00〜22:00", "午前10時30分", "सुबह 10 बजे", "ore 10", "03/03", "5月1日", "Ocak 2027", "1956年", "١٩٦٥".
 */
function timePattern(lex: Lexicon): RegExp {
  const clock = `\\p{Nd}{1,2}(?:[:.]\\p{Nd}{2})?`;
  // Languages written without spaces put the clock word right after the figure ("11:00 시상식" is not "11:00 시").
  const gap = GLUED.has(lex.language) ? '' : '\\s*';
  const worded = `${clock}${gap}(?:{clockWords})(?:\\s*\\p{Nd}{1,2}(?:\\s*(?:{minuteWords}))?|\\s*(?:{halfHours}))?`;
  const colon = `\\p{Nd}{1,2}[:.]\\p{Nd}{2}`;
  const hour = `(?:{hourWords})\\s+${clock}`;
  // (A part of the day after the time is a whole word: Arabic "٥:٠٠ م", not the "م" of "من".)
  const one =
    `(?:(?:{dayParts})\\s*)?(?:${worded}|${colon}|${hour}|{clockTimes})` + `(?:\\s*(?:{dayParts})(?![\\p{L}\\p{M}]))?`;
  const to = `\\s*(?:[–—~〜-]|{rangeWords})\\s*`;
  // A part of the day may lead a range: "सुबह 7 से 9 बजे".
  const range = `(?:(?:{dayParts})\\s*)?(?:(?:${one}|${clock})${to})?${one}`;
  // A day and month: "03/03", "17/03/2027" (not "24/7"), "5月1日", "3월 15일", "17 octobre", "17. Oktober",
  // "17 de octubre", "June 21", "Sept. 2nd" (not "Saturday 10 am", "Montag 10–18 Uhr": a time of day after a day's
  // name is the time).
  const day =
    `(?<![\\p{Nd}/])(?!24/7(?!\\p{Nd}))\\p{Nd}{1,2}/\\p{Nd}{1,2}(?:/\\p{Nd}{2,4})?(?![\\p{Nd}/])|` +
    `\\p{Nd}{1,2}\\s?[月월]\\s?\\p{Nd}{1,2}\\s?[日일号號]|` +
    `(?<![\\p{Nd}.:/])\\p{Nd}{1,2}(?:\\.|er|st|nd|rd|th)?\\s+(?:de\\s+)?(?:{dateWords})(?![\\p{L}\\p{M}])|` +
    `(?<![\\p{L}\\p{M}])(?:{dateWords})\\.?\\s+\\p{Nd}{1,2}(?:st|nd|rd|th)?` +
    `(?![\\p{Nd}:.]|\\s*(?:{dayParts}|{clockWords})(?![\\p{L}\\p{M}])|${to}\\p{Nd})`;
  // Years 1500–2099 in any digits a language file's prompts use (Latin, Arabic-Indic, Devanagari).
  // A quarter or half before it ("Q1 2027"), a month after 年/년 ("2027年3月").
  const year =
    `(?:(?:{dateWords})\\s+|[QH][1-4]\\s?)?(?:[1١१][5-9٥-٩५-९]|[2٢२][0٠०])\\p{Nd}{2}(?![\\p{Nd}])` +
    `(?:\\s?[年년](?:\\s?\\p{Nd}{1,2}\\s?[月월])?)?`;
  return pattern(lex, `(?:${range}|${day}|${year})`, 'giu');
}

type Timed = TimedItem & { span: Span };

/** One unit as a timed item: its time at the start (after "at", "alle") or at the end. */
function timedOf(u: Span, lex: Lexicon): Timed | null {
  const re = timePattern(lex);
  const found = [...u.text.matchAll(re)];
  // A day or month named alone before a comma or colon is the time ("Maggio: prenotazione …", "em março, teste …").
  const named = GLUED.has(lex.language)
    ? null
    : pattern(lex, `^(?:(?:{timeLinks})\\s+)?((?:{dateWords})(?:\\s+\\p{Nd}{1,4})?)\\s*[,:：]\\s*`).exec(u.text);
  if (named && found.length === 0) {
    const text = trimEdges(sub(u, named[0].length));
    return /\p{L}/u.test(text.text) ? { time: named[1]!, text: text.text, span: u } : null;
  }
  if (found.length === 0) return null;
  const m = found[0]!;
  const lead = pattern(lex, `^(?:(?:{timeLinks})\\s*)?$`);
  // A short label holding a time before a colon is the time as written ("Inizio 2028:", "2028 başı:", "Najaar 2026:").
  const label = /^([^:：]+?)\s*(?:[:：](?=\s)|：)/u.exec(u.text);
  if (label && m.index + m[0].length <= label[1]!.length && wordCount(label[1]!, lex.language) <= 4) {
    const text = trimEdges(sub(u, label[0].length));
    return /\p{L}/u.test(text.text)
      ? { time: trimEdges(sub(u, 0, label[1]!.length)).text, text: text.text, span: u }
      : null;
  }
  const before = u.text.slice(0, m.index);
  const time = trimEdges(sub(u, m.index, m.index + m[0].length));
  // The time leads (what follows may name another time: "19:00 baile hasta la medianoche"), or it ends the item.
  if (lead.test(before.trim())) {
    const text = trimEdges(sub(u, m.index + m[0].length));
    return /\p{L}/u.test(text.text) ? { time: time.text, text: text.text, span: u } : null;
  }
  if (found.length === 1 && /^[\s.。!]*$/u.test(u.text.slice(m.index + m[0].length))) {
    let text = sub(u, 0, m.index);
    const link = pattern(lex, `[\\s,]*(?:{timeLinks})\\s*$`).exec(text.text);
    if (link) text = sub(text, 0, link.index);
    text = trimEdges(text);
    return /\p{L}/u.test(text.text) && wordCount(text.text, lex.language) <= 8
      ? { time: time.text, text: text.text, span: u }
      : null;
  }
  return null;
}

/** The parts of a span between a separator's matches (a global pattern), each trimmed, without empty ones. */
function spansBetween(s: Span, separator: RegExp): Span[] {
  const parts: Span[] = [];
  let from = 0;
  for (const m of s.text.matchAll(separator)) {
    parts.push(sub(s, from, m.index));
    from = m.index + m[0].length;
  }
  parts.push(sub(s, from));
  return parts.map(trimEdges).filter((p) => /[\p{L}\p{N}]/u.test(p.text));
}

export type FoundTimeline = { span: Span; head: Span | null; items: TimedItem[] };

/** Three or more timed items in a row (sentences, or the clauses of one sentence), after an optional heading. */
export function timelineIn(all: Span, lex: Lexicon, sentencesOf: Sentences): FoundTimeline | null {
  const re = timePattern(lex);
  // Units: sentences; a sentence with several times in its clauses; the part after a heading's colon.
  const units: { span: Span; head: Span | null }[] = [];
  for (const s of sentencesOf(all, lex)) {
    let body = trimEdges(s);
    let head: Span | null = null;
    const colon = /[:：]\s+|：/u.exec(body.text);
    // (A figure before the colon ends a short label holding a time, "Inizio 2028:", or a heading, "Roadmap 2027:".)
    const before = colon ? body.text.slice(0, colon.index) : '';
    const heading = colon && (!/\p{Nd}$/u.test(before) || wordCount(before, lex.language) > 4);
    if (colon && heading && !timedOf(body, lex)) {
      const first = trimEdges(sub(body, 0, colon.index));
      const firstTimes = [...first.text.matchAll(re)].length;
      if (firstTimes === 0 || wordCount(first.text, lex.language) > 3) {
        head = first;
        body = trimEdges(sub(body, colon.index + colon[0].length));
      }
    }
    // Several times: the parts of an enumeration ("7:00 — выдача пакетов, 8:30 — разминка", "… und am Sonntag 10–13
    // Uhr"; "So und Feiertage 9–20 Uhr" is one part), else its clauses; semicolons part the items when commas are
    // inside them ("de segunda a sexta, das 7h às 21h; ao sábado, …", "em março, teste em Curitiba; em maio, …").
    // A time leading parts that are not all timed is one item naming another time ("13.00 – öğle yemeği": lunch).
    const times = [...body.text.matchAll(re)].length;
    const listed = [enumerated(body, lex, true), enumerated(body, lex)];
    const timed = (l: Span[]) => l.every((p) => timedOf(p, lex));
    const split = listed[0]!.length > 1 ? listed[0]! : clauses(body);
    const parts = /[;；]/u.test(body.text)
      ? spansBetween(body, /\s*[;；]\s*/gu)
      : times <= 1
        ? [body]
        : (listed.find((l) => l.length > 1 && timed(l)) ?? (!timed(split) && timedOf(body, lex) ? [body] : split));
    // Without a colon, a heading may lead the first item: "제2회 … 일정 07:00 접수 시작 / 08:00 …".
    const first = parts[0]!;
    const at = parts.length > 2 && !head && !timedOf(first, lex) ? first.text.search(re) : -1;
    if (at > 0 && wordCount(first.text.slice(0, at), lex.language) >= 2) {
      head = trimEdges(sub(first, 0, at));
      parts[0] = trimEdges(sub(first, at));
    }
    parts.forEach((p, k) => units.push({ span: p, head: k === 0 ? head : null }));
  }
  let best: { from: number; items: Timed[] } | null = null;
  for (let i = 0; i < units.length; i++) {
    const items: Timed[] = [];
    for (let j = i; j < units.length; j++) {
      if (j > i && units[j]!.head) break;
      const t = timedOf(units[j]!.span, lex);
      if (!t) break;
      items.push(t);
    }
    if (items.length >= 3 && (!best || items.length > best.items.length)) best = { from: i, items };
  }
  if (!best) return null;
  const head = units[best.from]!.head;
  const start = head?.start ?? best.items[0]!.span.start;
  const end = spanEnd(best.items.at(-1)!.span);
  return {
    span: { text: all.text.slice(start - all.start, end - all.start), start },
    head,
    items: best.items.map(({ time, text }) => ({ time, text })),
  };
}
