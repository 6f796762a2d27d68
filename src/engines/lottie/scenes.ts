// The storyboard's scene kinds drawn as Lottie layers, in a scene's own time (frame 0 = the scene's
// start, `L` frames long). Every function returns layers top first, as Lottie draws them.
import { MIN_TEXT_SHARE } from '../../storyboard/layout.js';
import { figureAt } from '../../storyboard/numbers.js';
import type { Bar, Figure, Scene } from '../../storyboard/types.js';
import {
  EASE,
  ellipse,
  fill,
  gradient,
  group,
  imageLayer,
  path,
  rect,
  shapeLayer,
  stroke,
  textLayer,
  type Json,
  type Key,
  type TextDoc,
  type Transform,
  type Vec,
} from './build.js';
import { commonSize, FPS, stack, type Box, type Composer, type TextBlock } from './compose.js';
import { headingAbove } from './designed.js';

type SceneOf<K extends Scene['kind']> = Extract<Scene, { kind: K }>;
const s = (seconds: number) => Math.round(seconds * FPS);
const mixHex = (a: string, b: string, t: number) =>
  `#${[1, 3, 5]
    .map((i) =>
      Math.round(parseInt(a.slice(i, i + 2), 16) * (1 - t) + parseInt(b.slice(i, i + 2), 16) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Left edge of a block `width` wide in `region`, by the scene's alignment. */
function placeLeft(c: Composer, region: Box, width: number): number {
  if (c.align === 'center') return region.x + (region.w - width) / 2;
  return c.rtl ? region.x + region.w - width : region.x;
}

/** A shape layer drawing one rounded rectangle. */
function box(nm: string, b: Box, colour: string, radius: number, L: number, ks: Transform = {}, opacity = 100): Json {
  return shapeLayer({ ind: 0, nm, ip: 0, op: L, ks }, [
    group(nm, [rect([b.x + b.w / 2, b.y + b.h / 2], [b.w, b.h], radius), fill(colour, opacity)]),
  ]);
}

/**
 * A row of emoji images `size` px high on the line `cy`, placed in `region` by the scene's alignment, popping in from
 * `t0`.
 */
function emojiRow(
  c: Composer,
  emoji: string[],
  region: Box,
  cy: number,
  size: number,
  t0: number,
  L: number,
  still = false,
  centred = false,
): Json[] {
  const gap = size * 0.25;
  const total = emoji.length * size + (emoji.length - 1) * gap;
  const left = centred ? region.x + (region.w - total) / 2 : placeLeft(c, region, total);
  return emoji.flatMap((e, i) => {
    const x = left + size / 2 + i * (size + gap);
    const bob = c.T * 0.008;
    const layer = c.emojiLayer(e, size, [x, cy], 0, L, (centre, scale) => {
      const [px, py] = centre as [number, number];
      if (still)
        return {
          p: [
            [0, [px, py], EASE.inOut],
            [L / 2, [px, py - bob], EASE.inOut],
            [L, [px, py]],
          ],
          s: scale,
        };
      const t = t0 + i * c.motion.stagger;
      return {
        p: [px, py],
        s: [
          [t, scale * 0.3, EASE.back],
          [t + c.motion.enter, scale],
        ],
        o: [
          [t, 0],
          [t + 4, 100],
        ],
      };
    });
    return layer ? [layer] : [];
  });
}

function countEase(x: number) {
  return 1 - (1 - x) ** 3;
}

/**
 * Text documents of a figure counting from 0 to its value in hold steps between frames t0 and t1, written as the figure
 * is.
 */
function countDocs(docOf: (text: string) => TextDoc, figure: Figure, t0: number, t1: number) {
  const steps = Math.max(2, Math.min(14, t1 - t0));
  const docs: { t: number; doc: TextDoc }[] = [];
  let last = '';
  for (let k = 0; k <= steps; k++) {
    const text = k === steps ? figure.text : figureAt(figure, figure.value * countEase(k / steps));
    if (text === last) continue;
    docs.push({ t: k === 0 ? 0 : Math.round(t0 + ((t1 - t0) * k) / steps), doc: docOf(text) });
    last = text;
  }
  return docs;
}

// ---- Title -------------------------------------------------------------------------------------------

export function drawTitle(
  c: Composer,
  scene: SceneOf<'title'>,
  L: number,
  image: { id: string; w: number; h: number } | null,
): Json[] {
  const { T, safe, palette } = c;
  const title = c.splitEmoji(scene.title);
  const sub = scene.subtitle ? c.splitEmoji(scene.subtitle) : null;
  const emoji = c.drawable([...title.emoji, ...(sub?.emoji ?? [])]);
  // Over a picture the text sits in the lower part, on a scrim.
  const region: Box = image ? { ...safe, y: safe.y + safe.h * 0.4, h: safe.h * 0.6 } : safe;
  const headline = c.textBlock({
    text: title.text,
    role: 'headline',
    maxSize: T * 0.15,
    minSize: T * 0.055,
    maxWidth: region.w,
    maxHeight: region.h * (sub ? 0.55 : 0.72) - (emoji.length ? T * 0.16 : 0),
    maxLines: 4,
    balance: true,
    colour: palette.text,
    upper: true,
  });
  const subtitle =
    sub &&
    c.textBlock({
      text: sub.text,
      role: 'body',
      maxSize: T * 0.068,
      minSize: T * 0.03,
      maxWidth: region.w * 0.92,
      maxHeight: region.h * 0.28,
      maxLines: 4,
      balance: true,
      colour: palette.muted,
    });
  const emojiSize = Math.min(T * 0.15, (headline?.fitted.size ?? T * 0.1) * 1.25);
  const kicker = { w: T * 0.12, h: Math.max(2, T * 0.012) };

  const parts: { h: number; gap: number; draw: (top: number) => Json[] }[] = [];
  if (emoji.length)
    parts.push({
      h: emojiSize,
      gap: T * 0.035,
      draw: (top) => emojiRow(c, emoji, region, top + emojiSize / 2, emojiSize, 0, L, true),
    });
  parts.push({
    h: kicker.h,
    gap: T * 0.04,
    draw: (top) => {
      const x =
        c.align === 'center'
          ? region.x + region.w / 2 - kicker.w / 2
          : c.rtl
            ? region.x + region.w - kicker.w
            : region.x;
      const anchor: Vec = [c.align === 'center' ? x + kicker.w / 2 : c.rtl ? x + kicker.w : x, top + kicker.h / 2];
      // Visible from the first frame, growing to full width.
      return [
        box('kicker', { x, y: top, w: kicker.w, h: kicker.h }, palette.accent, kicker.h / 2, L, {
          a: anchor,
          p: anchor,
          s: [
            [0, [45, 100], c.motion.ease],
            [s(0.7), [100, 100]],
          ],
        }),
      ];
    },
  });
  if (headline) {
    parts.push({
      h: headline.height,
      gap: T * 0.035,
      draw: (top) =>
        c.drawLines(
          headline,
          region.x,
          top,
          0,
          L,
          (_i, centre) => ({
            a: centre,
            p: centre,
            s: [
              [0, 100, EASE.linear],
              [L, 103],
            ],
          }),
          'title',
        ),
    });
  }
  if (subtitle) {
    const t0 = Math.min(s(0.35), Math.round(L * 0.2));
    parts.push({
      h: subtitle.height,
      gap: 0,
      draw: (top) =>
        c.drawLines(
          subtitle,
          placeLeft(c, region, subtitle.width),
          top,
          0,
          L,
          (i, centre) => c.enter(centre, t0 + i * c.motion.stagger, 'rise', c.enterLength(L)),
          'subtitle',
        ),
    });
  }
  const tops = stack(
    parts.map((p) => p.h),
    parts.map((p) => p.gap),
    region,
    image ? 'bottom' : 'center',
  );
  const layers = parts.flatMap((p, i) => p.draw(tops[i]!));

  if (image) {
    const { W, H } = c;
    const cover = Math.max(W / image.w, H / image.h) * 100;
    const textTop = tops[0]!;
    const fadeFrom = Math.max(0, textTop - H * 0.3);
    layers.push(
      shapeLayer({ ind: 0, nm: 'scrim', ip: 0, op: L }, [
        group('scrim', [
          rect([W / 2, H / 2], [W, H]),
          gradient(
            'linear',
            [0, fadeFrom],
            [0, Math.min(H, textTop + T * 0.05)],
            [
              [0, palette.background, 0],
              [1, palette.background, 0.88],
            ],
          ),
        ]),
      ]),
      imageLayer(
        {
          ind: 0,
          nm: 'image',
          ip: 0,
          op: L,
          ks: {
            a: [image.w / 2, image.h / 2],
            // Ken Burns: a slow push-in and drift.
            p: [
              [0, [W / 2 + W * 0.015, H / 2], EASE.linear],
              [L, [W / 2 - W * 0.015, H / 2 - H * 0.01]],
            ],
            s: [
              [0, cover * 1.04, EASE.linear],
              [L, cover * 1.14],
            ],
          },
        },
        image.id,
      ),
    );
  }
  return layers;
}

// ---- Statement -----------------------------------------------------------------------------------------

export function drawStatement(c: Composer, scene: SceneOf<'statement'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const { text, emoji } = c.splitEmoji(scene.text);
  const shown = c.drawable(emoji);
  const bar = c.align === 'start';
  const inset = bar ? T * 0.06 : 0;
  const block = c.textBlock({
    text,
    role: 'headline',
    maxSize: T * 0.125,
    minSize: T * 0.045,
    maxWidth: safe.w - inset,
    maxHeight: safe.h * 0.62,
    maxLines: 7,
    balance: true,
    colour: palette.text,
    upper: true,
  });
  const emojiSize = T * 0.13;
  const accentH = Math.max(2, T * 0.01);
  const heights = [...(shown.length ? [emojiSize] : []), ...(!bar ? [accentH] : []), block?.height ?? 0];
  const gaps = heights.map(() => T * 0.04);
  const tops = stack(heights, gaps, safe);
  const layers: Json[] = [];
  let k = 0;
  if (shown.length) layers.push(...emojiRow(c, shown, safe, tops[k++]! + emojiSize / 2, emojiSize, 0, L));
  const enter = c.enterLength(L);
  if (!bar) {
    const top = tops[k++]!;
    const w = T * 0.1;
    const centre: Vec = [safe.x + safe.w / 2, top + accentH / 2];
    layers.push(
      box('accent', { x: centre[0]! - w / 2, y: top, w, h: accentH }, palette.accent, accentH / 2, L, {
        a: centre,
        p: centre,
        s: [
          [0, [0, 100], c.motion.ease],
          [enter, [100, 100]],
        ],
      }),
    );
  }
  if (block) {
    const top = tops[k]!;
    const left = safe.x + (c.rtl ? 0 : inset);
    layers.push(
      ...c.drawLines(
        block,
        left,
        top,
        0,
        L,
        (i, centre) => c.enter(centre, 2 + i * c.motion.stagger, 'rise', enter),
        'statement',
      ),
    );
    if (bar) {
      // A vertical accent rule beside the text, drawn downwards.
      const x = c.rtl ? safe.x + safe.w - T * 0.012 : safe.x;
      const anchor: Vec = [x + T * 0.006, top];
      layers.push(
        box('rule', { x, y: top, w: T * 0.012, h: block.height }, palette.accent, T * 0.006, L, {
          a: anchor,
          p: anchor,
          s: [
            [0, [100, 0], c.motion.ease],
            [enter + 4, [100, 100]],
          ],
        }),
      );
    }
  }
  return layers;
}

// ---- Counter -------------------------------------------------------------------------------------------

export function drawCounter(c: Composer, scene: SceneOf<'counter'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const label = c.splitEmoji(scene.label);
  const shown = c.drawable(label.emoji);
  const qualifier = scene.qualifier
    ? c.textBlock({
        text: scene.qualifier,
        role: 'body',
        maxSize: T * 0.06,
        minSize: T * 0.03,
        maxWidth: safe.w * 0.9,
        maxHeight: safe.h * 0.12,
        maxLines: 2,
        colour: palette.muted,
        align: 'center',
      })
    : null;
  const number = c.textBlock({
    text: scene.figure.text,
    role: 'headline',
    maxSize: T * 0.3,
    minSize: T * 0.07,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.34,
    maxLines: 1,
    colour: palette.accent,
    align: 'center',
  });
  const caption = c.textBlock({
    text: label.text,
    role: 'body',
    maxSize: T * 0.068,
    minSize: T * 0.03,
    maxWidth: safe.w * 0.9,
    maxHeight: safe.h * 0.3,
    maxLines: 4,
    balance: true,
    colour: palette.text,
    align: 'center',
  });
  const barH = Math.max(3, T * 0.014);
  const emojiSize = T * 0.11;
  const parts = [shown.length ? emojiSize : 0, qualifier?.height ?? 0, number?.height ?? 0, barH, caption?.height ?? 0];
  const tops = stack(
    parts.filter((h) => h > 0),
    parts.filter((h) => h > 0).map((_, i) => (i === 0 && shown.length ? T * 0.03 : T * 0.035)),
    safe,
  );
  const layers: Json[] = [];
  let k = 0;
  if (shown.length) layers.push(...emojiRow(c, shown, safe, tops[k++]! + emojiSize / 2, emojiSize, 0, L, false, true));
  const enter = c.enterLength(L);
  if (qualifier)
    layers.push(
      ...c.drawLines(
        qualifier,
        safe.x + (safe.w - qualifier.width) / 2,
        tops[k++]!,
        0,
        L,
        (i, centre) => c.enter(centre, i * c.motion.stagger, 'rise', enter),
        'qualifier',
      ),
    );
  const t0 = Math.min(s(0.15), Math.round(L * 0.1));
  const t1 = t0 + Math.max(s(0.6), Math.min(s(2), Math.round(L * 0.55)));
  if (number) {
    const top = tops[k++]!;
    const left = safe.x + (safe.w - number.width) / 2;
    const centre = c.lineCentre(number, left, top, 0);
    const docs = countDocs((text) => c.doc(number, text, left, top), scene.figure, t0, t1);
    layers.push(textLayer({ ind: 0, nm: 'number', ip: 0, op: L, ks: c.enter(centre, 0, 'pop', enter) }, docs));
    // A bar under the number fills while it counts.
    const top2 = tops[k++]!;
    const w = Math.min(safe.w, Math.max(c.blockWidth(number), T * 0.3));
    const x = safe.x + (safe.w - w) / 2;
    layers.push(barFill(c, 'count bar', { x, y: top2, w, h: barH }, 1, t0, t1, L));
    layers.push(
      box(
        'count track',
        { x, y: top2, w, h: barH },
        palette.muted,
        barH / 2,
        L,
        c.enter([x + w / 2, top2], 0, 'fade', enter),
        30,
      ),
    );
  }
  if (caption) {
    const top = tops[k]!;
    layers.push(
      ...c.drawLines(
        caption,
        safe.x + (safe.w - caption.width) / 2,
        top,
        0,
        L,
        (i, centre) => c.enter(centre, Math.round(enter * 0.6) + i * c.motion.stagger, 'rise', enter),
        'label',
      ),
    );
  }
  return layers;
}

/** A bar (left-anchored; right-anchored right to left) filling to `fraction` of its box between t0 and t1. */
function barFill(
  c: Composer,
  nm: string,
  b: Box,
  fraction: number,
  t0: number,
  t1: number,
  L: number,
  colour = c.palette.accent,
): Json {
  const r = Math.min(b.h, b.w) / 2;
  const w = Math.max(b.h, b.w * fraction);
  const start = c.rtl ? b.x + b.w : b.x;
  const dir = c.rtl ? -1 : 1;
  const cy = b.y + b.h / 2;
  const size: Key[] = [
    [t0, [b.h, b.h], EASE.inOut],
    [t1, [w, b.h]],
  ];
  const pos: Key[] = [
    [t0, [start + (dir * b.h) / 2, cy], EASE.inOut],
    [t1, [start + (dir * w) / 2, cy]],
  ];
  return shapeLayer(
    {
      ind: 0,
      nm,
      ip: 0,
      op: L,
      ks: {
        o: [
          [t0, 0],
          [t0 + 3, 100],
        ],
      },
    },
    [
      group(nm, [
        rect(pos, size, r),
        gradient(
          'linear',
          [b.x, cy],
          [b.x + b.w, cy],
          [
            [0, c.palette.accent, 1],
            [1, mixHex(colour, c.palette.accent2, 0.55), 1],
          ],
        ),
      ]),
    ],
  );
}

// ---- Progress ------------------------------------------------------------------------------------------

export function drawProgress(c: Composer, scene: SceneOf<'progress'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const label = c.splitEmoji(scene.label);
  const number = c.textBlock({
    text: scene.figure.text,
    role: 'headline',
    maxSize: T * 0.24,
    minSize: T * 0.06,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.3,
    maxLines: 1,
    colour: palette.accent,
  });
  const caption = c.textBlock({
    text: label.text,
    role: 'headline',
    maxSize: T * 0.075,
    minSize: T * 0.035,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.3,
    maxLines: 4,
    balance: true,
    colour: palette.text,
  });
  const trackW = safe.w * (c.landscape ? 0.8 : 1);
  const trackH = Math.max(6, T * 0.05);
  // The figure, the bar filling to it, then what it is a share of ("of customers come back").
  const heights = [number?.height ?? 0, trackH, caption?.height ?? 0].filter((h) => h > 0);
  const tops = stack(
    heights,
    heights.map(() => T * 0.04),
    safe,
  );
  const layers: Json[] = [];
  let k = 0;
  const enter = c.enterLength(L);
  const t0 = Math.min(s(0.3), Math.round(L * 0.15));
  const t1 = t0 + Math.max(s(0.6), Math.min(s(2), Math.round(L * 0.5)));
  const trackX = c.align === 'center' ? safe.x + (safe.w - trackW) / 2 : c.rtl ? safe.x + safe.w - trackW : safe.x;
  if (number) {
    const top = tops[k++]!;
    const centre = c.lineCentre(number, safe.x, top, 0);
    const docs = countDocs((text) => c.doc(number, text, safe.x, top), scene.figure, t0, t1);
    layers.push(textLayer({ ind: 0, nm: 'percent', ip: 0, op: L, ks: c.enter(centre, 2, 'pop', enter) }, docs));
  }
  const top = tops[k++]!;
  layers.push(
    barFill(
      c,
      'progress',
      { x: trackX, y: top, w: trackW, h: trackH },
      Math.min(1, Math.max(0, scene.percent / 100)),
      t0,
      t1,
      L,
    ),
  );
  layers.push(
    box(
      'track',
      { x: trackX, y: top, w: trackW, h: trackH },
      palette.surface,
      trackH / 2,
      L,
      c.enter([trackX + trackW / 2, top + trackH / 2], 0, 'fade', enter),
    ),
  );
  if (caption)
    layers.push(
      ...c.drawLines(
        caption,
        safe.x,
        tops[k]!,
        0,
        L,
        (i, centre) => c.enter(centre, Math.round(enter * 0.6) + i * c.motion.stagger, 'rise', enter),
        'label',
      ),
    );
  return layers;
}

// ---- Bars ----------------------------------------------------------------------------------------------

export function drawBars(c: Composer, scene: SceneOf<'bars'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const layers: Json[] = [];
  const caption = scene.label
    ? c.textBlock({
        text: c.splitEmoji(scene.label).text,
        role: 'headline',
        maxSize: T * 0.078,
        minSize: T * 0.034,
        maxWidth: safe.w,
        maxHeight: safe.h * 0.22,
        maxLines: 3,
        balance: true,
        colour: palette.text,
      })
    : null;
  const enter = c.enterLength(L);
  const gap = T * 0.05;
  const chart: Box = caption
    ? { ...safe, y: safe.y + caption.height + gap, h: safe.h - caption.height - gap }
    : { ...safe };
  // The chart takes the height its bars need, no more (centred with the caption).
  const n = scene.bars.length;
  const max = Math.max(...scene.bars.map((b) => b.figure.value), 1e-9);
  const t0 = Math.min(s(0.25), Math.round(L * 0.12));
  const grow = Math.max(s(0.5), Math.min(s(1.2), Math.round(L * 0.35)));
  const stagger = Math.min(s(0.15), Math.round((L * 0.25) / Math.max(1, n)));
  const colourOf = (b: Bar) => (b.figure.value === max ? palette.accent2 : palette.accent);

  if (c.landscape) {
    // Columns growing up from a baseline; values above, names below.
    const chartH = Math.min(chart.h, safe.h * 0.75);
    const colW = chart.w / n;
    const names = commonSize(
      c,
      scene.bars.map((b) => b.label),
      {
        role: 'body',
        maxSize: T * 0.045,
        minSize: T * 0.022,
        maxWidth: colW * 0.92,
        maxHeight: T * 0.12,
        maxLines: 2,
        colour: palette.muted,
        align: 'center',
      },
    );
    const values = commonSize(
      c,
      scene.bars.map((b) => b.figure.text),
      {
        role: 'headline',
        maxSize: T * 0.05,
        minSize: T * 0.022,
        maxWidth: colW * 0.92,
        maxHeight: T * 0.08,
        maxLines: 1,
        colour: palette.text,
        align: 'center',
      },
    );
    const namesH = Math.max(0, ...names.map((b) => b?.height ?? 0));
    const valuesH = Math.max(0, ...values.map((b) => b?.height ?? 0));
    const total = (caption ? caption.height + gap : 0) + chartH;
    const top = safe.y + (safe.h - total) / 2;
    if (caption)
      layers.push(
        ...c.drawLines(
          caption,
          safe.x,
          top,
          0,
          L,
          (i, centre) => c.enter(centre, i * c.motion.stagger, 'rise', enter),
          'caption',
        ),
      );
    const chartTop = top + (caption ? caption.height + gap : 0);
    const base = chartTop + chartH - namesH - T * 0.02;
    const barMax = base - chartTop - valuesH - T * 0.02;
    const barW = Math.min(colW * 0.56, T * 0.22);
    layers.push(
      box(
        'baseline',
        { x: chart.x, y: base, w: chart.w, h: Math.max(1, T * 0.004) },
        palette.muted,
        0,
        L,
        c.enter([chart.x + chart.w / 2, base], 0, 'fade', enter),
        60,
      ),
    );
    scene.bars.forEach((bar, i) => {
      const cx = chart.x + colW * (i + 0.5);
      const h = Math.max(T * 0.01, (bar.figure.value / max) * barMax);
      const ta = t0 + i * stagger;
      const size: Key[] = [
        [ta, [barW, 0], c.motion.ease],
        [ta + grow, [barW, h]],
      ];
      const pos: Key[] = [
        [ta, [cx, base], c.motion.ease],
        [ta + grow, [cx, base - h / 2]],
      ];
      layers.push(
        shapeLayer({ ind: 0, nm: `bar ${i + 1}`, ip: 0, op: L }, [
          group('bar', [rect(pos, size, Math.min(barW * 0.12, T * 0.012)), fill(colourOf(bar))]),
        ]),
      );
      const v = values[i];
      if (v)
        layers.push(
          ...c.drawLines(
            v,
            cx - colW * 0.46,
            base - h - T * 0.015 - v.height,
            0,
            L,
            (_l, centre) => c.enter(centre, ta + grow - 4, 'fade', 8),
            `value ${i + 1}`,
          ),
        );
      const nm = names[i];
      if (nm)
        layers.push(
          ...c.drawLines(
            nm,
            cx - colW * 0.46,
            base + T * 0.02,
            0,
            L,
            (_l, centre) => c.enter(centre, ta, 'fade', enter),
            `name ${i + 1}`,
          ),
        );
    });
    return layers;
  }

  // Rows: the name above a bar growing sideways, the value at its end.
  // Rows share the chart's height: bigger type and thicker bars when there are few.
  const rowBudget = Math.min(chart.h, safe.h * 0.7) / n;
  const nameSize = Math.min(T * 0.06, Math.max(T * 0.035, rowBudget * 0.26));
  const names = commonSize(
    c,
    scene.bars.map((b) => b.label),
    {
      role: 'body',
      maxSize: nameSize,
      minSize: T * 0.024,
      maxWidth: chart.w,
      maxHeight: nameSize * 1.6,
      maxLines: 1,
      colour: palette.muted,
      align: 'start',
    },
  );
  const values = commonSize(
    c,
    scene.bars.map((b) => b.figure.text),
    {
      role: 'headline',
      maxSize: nameSize * 1.1,
      minSize: T * 0.024,
      maxWidth: chart.w * 0.3,
      maxHeight: nameSize * 1.8,
      maxLines: 1,
      colour: palette.text,
      align: 'start',
    },
  );
  const nameH = Math.max(0, ...names.map((b) => b?.height ?? 0));
  const valueW = Math.max(0, ...values.map((b) => (b ? c.blockWidth(b) : 0)));
  const barH = Math.max(6, Math.min(T * 0.09, Math.max(T * 0.045, rowBudget * 0.3)));
  const rowH = nameH + T * 0.008 + barH;
  const rowGap = Math.min(T * 0.05, Math.max(T * 0.015, (chart.h - n * rowH) / Math.max(1, n - 1)));
  const total = (caption ? caption.height + gap : 0) + n * rowH + (n - 1) * rowGap;
  const top = safe.y + Math.max(0, (safe.h - total) / 2);
  if (caption)
    layers.push(
      ...c.drawLines(
        caption,
        safe.x,
        top,
        0,
        L,
        (i, centre) => c.enter(centre, i * c.motion.stagger, 'rise', enter),
        'caption',
      ),
    );
  const barMax = chart.w - valueW - T * 0.03;
  scene.bars.forEach((bar, i) => {
    const rowTop = top + (caption ? caption.height + gap : 0) + i * (rowH + rowGap);
    const ta = t0 + i * stagger;
    const nm = names[i];
    if (nm)
      layers.push(
        ...c.drawLines(nm, chart.x, rowTop, 0, L, (_l, centre) => c.enter(centre, ta, 'side', enter), `name ${i + 1}`),
      );
    const y = rowTop + nameH + T * 0.008;
    const w = Math.max(barH, (bar.figure.value / max) * barMax);
    const start = c.rtl ? chart.x + chart.w : chart.x;
    const dir = c.rtl ? -1 : 1;
    const size: Key[] = [
      [ta, [0, barH], c.motion.ease],
      [ta + grow, [w, barH]],
    ];
    const pos: Key[] = [
      [ta, [start, y + barH / 2], c.motion.ease],
      [ta + grow, [start + (dir * w) / 2, y + barH / 2]],
    ];
    layers.push(
      shapeLayer({ ind: 0, nm: `bar ${i + 1}`, ip: 0, op: L }, [
        group('bar', [rect(pos, size, barH * 0.25), fill(colourOf(bar))]),
      ]),
    );
    const v = values[i];
    if (v) {
      const vw = c.blockWidth(v);
      const vx = c.rtl ? start - w - T * 0.02 - v.width + (v.width - vw) * 0 : start + w + T * 0.02;
      const vTop = y + barH / 2 - (v.fitted.size * (v.ascent + v.descent)) / 2;
      layers.push(
        ...c.drawLines(
          v,
          c.rtl ? vx - (v.width - vw) : vx,
          vTop,
          0,
          L,
          (_l, centre) => c.enter(centre, ta + grow - 4, 'fade', 8),
          `value ${i + 1}`,
        ),
      );
    }
  });
  return layers;
}

// ---- List and steps -----------------------------------------------------------------------------------

type RowsSpec = {
  /** The heading's largest size and tallest height, and the gap below it. */
  heading: { maxSize: number; maxHeight: number; gap: number };
  /** The rows' texts, and the first (largest) size tried for all of them. */
  texts: string[];
  size: number;
  /** Lines a row's text may take, and its tallest height in text sizes. */
  maxLines: number;
  maxHeightInSizes: number;
  /** The marker column's width, as a multiple of the text size, and at least `markerAtLeast` pixels. */
  markerInSizes: number;
  markerAtLeast?: number;
  /** Where the text starts, as a multiple of the marker column's width. */
  textIndent: number;
  /** A row is at least as tall as its marker column is wide (times `markerAspect`: a pill is wider than tall). */
  rowAtLeastMarker: boolean;
  markerAspect?: number;
  /** Between rows, as a multiple of the text size. */
  rowGapInSizes: number;
};

type RowsLayout = {
  heading: TextBlock | null;
  headingTop: number;
  /** The rows' one text size, and the marker column's width at it. */
  size: number;
  marker: number;
  /** Each row's text (null for an empty one), top and height. */
  rows: { block: TextBlock | null; top: number; height: number }[];
};

/**
 * A list's or steps' rows under their heading: one text size for every row (each at most `maxLines`
 * lines), coming down from `size` until the rows and the heading fit the safe area, stacked there.
 */
function rowsLayout(c: Composer, heading: string | null, spec: RowsSpec): RowsLayout {
  const { T, safe, palette } = c;
  const head = heading
    ? c.textBlock({
        text: c.splitEmoji(heading).text,
        role: 'headline',
        maxSize: spec.heading.maxSize,
        minSize: T * 0.035,
        maxWidth: safe.w,
        maxHeight: spec.heading.maxHeight,
        maxLines: 3,
        balance: true,
        colour: palette.text,
      })
    : null;
  const available = safe.h - (head ? head.height + spec.heading.gap : 0);
  const n = spec.texts.length;
  let size = spec.size;
  let marker = 0;
  let blocks: (TextBlock | null)[];
  let total: number;
  const rowHeight = (b: TextBlock | null) =>
    Math.max(spec.rowAtLeastMarker ? marker * (spec.markerAspect ?? 1) : 0, b?.height ?? size * 1.4);
  for (;;) {
    marker = Math.max(size * spec.markerInSizes, spec.markerAtLeast ?? 0);
    blocks = commonSize(c, spec.texts, {
      role: 'body',
      maxSize: size,
      minSize: size,
      maxWidth: safe.w - marker * spec.textIndent,
      maxHeight: size * spec.maxHeightInSizes,
      maxLines: spec.maxLines,
      colour: palette.text,
      align: 'start',
    });
    total = blocks.reduce((a, b) => a + rowHeight(b), 0) + (n - 1) * size * spec.rowGapInSizes;
    // Smaller until the rows fit the height, and no word is broken across lines ("сфотографиру|йте").
    const whole = blocks.every((b) => !b?.fitted.split);
    if ((total <= available && whole) || size <= T * 0.026) break;
    size *= 0.93;
  }
  const tops = stack(
    [head?.height ?? 0, total].filter((h) => h > 0),
    [spec.heading.gap],
    safe,
  );
  let y = tops[head ? 1 : 0]!;
  const rows = blocks.map((block) => {
    const row = { block, top: y, height: rowHeight(block) };
    y += row.height + size * spec.rowGapInSizes;
    return row;
  });
  return { heading: head, headingTop: tops[0]!, size, marker, rows };
}

/** The heading of a list or of steps, its lines rising in turn. */
function drawRowsHeading(c: Composer, layout: RowsLayout, L: number, enter: number): Json[] {
  if (!layout.heading) return [];
  return c.drawLines(
    layout.heading,
    c.safe.x,
    layout.headingTop,
    0,
    L,
    (i, centre) => c.enter(centre, i * c.motion.stagger, 'rise', enter),
    'heading',
  );
}

export function drawList(c: Composer, scene: SceneOf<'list'>, L: number): Json[] {
  // Five or more items on a wide canvas: two columns (each drawn as a list in its half), the heading above them.
  if (c.landscape && scene.items.length >= 5) return drawListInColumns(c, scene, L);
  return drawListRows(c, scene, L);
}

function drawListInColumns(c: Composer, scene: SceneOf<'list'>, L: number): Json[] {
  const { T } = c;
  const { layers, area } = headingAbove(c, scene.heading, L, false);
  const half = Math.ceil(scene.items.length / 2);
  const gap = T * 0.05;
  const w = (area.w - gap) / 2;
  const halves = [scene.items.slice(0, half), scene.items.slice(half)];
  halves.forEach((items, k) => {
    const x = c.rtl ? area.x + (1 - k) * (w + gap) : area.x + k * (w + gap);
    const drawn = c.within({ ...area, x, w }, () => drawListRows(c, { ...scene, heading: null, items }, L));
    // Items and bullets numbered through both columns.
    for (const layer of drawn) {
      const m = /^(item|bullet) (\d+)( \d+)?$/.exec(String(layer.nm));
      if (m) layer.nm = `${m[1]} ${Number(m[2]) + k * half}${m[3] ?? ''}`;
    }
    layers.push(...drawn);
  });
  return layers;
}

function drawListRows(c: Composer, scene: SceneOf<'list'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const items = scene.items.map((item) => c.splitEmoji(item));
  const bulletEmoji = items.map((it) => c.drawable(it.emoji, 1)[0] ?? null);
  const n = items.length;
  // Few short items are set large; each at most two lines.
  const layout = rowsLayout(c, scene.heading, {
    heading: { maxSize: T * 0.09, maxHeight: safe.h * 0.22, gap: T * 0.055 },
    texts: items.map((it) => it.text),
    size: T * (n <= 3 ? 0.1 : n <= 4 ? 0.09 : 0.08),
    maxLines: 2,
    maxHeightInSizes: 3.2,
    markerInSizes: bulletEmoji.some(Boolean) ? 1.7 : 1.25,
    textIndent: 1,
    rowAtLeastMarker: false,
    rowGapInSizes: 0.75,
  });
  const { size, marker: bulletW } = layout;
  const itemsW = bulletW + Math.max(0, ...layout.rows.map(({ block: b }) => (b ? c.blockWidth(b) : 0)));
  const blockLeft = c.align === 'center' ? safe.x + (safe.w - itemsW) / 2 : c.rtl ? safe.x + safe.w - itemsW : safe.x;
  const enter = c.enterLength(L);
  const layers = drawRowsHeading(c, layout, L, enter);
  const step = Math.max(2, Math.min(s(0.3), Math.round((L * 0.45) / Math.max(1, n))));
  const t0 = layout.heading ? Math.round(enter * 0.5) : 2;
  layout.rows.forEach(({ block: b, top: y, height: h }, i) => {
    const t = t0 + i * step;
    const textLeft = c.rtl ? blockLeft : blockLeft + bulletW;
    const bx = c.rtl ? blockLeft + itemsW - bulletW / 2 : blockLeft + bulletW / 2;
    // The bullet sits on the first line's middle.
    const by = y + (b ? (b.fitted.size * (b.ascent + b.descent)) / 2 : h / 2);
    const em = bulletEmoji[i];
    const bullet = em
      ? c.emojiLayer(em, size * 1.2, [bx, by], 0, L, (centre, scale) => ({
          p: centre,
          s: [
            [t, scale * 0.3, EASE.back],
            [t + enter, scale],
          ],
          o: [
            [t, 0],
            [t + 4, 100],
          ],
        }))
      : shapeLayer(
          {
            ind: 0,
            nm: `bullet ${i + 1}`,
            ip: 0,
            op: L,
            ks: {
              a: [bx, by],
              p: [bx, by],
              s: [
                [t, 0, EASE.back],
                [t + enter, 100],
              ],
            },
          },
          [
            group('dot', [
              ellipse([bx, by], [size * 0.42, size * 0.42]),
              fill(i % 2 ? palette.accent2 : palette.accent),
            ]),
          ],
        );
    if (bullet) layers.push(bullet);
    if (b) {
      const w = itemsW - bulletW;
      const placed = { ...b, width: w };
      layers.push(
        ...c.drawLines(placed, textLeft, y, 0, L, (_l, centre) => c.enter(centre, t, 'side', enter), `item ${i + 1}`),
      );
    }
  });
  return layers;
}

/** A worded step marker's pill: its text size per row text size, its padding and height in its text sizes. */
const PILL_TEXT = 0.55;
const PILL_PADDING = 1;
const PILL_HEIGHT = 1.7;

/**
 * Numbered steps, each whole, one per beat: a step enters with its marker (as written, in a badge; a
 * dot for a bullet) and the one before it steps back, so the step being read stands out.
 */
export function drawSteps(c: Composer, scene: SceneOf<'steps'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const n = scene.steps.length;
  // A marker with a word ("Schritt 1", "Erstens", "第一步") stands on one line in a pill as wide as the longest one
  // needs, its text at least the smallest size text is set in; a number alone ("3", "①") in a round badge.
  const worded = scene.steps.some(
    (st) => st.marker && (/\s/u.test(st.marker.trim()) || [...st.marker.trim()].length > 2),
  );
  const minText = Math.min(c.W, c.H) * MIN_TEXT_SHARE;
  /** The longest marker's width per pixel of text size, on one line. */
  const perSize = worded
    ? Math.max(...scene.steps.map((st) => (st.marker ? c.oneLineWidth(st.marker, 100, 'headline') : 0))) / 100
    : 0;
  /** A pill's text size for a row text size. */
  const pillText = (size: number) => Math.max(size * PILL_TEXT, minText);
  const indent = worded ? 1.15 : 1.45;
  // Each step at most three lines.
  const layout = rowsLayout(c, scene.heading, {
    markerAtLeast: worded ? pillText(0) * (perSize + PILL_PADDING) : 0,
    heading: { maxSize: T * 0.08, maxHeight: safe.h * 0.2, gap: T * 0.05 },
    texts: scene.steps.map((st) => c.splitEmoji(st.text).text),
    size: T * (n <= 3 ? 0.09 : 0.08),
    maxLines: 3,
    maxHeightInSizes: 4.2,
    markerInSizes: worded ? PILL_TEXT * (perSize + PILL_PADDING) : 1.5,
    textIndent: indent,
    rowAtLeastMarker: true,
    markerAspect: worded ? PILL_HEIGHT / (perSize + PILL_PADDING) : 1,
    rowGapInSizes: 0.8,
  });
  const badge = layout.marker;
  const enter = c.enterLength(L);
  const layers = drawRowsHeading(c, layout, L, enter);
  const first = layout.heading ? Math.round(enter * 0.6) : 2;
  const beat = Math.max(4, Math.floor((L - first - s(0.5)) / n));
  const onBadge = c.onColour(palette.accent);
  layout.rows.forEach(({ block: b, top: y, height: rowH }, i) => {
    const t = first + i * beat;
    const cx = c.rtl ? safe.x + safe.w - badge / 2 : safe.x + badge / 2;
    const cy = y + (b ? Math.min(rowH, b.fitted.size * (b.ascent + b.descent)) / 2 : rowH / 2);
    const pop: Transform = {
      a: [cx, cy],
      p: [cx, cy],
      s: [
        [t, 30, EASE.back],
        [t + enter, 100],
      ],
      o: [
        [t, 0],
        [t + 3, 100],
      ],
    };
    const marker = scene.steps[i]!.marker;
    // A pill: its text's size from its width (the layout made it as wide as the longest marker needs at that size).
    const textSize = worded ? badge / (perSize + PILL_PADDING) : badge * 0.5;
    const pillH = textSize * PILL_HEIGHT;
    if (marker) {
      const boxW = worded ? textSize * perSize * 1.02 : badge * 0.8;
      const m = c.textBlock({
        text: marker,
        role: 'headline',
        maxSize: textSize,
        minSize: worded ? 0 : badge * 0.25,
        maxWidth: boxW,
        maxHeight: worded ? pillH : badge * 0.7,
        maxLines: 1,
        colour: onBadge,
        align: 'center',
      });
      if (m) layers.push(...c.drawLines(m, cx - boxW / 2, cy - m.height / 2, 0, L, () => pop, `marker ${i + 1}`));
    }
    const shape = !marker
      ? ellipse([cx, cy], [badge * 0.4, badge * 0.4])
      : worded
        ? rect([cx, cy], [badge, pillH], pillH / 2)
        : ellipse([cx, cy], [badge, badge]);
    layers.push(
      shapeLayer({ ind: 0, nm: `badge ${i + 1}`, ip: 0, op: L, ks: pop }, [
        group('badge', [shape, fill(palette.accent)]),
      ]),
    );
    if (b) {
      const left = c.rtl ? safe.x : safe.x + badge * indent;
      // Enters on its beat; steps back (dims) when the next one enters.
      const dim: Key[] =
        i < n - 1
          ? [
              [t, 0, EASE.out],
              [t + Math.max(1, enter * 0.6), 100, EASE.linear],
              [t + beat, 100, EASE.linear],
              [t + beat + 6, 55],
            ]
          : [
              [t, 0, EASE.out],
              [t + Math.max(1, enter * 0.6), 100],
            ];
      layers.push(
        ...c.drawLines(
          b,
          left,
          y,
          0,
          L,
          (_l, centre) => ({ ...c.enter(centre, t, 'side', enter), o: dim }),
          `step ${i + 1}`,
        ),
      );
    }
  });
  return layers;
}

// ---- Countdown -----------------------------------------------------------------------------------------

/**
 * Each number big in the middle, a beat each (the first one on screen from the scene's first frame), then the payoff.
 */
export function drawCountdown(c: Composer, scene: SceneOf<'countdown'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const layers: Json[] = [];
  const payoff = scene.payoff ? c.splitEmoji(scene.payoff) : null;
  const payoffBlock = payoff
    ? c.textBlock({
        text: payoff.text,
        role: 'headline',
        maxSize: T * 0.12,
        minSize: T * 0.045,
        maxWidth: safe.w,
        maxHeight: safe.h * 0.6,
        maxLines: 5,
        balance: true,
        colour: palette.text,
        align: 'center',
        upper: true,
      })
    : null;
  const payoffFrames = payoffBlock ? Math.max(s(1.2), Math.round(L * 0.32)) : 0;
  const n = scene.numbers.length;
  const beat = Math.max(3, Math.floor((L - payoffFrames) / n));
  // One size for all the numbers: the widest fits.
  const numbers = commonSize(c, scene.numbers, {
    role: 'headline',
    maxSize: T * 0.45,
    minSize: T * 0.1,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.6,
    maxLines: 1,
    colour: palette.accent,
    align: 'center',
  });
  numbers.forEach((b, i) => {
    if (!b) return;
    const ip = i * beat;
    const op = i === n - 1 && !payoffBlock ? L : (i + 1) * beat;
    const top = safe.y + (safe.h - b.height) / 2;
    layers.push(
      ...c.drawLines(
        b,
        safe.x,
        top,
        ip,
        op,
        (_l, centre) => ({
          a: centre,
          p: centre,
          s: [
            [ip, 135, c.motion.bouncy ? EASE.back : EASE.out],
            [ip + Math.min(beat - 1, s(0.45)), 100],
          ],
        }),
        `number ${i + 1}`,
      ),
    );
    // A ring around each number, widening as its beat runs out.
    const r = Math.min(safe.w, safe.h) * 0.42;
    const cx = safe.x + safe.w / 2;
    const cy = safe.y + safe.h / 2;
    layers.push(
      shapeLayer(
        {
          ind: 0,
          nm: `ring ${i + 1}`,
          ip,
          op,
          ks: {
            a: [cx, cy],
            p: [cx, cy],
            s: [
              [ip, 80, EASE.out],
              [op, 112],
            ],
            o: [
              [ip, 90, EASE.linear],
              [op, 0],
            ],
          },
        },
        [group('ring', [ellipse([cx, cy], [r * 2, r * 2]), stroke(palette.accent2, Math.max(2, T * 0.012))])],
      ),
    );
  });
  if (payoffBlock) {
    const ip = n * beat;
    const top = safe.y + (safe.h - payoffBlock.height) / 2;
    layers.push(
      ...c.drawLines(
        payoffBlock,
        safe.x,
        top,
        ip,
        L,
        (i, centre) => c.enter(centre, ip + i * c.motion.stagger, 'pop', c.enterLength(L - ip)),
        'payoff',
      ),
    );
  }
  return layers;
}

// ---- Quote ---------------------------------------------------------------------------------------------

export function drawQuote(c: Composer, scene: SceneOf<'quote'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const cardW = safe.w * (c.landscape ? 0.82 : 1);
  const pad = T * 0.06;
  const inner = cardW - 2 * pad;
  const markSize = T * 0.2;
  const markH = markSize * 0.42;
  const quote = c.textBlock({
    text: c.splitEmoji(scene.quote).text,
    role: 'body',
    maxSize: T * 0.09,
    minSize: T * 0.032,
    maxWidth: inner,
    maxHeight: safe.h - 2 * pad - markH - T * 0.16,
    maxLines: 9,
    balance: true,
    colour: palette.text,
    style: c.style === 'mono' ? 'mono' : 'serif',
  });
  const by = scene.attribution
    ? c.textBlock({
        text: `— ${scene.attribution}`,
        role: 'body',
        maxSize: T * 0.048,
        minSize: T * 0.026,
        maxWidth: inner,
        maxHeight: T * 0.15,
        maxLines: 2,
        colour: palette.muted,
      })
    : null;
  const gap = T * 0.03;
  const cardH = pad + markH + gap + (quote?.height ?? 0) + (by ? gap * 1.3 + by.height : 0) + pad;
  const x = safe.x + (safe.w - cardW) / 2;
  const y = safe.y + (safe.h - cardH) / 2;
  const enter = c.enterLength(L);
  const layers: Json[] = [];
  const markLeft =
    c.align === 'center' ? x + cardW / 2 - markSize * 0.3 : c.rtl ? x + cardW - pad - markSize * 0.6 : x + pad;
  const mark = c.textBlock({
    text: '“',
    role: 'headline',
    maxSize: markSize,
    minSize: markSize,
    maxWidth: markSize,
    maxHeight: markSize * 2,
    colour: palette.accent,
    style: 'serif',
    align: 'start',
  });
  if (mark) {
    // The mark's ink sits about 0.73 em above the baseline: place the box so it starts at the card's padding.
    const boxTop = y + pad - (mark.ascent - 0.73) * markSize;
    layers.push(
      textLayer(
        {
          ind: 0,
          nm: 'quote mark',
          ip: 0,
          op: L,
          ks: c.enter([markLeft + markSize * 0.25, y + pad + markH / 2], 2, 'pop', enter),
        },
        { ...c.doc({ ...mark, justify: 0 }, '“', markLeft, boxTop) },
      ),
    );
  }
  let top = y + pad + markH + gap;
  if (quote) {
    layers.push(
      ...c.drawLines(
        quote,
        x + pad,
        top,
        0,
        L,
        (i, centre) => c.enter(centre, Math.round(enter * 0.4) + i * c.motion.stagger, 'rise', enter),
        'quote',
      ),
    );
    top += quote.height + gap * 1.3;
  }
  if (by)
    layers.push(
      ...c.drawLines(
        by,
        x + pad,
        top,
        0,
        L,
        (_i, centre) =>
          c.enter(
            centre,
            Math.round(enter * 0.4) + (quote?.fitted.lines.length ?? 0) * c.motion.stagger + 4,
            'side',
            enter,
          ),
        'attribution',
      ),
    );
  // The card, with an accent edge.
  const centre: Vec = [x + cardW / 2, y + cardH / 2];
  const edge = Math.max(3, T * 0.012);
  const edgeBox: Box =
    c.align === 'center'
      ? { x: x + cardW * 0.3, y, w: cardW * 0.4, h: edge }
      : { x: c.rtl ? x + cardW - edge : x, y: y + cardH * 0.15, w: edge, h: cardH * 0.7 };
  layers.push(box('card edge', edgeBox, palette.accent, edge / 2, L, c.enter(centre, 0, 'pop', enter)));
  layers.push(
    box('card', { x, y, w: cardW, h: cardH }, palette.surface, T * 0.035, L, c.enter(centre, 0, 'pop', enter), 92),
  );
  layers.push(
    box(
      'card shadow',
      { x: x + T * 0.012, y: y + T * 0.018, w: cardW, h: cardH },
      '#000000',
      T * 0.035,
      L,
      c.enter(centre, 0, 'pop', enter),
      18,
    ),
  );
  return layers;
}

// ---- Call to action ------------------------------------------------------------------------------------

export function drawCta(c: Composer, scene: SceneOf<'cta'>, L: number): Json[] {
  const { T, safe, palette } = c;
  const action = c.splitEmoji(scene.action);
  const shown = c.drawable(action.emoji);
  const headline = c.textBlock({
    text: action.text,
    role: 'headline',
    maxSize: T * 0.13,
    minSize: T * 0.045,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.4,
    maxLines: 4,
    balance: true,
    colour: palette.text,
    align: 'center',
    upper: true,
  });
  const pillColour = palette.accent;
  const onPill = c.onColour(pillColour);
  const arrowW = T * 0.045;
  const maxPill = safe.w * 0.92;
  const detail = scene.detail
    ? c.textBlock({
        text: scene.detail,
        role: 'headline',
        maxSize: T * 0.062,
        minSize: T * 0.026,
        maxWidth: maxPill - T * 0.12 - arrowW * 1.6,
        maxHeight: T * 0.2,
        maxLines: 2,
        colour: onPill,
        align: 'center',
      })
    : null;
  const padX = T * 0.06;
  const padY = T * 0.032;
  const detailW = detail ? c.blockWidth(detail) : 0;
  const pillW = Math.min(maxPill, detailW + arrowW * (detail ? 1.6 : 1) + 2 * padX);
  const pillH = (detail?.height ?? arrowW) + 2 * padY;
  const emojiSize = T * 0.12;
  // A date and a price (storyboard requests): a line each between the action and the button.
  const facts = [
    { role: 'date', text: scene.date },
    { role: 'price', text: scene.price },
  ].flatMap(({ role, text }) => {
    const block = text
      ? c.textBlock({
          text,
          role: 'body',
          maxSize: T * 0.06,
          minSize: T * 0.026,
          maxWidth: safe.w,
          maxHeight: safe.h * 0.12,
          maxLines: 2,
          balance: true,
          colour: role === 'price' ? palette.accent : palette.muted,
          align: 'center',
        })
      : null;
    return block ? [{ role, block }] : [];
  });
  const heights = [
    ...(shown.length ? [emojiSize] : []),
    headline?.height ?? 0,
    ...facts.map((f) => f.block.height),
    pillH,
  ].filter((h) => h > 0);
  const tops = stack(
    heights,
    heights.map(() => T * 0.05),
    safe,
  );
  const layers: Json[] = [];
  const enter = c.enterLength(L);
  let k = 0;
  if (shown.length) layers.push(...emojiRow(c, shown, safe, tops[k++]! + emojiSize / 2, emojiSize, 0, L, false, true));
  if (headline)
    layers.push(
      ...c.drawLines(
        headline,
        safe.x,
        tops[k++]!,
        0,
        L,
        (i, centre) => c.enter(centre, i * c.motion.stagger, 'rise', enter),
        'action',
      ),
    );
  for (const [j, { role, block }] of facts.entries()) {
    const t0 = Math.round(enter * 0.3) + j * c.motion.stagger;
    layers.push(
      ...c.drawLines(
        block,
        safe.x,
        tops[k++]!,
        0,
        L,
        (i, centre) => c.enter(centre, t0 + i * c.motion.stagger, 'rise', enter),
        role,
      ),
    );
  }
  const top = tops[k]!;
  const px = safe.x + (safe.w - pillW) / 2;
  const centre: Vec = [px + pillW / 2, top + pillH / 2];
  const tp = Math.round(enter * 0.6);
  // The pill pops in, then pulses gently until the end.
  const pulse: Key[] = [
    [tp, 40, EASE.back],
    [tp + enter, 100, EASE.inOut],
  ];
  for (let t = tp + enter + s(0.5); t + s(0.6) < L; t += s(1.2))
    pulse.push([t, 100, EASE.inOut], [t + s(0.3), 105, EASE.inOut], [t + s(0.6), 100, EASE.inOut]);
  const pillKs: Transform = {
    a: centre,
    p: centre,
    s: pulse,
    o: [
      [tp, 0],
      [tp + 4, 100],
    ],
  };
  const arrowX = detail ? px + pillW - padX - arrowW / 2 : centre[0]!;
  const ay = top + pillH / 2;
  const aw = arrowW / 2;
  const dir = c.rtl ? -1 : 1;
  const arrow = group('arrow', [
    path(
      [
        [arrowX - dir * aw, ay],
        [arrowX + dir * aw, ay],
      ],
      false,
    ),
    path(
      [
        [arrowX + dir * aw * 0.1, ay - aw * 0.8],
        [arrowX + dir * aw, ay],
        [arrowX + dir * aw * 0.1, ay + aw * 0.8],
      ],
      false,
    ),
    stroke(onPill, Math.max(2, T * 0.008)),
  ]);
  layers.push(shapeLayer({ ind: 0, nm: 'arrow', ip: 0, op: L, ks: pillKs }, [arrow]));
  if (detail) {
    const textLeft = c.rtl
      ? px + padX + arrowW * 1.6 - (detail.width - detailW) / 2
      : px + padX - (detail.width - detailW) / 2;
    const ks = (_i: number, _centre: Vec): Transform => pillKs;
    layers.push(...c.drawLines(detail, textLeft, top + padY, 0, L, ks, 'detail'));
  }
  layers.push(box('pill', { x: px, y: top, w: pillW, h: pillH }, pillColour, pillH / 2, L, pillKs));
  layers.push(
    box(
      'pill glow',
      { x: px - T * 0.012, y: top - T * 0.012, w: pillW + T * 0.024, h: pillH + T * 0.024 },
      pillColour,
      pillH / 2 + T * 0.012,
      L,
      pillKs,
      25,
    ),
  );
  return layers;
}

// ---- Image ---------------------------------------------------------------------------------------

/** A picture of the request over the whole frame, its caption low on a scrim: the title's layout over an image. */
export function drawImage(
  c: Composer,
  scene: SceneOf<'image'>,
  L: number,
  image: { id: string; w: number; h: number } | null,
): Json[] {
  return drawTitle(c, { kind: 'title', title: scene.caption ?? '', subtitle: null, image: scene.image }, L, image);
}
