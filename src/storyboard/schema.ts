// The storyboard as a public, versioned type (extension): the zod schema requests are checked against
// (and the OpenAPI document is written from), and the one mapping between it and the internal
// Storyboard the engines draw (types.ts). Engine-neutral: every kind is drawn by both engines.
//
// Public → internal: `{{name}}` placeholders are filled from the request's variables first; figures
// are read as written ("12,000", "١٢٬٠٠٠"); a scene without `seconds` gets its natural length; a
// look's missing fields come from a preset. Internal → public writes every field out, so a planned
// storyboard sent back unchanged makes the same composition, byte for byte.
import crypto from 'node:crypto';
import { z } from 'zod';
import { invalidInput } from '../errors.js';
import { BRAND_FONTS, isStorableText, MAX_DURATION_SECONDS, STORABLE_TEXT_MESSAGE } from '../shared.js';
import { directionOf } from '../text/scripts.js';
import { iconFor } from './designed.js';
import { ICON_NAMES } from './icons.js';
import { LEXICONS, lexiconFor, NEUTRAL, type Lexicon } from './lexicon.js';
import { lookFor, presetLook } from './look.js';
import { figureOf } from './numbers.js';
import { MAX_SPEECH_RATE, narrationMinSeconds, narrationNaturalSeconds } from './narration.js';
import { naturalSeconds, timedBy } from './plan.js';
import type { Figure, Look, Scene, Storyboard, TimedScene } from './types.js';

export const STORYBOARD_VERSION = 1;

export const STORYBOARD_LIMITS = {
  scenes: 24,
  /** Characters of one text field. */
  textChars: 300,
  /** Characters of one scene's narration. */
  narrationChars: 600,
  /** Items of a bars, list or steps scene; numbers of a countdown. */
  items: 12,
  countdown: 10,
  variables: 64,
  /**
   * Output tokens a storyboard's composition counts as, at most: the embedded composer's bound (its
   * default max_output_tokens), which the credit hold reserves.
   */
  outputTokens: 65_536,
} as const;

const text = z
  .string()
  .max(STORYBOARD_LIMITS.textChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .describe(
    `Text shown as written, at most ${STORYBOARD_LIMITS.textChars} characters; ` +
      '`{{name}}` is filled from `variables`',
  );
const optionalText = (what: string) => text.nullable().optional().describe(what);
const value = z
  .union([z.number().nonnegative().finite(), z.string().max(40)])
  .describe(
    'The number: a JSON number (shown with its digits, `.` for decimals), ' +
      'or a string shown as written ("12,000", "15.000", "١٢٬٠٠٠", "{{revenue}}")',
  );
const seconds = z
  .number()
  .min(0.5)
  .max(MAX_DURATION_SECONDS)
  .optional()
  .describe('How long the scene holds, in seconds; default: its natural length (time to read it)');
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb');
const assetRef = z
  .string()
  .regex(/^image-[1-9]\d?$/, 'must name an image of the request: "image-1" is its first image part')
  .describe(
    'An image part of the request: `image-1` is the first image (in `input`/`messages` order), `image-2` the second…',
  );

const narration = z
  .string()
  .max(STORYBOARD_LIMITS.narrationChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .nullable()
  .optional()
  .describe(
    `What the voice says over the scene (with \`audio.voice\`), at most ${STORYBOARD_LIMITS.narrationChars} ` +
      'characters; `{{name}}` is filled from `variables`. The scene lasts at least its narration plus a breath',
  );

const icon = z
  .enum(ICON_NAMES)
  .nullable()
  .optional()
  .describe(
    'A pictogram (a Lucide icon name, https://lucide.dev; the set is listed in the storyboard reference); ' +
      '`null`: none. Absent on a features item: chosen by the meaning of its text',
  );
const scene = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S, description: string) =>
  z
    .strictObject({
      kind: z.literal(kind).describe(`\`${kind}\``),
      ...shape,
      icon: icon.describe('A pictogram drawn with the scene (a Lucide icon name); `null` or absent: none'),
      seconds,
      narration,
    })
    .describe(description);

const figureFields = {
  value,
  prefix: text.max(12).optional().describe('Shown before the number ("$")'),
  suffix: text.max(24).optional().describe('Shown after the number ("%", "M", " km")'),
};

export const sceneSchema = z
  .discriminatedUnion('kind', [
    scene(
      'title',
      {
        title: text,
        subtitle: optionalText('A line under the title'),
        image: assetRef.nullable().optional().describe('A picture beside the title'),
      },
      'The opening title',
    ),
    scene('statement', { text }, 'One sentence, big'),
    scene(
      'counter',
      {
        ...figureFields,
        label: text.describe('What the number counts'),
        qualifier: optionalText('Shown with the number ("over", "más de")'),
      },
      'A number counting up to its value',
    ),
    scene(
      'progress',
      {
        ...figureFields,
        suffix: text.max(24).optional().describe('Shown after the number; default "%"'),
        label: text.describe('What the percentage is of'),
      },
      'A percentage (at most 100): a bar fills to it',
    ),
    scene(
      'bars',
      {
        label: optionalText('The chart’s caption'),
        items: z
          .array(z.strictObject({ label: text, ...figureFields }).describe('One bar'))
          .min(1)
          .max(STORYBOARD_LIMITS.items)
          .describe('The bars, in order'),
      },
      'A bar chart',
    ),
    scene(
      'list',
      {
        heading: optionalText('Above the items'),
        items: z.array(text).min(1).max(STORYBOARD_LIMITS.items).describe('The items, in order'),
      },
      'A list, items appearing in turn',
    ),
    scene(
      'steps',
      {
        heading: optionalText('Above the steps'),
        items: z
          .array(
            z
              .union([
                text,
                z.strictObject({
                  marker: optionalText('Its marker as written ("1.", "Step 2"); none: a bullet'),
                  text,
                }),
              ])
              .describe('A step: its text, or `{marker, text}`'),
          )
          .min(1)
          .max(STORYBOARD_LIMITS.items)
          .describe('The steps, in order'),
      },
      'Instructions in order, one after another',
    ),
    scene(
      'countdown',
      {
        numbers: z
          .array(z.union([z.number().int().nonnegative(), text.max(20)]))
          .min(2)
          .max(STORYBOARD_LIMITS.countdown)
          .describe('Each number big, in turn ("5", "drei")'),
        payoff: optionalText('The line after the last number'),
      },
      'A countdown, then its payoff line',
    ),
    scene('quote', { quote: text, attribution: optionalText('Who said it') }, 'A quote card'),
    scene(
      'cta',
      {
        text: text.describe('The call to action ("Book your table")'),
        link: optionalText('An address shown on the button ("casalupa.com")'),
        date: optionalText('A date shown with it ("Friday 21 June")'),
        price: optionalText('A price shown with it ("from $9")'),
      },
      'The call to action',
    ),
    scene(
      'image',
      { asset: assetRef, caption: optionalText('A line over the picture') },
      'A picture of the request, full frame',
    ),
    scene(
      'comparison',
      {
        heading: optionalText('Above the options'),
        options: z
          .array(
            z
              .strictObject({
                name: text.describe('The option’s name ("Starter", "Express")'),
                figure: optionalText('Its figure as written: a price, a time ("$12/month", "9,90 €")'),
                features: z.array(text).max(4).default([]).describe('Up to four short features'),
                highlight: z.boolean().optional().describe('The option singled out (at most one)'),
              })
              .describe('One option'),
          )
          .min(2)
          .max(4)
          .describe('2–4 options, side by side'),
        badge: optionalText('Shown on the highlighted option ("Most popular")'),
      },
      'Options side by side: plans, tiers, "X vs Y"',
    ),
    scene(
      'timeline',
      {
        heading: optionalText('Above the timeline'),
        items: z
          .array(
            z
              .strictObject({ time: text.describe('As written: "9:30 am", "14 Uhr", "March 2027"'), text })
              .describe('One timed item'),
          )
          .min(2)
          .max(STORYBOARD_LIMITS.items)
          .describe('The items, in order'),
      },
      'Dated or timed items in order: an agenda, opening hours, a history',
    ),
    scene(
      'features',
      {
        heading: optionalText('Above the features'),
        items: z
          .array(
            z
              .union([text, z.strictObject({ text, icon })])
              .describe('A feature: its text (its pictogram chosen by meaning), or `{text, icon}`'),
          )
          .min(1)
          .max(6)
          .describe('2–6 short items, each with a pictogram'),
      },
      'Short items, each with a pictogram',
    ),
  ])
  .describe('One scene: its `kind` and that kind’s fields');

export const lookSchema = z
  .strictObject({
    name: z
      .string()
      .max(40)
      .optional()
      .describe('A preset to start from: midnight, sunrise, paper, forest, studio; the fields below override it'),
    theme: z.enum(['dark', 'light']).optional().describe('Dark or light'),
    palette: z
      .strictObject({
        background: hex.optional().describe('Behind everything'),
        surface: hex.optional().describe('Cards and bars’ tracks'),
        text: hex.optional().describe('Headlines and body text'),
        muted: hex.optional().describe('Secondary text'),
        accent: hex.optional().describe('Figures, bars, the button'),
        accent2: hex.optional().describe('A second accent (ornament, wipes)'),
      })
      .optional()
      .describe('Colours #rrggbb: background, surface (cards), text, muted (secondary text), accent, accent2'),
    type: z
      .strictObject({
        family: z.enum(BRAND_FONTS).optional().describe('Type family'),
        weight: z
          .union([z.literal(600), z.literal(700), z.literal(800), z.literal(900)])
          .optional()
          .describe('Headline weight'),
        uppercase: z.boolean().optional().describe('Headlines in capitals'),
      })
      .optional()
      .describe('Type style'),
    background: z.enum(['orbs', 'grid', 'rings', 'glow', 'none']).optional().describe('Background ornament'),
    transition: z
      .enum(['fade', 'slide', 'wipe', 'zoom', 'rise'])
      .optional()
      .describe('How one scene gives way to the next'),
    motion: z.enum(['calm', 'smooth', 'bouncy']).optional().describe('Easing character'),
  })
  .describe('How the video looks; every field optional (default: a preset chosen by the storyboard’s text)');

/** The storyboard the reference and the README show: every scene kind but the image (which needs an image part). */
export const STORYBOARD_EXAMPLE = {
  version: 1,
  scenes: [
    { kind: 'title', title: 'Nimbus Q3 in numbers', subtitle: 'The calm calendar, for {{company}}' },
    { kind: 'statement', text: 'Teams plan less and do more.' },
    { kind: 'counter', value: '12,000', suffix: '+', label: 'teams use Nimbus', seconds: 3 },
    { kind: 'progress', value: 92, label: 'renew after their first year' },
    {
      kind: 'bars',
      label: 'Signups by quarter',
      items: [
        { label: 'Q1', value: 12 },
        { label: 'Q2', value: 18 },
        { label: 'Q3', value: 25 },
      ],
    },
    { kind: 'list', heading: 'What’s new', items: ['Focus time', 'Shared agendas', 'Smart reminders'] },
    {
      kind: 'steps',
      heading: 'Get started',
      items: [
        { marker: '1.', text: 'Sign up' },
        { marker: '2.', text: 'Connect your calendar' },
      ],
    },
    { kind: 'countdown', numbers: [3, 2, 1], payoff: 'Launch day!' },
    { kind: 'quote', quote: 'Our meetings halved in a month.', attribution: 'Ana Ribeiro, Casa Lupa' },
    {
      kind: 'comparison',
      heading: 'Choose your plan',
      options: [
        { name: 'Solo', figure: '$4/month', features: ['1 calendar'] },
        { name: 'Team', figure: '$9/month', features: ['Shared agendas', 'Focus time'], highlight: true },
      ],
      badge: 'Most popular',
    },
    {
      kind: 'timeline',
      heading: 'Launch week',
      items: [
        { time: 'Mon 9:00', text: 'Doors open' },
        { time: 'Wed 14:00', text: 'Live demo' },
      ],
    },
    {
      kind: 'features',
      items: ['Works offline', { text: 'Encrypted', icon: 'lock' }, { text: 'Reminders', icon: 'bell' }],
    },
    { kind: 'cta', text: 'Try it free', link: 'nimbus.app', date: 'From 1 October', price: '$4 a seat' },
  ],
  look: {
    name: 'midnight',
    palette: { accent: '#14b8a6' },
    type: { family: 'sans', uppercase: false },
    transition: 'fade',
  },
} as const;

export const storyboardSchema = z
  .strictObject({
    version: z.literal(STORYBOARD_VERSION).default(STORYBOARD_VERSION).describe('Storyboard format version: 1'),
    scenes: z
      .array(sceneSchema)
      .min(1)
      .max(STORYBOARD_LIMITS.scenes)
      .describe(`The scenes in order, 1–${STORYBOARD_LIMITS.scenes}`),
    look: lookSchema.optional(),
    duration_seconds: z
      .number()
      .min(1)
      .max(MAX_DURATION_SECONDS)
      .optional()
      .describe('The video’s length: scene times are scaled to it. Default: the sum of the scenes’ seconds'),
    lang: z
      .string()
      .regex(/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag')
      .optional()
      .describe('BCP 47 language of the text (line breaking, glyphs); default: detected'),
    direction: z.enum(['ltr', 'rtl']).optional().describe('Writing direction; default: from the text’s script'),
  })
  .describe(
    'Extension: a storyboard, the video scene by scene (rendered as written: nothing is planned or asked of an LLM)',
  )
  .meta({ examples: [STORYBOARD_EXAMPLE] });

export const variablesSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'must be a name of letters, digits, _ . -'),
    z.union([z.string().max(STORYBOARD_LIMITS.textChars), z.number().finite()]),
  )
  .refine(
    (v) => Object.keys(v).length <= STORYBOARD_LIMITS.variables,
    `at most ${STORYBOARD_LIMITS.variables} variables`,
  )
  .describe(
    'Extension: values of the storyboard’s `{{name}}` placeholders (strings or numbers); ' +
      'every placeholder must have one',
  );

export type PublicStoryboard = z.output<typeof storyboardSchema>;
export type PublicScene = z.output<typeof sceneSchema>;
type PublicLook = z.output<typeof lookSchema>;

// ---- Variables -------------------------------------------------------------------------------------

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** The value with every `{{name}}` in its strings filled; a name without a value is a 400 naming it. */
export function fillVariables<T>(value: T, variables: Record<string, string | number>, at = 'storyboard'): T {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_m, name: string) => {
      const v = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (v === undefined)
        throw invalidInput(`variables.${name}: missing; ${at} uses {{${name}}}`, `variables.${name}`);
      return String(v);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v, i) => fillVariables(v, variables, `${at}.${i}`)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fillVariables(v, variables, `${at}.${k}`)]),
    ) as T;
  return value;
}

// ---- Public → internal -----------------------------------------------------------------------------

/** Image references (`image-1`) of a storyboard, with where each is. */
export function imageRefs(sb: PublicStoryboard, at = 'storyboard'): { ref: string; param: string }[] {
  return sb.scenes.flatMap((s, i) =>
    s.kind === 'image'
      ? [{ ref: s.asset, param: `${at}.scenes.${i}.asset` }]
      : s.kind === 'title' && s.image
        ? [{ ref: s.image, param: `${at}.scenes.${i}.image` }]
        : [],
  );
}

/** The local asset name of an image reference (`image-1` → `image-1.png`), among the generation's assets. */
export const assetNamed = (names: readonly string[], ref: string) => names.find((n) => refOf(n) === ref) ?? null;

/** A local asset name as the storyboard refers to it (`image-1.png` → `image-1`). */
const refOf = (name: string) => name.replace(/\.[^.]*$/, '');

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The internal storyboard of a checked public one (placeholders already filled). `image` resolves an
 * image reference to its local asset name; `durationSeconds`: the request's length, used when the
 * storyboard gives none. Problems are 400s naming the path under `at`.
 */
export function toStoryboard(
  sb: PublicStoryboard,
  opts: { image: (ref: string) => string | null; durationSeconds?: number | null; at?: string },
): Storyboard {
  const at = opts.at ?? 'storyboard';
  const fail = (path: string, message: string) => invalidInput(`${at}.${path}: ${message}`, `${at}.${path}`);
  const allText = sb.scenes.flatMap(publicTexts).join('\n');
  const lang = sb.lang ?? lexiconFor(allText).language;
  const lex: Lexicon = LEXICONS.get(lang) ?? NEUTRAL;
  const figure = (v: number | string, prefix: string, suffix: string, path: string): Figure => {
    const f = figureOf(prefix, typeof v === 'number' ? String(v) : v, suffix, lex);
    if (!f) throw fail(path, `${JSON.stringify(v)} is not a number (digits, with separators as written)`);
    return f;
  };
  const image = (ref: string, path: string) => {
    const name = opts.image(ref);
    if (!name) throw fail(path, `${ref} is not an image of this request`);
    return name;
  };
  const scenes: Scene[] = sb.scenes.map((s, i): Scene => {
    const p = `scenes.${i}`;
    switch (s.kind) {
      case 'title':
        return {
          kind: 'title',
          title: s.title,
          subtitle: s.subtitle ?? null,
          image: s.image ? image(s.image, `${p}.image`) : null,
        };
      case 'statement':
        return { kind: 'statement', text: s.text };
      case 'counter':
        return {
          kind: 'counter',
          figure: figure(s.value, s.prefix ?? '', s.suffix ?? '', `${p}.value`),
          qualifier: s.qualifier ?? null,
          label: s.label,
        };
      case 'progress': {
        const f = figure(s.value, s.prefix ?? '', s.suffix ?? '%', `${p}.value`);
        if (f.value > 100) throw fail(`${p}.value`, 'a progress is a percentage, at most 100');
        return { kind: 'progress', figure: f, percent: f.value, label: s.label };
      }
      case 'bars':
        return {
          kind: 'bars',
          label: s.label ?? '',
          bars: s.items.map((b, j) => ({
            label: b.label,
            figure: figure(b.value, b.prefix ?? '', b.suffix ?? '', `${p}.items.${j}.value`),
          })),
        };
      case 'list':
        return { kind: 'list', heading: s.heading ?? null, items: s.items };
      case 'steps':
        return {
          kind: 'steps',
          heading: s.heading ?? null,
          steps: s.items.map((it) =>
            typeof it === 'string' ? { marker: null, text: it } : { marker: it.marker ?? null, text: it.text },
          ),
        };
      case 'countdown':
        return { kind: 'countdown', numbers: s.numbers.map(String), payoff: s.payoff ?? null };
      case 'quote':
        return { kind: 'quote', quote: s.quote, attribution: s.attribution ?? null };
      case 'cta':
        // date and price only when given: a planned call to action has neither.
        return {
          kind: 'cta',
          action: s.text,
          detail: s.link ?? null,
          ...(s.date != null && { date: s.date }),
          ...(s.price != null && { price: s.price }),
        };
      case 'image':
        return { kind: 'image', image: image(s.asset, `${p}.asset`), caption: s.caption ?? null };
      case 'comparison': {
        const marked = s.options.flatMap((o, k) => (o.highlight ? [k] : []));
        if (marked.length > 1) throw fail(`${p}.options`, 'at most one option may be highlighted');
        return {
          kind: 'comparison',
          heading: s.heading ?? null,
          options: s.options.map((o) => ({ name: o.name, figure: o.figure ?? null, features: o.features })),
          highlight: marked[0] ?? null,
          badge: s.badge ?? null,
        };
      }
      case 'timeline':
        return { kind: 'timeline', heading: s.heading ?? null, items: s.items.map((it) => ({ ...it })) };
      case 'features':
        return {
          kind: 'features',
          heading: s.heading ?? null,
          items: s.items.map((it) =>
            typeof it === 'string'
              ? { text: it, icon: iconFor(it, lex) ?? 'check' }
              : { text: it.text, icon: it.icon === undefined ? (iconFor(it.text, lex) ?? 'check') : it.icon },
          ),
        };
    }
  });
  scenes.forEach((scene, i) => {
    const own = sb.scenes[i]!.icon;
    if (own) scene.icon = own;
  });
  const given = sb.scenes.map((s) => s.seconds ?? null);
  const narrations = sb.scenes.map((s) => s.narration?.trim() || null);
  // A scene without its seconds lasts at least its narration at the natural pace plus a breath.
  const weights = scenes.map(
    (s, i) =>
      given[i] ?? Math.max(naturalSeconds(s, lang), narrations[i] ? narrationNaturalSeconds(narrations[i], lang) : 0),
  );
  const length = sb.duration_seconds ?? opts.durationSeconds ?? null;
  let timed: TimedScene[];
  let total: number;
  if (length !== null) {
    total = round3(length);
    timed = timedBy(scenes, weights, total);
  } else {
    // Each scene exactly its seconds (a planned storyboard's times, as written out, come back the same).
    let start = 0;
    timed = scenes.map((scene, i) => {
      const out = { ...scene, start, duration: round3(weights[i]!) };
      start = round3(start + out.duration);
      return out;
    });
    total = start;
    if (total > MAX_DURATION_SECONDS + 1e-9)
      throw fail(
        'scenes',
        `the scenes last ${total} s; the limit is ${MAX_DURATION_SECONDS} s (set fewer seconds, or duration_seconds)`,
      );
    if (total < 1) throw fail('scenes', 'the scenes last less than 1 s');
  }
  // Narration that would need the voice faster than MAX_SPEECH_RATE does not fit its scene.
  timed = timed.map((scene, i) => {
    const said = narrations[i];
    if (!said) return scene;
    const least = narrationMinSeconds(said, lang);
    if (scene.duration + 1e-9 < least)
      throw fail(
        `scenes.${i}.narration`,
        `the narration needs at least ${least.toFixed(1)} s to be said (at ${MAX_SPEECH_RATE}× the voice’s pace, ` +
          `with a breath); the scene lasts ${scene.duration} s — shorten it, or give the scene or the video more time`,
      );
    return { ...scene, narration: said };
  });
  const look = lookOf(sb.look, allText);
  return { look, scenes: timed, durationSeconds: total, lang, direction: sb.direction ?? directionOf(allText) };
}

/** Every text field of a public scene (placeholders filled), in reading order. */
function publicTexts(s: PublicScene): string[] {
  const t = (...xs: (string | number | null | undefined)[]) =>
    xs.filter((x): x is string | number => x != null).map(String);
  switch (s.kind) {
    case 'title':
      return t(s.title, s.subtitle);
    case 'statement':
      return t(s.text);
    case 'counter':
      return t(s.qualifier, s.label);
    case 'progress':
      return t(s.label);
    case 'bars':
      return t(s.label, ...s.items.map((b) => b.label));
    case 'list':
      return t(s.heading, ...s.items);
    case 'steps':
      return t(s.heading, ...s.items.map((it) => (typeof it === 'string' ? it : it.text)));
    case 'countdown':
      return t(s.payoff);
    case 'quote':
      return t(s.quote, s.attribution);
    case 'cta':
      return t(s.text, s.date, s.price);
    case 'image':
      return t(s.caption);
    case 'comparison':
      return t(s.heading, s.badge, ...s.options.flatMap((o) => [o.name, o.figure, ...o.features]));
    case 'timeline':
      return t(s.heading, ...s.items.flatMap((it) => [it.time, it.text]));
    case 'features':
      return t(s.heading, ...s.items.map((it) => (typeof it === 'string' ? it : it.text)));
  }
}

function lookOf(l: PublicLook | undefined, allText: string): Look {
  // Without a preset named, one chosen by the text (the same text, the same look).
  const hash = crypto.createHash('sha256').update(allText).digest().readUInt32BE(0);
  const base = (l?.name ? presetLook(l.name) : undefined) ?? lookFor('', hash);
  const palette = { ...base.palette };
  for (const [k, v] of Object.entries(l?.palette ?? {})) if (v) palette[k as keyof typeof palette] = v;
  return {
    name: l?.name ?? base.name,
    theme: l?.theme ?? base.theme,
    palette,
    font: l?.type?.family ?? base.font,
    weight: l?.type?.weight ?? base.weight,
    uppercase: l?.type?.uppercase ?? base.uppercase,
    transition: l?.transition ?? base.transition,
    motion: l?.motion ?? base.motion,
    decoration: l?.background ?? base.decoration,
  };
}

// ---- Internal → public -----------------------------------------------------------------------------

/** A figure's public fields: its value as a JSON number when that is how it is written, else as written. */
function figureFieldsOf(f: Figure) {
  const asNumber = f.zero === 0x30 && String(f.value) === f.digits;
  return { value: asNumber ? f.value : f.digits, prefix: f.prefix, suffix: f.suffix };
}

/** The public form of an internal storyboard: every field written out, so that it comes back the same. */
export function fromStoryboard(sb: Storyboard): PublicStoryboard {
  const opt = <K extends string>(key: K, v: string | null | undefined) =>
    v == null ? {} : ({ [key]: v } as Record<K, string>);
  const scenes = sb.scenes.map((s): PublicScene => ({ ...publicScene(s), ...opt('narration', s.narration) }));
  function publicScene(s: TimedScene): PublicScene {
    const seconds = s.duration;
    switch (s.kind) {
      case 'title':
        return {
          kind: 'title',
          title: s.title,
          ...opt('subtitle', s.subtitle),
          ...opt('image', s.image && refOf(s.image)),
          seconds,
        };
      case 'statement':
        return { kind: 'statement', text: s.text, seconds };
      case 'counter':
        return {
          kind: 'counter',
          ...figureFieldsOf(s.figure),
          label: s.label,
          ...opt('qualifier', s.qualifier),
          seconds,
        };
      case 'progress':
        return { kind: 'progress', ...figureFieldsOf(s.figure), label: s.label, seconds };
      case 'bars':
        return {
          kind: 'bars',
          label: s.label,
          items: s.bars.map((b) => ({ label: b.label, ...figureFieldsOf(b.figure) })),
          seconds,
        };
      case 'list':
        return { kind: 'list', ...opt('heading', s.heading), items: s.items, seconds };
      case 'steps':
        return {
          kind: 'steps',
          ...opt('heading', s.heading),
          items: s.steps.map((st) => (st.marker === null ? st.text : { marker: st.marker, text: st.text })),
          seconds,
        };
      case 'countdown':
        return { kind: 'countdown', numbers: s.numbers, ...opt('payoff', s.payoff), seconds };
      case 'quote':
        return { kind: 'quote', quote: s.quote, ...opt('attribution', s.attribution), seconds };
      case 'cta':
        return {
          kind: 'cta',
          text: s.action,
          ...opt('link', s.detail),
          ...opt('date', s.date),
          ...opt('price', s.price),
          seconds,
        };
      case 'image':
        return { kind: 'image', asset: refOf(s.image), ...opt('caption', s.caption), seconds };
      case 'comparison':
        return {
          kind: 'comparison',
          ...opt('heading', s.heading),
          options: s.options.map((o, k) => ({
            name: o.name,
            ...opt('figure', o.figure),
            features: o.features,
            ...(s.highlight === k && { highlight: true }),
          })),
          ...opt('badge', s.badge),
          seconds,
        };
      case 'timeline':
        return { kind: 'timeline', ...opt('heading', s.heading), items: s.items.map((it) => ({ ...it })), seconds };
      case 'features':
        return {
          kind: 'features',
          ...opt('heading', s.heading),
          items: s.items.map((it) => ({ text: it.text, icon: it.icon as (typeof ICON_NAMES)[number] | null })),
          seconds,
        };
    }
  }
  const { look } = sb;
  return {
    version: STORYBOARD_VERSION,
    // A scene's own pictogram, when it has one (or has it switched off), written out with it.
    scenes: scenes.map((p, i) => {
      const own = sb.scenes[i]!.icon;
      return own === undefined ? p : { ...p, icon: own as (typeof ICON_NAMES)[number] | null };
    }),
    look: {
      name: look.name,
      theme: look.theme,
      palette: { ...look.palette },
      type: { family: look.font, weight: look.weight, uppercase: look.uppercase },
      background: look.decoration,
      transition: look.transition,
      motion: look.motion,
    },
    lang: sb.lang,
    direction: sb.direction,
  };
}
