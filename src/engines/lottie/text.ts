// Lottie text drawn as HarfBuzz shaped it. ThorVG lays text out without shaping (no joining, no
// reordering, no conjuncts, no mark positioning), so before it loads an animation every text layer is
// replaced by a shape layer of the glyph outlines (src/text/shape.ts) — or, when the text holds
// emoji, by a precomposition of those outlines and the emoji pictures. Only the render sees this: the
// stored artifact keeps its text layers, so its text can be read from it.
//
// How a text document is laid out (as After Effects and lottie-web do): point text (no `sz`) has its
// first baseline at the layer's origin, aligned on x = 0 by `j`; box text (`sz`, `ps`) wraps at the
// box's width and has its first baseline the face's ascent below the box's top. `lh` is the line
// height, `tr` tracking in 1/1000 em, `ls` a baseline shift, `ca` 1 sets capitals, `fc`/`sc`/`sw`
// fill, stroke colour and stroke width. Text animators (`t.a`) are not drawn. An extension: `dir`
// ("rtl" or "ltr") is the paragraph direction (a line of a right-to-left block that happens to hold
// more Latin letters, "متجر Orbit Pro", is still set right to left); without it, a text is right to
// left when most of its letters are (src/text/scripts.ts).
import { faceForName, type Face } from '../../text/families.js';
import { openFace } from '../../text/fonts.js';
import { wrapText } from '../../text/lines.js';
import { directionOf, scriptOf, type Direction } from '../../text/scripts.js';
import { emojiPng, glyphContours, shapeLine, type Picture, type ShapedLine } from '../../text/shape.js';
import type { LottieAnimation } from './validate.js';

type Json = Record<string, unknown>;
export type TextDocument = {
  f?: unknown;
  t?: unknown;
  dir?: unknown;
  lang?: unknown;
  s?: unknown;
  sz?: unknown;
  ps?: unknown;
  j?: unknown;
  tr?: unknown;
  lh?: unknown;
  ls?: unknown;
  ca?: unknown;
  fc?: unknown;
  sc?: unknown;
  sw?: unknown;
  of?: unknown;
};
type FontEntry = { fName?: string; fFamily?: string; fStyle?: string };

const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);
const vec = (v: unknown): number[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : null;

function textLayersOf(layers: unknown): Json[] {
  return Array.isArray(layers)
    ? (layers as Json[]).filter((l) => l?.ty === 5 && typeof l.t === 'object' && l.t !== null)
    : [];
}

/** The keyframes (`t.d.k`: frame and document) of a text layer. */
function keyframesOf(layer: Json): { t: number; s: TextDocument }[] {
  const k = ((layer.t as { d?: { k?: unknown } }).d ?? {}).k;
  if (!Array.isArray(k)) return [];
  return (k as { t?: unknown; s?: unknown }[])
    .filter((kf) => kf && typeof kf.s === 'object' && kf.s !== null)
    .map((kf) => ({ t: num(kf.t, 0), s: kf.s as TextDocument }));
}

/** Every text document (`t.d.k[].s`) of the animation's text layers, in precompositions too. */
export function textDocuments(animation: Pick<LottieAnimation, 'layers' | 'assets'>): TextDocument[] {
  return [animation.layers, ...(animation.assets ?? []).map((a) => a.layers)]
    .flatMap(textLayersOf)
    .flatMap((l) => keyframesOf(l).map((k) => k.s));
}

/** One line of a laid-out document: shaped, its left end and baseline in layer space (px). */
export type PlacedLine = { shaped: ShapedLine; x: number; baseline: number };
export type LaidOutDocument = { face: Face; size: number; tracking: number; lines: PlacedLine[] };

/** The face of a document: the one its font name names, for the script of its text. */
export function faceOfDocument(doc: TextDocument, fonts: FontEntry[]): Face {
  const name = typeof doc.f === 'string' ? doc.f : '';
  const entry = fonts.find((f) => f.fName === name);
  return faceForName(name, entry?.fStyle, scriptOf(typeof doc.t === 'string' ? doc.t : ''));
}

/** Width in px of one line of text in `face` at `size` (tracking in 1/1000 em per character). */
/**
 * A text in capitals (`ca: 1`) by the rules of its language when the document names one (`lang`, an
 * extension like `dir`: Turkish "i" → "İ"), else Unicode's default.
 */
export function capitals(text: string, lang?: unknown): string {
  try {
    return typeof lang === 'string' && lang !== 'und' ? text.toLocaleUpperCase(lang) : text.toUpperCase();
  } catch {
    return text.toUpperCase(); // not a language tag
  }
}

export function measureLine(text: string, face: Face, size: number, direction: Direction, tracking = 0): number {
  const n = [...text].length;
  return (shapeLine(text, face, direction).width + (tracking / 1000) * Math.max(0, n - 1)) * size;
}

/** Lines of a text document, shaped and placed. */
export function layOutDocument(doc: TextDocument, fonts: FontEntry[]): LaidOutDocument {
  const face = faceOfDocument(doc, fonts);
  const size = num(doc.s, 10);
  const tracking = num(doc.tr, 0);
  let text = typeof doc.t === 'string' ? doc.t : '';
  if (doc.ca === 1) text = capitals(text, doc.lang);
  const direction: Direction = doc.dir === 'rtl' || doc.dir === 'ltr' ? doc.dir : directionOf(text);
  const box = vec(doc.sz);
  const at = vec(doc.ps) ?? [0, 0];
  const lineHeight = num(doc.lh, size * 1.2);
  const ascent = openFace(face)?.ascent ?? 1.07;
  const measure = (s: string) => measureLine(s, face, size, direction, tracking);
  const paragraphs = text.split(/\r\n|\r|\n|\u0003/);
  const texts = box && box[0]! > 0 ? paragraphs.flatMap((p) => wrapText(p, box[0]!, measure)) : paragraphs;
  const justify = num(doc.j, 0);
  // 0 left, 1 right, 2 centre; 3–6 justified lines are set like their last line (3 left, 4 right, 5 centre).
  const align = justify === 1 || justify === 4 ? 'right' : justify === 2 || justify === 5 ? 'center' : 'left';
  const left = box ? at[0]! : 0;
  const width = box ? box[0]! : 0;
  const top = box ? at[1]! + ascent * size : 0;
  const shift = num(doc.ls, 0);
  const lines = texts.map((line, i) => {
    const shaped = shapeLine(line, face, direction);
    const w = measure(line);
    const x = align === 'left' ? left : align === 'right' ? left + width - w : left + (width - w) / 2;
    return { shaped, x, baseline: top + i * lineHeight - shift };
  });
  return { face, size, tracking, lines };
}

// ---- Drawing ----------------------------------------------------------------------------------------

const r2 = (n: number) => Math.round(n * 100) / 100;

function colour(v: unknown): number[] | null {
  const c = vec(v);
  if (!c || c.length < 3) return null;
  const scale = c.slice(0, 3).some((x) => x > 1) ? 255 : 1;
  return [c[0]! / scale, c[1]! / scale, c[2]! / scale, 1];
}

type Placed = { picture: Picture; x: number; y: number; size: number };

/** Glyph outlines of a document as shape items (one group per run), and the emoji pictures it shows. */
function drawDocument(doc: TextDocument, fonts: FontEntry[]): { groups: Json[]; pictures: Placed[]; bounds: number[] } {
  const laid = layOutDocument(doc, fonts);
  const { size, tracking } = laid;
  const fill = colour(doc.fc);
  const strokeColour = colour(doc.sc);
  const strokeWidth = num(doc.sw, 0);
  const paint: Json[] = [];
  const stroke =
    strokeColour && strokeWidth > 0
      ? { ty: 'st', c: { a: 0, k: strokeColour }, o: { a: 0, k: 100 }, w: { a: 0, k: strokeWidth }, lc: 2, lj: 2 }
      : null;
  const fillItem = fill ? { ty: 'fl', c: { a: 0, k: fill }, o: { a: 0, k: 100 }, r: 1 } : null;
  // The first item is drawn on top: the stroke over the fill when `of` says so.
  if (doc.of === true || doc.of === 1) paint.push(...([stroke, fillItem].filter(Boolean) as Json[]));
  else paint.push(...([fillItem, stroke].filter(Boolean) as Json[]));
  const groups: Json[] = [];
  const pictures: Placed[] = [];
  const bounds = [Infinity, Infinity, -Infinity, -Infinity];
  const extend = (x: number, y: number) => {
    bounds[0] = Math.min(bounds[0]!, x);
    bounds[1] = Math.min(bounds[1]!, y);
    bounds[2] = Math.max(bounds[2]!, x);
    bounds[3] = Math.max(bounds[3]!, y);
  };
  for (const line of laid.lines) {
    let clusters = 0;
    for (const run of line.shaped.runs) {
      const scale = size / run.face.upem;
      const paths: Json[] = [];
      let lastCluster = -1;
      for (const g of run.glyphs) {
        if (g.cluster !== lastCluster) {
          if (lastCluster >= 0 || clusters > 0) clusters++;
          lastCluster = g.cluster;
        }
        const ox = line.x + (g.x + (tracking / 1000) * clusters) * size;
        const oy = line.baseline - g.y * size;
        if (run.emoji) {
          const picture = emojiPng(run.face, g.id);
          const em = run.face.ascent + run.face.descent;
          if (picture) pictures.push({ picture, x: ox, y: oy - run.face.ascent * size, size: em * size });
          extend(ox, oy - run.face.ascent * size);
          extend(ox + em * size, oy + run.face.descent * size);
          continue;
        }
        for (const c of glyphContours(run.face, g.id)) {
          const v = c.v.map(([x, y]) => [r2(ox + x * scale), r2(oy - y * scale)]);
          for (const [x, y] of v) extend(x!, y!);
          paths.push({
            ty: 'sh',
            ks: {
              a: 0,
              k: {
                c: true,
                v,
                i: c.i.map(([x, y]) => [r2(x * scale), r2(-y * scale)]),
                o: c.o.map(([x, y]) => [r2(x * scale), r2(-y * scale)]),
              },
            },
          });
        }
      }
      if (paths.length) groups.push({ ty: 'gr', nm: run.face.face.name, it: [...paths, ...paint, transformItem()] });
    }
  }
  return { groups, pictures, bounds };
}

const transformItem = (o: Json = { a: 0, k: 100 }): Json => ({
  ty: 'tr',
  p: { a: 0, k: [0, 0] },
  a: { a: 0, k: [0, 0] },
  s: { a: 0, k: [100, 100] },
  r: { a: 0, k: 0 },
  o,
  sk: { a: 0, k: 0 },
  sa: { a: 0, k: 0 },
});

/** Opacity showing a document only between its keyframe's frame and the next's (hold keyframes). */
function shownBetween(from: number, to: number | undefined, first: boolean): Json {
  if (first && to === undefined) return { a: 0, k: 100 };
  const keys: Json[] = [];
  if (!first) keys.push({ t: -1e6, s: [0], h: 1 });
  keys.push({ t: first ? -1e6 : from, s: [100], h: 1 });
  if (to !== undefined) keys.push({ t: to, s: [0], h: 1 });
  return { a: 1, k: keys };
}

let pictureAssets = 0;

/**
 * Every text layer of the animation (in precompositions too) replaced by the outlines of its shaped
 * text. Returns whether there was any text.
 */
export function outlineText(animation: LottieAnimation): boolean {
  const fonts = animation.fonts?.list ?? [];
  const added: Json[] = [];
  let any = false;
  const convert = (layers: unknown) => {
    if (!Array.isArray(layers)) return;
    for (const [index, layer] of (layers as Json[]).entries()) {
      if (layer?.ty !== 5 || typeof layer.t !== 'object' || layer.t === null) continue;
      any = true;
      const frames = keyframesOf(layer);
      const drawn = frames.map(({ s }) => drawDocument(s, fonts));
      const shapes = drawn.map((d, i) => ({
        ty: 'gr',
        nm: `text ${i + 1}`,
        it: [...d.groups, transformItem(shownBetween(frames[i]!.t, frames[i + 1]?.t, i === 0))],
      }));
      const { t: _text, ...rest } = layer;
      const shapeLayer = { ...rest, ty: 4, shapes };
      const pictures = drawn.flatMap((d, i) => d.pictures.map((p) => ({ ...p, doc: i })));
      if (!pictures.length) {
        layers[index] = shapeLayer;
        continue;
      }
      // With emoji: a precomposition of the outlines and the pictures, shifted so that everything lies
      // inside it (a precomposition clips to its size); the layer's anchor moves by the same amount.
      const b = drawn
        .map((d) => d.bounds)
        .reduce((a, c) => [
          Math.min(a[0]!, c[0]!),
          Math.min(a[1]!, c[1]!),
          Math.max(a[2]!, c[2]!),
          Math.max(a[3]!, c[3]!),
        ]);
      const dx = Math.floor(b[0]!) - 2;
      const dy = Math.floor(b[1]!) - 2;
      const w = Math.ceil(b[2]! - dx) + 4;
      const h = Math.ceil(b[3]! - dy) + 4;
      const id = `text_${++pictureAssets}`;
      const st = num(layer.st, 0);
      const span = { ip: num(layer.ip, 0) - st, op: num(layer.op, 0) - st, st: 0 };
      const inner: Json[] = [
        { ddd: 0, ind: 1, ty: 4, nm: 'outlines', sr: 1, ks: still([-dx, -dy]), ao: 0, ...span, bm: 0, shapes },
        ...pictures.map((p, i) => {
          const picture = `${id}_${i + 1}`;
          const { png, width, height } = p.picture;
          added.push({
            id: picture,
            w: width,
            h: height,
            u: '',
            p: `data:image/png;base64,${Buffer.from(png).toString('base64')}`,
            e: 1,
          });
          const scale = (p.size / height) * 100;
          return {
            ddd: 0,
            ind: i + 2,
            ty: 2,
            nm: 'emoji',
            sr: 1,
            refId: picture,
            ao: 0,
            ...span,
            bm: 0,
            ks: {
              ...still([p.x - dx, p.y - dy], [scale, scale, 100]),
              o: shownBetween(frames[p.doc]!.t, frames[p.doc + 1]?.t, p.doc === 0),
            },
          };
        }),
      ];
      added.push({ id, nm: `text ${String(layer.nm ?? '')}`, fr: animation.fr, w, h, layers: inner });
      const ks = (layer.ks ?? {}) as Json;
      layers[index] = { ...rest, ty: 0, refId: id, w, h, ks: { ...ks, a: shiftAnchor(ks.a, -dx, -dy) } };
    }
  };
  convert(animation.layers);
  for (const asset of animation.assets ?? []) convert(asset.layers);
  if (added.length) animation.assets = [...(animation.assets ?? []), ...added];
  return any;
}

/** A transform standing still at `p`. */
function still(p: number[], s: number[] = [100, 100, 100]): Json {
  return {
    o: { a: 0, k: 100 },
    r: { a: 0, k: 0 },
    p: { a: 0, k: [...p, 0] },
    a: { a: 0, k: [0, 0, 0] },
    s: { a: 0, k: s },
  };
}

/** An anchor property (static or keyframed) moved by (dx, dy). */
function shiftAnchor(a: unknown, dx: number, dy: number): Json {
  const move = (v: unknown) => {
    const p = vec(v) ?? [0, 0, 0];
    return [p[0]! + dx, p[1]! + dy, ...p.slice(2)];
  };
  if (!a || typeof a !== 'object') return { a: 0, k: [dx, dy, 0] };
  const prop = a as { a?: number; k?: unknown };
  if (prop.a === 1 && Array.isArray(prop.k))
    return {
      ...prop,
      k: (prop.k as Json[]).map((kf) => ({
        ...kf,
        ...(kf.s ? { s: move(kf.s) } : {}),
        ...(kf.e ? { e: move(kf.e) } : {}),
      })),
    };
  return { ...prop, k: move(prop.k) };
}
