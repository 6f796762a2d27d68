// The look of a storyboard: a preset chosen by the prompt's hash, then the prompt's own words
// ("teal accents", "sepia", "serif", "dark", "minimal", "neon"…) override it.
import type { BrandSnapshot } from '../shared.js';
import type { FontFamily, Look, Palette } from './types.js';

const PRESETS: Look[] = [
  {
    name: 'midnight',
    theme: 'dark',
    palette: {
      background: '#0f172a',
      surface: '#1e293b',
      text: '#f8fafc',
      muted: '#94a3b8',
      accent: '#38bdf8',
      accent2: '#a78bfa',
    },
    font: 'sans',
    weight: 800,
    uppercase: false,
    transition: 'slide',
    motion: 'smooth',
    decoration: 'orbs',
  },
  {
    name: 'sunrise',
    theme: 'dark',
    palette: {
      background: '#2a0f1f',
      surface: '#3f1830',
      text: '#fff7ed',
      muted: '#fdba74',
      accent: '#fb923c',
      accent2: '#f43f5e',
    },
    font: 'sans',
    weight: 900,
    uppercase: true,
    transition: 'zoom',
    motion: 'smooth',
    decoration: 'glow',
  },
  {
    name: 'paper',
    theme: 'light',
    palette: {
      background: '#f8f5ef',
      surface: '#ffffff',
      text: '#1c1917',
      muted: '#78716c',
      accent: '#dc2626',
      accent2: '#1d4ed8',
    },
    font: 'serif',
    weight: 700,
    uppercase: false,
    transition: 'fade',
    motion: 'calm',
    decoration: 'rings',
  },
  {
    name: 'forest',
    theme: 'dark',
    palette: {
      background: '#052e16',
      surface: '#14532d',
      text: '#f0fdf4',
      muted: '#86efac',
      accent: '#4ade80',
      accent2: '#facc15',
    },
    font: 'sans',
    weight: 800,
    uppercase: false,
    transition: 'rise',
    motion: 'smooth',
    decoration: 'grid',
  },
  {
    name: 'studio',
    theme: 'light',
    palette: {
      background: '#eef2ff',
      surface: '#ffffff',
      text: '#1e1b4b',
      muted: '#6366f1',
      accent: '#4f46e5',
      accent2: '#ec4899',
    },
    font: 'rounded',
    weight: 800,
    uppercase: false,
    transition: 'wipe',
    motion: 'bouncy',
    decoration: 'orbs',
  },
];

/** A preset by its name ("midnight", "paper"…), as storyboards name their look; undefined when none has it. */
export function presetLook(name: string): Look | undefined {
  const preset = PRESETS.find((p) => p.name === name);
  return preset && { ...preset, palette: { ...preset.palette } };
}

/** Named colours a prompt may ask for (as accents, or as the background with "background"). */
export const NAMED_COLOURS: Record<string, string> = {
  teal: '#14b8a6',
  turquoise: '#2dd4bf',
  cyan: '#06b6d4',
  aqua: '#22d3ee',
  mint: '#6ee7b7',
  green: '#22c55e',
  emerald: '#10b981',
  lime: '#84cc16',
  olive: '#84823b',
  yellow: '#facc15',
  gold: '#eab308',
  golden: '#eab308',
  amber: '#f59e0b',
  orange: '#f97316',
  coral: '#fb7185',
  red: '#ef4444',
  crimson: '#dc143c',
  maroon: '#9f1239',
  burgundy: '#881337',
  pink: '#ec4899',
  magenta: '#d946ef',
  purple: '#a855f7',
  violet: '#8b5cf6',
  lavender: '#c4b5fd',
  indigo: '#6366f1',
  blue: '#3b82f6',
  navy: '#1e3a8a',
  sky: '#38bdf8',
  brown: '#92400e',
  beige: '#e7d8b5',
  silver: '#cbd5e1',
  grey: '#9ca3af',
  gray: '#9ca3af',
  black: '#0a0a0a',
  white: '#ffffff',
};

const has = (words: Set<string>, ...any: string[]) => any.some((w) => words.has(w));

/** Relative luminance (WCAG) of #rrggbb. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** #rrggbb blended toward another colour by t (0–1). */
export function mix(a: string, b: string, t: number): string {
  const ch = (h: string, i: number) => parseInt(h.slice(i, i + 2), 16);
  return `#${[1, 3, 5]
    .map((i) =>
      Math.round(ch(a, i) * (1 - t) + ch(b, i) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function lookFor(text: string, hash: number): Look {
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const base = PRESETS[hash % PRESETS.length]!;
  let look: Look = { ...base, palette: { ...base.palette } };

  if (has(words, 'sepia', 'vintage', 'retro', 'nostalgic')) {
    look = {
      ...look,
      name: 'sepia',
      theme: 'light',
      palette: {
        background: '#f1e4c8',
        surface: '#e7d3ad',
        text: '#3b2a1a',
        muted: '#7a5c3e',
        accent: '#a0522d',
        accent2: '#6b4226',
      },
      font: 'serif',
      uppercase: false,
      decoration: 'rings',
      transition: 'fade',
    };
  }
  if (has(words, 'neon', 'cyberpunk', 'synthwave', 'glow', 'glowing')) {
    look = {
      ...look,
      name: 'neon',
      theme: 'dark',
      palette: {
        background: '#05010f',
        surface: '#120a2a',
        text: '#f5f3ff',
        muted: '#c4b5fd',
        accent: '#22d3ee',
        accent2: '#f0abfc',
      },
      decoration: 'glow',
      weight: 900,
    };
  }
  if (has(words, 'dark', 'night', 'moody', 'cinematic')) look = { ...look, theme: 'dark' };
  if (has(words, 'light', 'bright', 'clean', 'airy', 'white')) look = { ...look, theme: 'light' };
  if (has(words, 'minimal', 'minimalist', 'simple', 'understated')) {
    look = {
      ...look,
      name: `${look.name}-minimal`,
      decoration: 'none',
      motion: 'calm',
      transition: 'fade',
      uppercase: false,
      weight: 700,
    };
  }
  if (has(words, 'playful', 'fun', 'kids', 'cheerful', 'bubbly')) look = { ...look, font: 'rounded', motion: 'bouncy' };
  if (has(words, 'bold', 'energetic', 'punchy', 'loud'))
    look = { ...look, weight: 900, uppercase: true, transition: 'zoom' };
  const font: FontFamily | undefined = has(words, 'serif', 'elegant', 'classic', 'luxury', 'editorial')
    ? 'serif'
    : has(words, 'mono', 'monospace', 'code', 'terminal', 'developer', 'developers', 'hacker')
      ? 'mono'
      : has(words, 'sans', 'modern', 'corporate', 'professional')
        ? 'sans'
        : undefined;
  if (font) look = { ...look, font };

  look.palette = themed(look.palette, look.theme);
  // Named colours: the first named colour becomes the accent, a second one the second accent;
  // "<colour> background" sets the background instead.
  const lower = text.toLowerCase();
  const named = [...lower.matchAll(/\b([a-z]+)(?:[\s-]+(background|backdrop|bg))?\b/g)].filter(
    (m) => NAMED_COLOURS[m[1]!],
  );
  const accents: string[] = [];
  for (const m of named) {
    const colour = NAMED_COLOURS[m[1]!]!;
    if (m[2]) {
      look.palette.background = colour;
      look.theme = luminance(colour) > 0.4 ? 'light' : 'dark';
      look.palette = themed(look.palette, look.theme, true);
    } else if (!accents.includes(colour)) accents.push(colour);
  }
  if (accents[0]) look.palette.accent = legibleAccent(accents[0], look.palette.background);
  if (accents[1]) look.palette.accent2 = legibleAccent(accents[1], look.palette.background);
  return look;
}

/** Keeps the palette readable on its theme: text and surfaces follow the background's lightness. */
function themed(p: Palette, theme: Look['theme'], keepBackground = false): Palette {
  const lightBg = luminance(p.background) > 0.4;
  if ((theme === 'light') === lightBg) return p;
  const background = keepBackground
    ? p.background
    : theme === 'light'
      ? mix(p.background, '#ffffff', 0.92)
      : mix(p.background, '#000000', 0.85);
  return {
    ...p,
    background,
    surface: theme === 'light' ? mix(background, '#ffffff', 0.6) : mix(background, '#ffffff', 0.1),
    ...TEXT_ON[theme],
  };
}

/** An accent darkened or lightened until it stands out from the background (contrast ≥ 3). */
function legibleAccent(colour: string, background: string): string {
  let c = colour;
  const bgL = luminance(background);
  for (let i = 0; i < 8 && contrast(luminance(c), bgL) < 3; i++) c = mix(c, bgL > 0.4 ? '#000000' : '#ffffff', 0.2);
  return c;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** WCAG contrast ratio of two #rrggbb colours (1–21; body text needs 4.5 for AA). */
export const contrastRatio = (a: string, b: string) => contrast(luminance(a), luminance(b));

/**
 * The look with a brand kit's colours and type style: the background sets the theme and the
 * surfaces; text and accent are used exactly as given (a text colour left unset follows the theme
 * when the look's own would not read on the brand background).
 */
export function brandLook(look: Look, brand: Pick<BrandSnapshot, 'colors' | 'font'>): Look {
  const { background, text, accent } = brand.colors;
  let out: Look = { ...look, palette: { ...look.palette }, ...(brand.font && { font: brand.font }) };
  if (background) {
    const theme = luminance(background) > 0.4 ? 'light' : 'dark';
    const p = out.palette;
    out = {
      ...out,
      name: `${look.name}-brand`,
      theme,
      palette: {
        ...p,
        ...(contrastRatio(p.text, background) < 4.5 && TEXT_ON[theme]),
        background,
        surface: mix(background, theme === 'light' ? '#000000' : '#ffffff', theme === 'light' ? 0.06 : 0.1),
        accent: legibleAccent(p.accent, background),
        accent2: legibleAccent(p.accent2, background),
      },
    };
  }
  if (text) out.palette = { ...out.palette, text, muted: mix(text, out.palette.background, 0.3) };
  // Only the kit's colours and tints of them: the second accent (ornament, wipes) is a tint of the kit's accent —
  // never the preset's (a pink wipe over an orange kit) — or, without one, of its text.
  if (accent) out.palette = { ...out.palette, accent, accent2: mix(accent, out.palette.background, 0.35) };
  else if (background || text) {
    const ink = out.palette.text;
    out.palette = { ...out.palette, accent: ink, accent2: mix(ink, out.palette.background, 0.45) };
  }
  return out;
}

const TEXT_ON = { light: { text: '#111827', muted: '#4b5563' }, dark: { text: '#f9fafb', muted: '#cbd5e1' } } as const;
