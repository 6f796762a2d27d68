// One layout per storyboard scene kind. Each scene is drawn in the safe area (sw×sh) as fixed,
// non-overlapping boxes whose text the page fits; its entrance is a list of GSAP tween lines on `tl`
// starting at `t0` (the scene's start, after its transition in).
import { ICON_GRID, ICON_STROKE, ICONS } from '../../../storyboard/icons.js';
import { ACROSS_WORD_SHARE, BARE_CARD_SHARE, unbreakable } from '../../../storyboard/layout.js';
import { CJK } from '../../../text/scripts.js';
import type { Figure, Look, Scene, TimedScene } from '../../../storyboard/types.js';
import { box, escapeHtml, js, place, px, readableOn, sec, text, type Eases, type Frame, type Rect } from './frame.js';

export type SceneContext = {
  f: Frame;
  look: Look;
  ease: Eases;
  /** Element id prefix of the scene (`s0`, `s1`…). */
  id: string;
  scene: TimedScene;
  /** When the scene's own entrance starts (with its transition in; the first scene's at 0). */
  t0: number;
};

export type SceneOutput = { html: string; tweens: string[] };

type Of<K extends Scene['kind']> = Extract<Scene, { kind: K }> & { start: number; duration: number };

const from = (sel: string, vars: object, at: number) => `tl.from(${js(sel)}, ${js(vars)}, ${sec(at)});`;
const fromTo = (sel: string, a: object, b: object, at: number) =>
  `tl.fromTo(${js(sel)}, ${js(a)}, ${js(b)}, ${sec(at)});`;
const to = (sel: string, vars: object, at: number) => `tl.to(${js(sel)}, ${js(vars)}, ${sec(at)});`;
const set = (sel: string, vars: object, at: number) => `tl.set(${js(sel)}, ${js(vars)}, ${sec(at)});`;

/** A text's words as inline blocks (for staggered reveals); text without spaces (CJK) stays one piece. */
function words(content: string, cls: string): string {
  const parts = content.split(/(\s+)/);
  if (parts.length < 3) return escapeHtml(content);
  return parts.map((p) => (/^\s+$/.test(p) || p === '' ? p : `<span class="${cls}">${escapeHtml(p)}</span>`)).join('');
}

/** Seconds an entrance may take: a share of the scene, within bounds. */
const span = (c: SceneContext, share: number, min: number, max: number) =>
  sec(Math.min(max, Math.max(min, c.scene.duration * share)));

/** x offset toward the reading start (entrances slide in from the start side). */
const startward = (c: SceneContext, n: number) => (c.f.rtl ? n : -n);

/**
 * Kinds that draw a scene's own pictogram (`icon`) above their text. Not features (its items carry theirs), the
 * countdown (its numbers fill the scene) or an image (the picture is the scene).
 */
const ICON_KINDS: ReadonlySet<Scene['kind']> = new Set([
  'title',
  'statement',
  'counter',
  'progress',
  'bars',
  'list',
  'steps',
  'quote',
  'cta',
  'comparison',
  'timeline',
]);

export function sceneLayout(c: SceneContext): SceneOutput {
  const icon = c.scene.icon;
  return icon && ICONS.has(icon) && ICON_KINDS.has(c.scene.kind) ? withIcon(c, icon) : layoutOf(c);
}

/**
 * A scene under its own pictogram: the icon's tile (about a tenth of the short side, popping in with the scene's
 * entrance) takes a square off the top of the safe area, at the reading start (centred for a call to action), and the
 * scene is laid out in the rest, below it.
 */
function withIcon(c: SceneContext, icon: string): SceneOutput {
  const { f, id } = c;
  const side = Math.round(11 * f.u);
  const below = side + Math.round(3.5 * f.u);
  const inner = layoutOf({ ...c, f: { ...f, sh: f.sh - below } });
  const centred = c.scene.kind === 'cta';
  const tile = place(f, { x: centred ? (f.sw - side) / 2 : 0, y: 0, w: side, h: side });
  const rest = at({ x: 0, y: below, w: f.sw, h: f.sh - below });
  return {
    html:
      iconTile(`${id}-icon`, icon, tile) + `<div class="below" style="position:absolute;${rest}">${inner.html}</div>`,
    tweens: [
      fromTo(
        `#${id}-icon`,
        { scale: 0, rotation: -15 },
        { scale: 1, rotation: 0, duration: 0.5, ease: c.ease.pop },
        c.t0,
      ),
      ...inner.tweens,
    ],
  };
}

function layoutOf(c: SceneContext): SceneOutput {
  const s = c.scene;
  switch (s.kind) {
    case 'title':
      return title(c, s);
    case 'statement':
      return statement(c, s);
    case 'counter':
      return counter(c, s);
    case 'progress':
      return progress(c, s);
    case 'bars':
      return bars(c, s);
    case 'list':
      return list(c, s);
    case 'steps':
      return steps(c, s);
    case 'countdown':
      return countdown(c, s);
    case 'quote':
      return quote(c, s);
    case 'cta':
      return cta(c, s);
    case 'comparison':
      return comparison(c, s);
    case 'timeline':
      return timeline(c, s);
    case 'features':
      return features(c, s);
    case 'image':
      // The title's layout with the picture and its caption.
      return title(c, {
        kind: 'title',
        title: s.caption ?? '',
        subtitle: null,
        image: s.image,
        start: s.start,
        duration: s.duration,
      });
  }
}

// ---- title ---------------------------------------------------------------------------------------

function title(c: SceneContext, s: Of<'title'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const gap = Math.round(4 * u);
  let textRect: Rect = { x: 0, y: 0, w: f.sw, h: f.sh };
  let imageRect: Rect | null = null;
  if (s.image) {
    if (f.orient === 'landscape') {
      const half = Math.round((f.sw - gap) / 2);
      textRect = { x: 0, y: 0, w: half, h: f.sh };
      imageRect = { x: half + gap, y: 0, w: f.sw - half - gap, h: f.sh };
    } else {
      const ih = Math.round(f.sh * (f.orient === 'portrait' ? 0.5 : 0.45));
      imageRect = { x: 0, y: 0, w: f.sw, h: ih };
      textRect = { x: 0, y: ih + gap, w: f.sw, h: f.sh - ih - gap };
    }
  }
  const titleMax = u * (s.image ? 12 : f.orient === 'portrait' ? 17 : 16);
  const inner =
    `<div class="rule" id="${id}-rule"></div>` +
    (s.title ? text(f, `${id}-title`, s.title, { cls: 'h', max: titleMax }) : '') +
    (s.subtitle ? text(f, `${id}-sub`, s.subtitle, { cls: 'sub', max: 5.4 * u }) : '');
  let html = box(f, textRect, { valign: s.image && f.orient !== 'landscape' ? 'start' : 'center' }, inner);
  const t = c.t0;
  const tweens = [
    fromTo(`#${id}-rule`, { scaleX: 0 }, { scaleX: 1, duration: 0.7, ease: c.ease.in }, t + 0.1),
    // On screen from the first frame: it grows into place rather than fading in.
    ...(s.title
      ? [
          from(`#${id}-title`, { scale: 0.92, y: 2 * u, duration: 0.9, ease: c.ease.in }, t),
          to(`#${id}-title`, { y: -u, duration: sec(Math.max(0.1, s.duration - 0.9)), ease: 'none' }, t + 0.9),
        ]
      : []),
  ];
  if (s.subtitle)
    tweens.push(
      fromTo(`#${id}-sub`, { opacity: 0, y: 2 * u }, { opacity: 1, y: 0, duration: 0.7, ease: c.ease.in }, t + 0.35),
    );
  if (imageRect && s.image) {
    const r = place(f, imageRect);
    html =
      `<div class="media" id="${id}-media" style="left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}">` +
      `<img id="${id}-img" src="assets/${escapeHtml(encodeURI(s.image))}" alt=""></div>` +
      html;
    // Ken Burns: a slow zoom and pan over the whole scene.
    tweens.push(
      fromTo(
        `#${id}-img`,
        { scale: 1.06, xPercent: -2, yPercent: -1 },
        { scale: 1.18, xPercent: 2, yPercent: 1, duration: sec(s.duration), ease: 'none' },
        s.start,
      ),
    );
  }
  return { html, tweens };
}

// ---- statement -----------------------------------------------------------------------------------

function statement(c: SceneContext, s: Of<'statement'>): SceneOutput {
  const { f, id } = c;
  const max = f.u * (f.orient === 'portrait' ? 11 : 10);
  const html = box(
    f,
    { x: 0, y: 0, w: f.sw, h: f.sh },
    { valign: 'center' },
    `<div class="rule" id="${id}-rule"></div>` +
      text(f, `${id}-text`, words(s.text, 'w'), { cls: 'h2', max, html: true }),
  );
  const t = c.t0;
  const n = s.text.split(/\s+/).length;
  const stagger = sec(Math.min(0.06, (c.scene.duration * 0.2) / Math.max(1, n)));
  const hasWords = n >= 2;
  return {
    html,
    tweens: [
      fromTo(`#${id}-rule`, { scaleX: 0 }, { scaleX: 1, duration: 0.6, ease: c.ease.in }, t),
      hasWords
        ? fromTo(
            `#${id}-text .w`,
            { opacity: 0, y: 2.5 * f.u },
            { opacity: 1, y: 0, duration: 0.45, ease: c.ease.in, stagger },
            t + 0.05,
          )
        : fromTo(
            `#${id}-text`,
            { opacity: 0, y: 2.5 * f.u },
            { opacity: 1, y: 0, duration: 0.6, ease: c.ease.in },
            t + 0.05,
          ),
    ],
  };
}

// ---- counter -------------------------------------------------------------------------------------

/**
 * The number element: the figure's prefix, its counting digits (data-final: the digits as written, for fitting), its
 * suffix.
 */
function numberHtml(id: string, figure: Figure): string {
  const sufCls = /^\s?(?:[%٪×KMBkmb]|bn)$/u.test(figure.suffix) ? 'unit' : 'unit word';
  return (
    (figure.prefix ? `<span class="unit">${escapeHtml(figure.prefix)}</span>` : '') +
    `<span id="${id}" data-final="${escapeHtml(figure.digits)}">${escapeHtml(figure.digits)}</span>` +
    (figure.suffix ? `<span class="${sufCls}">${escapeHtml(figure.suffix)}</span>` : '')
  );
}

/** The page's counter call: counts the element up to the figure's value, written as the figure is. */
function countUp(id: string, figure: Figure, at: number, duration: number, ease: string): string {
  const format = {
    decimals: figure.decimals,
    group: figure.group,
    decimal: figure.decimal,
    zero: figure.zero,
    lakh: figure.lakh,
  };
  return `__counter(tl, ${js(id)}, ${js(figure.value)}, ${js(format)}, ${sec(at)}, ${duration}, ${js(ease)});`;
}

function counter(c: SceneContext, s: Of<'counter'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const qualifier = s.qualifier
    ? text(f, `${id}-q`, s.qualifier, { cls: 'lbl', max: (f.orient === 'landscape' ? 7 : 6) * u })
    : '';
  const num = text(f, `${id}-num`, numberHtml(`${id}-v`, s.figure), {
    cls: 'num',
    max: u * (f.orient === 'landscape' ? 30 : 34),
    html: true,
    // Under a qualifier, room for the big digits' ascent above the line.
    ...(s.qualifier ? { style: 'padding-top:0.18em' } : {}),
  });
  const label = text(f, `${id}-label`, s.label, { cls: 'lbl', max: (f.orient === 'landscape' ? 8 : 7) * u });
  let html: string;
  if (f.orient === 'landscape') {
    const gap = Math.round(5 * u);
    const nw = Math.round(f.sw * 0.52);
    html =
      box(
        f,
        { x: 0, y: 0, w: nw, h: f.sh },
        { valign: 'center' },
        qualifier + num + `<div class="rule wide" id="${id}-rule"></div>`,
      ) + box(f, { x: nw + gap, y: 0, w: f.sw - nw - gap, h: f.sh }, { valign: 'center' }, label);
  } else {
    html = box(
      f,
      { x: 0, y: 0, w: f.sw, h: f.sh },
      { valign: 'center' },
      qualifier + num + `<div class="rule wide" id="${id}-rule"></div>` + label,
    );
  }
  const t = c.t0;
  const count = span(c, 0.45, 0.5, 1.6);
  return {
    html,
    tweens: [
      ...(s.qualifier
        ? [fromTo(`#${id}-q`, { opacity: 0, y: 2 * u }, { opacity: 1, y: 0, duration: 0.5, ease: c.ease.in }, t)]
        : []),
      fromTo(`#${id}-num`, { opacity: 0, scale: 0.85 }, { opacity: 1, scale: 1, duration: 0.5, ease: c.ease.pop }, t),
      countUp(`${id}-v`, s.figure, t + 0.1, count, 'power2.out'),
      fromTo(`#${id}-rule`, { scaleX: 0 }, { scaleX: 1, duration: count, ease: 'power2.out' }, t + 0.1),
      fromTo(`#${id}-label`, { opacity: 0, y: 2 * u }, { opacity: 1, y: 0, duration: 0.6, ease: c.ease.in }, t + 0.3),
    ],
  };
}

// ---- progress ------------------------------------------------------------------------------------

function progress(c: SceneContext, s: Of<'progress'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const percent = Math.max(0, Math.min(100, s.percent));
  const html = box(
    f,
    { x: 0, y: 0, w: f.sw, h: f.sh },
    { valign: 'center' },
    text(f, `${id}-num`, numberHtml(`${id}-v`, s.figure), {
      cls: 'num',
      max: (f.orient === 'landscape' ? 24 : 28) * u,
      html: true,
    }) +
      `<div class="track"><div class="fill" id="${id}-fill" style="width:${percent}%"></div></div>` +
      text(f, `${id}-label`, s.label, { cls: 'lbl', max: 7 * u }),
  );
  const t = c.t0;
  const fill = span(c, 0.5, 0.5, 1.8);
  return {
    html,
    tweens: [
      fromTo(`#${id}-num`, { opacity: 0, y: 3 * u }, { opacity: 1, y: 0, duration: 0.45, ease: c.ease.in }, t),
      fromTo(`#${id}-fill`, { scaleX: 0 }, { scaleX: 1, duration: fill, ease: 'power2.inOut' }, t + 0.15),
      countUp(`${id}-v`, s.figure, t + 0.15, fill, 'power2.inOut'),
      fromTo(`#${id}-label`, { opacity: 0, y: 2 * u }, { opacity: 1, y: 0, duration: 0.6, ease: c.ease.in }, t + 0.3),
    ],
  };
}

// ---- bars ----------------------------------------------------------------------------------------

function bars(c: SceneContext, s: Of<'bars'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const parts: string[] = [];
  let top = 0;
  if (s.label) {
    const capH = Math.round(f.sh * (f.orient === 'portrait' ? 0.16 : 0.2));
    parts.push(
      box(
        f,
        { x: 0, y: 0, w: f.sw, h: capH },
        { valign: 'end' },
        text(f, `${id}-cap`, s.label, { cls: 'h3', max: 7 * u }),
      ),
    );
    top = capH + Math.round(4 * u);
  }
  const chart: Rect = { x: 0, y: top, w: f.sw, h: f.sh - top };
  const max = Math.max(...s.bars.map((b) => b.figure.value), 1e-9);
  const n = s.bars.length;
  const bars: Rect[] = [];
  if (f.orient === 'portrait') {
    // Rows: label and value above a horizontal bar.
    const rowH = Math.min(chart.h / n, 20 * u);
    const y0 = chart.y + (chart.h - rowH * n) / 2;
    const barH = Math.min(rowH * 0.3, 5 * u);
    s.bars.forEach((b, i) => {
      const y = y0 + i * rowH;
      const textH = rowH * 0.5;
      parts.push(
        box(
          f,
          { x: 0, y, w: f.sw * 0.62, h: textH },
          { valign: 'end' },
          text(f, `${id}-l${i}`, b.label, { cls: 'blabel', max: 5 * u, same: `${id}-l` }),
        ),
      );
      parts.push(
        box(
          f,
          { x: f.sw * 0.64, y, w: f.sw * 0.36, h: textH },
          { valign: 'end', halign: 'end' },
          text(f, `${id}-v${i}`, b.figure.text, { cls: 'bval', max: 5.5 * u, same: `${id}-v` }),
        ),
      );
      const track = place(f, { x: 0, y: y + rowH * 0.58, w: f.sw, h: barH });
      parts.push(
        `<div class="btrack" ` +
          `style="left:${px(track.x)};top:${px(track.y)};width:${px(track.w)};height:${px(track.h)}"></div>`,
      );
      bars.push(place(f, { x: 0, y: y + rowH * 0.58, w: Math.max(barH, (b.figure.value / max) * f.sw), h: barH }));
    });
  } else {
    // Columns: value above a vertical bar, label below.
    const colW = chart.w / n;
    const barW = Math.min(colW * 0.58, 22 * u);
    const labelH = Math.min(chart.h * 0.2, 13 * u);
    const valueH = Math.min(chart.h * 0.13, 9 * u);
    const gs = 1.5 * u;
    const zone = chart.h - labelH - valueH - 2 * gs;
    s.bars.forEach((b, i) => {
      const colX = chart.x + i * colW;
      const barH = Math.max(u, (b.figure.value / max) * zone);
      const barTop = chart.y + valueH + gs + (zone - barH);
      bars.push(place(f, { x: colX + (colW - barW) / 2, y: barTop, w: barW, h: barH }));
      parts.push(
        box(
          f,
          { x: colX, y: barTop - gs - valueH, w: colW, h: valueH },
          { valign: 'end', halign: 'center' },
          text(f, `${id}-v${i}`, b.figure.text, { cls: 'bval', max: 6 * u, same: `${id}-v` }),
        ),
      );
      parts.push(
        box(
          f,
          { x: colX + u * 0.5, y: chart.y + chart.h - labelH, w: colW - u, h: labelH },
          { valign: 'start', halign: 'center' },
          text(f, `${id}-l${i}`, b.label, { cls: 'blabel', max: 4.6 * u, same: `${id}-l` }),
        ),
      );
    });
  }
  bars.forEach((r, i) =>
    parts.push(
      `<div class="bar" id="${id}-b${i}" ` +
        `style="left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}"></div>`,
    ),
  );

  const t = c.t0;
  const stagger = sec(Math.min(0.15, (s.duration * 0.3) / n));
  const grow = span(c, 0.3, 0.4, 0.8);
  const axis = f.orient === 'portrait' ? 'scaleX' : 'scaleY';
  const tweens = [
    ...(s.label
      ? [fromTo(`#${id}-cap`, { opacity: 0, y: 2 * u }, { opacity: 1, y: 0, duration: 0.5, ease: c.ease.in }, t)]
      : []),
    fromTo(`#${id} .blabel`, { opacity: 0 }, { opacity: 1, duration: 0.4, ease: 'none', stagger }, t + 0.1),
    fromTo(`#${id} .bar`, { [axis]: 0 }, { [axis]: 1, duration: grow, ease: c.ease.in, stagger }, t + 0.15),
    fromTo(
      `#${id} .bval`,
      { opacity: 0, y: u },
      { opacity: 1, y: 0, duration: 0.35, ease: c.ease.in, stagger },
      t + 0.15 + grow * 0.6,
    ),
  ];
  return { html: parts.join(''), tweens };
}

// ---- list and steps --------------------------------------------------------------------------------

function list(c: SceneContext, s: Of<'list'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const parts: string[] = [];
  // Five or more items on a wide canvas: two columns, the heading above them.
  const twoColumns = f.orient === 'landscape' && s.items.length >= 5;
  const area = headed(c, s.heading, parts, twoColumns);
  const n = s.items.length;
  const spec = { maxRow: 17 * u, markerShare: 0.34, markerMax: 3.4 * u, gap: 3 * u, textTop: 0.05, textHeight: 0.9 };
  const half = Math.ceil(n / 2);
  const colGap = 5 * u;
  const colW = (area.w - colGap) / 2;
  const rows = twoColumns
    ? [
        ...rowLayout(f, { ...area, w: colW }, half, spec),
        ...rowLayout(f, { ...area, x: area.x + colW + colGap, w: colW }, n - half, spec),
      ]
    : rowLayout(f, area, n, spec);
  s.items.forEach((item, i) => {
    const { marker: d, text: t } = rows[i]!;
    parts.push(`<div class="dot" id="${id}-d${i}" ` + `style="${at(d)}"></div>`);
    parts.push(
      box(
        f,
        t,
        { valign: 'center' },
        text(f, `${id}-i${i}`, item, { cls: 'item', max: (f.orient === 'portrait' ? 9 : 8) * u, same: `${id}-i` }),
      ),
    );
  });
  const t = c.t0;
  const stagger = sec(Math.min(0.18, (s.duration * 0.4) / n));
  const tweens = [
    ...headingTweens(c, s.heading),
    fromTo(`#${id} .dot`, { scale: 0 }, { scale: 1, duration: 0.4, ease: c.ease.pop, stagger }, t + 0.15),
    fromTo(
      `#${id} .item`,
      { opacity: 0, x: startward(c, 4 * u) },
      { opacity: 1, x: 0, duration: 0.5, ease: c.ease.in, stagger },
      t + 0.15,
    ),
  ];
  return { html: parts.join(''), tweens };
}

/** The heading of a list or of steps, above (or, landscape, beside) the area its rows take. */
function headed(c: SceneContext, heading: string | null, parts: string[], above = false): Rect {
  const { f, id } = c;
  const { u } = f;
  if (!heading) return { x: 0, y: 0, w: f.sw, h: f.sh };
  if (f.orient === 'landscape' && !above) {
    const hw = Math.round(f.sw * 0.38);
    parts.push(
      box(
        f,
        { x: 0, y: 0, w: hw, h: f.sh },
        { valign: 'center' },
        `<div class="rule" id="${id}-rule"></div>` + text(f, `${id}-head`, heading, { cls: 'h3', max: 9 * u }),
      ),
    );
    return { x: hw + Math.round(5 * u), y: 0, w: f.sw - hw - Math.round(5 * u), h: f.sh };
  }
  const hh = Math.round(f.sh * (f.orient === 'portrait' ? 0.2 : 0.24));
  parts.push(
    box(
      f,
      { x: 0, y: 0, w: f.sw, h: hh },
      { valign: 'end' },
      `<div class="rule" id="${id}-rule"></div>` + text(f, `${id}-head`, heading, { cls: 'h3', max: 9 * u }),
    ),
  );
  return { x: 0, y: hh + Math.round(4 * u), w: f.sw, h: f.sh - hh - Math.round(4 * u) };
}

/** The heading's entrance (its rule growing, its text rising) at the scene's start; none without a heading. */
function headingTweens(c: SceneContext, heading: string | null): string[] {
  if (!heading) return [];
  const { id } = c;
  return [
    fromTo(`#${id}-rule`, { scaleX: 0 }, { scaleX: 1, duration: 0.5, ease: c.ease.in }, c.t0),
    fromTo(`#${id}-head`, { opacity: 0, y: 2 * c.f.u }, { opacity: 1, y: 0, duration: 0.5, ease: c.ease.in }, c.t0),
  ];
}

type RowSpec = {
  /** Tallest a row may be. */
  maxRow: number;
  /** The marker's side: this share of the row's height, at most `markerMax`. */
  markerShare: number;
  markerMax: number;
  /** Between the marker and the text. */
  gap: number;
  /** The marker's width as a multiple of its side (a pill for long markers); 1 by default: a square. */
  markerAspect?: number;
  /** The text box's top and height, as shares of the row's height. */
  textTop: number;
  textHeight: number;
};

/**
 * The rows of a list or of steps, centred in `area`: each row's marker (a dot, a badge), a square at
 * the reading start centred on the row, placed; and the box of its text beside the marker.
 */
function rowLayout(f: Frame, area: Rect, n: number, spec: RowSpec): { marker: Rect; text: Rect }[] {
  const rowH = Math.min(area.h / n, spec.maxRow);
  const y0 = area.y + (area.h - rowH * n) / 2;
  const side = Math.min(rowH * spec.markerShare, spec.markerMax);
  const width = side * (spec.markerAspect ?? 1);
  const indent = width + spec.gap;
  return Array.from({ length: n }, (_, i) => {
    const y = y0 + i * rowH;
    return {
      marker: place(f, { x: area.x, y: y + (rowH - side) / 2, w: width, h: side }),
      text: { x: area.x + indent, y: y + rowH * spec.textTop, w: area.w - indent, h: rowH * spec.textHeight },
    };
  });
}

/** The widest a step's marker pill may be, as a share of the row. */
const PILL_SHARE = 0.28;

/** A text's width in ems on one line, roughly: a Chinese, Japanese or Korean character 1, another 0.62 (bold). */
function textEms(text: string): number {
  return [...text].reduce((sum, ch) => sum + (CJK.test(ch) ? 1 : 0.62), 0);
}

/**
 * Numbered steps, each whole, one per beat: a step enters with its marker (as written; a dot for a
 * bullet) and the one before it steps back, so the step being read stands out.
 */
function steps(c: SceneContext, s: Of<'steps'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const parts: string[] = [];
  const area = headed(c, s.heading, parts);
  const n = s.steps.length;
  // A marker is set at half its badge's height. A long one ("第一步", "Schritt 1") gets a pill as wide as it needs, up
  // to PILL_SHARE of the row, its text smaller only when that is too narrow, never below the smallest size.
  const ems = Math.max(1, ...s.steps.map((step) => textEms(step.marker ?? '')));
  const spec = { maxRow: 28 * u, markerShare: 0.6, markerMax: 11 * u, gap: 3.5 * u, textTop: 0.04, textHeight: 0.92 };
  const side = Math.min(Math.min(area.h / n, spec.maxRow) * spec.markerShare, spec.markerMax);
  const inPill = (area.w * PILL_SHARE - side * 0.4) / ems;
  const markerSize = Math.max(f.minFont, Math.min(side * 0.5, Math.max((side * 0.8) / ems, inPill)));
  const wide = markerSize * ems > side * 0.8;
  const rows = rowLayout(f, area, n, { ...spec, markerAspect: wide ? (markerSize * ems + side * 0.4) / side : 1 });
  s.steps.forEach((step, i) => {
    const { marker: b, text: t } = rows[i]!;
    parts.push(
      `<div class="badge" id="${id}-b${i}" style="left:${px(b.x)};top:${px(b.y)};width:${px(b.w)};height:${px(b.h)}">` +
        (step.marker ? text(f, `${id}-n${i}`, step.marker, { cls: 'marker', max: markerSize }) : '') +
        '</div>',
    );
    parts.push(
      box(
        f,
        t,
        { valign: 'center' },
        text(f, `${id}-i${i}`, step.text, {
          cls: 'item',
          max: (f.orient === 'portrait' ? 10 : 8.5) * u,
          same: `${id}-i`,
        }),
      ),
    );
  });
  const t = c.t0;
  const end = s.start + s.duration;
  const first = t + (s.heading ? 0.35 : 0.1);
  const beat = sec(Math.max(0.3, (end - first - 0.6) / n));
  const tweens = headingTweens(c, s.heading);
  s.steps.forEach((_, i) => {
    const at = first + i * beat;
    const enter = sec(Math.min(0.5, beat * 0.8));
    tweens.push(
      fromTo(
        `#${id}-b${i}`,
        { opacity: 0, scale: 0.4 },
        { opacity: 1, scale: 1, duration: enter, ease: c.ease.pop },
        at,
      ),
      fromTo(
        `#${id}-i${i}`,
        { opacity: 0, x: startward(c, 4 * u) },
        { opacity: 1, x: 0, duration: enter, ease: c.ease.in },
        at,
      ),
    );
    // The step before steps back when this one enters.
    if (i > 0) tweens.push(to(`#${id}-i${i - 1}`, { opacity: 0.55, duration: enter, ease: 'none' }, at));
  });
  return { html: parts.join(''), tweens };
}

// ---- countdown -----------------------------------------------------------------------------------

/**
 * Each number big in the middle, a beat each (the first one on screen from the scene's first frame), then the payoff.
 */
function countdown(c: SceneContext, s: Of<'countdown'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const all: Rect = { x: 0, y: 0, w: f.sw, h: f.sh };
  const parts = s.numbers.map((n, i) =>
    box(
      f,
      all,
      { valign: 'center', halign: 'center' },
      text(f, `${id}-n${i}`, n, {
        cls: 'num count',
        max: u * (f.orient === 'landscape' ? 40 : 48),
        style: 'opacity:0',
      }),
    ),
  );
  if (s.payoff)
    parts.push(
      box(
        f,
        all,
        { valign: 'center', halign: 'center' },
        text(f, `${id}-pay`, s.payoff, { cls: 'h', max: u * (f.orient === 'landscape' ? 12 : 13), style: 'opacity:0' }),
      ),
    );
  const t = c.t0;
  const end = s.start + s.duration;
  const payoffTime = s.payoff ? Math.max(1.2, s.duration * 0.32) : 0;
  const beat = Math.max(0.25, (end - t - payoffTime) / s.numbers.length);
  const tweens: string[] = [];
  s.numbers.forEach((_, i) => {
    const at = t + i * beat;
    const sel = `#${id}-n${i}`;
    tweens.push(
      set(sel, { opacity: 1 }, at),
      fromTo(sel, { scale: 1.35 }, { scale: 1, duration: sec(Math.min(0.45, beat * 0.8)), ease: c.ease.pop }, at),
    );
    if (i < s.numbers.length - 1 || s.payoff) tweens.push(set(sel, { opacity: 0 }, at + beat));
  });
  if (s.payoff) {
    const at = t + s.numbers.length * beat;
    tweens.push(
      fromTo(
        `#${id}-pay`,
        { opacity: 0, scale: 0.9, y: 2 * u },
        { opacity: 1, scale: 1, y: 0, duration: 0.6, ease: c.ease.pop },
        at,
      ),
    );
  }
  return { html: parts.join(''), tweens };
}

// ---- quote ---------------------------------------------------------------------------------------

const QUOTE_MARK =
  '<svg viewBox="0 0 100 80" aria-hidden="true">' +
  '<path d="M0 80V46C0 19 13 4 40 0l4 10C31 15 24 24 23 36h17v44z' +
  'm56 0V46c0-27 13-42 40-46l4 10c-13 5-20 14-21 26h17v44z"/></svg>';

function quote(c: SceneContext, s: Of<'quote'>): SceneOutput {
  const { f, id } = c;
  // A quote cut out of a sentence may keep its trailing comma ("It changed how we work," says …).
  const quoted = s.quote.replace(/[\s,;:–—-]+$/u, '');
  const { u } = f;
  const card: Rect =
    f.orient === 'portrait'
      ? { x: 0, y: f.sh * 0.1, w: f.sw, h: f.sh * 0.8 }
      : f.orient === 'landscape'
        ? { x: f.sw * 0.05, y: 0, w: f.sw * 0.9, h: f.sh }
        : { x: 0, y: f.sh * 0.04, w: f.sw, h: f.sh * 0.92 };
  const pad = Math.round(Math.min(card.w, card.h) * 0.08);
  const mark = Math.round(Math.min(14 * u, card.h * 0.16));
  const attrH = s.attribution ? Math.round(Math.min(card.h * 0.12, 9 * u)) : 0;
  const gap = Math.round(2 * u);
  const inner = (r: Rect): Rect => (f.rtl ? { ...r, x: card.w - r.x - r.w } : r);
  const textRect = inner({
    x: pad,
    y: pad + mark + gap,
    w: card.w - 2 * pad,
    h: card.h - 2 * pad - mark - gap - (attrH ? attrH + gap : 0),
  });
  const markRect = inner({ x: pad, y: pad, w: mark * 1.25, h: mark });
  const r = place(f, card);
  const html =
    `<div class="card" id="${id}-card" style="left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}">` +
    `<div class="mark" id="${id}-mark" ` +
    `style="left:${px(markRect.x)};top:${px(markRect.y)};width:${px(markRect.w)};height:${px(markRect.h)}">` +
    `${QUOTE_MARK}</div>` +
    box(
      f,
      textRect,
      { valign: 'center', placed: true },
      text(f, `${id}-q`, words(quoted, 'w'), {
        cls: 'quote',
        max: (f.orient === 'landscape' ? 9 : 10) * u,
        html: true,
      }),
    ) +
    (s.attribution
      ? box(
          f,
          inner({ x: pad, y: card.h - pad - attrH, w: card.w - 2 * pad, h: attrH }),
          { valign: 'center', placed: true },
          text(f, `${id}-by`, `— ${s.attribution}`, { cls: 'by', max: 5 * u }),
        )
      : '') +
    '</div>';
  const t = c.t0;
  const n = quoted.split(/\s+/).length;
  const stagger = sec(Math.min(0.05, (s.duration * 0.2) / Math.max(1, n)));
  const tweens = [
    fromTo(
      `#${id}-card`,
      { opacity: 0, y: 4 * u, scale: 0.96 },
      { opacity: 1, y: 0, scale: 1, duration: 0.6, ease: c.ease.in },
      t,
    ),
    fromTo(
      `#${id}-mark`,
      { scale: 0, rotation: -20 },
      { scale: 1, rotation: 0, duration: 0.6, ease: c.ease.pop },
      t + 0.15,
    ),
    n >= 2
      ? fromTo(
          `#${id}-q .w`,
          { opacity: 0, y: 1.5 * u },
          { opacity: 1, y: 0, duration: 0.45, ease: c.ease.in, stagger },
          t + 0.25,
        )
      : fromTo(`#${id}-q`, { opacity: 0 }, { opacity: 1, duration: 0.5, ease: c.ease.in }, t + 0.25),
  ];
  if (s.attribution)
    tweens.push(
      fromTo(
        `#${id}-by`,
        { opacity: 0, x: startward(c, 3 * u) },
        { opacity: 1, x: 0, duration: 0.5, ease: c.ease.in },
        t + 0.5,
      ),
    );
  return { html, tweens };
}

// ---- call to action ------------------------------------------------------------------------------

function cta(c: SceneContext, s: Of<'cta'>): SceneOutput {
  const { f, id, look } = c;
  const { u } = f;
  const ink = readableOn(look.palette.accent, [look.palette.background, '#ffffff', '#0b0b12']);
  // An address reads better without its scheme ("nimbus.app", not "https://nimbus.app/").
  const pillText = s.detail ? s.detail.replace(/^https?:\/\/(?:www\.)?/i, '').replace(/\/$/, '') : s.action;
  // The button is the text element itself: padding and corners in em follow its fitted size.
  const pill =
    `<div class="pillwrap" id="${id}-pill"><div class="ring" id="${id}-ring"></div>` +
    `${text(f, `${id}-detail`, pillText, { cls: 'pill', max: (s.detail ? 7.5 : 9) * u, style: `color:${ink}` })}</div>`;
  // A date and a price (storyboard requests): a line each between the action and the button.
  const facts = [
    { role: 'date', value: s.date },
    { role: 'price', value: s.price },
  ].filter((x): x is { role: string; value: string } => Boolean(x.value));
  const factsHtml = facts
    .map((x) =>
      text(f, `${id}-${x.role}`, x.value, {
        cls: 'sub',
        max: 5 * u,
        ...(x.role === 'price' && { style: `color:${look.palette.accent}` }),
      }),
    )
    .join('');
  const html = box(
    f,
    { x: 0, y: 0, w: f.sw, h: f.sh },
    { valign: 'center', halign: 'center' },
    (s.detail ? text(f, `${id}-action`, s.action, { cls: 'h', max: (f.orient === 'landscape' ? 10 : 11) * u }) : '') +
      factsHtml +
      pill,
  );
  const t = c.t0;
  const tweens = [
    ...(s.detail
      ? [fromTo(`#${id}-action`, { opacity: 0, y: 3 * u }, { opacity: 1, y: 0, duration: 0.55, ease: c.ease.in }, t)]
      : []),
    ...facts.map((x, j) =>
      fromTo(
        `#${id}-${x.role}`,
        { opacity: 0, y: 2 * u },
        { opacity: 1, y: 0, duration: 0.5, ease: c.ease.in },
        t + 0.15 + 0.1 * j,
      ),
    ),
    fromTo(
      `#${id}-pill`,
      { opacity: 0, scale: 0.6 },
      { opacity: 1, scale: 1, duration: 0.55, ease: c.ease.pop },
      t + 0.25,
    ),
  ];
  // Two pulses of the ring around the button, while the scene lasts.
  // (A set, not a fromTo: seeking back before it restores the hidden ring.)
  for (const at of [t + 0.8, t + 1.8]) {
    if (at + 0.9 > s.start + s.duration) break;
    tweens.push(
      set(`#${id}-ring`, { opacity: 0.8, scale: 1 }, at),
      to(`#${id}-ring`, { opacity: 0, scale: 1.35, duration: 0.9, ease: 'power1.out' }, at),
    );
  }
  return { html, tweens };
}

// ---- pictograms --------------------------------------------------------------------------------------

/** A rectangle as inline position and size. */
const at = (r: Rect) => `left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}`;

/** An icon of the set as inline SVG, stroked in `currentColor` (the element's colour: one of the look's). */
export function iconSvg(name: string): string {
  const nodes = ICONS.get(name);
  if (!nodes) return '';
  const inner = nodes
    .map(([tag, attrs]) => {
      const a = Object.entries(attrs)
        .filter(([k]) => k !== 'key')
        .map(([k, v]) => `${k}="${escapeHtml(String(v))}"`)
        .join(' ');
      return `<${tag} ${a}/>`;
    })
    .join('');
  return (
    `<svg viewBox="0 0 ${ICON_GRID} ${ICON_GRID}" fill="none" stroke="currentColor" stroke-width="${ICON_STROKE}" ` +
    `stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${inner}</svg>`
  );
}

/** An icon in a round tile of the accent's tint, the icon in the accent; `r` its square, placed. */
function iconTile(id: string, name: string | null, r: Rect, cls = 'itile'): string {
  if (!name || !ICONS.has(name)) return '';
  return (
    `<div class="${cls}" id="${id}" style="left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}">` +
    `${iconSvg(name)}</div>`
  );
}

/** Columns for `n` items on this canvas: wide canvases use them, tall ones stack. */
function columnsFor(f: Frame, n: number): number {
  if (f.orient === 'landscape') return n <= 4 ? n : Math.ceil(n / 2);
  if (f.orient === 'square') return n <= 2 ? n : n === 3 ? 3 : 2;
  return 1;
}

// ---- features ----------------------------------------------------------------------------------------

/** 2–6 items with their pictograms: a grid of tiles (icon above text) on wide canvases, rows on tall ones. */
function features(c: SceneContext, s: Of<'features'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const parts: string[] = [];
  const area = headed(c, s.heading, parts);
  const n = s.items.length;
  const cols = columnsFor(f, n);
  if (cols === 1) {
    const rows = rowLayout(f, area, n, {
      maxRow: 22 * u,
      markerShare: 0.62,
      markerMax: 13 * u,
      gap: 4 * u,
      textTop: 0.04,
      textHeight: 0.92,
    });
    s.items.forEach((item, i) => {
      const { marker: m, text: t } = rows[i]!;
      parts.push(iconTile(`${id}-c${i}`, item.icon, m));
      parts.push(
        box(
          f,
          t,
          { valign: 'center' },
          text(f, `${id}-i${i}`, item.text, { cls: 'item', max: 8.5 * u, same: `${id}-i` }),
        ),
      );
    });
  } else {
    const rowsN = Math.ceil(n / cols);
    const gap = 4 * u;
    const cw = (area.w - gap * (cols - 1)) / cols;
    const ch = Math.min((area.h - gap * (rowsN - 1)) / rowsN, cw * 1.25);
    const y0 = area.y + (area.h - (ch * rowsN + gap * (rowsN - 1))) / 2;
    s.items.forEach((item, i) => {
      const row = Math.floor(i / cols);
      const inRow = row === rowsN - 1 ? n - row * cols : cols;
      const x0 = area.x + (area.w - (cw * inRow + gap * (inRow - 1))) / 2;
      const x = x0 + (i % cols) * (cw + gap);
      const y = y0 + row * (ch + gap);
      const side = Math.min(ch * 0.42, cw * 0.5, 16 * u);
      parts.push(iconTile(`${id}-c${i}`, item.icon, place(f, { x: x + (cw - side) / 2, y, w: side, h: side })));
      parts.push(
        box(
          f,
          { x, y: y + side + 2.5 * u, w: cw, h: ch - side - 2.5 * u },
          { valign: 'start', halign: 'center' },
          text(f, `${id}-i${i}`, item.text, { cls: 'item', max: 7 * u, same: `${id}-i` }),
        ),
      );
    });
  }
  const t = c.t0;
  const stagger = sec(Math.min(0.2, (s.duration * 0.4) / n));
  return {
    html: parts.join(''),
    tweens: [
      ...headingTweens(c, s.heading),
      fromTo(
        `#${id} .itile`,
        { scale: 0, rotation: -15 },
        { scale: 1, rotation: 0, duration: 0.5, ease: c.ease.pop, stagger },
        t + 0.15,
      ),
      fromTo(
        `#${id} .item`,
        { opacity: 0, y: 2 * u },
        { opacity: 1, y: 0, duration: 0.5, ease: c.ease.in, stagger },
        t + 0.25,
      ),
    ],
  };
}

// ---- timeline ----------------------------------------------------------------------------------------

/**
 * Timed items in order on a line: across the canvas (each time above its text) when it is wide and the items are
 * few, else down it (times at the reading start).
 */
function timeline(c: SceneContext, s: Of<'timeline'>): SceneOutput {
  const { f, id } = c;
  const { u } = f;
  const parts: string[] = [];
  const area = headed(c, s.heading, parts);
  const n = s.items.length;
  // Across: times above the line, texts below; the texts' largest size.
  const [timeSize, textSize] = [7 * u, 6 * u];
  const longestWord = Math.max(...s.items.flatMap((it) => unbreakable(it.text).map(textEms)));
  const across = f.orient === 'landscape' && n <= 5 && longestWord * textSize * ACROSS_WORD_SHARE <= area.w / n - 2 * u;
  const dot = 3.2 * u;
  const lw = Math.max(2, 0.6 * u);
  if (across) {
    const colW = area.w / n;
    // The group centred in the area (short texts leave no empty half); the page fits the texts later, so their
    // height is estimated from the longest at its largest size.
    const textLines = Math.min(
      4,
      Math.ceil((Math.max(...s.items.map((it) => textEms(it.text))) * textSize * 1.15) / (colW - 2 * u)),
    );
    const group = timeSize * 1.25 + 7 * u + textLines * textSize * 1.3;
    const lineY =
      area.y + Math.min(area.h * 0.5, Math.max(area.h * 0.2, (area.h - group) / 2 + timeSize * 1.25 + 3 * u));
    const line = place(f, { x: area.x + colW / 2, y: lineY - lw / 2, w: colW * (n - 1), h: lw });
    parts.push(`<div class="tline" id="${id}-line" style="${at(line)}"></div>`);
    s.items.forEach((item, i) => {
      const x = area.x + i * colW;
      const d = place(f, { x: x + colW / 2 - dot / 2, y: lineY - dot / 2, w: dot, h: dot });
      parts.push(`<div class="tdot" id="${id}-d${i}" style="${at(d)}"></div>`);
      parts.push(
        box(
          f,
          { x: x + u, y: area.y, w: colW - 2 * u, h: lineY - area.y - 3 * u },
          { valign: 'end', halign: 'center' },
          text(f, `${id}-t${i}`, item.time, { cls: 'ttime', max: timeSize, same: `${id}-t` }),
        ),
      );
      parts.push(
        box(
          f,
          { x: x + u, y: lineY + 4 * u, w: colW - 2 * u, h: area.y + area.h - lineY - 4 * u },
          { valign: 'start', halign: 'center' },
          text(f, `${id}-i${i}`, item.text, { cls: 'item', max: textSize, same: `${id}-i` }),
        ),
      );
    });
  } else {
    const rowH = Math.min(area.h / n, 24 * u);
    const y0 = area.y + (area.h - rowH * n) / 2;
    const timeW = Math.min(area.w * 0.36, 34 * u);
    const lineX = area.x + timeW + 3 * u;
    const line = place(f, { x: lineX - lw / 2, y: y0 + rowH / 2, w: lw, h: rowH * (n - 1) });
    parts.push(`<div class="tline" id="${id}-line" style="${at(line)}"></div>`);
    s.items.forEach((item, i) => {
      const y = y0 + i * rowH;
      const d = place(f, { x: lineX - dot / 2, y: y + rowH / 2 - dot / 2, w: dot, h: dot });
      parts.push(`<div class="tdot" id="${id}-d${i}" style="${at(d)}"></div>`);
      parts.push(
        box(
          f,
          { x: area.x, y: y + rowH * 0.05, w: timeW, h: rowH * 0.9 },
          { valign: 'center', halign: 'end' },
          text(f, `${id}-t${i}`, item.time, { cls: 'ttime', max: 7.5 * u, same: `${id}-t` }),
        ),
      );
      parts.push(
        box(
          f,
          { x: lineX + 4 * u, y: y + rowH * 0.05, w: area.x + area.w - lineX - 4 * u, h: rowH * 0.9 },
          { valign: 'center' },
          text(f, `${id}-i${i}`, item.text, { cls: 'item', max: 7.5 * u, same: `${id}-i` }),
        ),
      );
    });
  }
  const t = c.t0;
  const first = t + (s.heading ? 0.35 : 0.1);
  const beat = sec(Math.max(0.25, (s.start + s.duration - first - 0.8) / n));
  const tweens = [
    ...headingTweens(c, s.heading),
    fromTo(
      `#${id}-line`,
      { [across ? 'scaleX' : 'scaleY']: 0 },
      { [across ? 'scaleX' : 'scaleY']: 1, duration: sec(beat * n), ease: 'none' },
      first,
    ),
  ];
  s.items.forEach((_, i) => {
    const at = first + i * beat;
    tweens.push(
      fromTo(`#${id}-d${i}`, { scale: 0 }, { scale: 1, duration: 0.4, ease: c.ease.pop }, at),
      fromTo(`#${id}-t${i}`, { opacity: 0, y: -1.5 * u }, { opacity: 1, y: 0, duration: 0.45, ease: c.ease.in }, at),
      fromTo(
        `#${id}-i${i}`,
        { opacity: 0, y: 1.5 * u },
        { opacity: 1, y: 0, duration: 0.45, ease: c.ease.in },
        at + 0.08,
      ),
    );
  });
  return { html: parts.join(''), tweens };
}

// ---- comparison --------------------------------------------------------------------------------------

/**
 * Options side by side as cards (stacked on tall canvases): each its name, its figure big, its features; the
 * highlighted one raised, outlined in the accent, with its badge.
 */
function comparison(c: SceneContext, s: Of<'comparison'>): SceneOutput {
  const { f, id, look } = c;
  const { u } = f;
  const parts: string[] = [];
  const area = headed(c, s.heading, parts, true);
  const n = s.options.length;
  const stacked = f.orient === 'portrait' && n > 2;
  const gap = 3.5 * u;
  const pad = 3 * u;
  const badgeH = s.badge && s.highlight !== null ? 6 * u : 0;
  const ink = readableOn(look.palette.accent, [look.palette.background, '#ffffff', '#0b0b12']);
  const featured = s.options.some((o) => o.features.length > 0);
  const share = featured ? 1 : stacked ? BARE_CARD_SHARE.stacked : BARE_CARD_SHARE.columns;
  s.options.forEach((o, i) => {
    const r: Rect = stacked
      ? (() => {
          const h = ((area.h - badgeH - gap * (n - 1)) / n) * share;
          const top = area.y + badgeH + (area.h - badgeH - n * h - gap * (n - 1)) / 2;
          return { x: area.x, y: top + i * (h + gap), w: area.w, h };
        })()
      : (() => {
          const w = (area.w - gap * (n - 1)) / n;
          const h = (area.h - badgeH) * share;
          return { x: area.x + i * (w + gap), y: area.y + badgeH + (area.h - badgeH - h) / 2, w, h };
        })();
    const hl = s.highlight === i;
    const card = place(f, r);
    let inner = '';
    const innerW = r.w - 2 * pad;
    if (stacked) {
      const nameW = innerW * 0.5;
      // The name at the card's start, the figure at its end: mirrored inside the card for right-to-left text.
      const mirrored = (q: Rect): Rect => (f.rtl ? { ...q, x: r.w - q.x - q.w } : q);
      inner +=
        box(
          f,
          mirrored({ x: pad, y: pad, w: nameW, h: (r.h - 2 * pad) * (featured ? 0.42 : 1) }),
          { valign: 'center', placed: true },
          text(f, `${id}-n${i}`, o.name, { cls: 'oname', max: 6.5 * u, same: `${id}-n` }),
        ) +
        (o.figure
          ? box(
              f,
              mirrored({ x: pad + nameW, y: pad, w: innerW - nameW, h: (r.h - 2 * pad) * (featured ? 0.42 : 1) }),
              { valign: 'center', halign: 'end', placed: true },
              text(f, `${id}-v${i}`, o.figure, { cls: 'ofig', max: 8 * u, same: `${id}-v` }),
            )
          : '') +
        (o.features.length
          ? box(
              f,
              { x: pad, y: pad + (r.h - 2 * pad) * 0.46, w: innerW, h: (r.h - 2 * pad) * 0.54 },
              { valign: 'start', placed: true },
              o.features
                .map((ft, k) => text(f, `${id}-f${i}-${k}`, ft, { cls: 'ofeat', max: 4.6 * u, same: `${id}-f` }))
                .join(''),
            )
          : '');
    } else {
      const h = r.h - 2 * pad;
      // Without features the name and the figure share the card.
      const [nameH, figY, figH] = featured ? [0.16, 0.17, 0.22] : [0.34, 0.38, 0.5];
      inner +=
        box(
          f,
          { x: pad, y: pad, w: innerW, h: h * nameH },
          { valign: 'center', halign: 'center', placed: true },
          text(f, `${id}-n${i}`, o.name, { cls: 'oname', max: 6 * u, same: `${id}-n` }),
        ) +
        (o.figure
          ? box(
              f,
              { x: pad, y: pad + h * figY, w: innerW, h: h * figH },
              { valign: 'center', halign: 'center', placed: true },
              text(f, `${id}-v${i}`, o.figure, { cls: 'ofig', max: 9 * u, same: `${id}-v` }),
            )
          : '') +
        (featured
          ? `<div class="orule" style="left:${px(pad)};top:${px(pad + h * 0.42)};width:${px(innerW)}"></div>`
          : '') +
        (o.features.length
          ? box(
              f,
              { x: pad, y: pad + h * 0.46, w: innerW, h: h * 0.54 },
              { valign: 'start', halign: 'center', placed: true },
              o.features
                .map((ft, k) => text(f, `${id}-f${i}-${k}`, ft, { cls: 'ofeat', max: 4.8 * u, same: `${id}-f` }))
                .join(''),
            )
          : '');
    }
    parts.push(`<div class="ocard${hl ? ' hl' : ''}" id="${id}-o${i}" style="${at(card)}">${inner}</div>`);
    if (hl && s.badge) {
      const b = place(f, { x: r.x, y: r.y - badgeH - u * 0.5, w: r.w, h: badgeH });
      parts.push(
        // The pill holds the text with its padding: the page's fit sees the pill leave the box (a padded text shrinks
        // its own box and runs into the padding unseen).
        `<div class="box" style="${at(b)};justify-content:flex-end;align-items:center">` +
          `<div class="obadge" id="${id}-badge">` +
          text(f, `${id}-badge-text`, s.badge, { cls: 'obadge-text', max: 3.8 * u, style: `color:${ink}` }) +
          '</div></div>',
      );
    }
  });
  const t = c.t0;
  const stagger = sec(Math.min(0.25, (s.duration * 0.35) / n));
  const tweens = [
    ...headingTweens(c, s.heading),
    fromTo(
      `#${id} .ocard`,
      { opacity: 0, y: 4 * u },
      { opacity: 1, y: 0, duration: 0.55, ease: c.ease.in, stagger },
      t + 0.15,
    ),
  ];
  if (s.highlight !== null) {
    const at = t + 0.15 + stagger * n + 0.3;
    tweens.push(to(`#${id}-o${s.highlight}`, { scale: 1.04, duration: 0.45, ease: c.ease.pop }, at));
    if (s.badge)
      tweens.push(
        fromTo(
          `#${id}-badge`,
          { opacity: 0, scale: 0.6 },
          { opacity: 1, scale: 1, duration: 0.45, ease: c.ease.pop },
          at,
        ),
      );
  }
  return { html: parts.join(''), tweens };
}
