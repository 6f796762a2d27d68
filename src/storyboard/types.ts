// A storyboard: what a video shows, scene by scene, independent of any engine. The planner
// (plan.ts) makes one from a prompt; each engine draws it (src/engines/<engine>/offline.ts). Pure data:
// every text a scene shows is one of its string fields, each the user's own words (from the prompt or
// the instructions); the engines add shapes, motion and colour, never words.

import type { BrandFont } from '../shared.js';

/** Colours as #rrggbb. */
export type Palette = {
  background: string;
  surface: string;
  text: string;
  muted: string;
  accent: string;
  accent2: string;
};

/** The installed type styles: one list with the brand kits' (BRAND_FONTS in src/shared.ts). */
export type FontFamily = BrandFont;

/** How the whole video looks and moves, from the prompt's words (colours, "serif", "neon"…) or its hash. */
export type Look = {
  name: string;
  theme: 'dark' | 'light';
  palette: Palette;
  font: FontFamily;
  /** Headline weight and case. */
  weight: 600 | 700 | 800 | 900;
  uppercase: boolean;
  /** How one scene gives way to the next. */
  transition: 'fade' | 'slide' | 'wipe' | 'zoom' | 'rise';
  /** Easing character: calm (minimal), smooth (default), bouncy (playful). */
  motion: 'calm' | 'smooth' | 'bouncy';
  /** Background ornament. */
  decoration: 'orbs' | 'grid' | 'rings' | 'glow' | 'none';
};

/**
 * A figure as the user wrote it, and the number it names, so an engine can count up to it: every
 * intermediate value is written the same way (digits, separators, prefix and suffix of `text`).
 */
export type Figure = {
  /** The whole figure as shown at rest: prefix + digits + suffix, e.g. "$18.6M", "15.000", "٩٦٪", "92 %". */
  text: string;
  prefix: string;
  /** The number as written ("12,000", "3 200", "١٢٬٠٠٠"), or the digits of a number word ("forty" → "40"). */
  digits: string;
  suffix: string;
  value: number;
  decimals: number;
  /** Thousands separator as written ('' when none) and decimal separator. */
  group: string;
  decimal: string;
  /** Code point of the zero of the digits written (0x30 for 0–9, 0x660 for Arabic-Indic, 0xFF10 full-width…). */
  zero: number;
  /** Indian grouping (1,20,000: twos above the thousands). */
  lakh: boolean;
};

export type Bar = { label: string; figure: Figure };

/** One step: its marker as written ("1.", "Step 2", "①"), null for a bullet, and its whole text. */
export type Step = { marker: string | null; text: string };

/** One option of a comparison: its name, its figure as written (a price, a time), up to four short features. */
export type ComparisonOption = { name: string; figure: string | null; features: string[] };

/** One timed item: its time as written ("9:30 am", "14 Uhr", "午前10時", "Ocak 2027") and what happens then. */
export type TimedItem = { time: string; text: string };

/** One feature: its text and its pictogram (an icon name of the set, src/storyboard/icons.ts; null: none). */
export type Feature = { text: string; icon: string | null };

/**
 * A scene's own pictogram: an icon name of the set (src/storyboard/icons.ts) drawn with it, null or absent for none.
 */
export type Pictogram = { icon?: string | null };

export type Scene = (
  | { kind: 'title'; title: string; subtitle: string | null; image: string | null }
  | { kind: 'statement'; text: string }
  /**
   * A quantity: the figure counts up; `qualifier` ("over", "más de") is shown with it; `label` names what it counts.
   */
  | { kind: 'counter'; figure: Figure; qualifier: string | null; label: string }
  /** A percentage of a whole (at most 100): a bar fills to it. */
  | { kind: 'progress'; figure: Figure; percent: number; label: string }
  /** `label`: the chart's caption, '' when the prompt gives none. */
  | { kind: 'bars'; label: string; bars: Bar[] }
  | { kind: 'list'; heading: string | null; items: string[] }
  /** Instructions in order, each step's whole text; shown one after another, a beat each. */
  | { kind: 'steps'; heading: string | null; steps: Step[] }
  /** Each number big, in turn, a beat each; then the payoff line. Numbers as written ("5", "drei", "٣"). */
  | { kind: 'countdown'; numbers: string[]; payoff: string | null }
  | { kind: 'quote'; quote: string; attribution: string | null }
  /** `detail`: the link or address; `date` and `price` (storyboard requests) shown beside it. */
  | { kind: 'cta'; action: string; detail: string | null; date?: string | null; price?: string | null }
  /** A picture of the request (`image`: its local asset name) with an optional caption. */
  | { kind: 'image'; image: string; caption: string | null }
  /**
   * 2–4 options side by side; `highlight`: the index of the option the prompt singles out, `badge` the words that
   * single it out ("most popular"), shown on it.
   */
  | {
      kind: 'comparison';
      heading: string | null;
      options: ComparisonOption[];
      highlight: number | null;
      badge: string | null;
    }
  /** Dated or timed items in order (an agenda, opening hours, a history), the times as written. */
  | { kind: 'timeline'; heading: string | null; items: TimedItem[] }
  /** 2–6 short items, each with a pictogram. */
  | { kind: 'features'; heading: string | null; items: Feature[] }
) &
  Pictogram;

export type SceneKind = Scene['kind'];

/**
 * A scene with its place on the timeline (seconds) and what the voice says over it (absent or null:
 * nothing; storyboard version 1, field added compatibly).
 */
export type TimedScene = Scene & { start: number; duration: number; narration?: string | null };

export type Storyboard = {
  look: Look;
  scenes: TimedScene[];
  durationSeconds: number;
  /** BCP 47 language of the text ('und' when not known): line breaking and glyph choice follow it. */
  lang: string;
  /** Writing direction of the prompt's text: right-to-left for Arabic and Hebrew. */
  direction: 'ltr' | 'rtl';
  /** Asset name of the brand logo the closing scene shows above its content (brand kits); absent: none. */
  logo?: string | null;
};

/** Every text a scene shows (counter and countdown figures included), in reading order. */
export function sceneTexts(scene: Scene): string[] {
  switch (scene.kind) {
    case 'title':
      return [scene.title, scene.subtitle ?? ''];
    case 'statement':
      return [scene.text];
    case 'counter':
      return [scene.qualifier ?? '', scene.figure.text, scene.label];
    case 'progress':
      return [scene.figure.text, scene.label];
    case 'bars':
      return [scene.label, ...scene.bars.flatMap((b) => [b.label, b.figure.text])];
    case 'list':
      return [scene.heading ?? '', ...scene.items];
    case 'steps':
      return [scene.heading ?? '', ...scene.steps.flatMap((s) => [s.marker ?? '', s.text])];
    case 'countdown':
      return [...scene.numbers, scene.payoff ?? ''];
    case 'quote':
      return [scene.quote, scene.attribution ?? ''];
    case 'cta':
      return [scene.action, scene.detail ?? '', scene.date ?? '', scene.price ?? ''];
    case 'image':
      return [scene.caption ?? ''];
    case 'comparison':
      return [
        scene.heading ?? '',
        ...scene.options.flatMap((o) => [o.name, o.figure ?? '', ...o.features]),
        scene.badge ?? '',
      ];
    case 'timeline':
      return [scene.heading ?? '', ...scene.items.flatMap((i) => [i.time, i.text])];
    case 'features':
      return [scene.heading ?? '', ...scene.items.map((i) => i.text)];
  }
}
