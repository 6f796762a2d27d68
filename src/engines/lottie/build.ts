// Small builders of Lottie (bodymovin 5.x) JSON: animated properties, transforms, shape, text, image
// and precomposition layers. Numbers are rounded so the same input always gives the same JSON.

export type Vec = number[];
export type Json = Record<string, unknown>;

/** Cubic-bezier easing (CSS order: x1, y1, x2, y2), or 'hold' (jump at the next keyframe). */
export type Ease = readonly [number, number, number, number] | 'hold';

export const EASE = {
  linear: [0, 0, 1, 1],
  inOut: [0.45, 0, 0.55, 1],
  out: [0.22, 1, 0.36, 1],
  calmOut: [0.25, 0.1, 0.25, 1],
  in: [0.55, 0, 1, 0.45],
  back: [0.34, 1.56, 0.64, 1],
} as const satisfies Record<string, Ease>;

const r = (n: number) => Math.round(n * 1000) / 1000;
const rv = (v: number | Vec): Vec => (Array.isArray(v) ? v.map(r) : [r(v)]);

/** One keyframe of an animated property: at frame `t` the value is `v`, easing `ease` towards the next. */
export type Key = [t: number, v: number | Vec, ease?: Ease];

/** A static value, or keyframes (values of equal keyframes collapse to a static value). */
export function prop(value: number | Vec | Key[]): Json {
  if (!Array.isArray(value) || typeof value[0] === 'number' || value.length === 0) {
    return { a: 0, k: Array.isArray(value) ? (value as Vec).map(r) : r(value as number) };
  }
  const keys = (value as Key[]).slice().sort((a, b) => a[0] - b[0]);
  const first = JSON.stringify(rv(keys[0]![1]));
  if (keys.every((k) => JSON.stringify(rv(k[1])) === first)) {
    const v = keys[0]![1];
    return { a: 0, k: Array.isArray(v) ? v.map(r) : r(v) };
  }
  return {
    a: 1,
    k: keys.map(([t, v, ease], i) => {
      const kf: Json = { t: r(t), s: rv(v) };
      if (i < keys.length - 1) {
        if (ease === 'hold') kf.h = 1;
        else {
          const [x1, y1, x2, y2] = ease ?? EASE.inOut;
          kf.o = { x: [x1], y: [y1] };
          kf.i = { x: [x2], y: [y2] };
        }
      }
      return kf;
    }),
  };
}

/** #rrggbb → [r, g, b] in 0–1. */
export function rgb(hex: string): Vec {
  return [1, 3, 5].map((i) => r(parseInt(hex.slice(i, i + 2), 16) / 255));
}
export const rgba = (hex: string, alpha = 1): Vec => [...rgb(hex), alpha];

export type Transform = {
  p?: number | Vec | Key[];
  a?: Vec;
  s?: number | Vec | Key[];
  r?: number | Key[];
  o?: number | Key[];
};

/** A layer transform; 2-D positions, anchors and scales get their third component. */
export function transform(t: Transform = {}): Json {
  const three = (v: Vec) => (v.length === 2 ? [...v, 0] : v);
  const threeScale = (v: Vec) => (v.length === 2 ? [...v, 100] : v);
  const map = (v: number | Vec | Key[] | undefined, fix: (v: Vec) => Vec, dflt: Vec) => {
    if (v === undefined) return prop(dflt);
    if (typeof v === 'number') return prop(fix([v, v]));
    if (typeof v[0] === 'number') return prop(fix(v as Vec));
    return prop((v as Key[]).map(([t, val, e]) => [t, fix(typeof val === 'number' ? [val, val] : val), e] as Key));
  };
  return {
    o: prop(t.o ?? 100),
    r: prop(t.r ?? 0),
    p: map(t.p, three, [0, 0, 0]),
    a: prop(three(t.a ?? [0, 0])),
    s: map(t.s, threeScale, [100, 100, 100]),
  };
}

type LayerBase = { ind: number; nm: string; ip: number; op: number; st?: number; ks?: Transform; parent?: number };

function layer(ty: number, b: LayerBase, extra: Json): Json {
  return {
    ddd: 0,
    ind: b.ind,
    ty,
    nm: b.nm,
    sr: 1,
    ...(b.parent !== undefined ? { parent: b.parent } : {}),
    ks: transform(b.ks),
    ao: 0,
    ip: r(b.ip),
    op: r(b.op),
    st: r(b.st ?? 0),
    bm: 0,
    ...extra,
  };
}

export const shapeLayer = (b: LayerBase, shapes: Json[]) => layer(4, b, { shapes });
export const imageLayer = (b: LayerBase, refId: string) => layer(2, b, { refId });
export const precompLayer = (b: LayerBase, refId: string, w: number, h: number) => layer(0, b, { refId, w, h });
export const nullLayer = (b: LayerBase) => layer(3, b, {});

export type TextDoc = {
  text: string;
  font: string;
  /** Drawn in capitals: the document keeps the text as written. */
  caps?: boolean;
  /** BCP 47 language of the text: its capitals follow its rules (written as the `lang` extension with `ca`). */
  lang?: string;
  /** Paragraph direction of the block the line belongs to (an extension: see text.ts). */
  direction?: 'ltr' | 'rtl';
  size: number;
  lineHeight: number;
  colour: string;
  /** 0 left, 1 right, 2 center. */
  justify: 0 | 1 | 2;
  tracking?: number;
  /** Box text: top-left corner and size, in layer space. */
  box: { x: number; y: number; w: number; h: number };
};

function textDocument(d: TextDoc): Json {
  return {
    s: r(d.size),
    f: d.font,
    t: d.text,
    ...(d.caps ? { ca: 1, ...(d.lang && d.lang !== 'und' ? { lang: d.lang } : {}) } : {}),
    ...(d.direction === 'rtl' ? { dir: 'rtl' } : {}),
    j: d.justify,
    tr: d.tracking ?? 0,
    lh: r(d.lineHeight),
    ls: 0,
    fc: rgb(d.colour),
    sz: [r(d.box.w), r(d.box.h)],
    ps: [r(d.box.x), r(d.box.y)],
  };
}

/** A text layer; several documents make a text that changes at their frames (hold keyframes). */
export function textLayer(b: LayerBase, docs: TextDoc | { t: number; doc: TextDoc }[]): Json {
  const k = Array.isArray(docs)
    ? docs.map(({ t, doc }) => ({ t: r(t), s: textDocument(doc) }))
    : [{ t: 0, s: textDocument(docs) }];
  return layer(5, b, { t: { d: { k }, p: {}, m: { g: 1, a: { a: 0, k: [0, 0] } }, a: [] } });
}

// ---- Shapes ----------------------------------------------------------------------------------------

export const rect = (p: Vec | Key[], s: Vec | Key[], radius: number | Key[] = 0): Json => ({
  ty: 'rc',
  d: 1,
  p: prop(p),
  s: prop(s),
  r: prop(radius),
});
export const ellipse = (p: Vec | Key[], s: Vec | Key[]): Json => ({ ty: 'el', d: 1, p: prop(p), s: prop(s) });
export const fill = (hex: string, opacity: number | Key[] = 100): Json => ({
  ty: 'fl',
  c: prop(rgba(hex)),
  o: prop(opacity),
  r: 1,
});
export const stroke = (hex: string, width: number, opacity: number | Key[] = 100, dash?: number[]): Json => ({
  ty: 'st',
  c: prop(rgba(hex)),
  o: prop(opacity),
  w: prop(width),
  lc: 2,
  lj: 2,
  ...(dash
    ? {
        d: [
          { n: 'd', nm: 'dash', v: prop(dash[0]!) },
          { n: 'g', nm: 'gap', v: prop(dash[1] ?? dash[0]!) },
          { n: 'o', nm: 'offset', v: prop(0) },
        ],
      }
    : {}),
});
/** Trim path: the part `start`–`end` (percent) of the paths before it is drawn. */
export const trim = (start: number | Key[], end: number | Key[]): Json => ({
  ty: 'tm',
  s: prop(start),
  e: prop(end),
  o: prop(0),
  m: 1,
});

/**
 * A gradient fill: `stops` as [offset 0–1, #rrggbb, alpha 0–1]; linear from `from` to `to`, or radial
 * (centre `from`, radius to `to`).
 */
export function gradient(
  kind: 'linear' | 'radial',
  from: Vec,
  to: Vec,
  stops: [number, string, number][],
  opacity = 100,
): Json {
  const colours = stops.flatMap(([o, c]) => [r(o), ...rgb(c)]);
  const alphas = stops.flatMap(([o, , a]) => [r(o), r(a)]);
  return {
    ty: 'gf',
    o: prop(opacity),
    r: 1,
    s: prop(from),
    e: prop(to),
    t: kind === 'linear' ? 1 : 2,
    g: { p: stops.length, k: prop([...colours, ...alphas]) },
  };
}

/** A closed or open path of straight segments. */
export function path(points: Vec[], closed: boolean): Json {
  return {
    ty: 'sh',
    d: 1,
    ks: {
      a: 0,
      k: { c: closed, v: points.map((p) => p.map(r)), i: points.map(() => [0, 0]), o: points.map(() => [0, 0]) },
    },
  };
}

/** A group of shapes with its own transform (last, as Lottie requires). */
export function group(
  nm: string,
  items: Json[],
  t: { p?: Vec | Key[]; a?: Vec; s?: Vec | Key[]; r?: number | Key[]; o?: number | Key[] } = {},
): Json {
  return {
    ty: 'gr',
    nm,
    it: [
      ...items,
      {
        ty: 'tr',
        p: prop(t.p ?? [0, 0]),
        a: prop(t.a ?? [0, 0]),
        s: prop(t.s ?? [100, 100]),
        r: prop(t.r ?? 0),
        o: prop(t.o ?? 100),
        sk: prop(0),
        sa: prop(0),
      },
    ],
  };
}
