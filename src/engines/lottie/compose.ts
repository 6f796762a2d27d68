// What the offline composer's scenes share: the canvas and its safe area, the look's colours, faces
// and motion, text blocks fitted to a box (HarfBuzz's advances, as the render draws them: text.ts),
// emoji as images, and entrances.
import { isTall, MIN_TEXT_SHARE, TALL_SAFE_AREA } from '../../storyboard/layout.js';
import { luminance } from '../../storyboard/look.js';
import type { Look } from '../../storyboard/types.js';
import {
  EASE,
  imageLayer,
  textLayer,
  type Ease,
  type Json,
  type Key,
  type TextDoc,
  type Transform,
  type Vec,
} from './build.js';
import { faceFor, type Face, type FaceStyle } from '../../text/families.js';
import { openFace } from '../../text/fonts.js';
import { fitText, type FittedText } from '../../text/lines.js';
import { directionOf, emojiIn, isCjk, scriptOf, withoutEmoji, type Direction } from '../../text/scripts.js';
import { emojiPicture } from '../../text/shape.js';
import { capitals, measureLine } from './text.js';

export const FPS = 30;
/** Most emoji images one animation embeds. */
const MAX_EMOJI = 12;

export type Box = { x: number; y: number; w: number; h: number };

export type Motion = {
  /** Entrance length in frames, easing of moves, distance of moves (px), delay between staggered items (frames). */
  enter: number;
  ease: Ease;
  offset: number;
  stagger: number;
  bouncy: boolean;
};

export type TextRole = 'headline' | 'body';

export type TextBlockSpec = {
  text: string;
  role: TextRole;
  maxSize: number;
  minSize: number;
  maxWidth: number;
  maxHeight: number;
  maxLines?: number;
  balance?: boolean;
  colour: string;
  /** Alignment in its box: default the scene's. */
  align?: 'center' | 'start' | 'end';
  /** Face style override (quote marks in serif). */
  style?: FaceStyle;
  /** Set in capitals when the look says so (headlines; not numbers, addresses or labels). */
  upper?: boolean;
};

export type TextBlock = {
  face: Face;
  fitted: FittedText;
  /** The box the lines are aligned in. */
  width: number;
  height: number;
  justify: 0 | 1 | 2;
  colour: string;
  ascent: number;
  descent: number;
  /** Drawn in capitals (the document keeps the text as written, with `ca`). */
  caps: boolean;
  /** The whole block's direction: each of its lines is laid out in it. */
  direction: Direction;
};

export class Composer {
  readonly W: number;
  readonly H: number;
  /** The short side: the unit of sizes, so a layout scales with the canvas. */
  readonly T: number;
  readonly landscape: boolean;
  readonly safe: Box;
  readonly align: 'center' | 'start';
  readonly style: FaceStyle;
  readonly motion: Motion;
  readonly faces = new Map<string, Face>();
  readonly assets: Json[] = [];
  private readonly emojiAssets = new Map<string, { id: string; w: number; h: number } | null>();

  constructor(
    width: number,
    height: number,
    readonly look: Look,
    readonly rtl: boolean,
    /** BCP 47 language of the text: capitals follow its rules (Turkish "i" → "İ"). */
    readonly lang = 'und',
  ) {
    this.W = width;
    this.H = height;
    this.landscape = width / height >= 1.2;
    // Landscape has width to spare: its type is set a little larger than the short side alone gives.
    this.T = Math.min(width, height) * (this.landscape ? 1.12 : 1);
    // Tall video keeps clear of the platforms' overlays (the social safe area, src/storyboard/layout.ts).
    const padX = Math.round(width * (this.landscape ? 0.07 : 0.08));
    const tall = isTall(width, height);
    const top = Math.round(height * (tall ? TALL_SAFE_AREA.top : 0.08));
    const bottom = Math.round(height * (tall ? TALL_SAFE_AREA.bottom : 0.08));
    this.safe = { x: padX, y: top, w: width - 2 * padX, h: height - top - bottom };
    this.style = look.font === 'serif' ? 'serif' : look.font === 'mono' ? 'mono' : 'sans';
    // Editorial looks (serif, mono) set type flush to the start; the others centre it.
    this.align = this.style === 'sans' ? 'center' : 'start';
    const T = this.T;
    this.motion =
      look.motion === 'calm'
        ? { enter: 24, ease: [0.4, 0, 0.2, 1], offset: T * 0.025, stagger: 5, bouncy: false }
        : look.motion === 'bouncy'
          ? { enter: 18, ease: EASE.back, offset: T * 0.06, stagger: 3, bouncy: true }
          : { enter: 16, ease: EASE.out, offset: T * 0.045, stagger: 3, bouncy: false };
  }

  get palette() {
    return this.look.palette;
  }

  /** The animation's `fonts`: every face a text block used. */
  fontList(): Json {
    return {
      list: [...this.faces.values()].map((f) => ({
        fName: f.name,
        fFamily: f.family,
        fStyle: f.bold ? 'Bold' : 'Regular',
        ascent: 75,
      })),
    };
  }

  /** Draws with the safe area narrowed to `area` (the closing scene below the brand logo). */
  within<T>(area: Box, draw: () => T): T {
    const self = this as { safe: Box };
    const saved = self.safe;
    self.safe = area;
    try {
      return draw();
    } finally {
      self.safe = saved;
    }
  }

  /** Text colour that reads on `background`. */
  onColour(background: string): string {
    return luminance(background) > 0.4 ? '#111827' : '#ffffff';
  }

  justifyFor(align: 'center' | 'start' | 'end'): 0 | 1 | 2 {
    if (align === 'center') return 2;
    return (align === 'start') !== this.rtl ? 0 : 1;
  }

  // ---- Text -----------------------------------------------------------------------------------------

  /** A block of text fitted to its box: the face for its script, the largest size that fits, its lines. */
  textBlock(spec: TextBlockSpec): TextBlock | null {
    const text = spec.text.replace(/\s+/g, ' ').trim();
    if (!text) return null;
    const script = scriptOf(text);
    const caps = Boolean(spec.upper && this.look.uppercase && script === 'latin');
    const face = faceFor(script, spec.style ?? this.style, spec.role === 'headline');
    this.faces.set(face.name, face);
    const { ascent, descent } = openFace(face) ?? { ascent: 1.07, descent: 0.29 };
    const direction = directionOf(text);
    const cjk = isCjk(script);
    // Scripts whose marks reach far above and below (Arabic, Myanmar) need more room between lines.
    const leading = Math.max(
      spec.role === 'headline' ? (cjk ? 1.25 : 1.12) : cjk ? 1.45 : 1.3,
      0.7 * (ascent + descent),
    );
    const fitted = fitText(text, (s, size) => measure(s, face, size, caps, direction, this.lang), {
      maxWidth: spec.maxWidth,
      maxHeight: spec.maxHeight,
      maxSize: spec.maxSize,
      // Never below the smallest body size every engine keeps (src/storyboard/layout.ts).
      minSize: Math.max(spec.minSize, Math.min(this.W, this.H) * MIN_TEXT_SHARE),
      leading,
      maxLines: spec.maxLines,
      balance: spec.balance,
      ascent,
      descent,
    });
    return {
      face,
      fitted,
      width: spec.maxWidth,
      height: fitted.height,
      justify: this.justifyFor(spec.align ?? this.align),
      colour: spec.colour,
      ascent,
      descent,
      caps,
      direction,
    };
  }

  /** Width of a text set on one line at `size`, in the face its script and role take. */
  oneLineWidth(text: string, size: number, role: TextRole): number {
    const spec = { maxSize: size, minSize: size, maxWidth: Infinity, maxHeight: Infinity, maxLines: 1, colour: '' };
    return this.textBlock({ text, role, ...spec })?.fitted.width ?? 0;
  }

  /** Width of a fitted line. */
  lineWidth(b: TextBlock, line: string): number {
    return measure(line, b.face, b.fitted.size, b.caps, b.direction, this.lang);
  }

  /** Widest line of a block. */
  blockWidth(b: TextBlock): number {
    return Math.max(...b.fitted.lines.map((l) => this.lineWidth(b, l)));
  }

  /** The document of one line (or all lines) of a block whose box's top-left is (left, top). */
  doc(b: TextBlock, text: string, left: number, top: number, lines = 1, colour = b.colour): TextDoc {
    // A little room on each side: the lines were measured to fit, the box must not wrap them again.
    const slack = Math.max(2, b.fitted.size * 0.08);
    const x = b.justify === 0 ? left : b.justify === 1 ? left - 2 * slack : left - slack;
    return {
      text,
      font: b.face.name,
      caps: b.caps,
      lang: this.lang,
      direction: b.direction,
      size: b.fitted.size,
      lineHeight: b.fitted.lineHeight,
      colour,
      justify: b.justify,
      box: {
        x,
        y: top,
        w: b.width + 2 * slack,
        h: b.fitted.size * (b.ascent + b.descent + 0.5) + (lines - 1) * b.fitted.lineHeight,
      },
    };
  }

  /** Centre of line `i` of a block placed at (left, top). */
  lineCentre(b: TextBlock, left: number, top: number, i: number): Vec {
    const lw = this.lineWidth(b, b.fitted.lines[i]!);
    const x = b.justify === 2 ? left + b.width / 2 : b.justify === 0 ? left + lw / 2 : left + b.width - lw / 2;
    return [x, top + i * b.fitted.lineHeight + (b.fitted.size * (b.ascent + b.descent)) / 2];
  }

  /** One text layer per line, each with its transform (`motion(i, centre)`): lines enter one after another. */
  drawLines(
    b: TextBlock,
    left: number,
    top: number,
    ip: number,
    op: number,
    motion: (i: number, centre: Vec) => Transform,
    name = 'text',
  ): Json[] {
    return b.fitted.lines.map((line, i) =>
      textLayer(
        { ind: 0, nm: `${name} ${i + 1}`, ip, op, ks: motion(i, this.lineCentre(b, left, top, i)) },
        this.doc(b, line, left, top + i * b.fitted.lineHeight),
      ),
    );
  }

  // ---- Emoji ----------------------------------------------------------------------------------------

  /** The text without emoji, and its emoji (shown as images: ThorVG cannot draw colour fonts). */
  splitEmoji(text: string): { text: string; emoji: string[] } {
    return { text: withoutEmoji(text), emoji: emojiIn(text) };
  }

  /** The image asset of an emoji (embedded PNG of the colour emoji font's picture), or null. */
  emojiAsset(emoji: string): { id: string; w: number; h: number } | null {
    if (!this.emojiAssets.has(emoji)) {
      const image = this.emojiAssets.size < MAX_EMOJI ? emojiPicture(emoji) : null;
      let ref: { id: string; w: number; h: number } | null = null;
      if (image) {
        ref = { id: `emoji_${this.emojiAssets.size + 1}`, w: image.width, h: image.height };
        this.assets.push({
          id: ref.id,
          w: image.width,
          h: image.height,
          u: '',
          p: `data:image/png;base64,${Buffer.from(image.png).toString('base64')}`,
          e: 1,
        });
      }
      this.emojiAssets.set(emoji, ref);
    }
    return this.emojiAssets.get(emoji)!;
  }

  /** An emoji image `size` px high centred at `centre`, with extra transform keys. */
  emojiLayer(
    emoji: string,
    size: number,
    centre: Vec,
    ip: number,
    op: number,
    t: (centre: Vec, scale: number) => Transform,
  ): Json | null {
    const ref = this.emojiAsset(emoji);
    if (!ref) return null;
    const scale = (size / ref.h) * 100;
    return imageLayer(
      { ind: 0, nm: `emoji ${emoji}`, ip, op, ks: { a: [ref.w / 2, ref.h / 2], ...t(centre, scale) } },
      ref.id,
    );
  }

  /** Emoji that have an image, at most `max`. */
  drawable(emoji: string[], max = 3): string[] {
    return [...new Set(emoji)].filter((e) => this.emojiAsset(e)).slice(0, max);
  }

  // ---- Motion ---------------------------------------------------------------------------------------

  /**
   * An element's entrance at local frame `t0` towards its place `centre`: rising (or, when bouncy,
   * popping) and fading in; `none` keeps it still.
   */
  enter(
    centre: Vec,
    t0: number,
    kind: 'rise' | 'pop' | 'fade' | 'side' | 'none',
    length = this.motion.enter,
  ): Transform {
    const [cx, cy] = centre as [number, number];
    const t1 = t0 + length;
    const fadeIn: Key[] = [
      [t0, 0, EASE.out],
      [t0 + Math.max(1, length * 0.6), 100],
    ];
    const m = this.motion;
    const k = kind === 'rise' && m.bouncy ? 'pop' : kind;
    switch (k) {
      case 'rise':
        return {
          a: [cx, cy],
          p: [
            [t0, [cx, cy + m.offset], m.ease],
            [t1, [cx, cy]],
          ],
          o: fadeIn,
        };
      case 'side': {
        const dx = (this.rtl ? -1 : 1) * m.offset * 1.5;
        return {
          a: [cx, cy],
          p: [
            [t0, [cx + dx, cy], m.ease],
            [t1, [cx, cy]],
          ],
          o: fadeIn,
        };
      }
      case 'pop':
        return {
          a: [cx, cy],
          p: [cx, cy],
          s: [
            [t0, 55, m.bouncy ? EASE.back : m.ease],
            [t1, 100],
          ],
          o: fadeIn,
        };
      case 'fade':
        return {
          a: [cx, cy],
          p: [cx, cy],
          o: [
            [t0, 0, EASE.inOut],
            [t1, 100],
          ],
        };
      default:
        return { a: [cx, cy], p: [cx, cy] };
    }
  }

  /** Entrance length that fits a scene of `frames` frames. */
  enterLength(frames: number): number {
    return Math.max(4, Math.min(this.motion.enter, Math.round(frames * 0.3)));
  }
}

/** Width of a line as the render draws it (in capitals when `caps`). */
const measure = (line: string, face: Face, size: number, caps: boolean, direction: Direction, lang: string) =>
  measureLine(caps ? capitals(line, lang) : line, face, size, direction);

/** Tops of items stacked in a region with gaps, the whole stack centred (or put at the region's bottom). */
export function stack(
  heights: number[],
  gaps: number[],
  region: Box,
  anchor: 'center' | 'bottom' = 'center',
): number[] {
  const total =
    heights.reduce((a, b) => a + b, 0) + gaps.slice(0, Math.max(0, heights.length - 1)).reduce((a, b) => a + b, 0);
  let y = anchor === 'bottom' ? region.y + region.h - total : region.y + (region.h - total) / 2;
  return heights.map((h, i) => {
    const top = y;
    y += h + (gaps[i] ?? 0);
    return top;
  });
}

/**
 * The largest common size at which every text fits its width in at most `maxLines` lines and `maxHeight`, no word
 * broken across lines ("сфотографиру|йте").
 */
export function commonSize(
  c: Composer,
  texts: string[],
  o: {
    role: 'headline' | 'body';
    maxSize: number;
    minSize: number;
    maxWidth: number;
    maxHeight: number;
    maxLines: number;
    colour: string;
    align?: 'center' | 'start' | 'end';
  },
): (TextBlock | null)[] {
  let size = o.maxSize;
  for (;;) {
    const blocks = texts.map((text) => c.textBlock({ ...o, text, maxSize: size, minSize: size }));
    const ok = blocks.every(
      (b) =>
        !b ||
        (b.fitted.size >= size - 0.05 &&
          !b.fitted.split &&
          b.fitted.lines.length <= o.maxLines &&
          b.height <= o.maxHeight),
    );
    if (ok || size <= o.minSize) return blocks;
    size = Math.max(o.minSize, size * 0.93);
  }
}
