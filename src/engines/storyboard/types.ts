// A storyboard: what the embedded offline composer shows, decided from the prompt alone and drawn by
// each engine (src/engines/<engine>/offline.ts). Pure data: the same prompt gives the same storyboard.

/** Colours as #rrggbb. */
export type Palette = { background: string; surface: string; text: string; muted: string; accent: string; accent2: string };

export type FontFamily = 'sans' | 'serif' | 'mono' | 'rounded';

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

export type Bar = { label: string; value: number; display: string };

export type Scene =
  | { kind: 'title'; title: string; subtitle: string | null; image: string | null }
  | { kind: 'statement'; text: string }
  | { kind: 'counter'; value: number; decimals: number; prefix: string; suffix: string; label: string }
  | { kind: 'progress'; percent: number; label: string }
  /** `label`: the chart's caption, '' when the prompt gives none. */
  | { kind: 'bars'; label: string; bars: Bar[] }
  | { kind: 'list'; heading: string | null; items: string[] }
  | { kind: 'quote'; quote: string; attribution: string | null }
  | { kind: 'cta'; action: string; detail: string | null };

export type SceneKind = Scene['kind'];

/** A scene with its place on the timeline (seconds). */
export type TimedScene = Scene & { start: number; duration: number };

export type Storyboard = {
  look: Look;
  scenes: TimedScene[];
  durationSeconds: number;
  /** Writing direction of the prompt's text: right-to-left for Arabic and Hebrew. */
  direction: 'ltr' | 'rtl';
};
