// Canvas geometry and the small HTML vocabulary the scene layouts are written in: fixed boxes (absolute
// rectangles inside the safe area, never overlapping within a scene) holding text the page's fit
// routine shrinks until it fits its box.
import { isTall, MIN_TEXT_SHARE, TALL_SAFE_AREA } from '../../../storyboard/layout.js';
import { contrastRatio } from '../../../storyboard/look.js';
import type { Look } from '../../../storyboard/types.js';

export type Orientation = 'portrait' | 'square' | 'landscape';

/** The canvas and its safe area: every scene is laid out in the sw×sh rectangle at (mx, my). */
export type Frame = {
  W: number;
  H: number;
  /** 1 % of the short side: the unit of sizes. */
  u: number;
  mx: number;
  my: number;
  sw: number;
  sh: number;
  orient: Orientation;
  rtl: boolean;
  /** Smallest font size the fit routine may use. */
  minFont: number;
};

export type Rect = { x: number; y: number; w: number; h: number };

/** Eases of a look's motion: entrances, exits, pops (emphasis). */
export type Eases = { in: string; out: string; pop: string };

export const MOTION_EASES: Record<Look['motion'], Eases> = {
  calm: { in: 'sine.out', out: 'sine.in', pop: 'power2.out' },
  smooth: { in: 'power3.out', out: 'power2.in', pop: 'back.out(1.4)' },
  bouncy: { in: 'back.out(1.7)', out: 'back.in(1.4)', pop: 'back.out(2.4)' },
};

/** Safe-area margin as a fraction of each side (tall canvases: the social safe area, src/storyboard/layout.ts). */
const MARGIN = 0.07;

export function frameOf(width: number, height: number, rtl: boolean): Frame {
  const short = Math.min(width, height);
  const ratio = width / height;
  const tall = isTall(width, height);
  const mx = Math.round(width * MARGIN);
  const my = Math.round(height * (tall ? TALL_SAFE_AREA.top : MARGIN));
  const mb = Math.round(height * (tall ? TALL_SAFE_AREA.bottom : MARGIN));
  const u = short / 100;
  return {
    W: width,
    H: height,
    u,
    mx,
    my,
    sw: width - 2 * mx,
    sh: height - my - mb,
    orient: ratio >= 1.25 ? 'landscape' : ratio <= 0.8 ? 'portrait' : 'square',
    rtl,
    minFont: Math.max(9, Math.round(short * MIN_TEXT_SHARE * 10) / 10),
  };
}

export const px = (n: number) => `${Math.round(n * 10) / 10}px`;

/** A rectangle of the safe area, mirrored for right-to-left layouts. */
export function place(f: Frame, r: Rect): Rect {
  return f.rtl ? { ...r, x: f.sw - r.x - r.w } : r;
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A JavaScript literal safe inside an inline <script>. */
export const js = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export type BoxOptions = {
  id?: string;
  cls?: string;
  /** Vertical placement of the box's content. */
  valign?: 'start' | 'center' | 'end';
  /** Horizontal alignment of the box's content (text-align and flex items). */
  halign?: 'start' | 'center' | 'end';
  /** Rectangle already in safe-area coordinates (not mirrored again). */
  placed?: boolean;
};

const FLEX = { start: 'flex-start', center: 'center', end: 'flex-end' } as const;

/** A fixed box of the safe area whose content is fitted into it (the fit routine's unit). */
export function box(f: Frame, rect: Rect, opts: BoxOptions, inner: string): string {
  const r = opts.placed ? rect : place(f, rect);
  const halign = opts.halign ?? 'start';
  const style = [
    `left:${px(r.x)}`,
    `top:${px(r.y)}`,
    `width:${px(r.w)}`,
    `height:${px(r.h)}`,
    `justify-content:${FLEX[opts.valign ?? 'center']}`,
    `align-items:${FLEX[halign]}`,
    `text-align:${halign}`,
  ].join(';');
  return (
    `<div${opts.id ? ` id="${opts.id}"` : ''} class="box${opts.cls ? ` ${opts.cls}` : ''}" ` +
    `style="${style}">${inner}</div>`
  );
}

export type TextOptions = {
  cls?: string;
  /** Largest font size (px); the fit routine shrinks from here. */
  max: number;
  /** Texts with the same key end at the same (smallest fitted) size. */
  same?: string;
  style?: string;
  /** Inner HTML instead of escaped text (already escaped by the caller). */
  html?: boolean;
};

/** A text element the page fits into its box. */
export function text(f: Frame, id: string, content: string, opts: TextOptions): string {
  const max = Math.max(f.minFont, Math.round(opts.max * 10) / 10);
  const attrs = [
    `id="${id}"`,
    `class="t${opts.cls ? ` ${opts.cls}` : ''}"`,
    'dir="auto"',
    `data-fit="${max}"`,
    `data-min="${f.minFont}"`,
    ...(opts.same ? [`data-same="${opts.same}"`] : []),
    `style="font-size:${px(max)}${opts.style ? `;${opts.style}` : ''}"`,
  ];
  return `<div ${attrs.join(' ')}>${opts.html ? content : escapeHtml(content)}</div>`;
}

/** #rrggbb with an alpha, as rgba(). */
export function rgba(hex: string, alpha: number): string {
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return `rgba(${n(1)},${n(3)},${n(5)},${alpha})`;
}

/** Of the candidates, the colour that reads best on `background`. */
export function readableOn(background: string, candidates: string[]): string {
  return candidates.reduce((best, c) => (contrastRatio(c, background) > contrastRatio(best, background) ? c : best));
}

/** Seconds as written into the timeline script. */
export const sec = (n: number) => Math.round(n * 1000) / 1000;
