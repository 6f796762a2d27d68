// One line of text shaped by HarfBuzz: split into runs of one font and one direction (the Unicode
// bidirectional algorithm, by bidi-js), each grapheme cluster set in the face of its script or, where
// that lacks a character, the next face that has it; runs shaped by HarfBuzz and put in visual order.
// The result is glyphs with positions, as Chrome would draw them, and their outlines to draw with.
import bidiFactory from 'bidi-js';
import * as hb from 'harfbuzzjs';
import { EMOJI_FACE, fallbackFaces, faceFor, type Face } from './families.js';
import { openFace, type OpenFace } from './fonts.js';
import { graphemesOf, isCjk, isEmoji, scriptOfChar, type Direction } from './scripts.js';

const bidi = bidiFactory();

/** A glyph placed on a line: position of its origin in em from the line's left end on the baseline (y up). */
export type Glyph = { id: number; x: number; y: number; cluster: number };
export type ShapedRun = { face: OpenFace; glyphs: Glyph[]; rtl: boolean; emoji: boolean; start: number; end: number };
/** A shaped line: runs left to right, its advance width in em. */
export type ShapedLine = { text: string; runs: ShapedRun[]; width: number };

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

function covers(face: OpenFace, cluster: string): boolean {
  for (const ch of cluster) if (!IGNORABLE.test(ch) && !face.has(ch.codePointAt(0)!)) return false;
  return true;
}

/** The first installed face of `faces` that has every character of `cluster`. */
function firstCovering(faces: Face[], cluster: string): OpenFace | null {
  for (const f of faces) {
    const open = openFace(f);
    if (open && covers(open, cluster)) return open;
  }
  return null;
}

/** The face that draws a grapheme cluster in text set in `primary`, after `previous`. */
function faceOfCluster(cluster: string, primary: Face, previous: OpenFace | null): OpenFace | null {
  if (isEmoji(cluster)) {
    const emoji = openFace(EMOJI_FACE);
    if (emoji && covers(emoji, cluster)) return emoji;
  }
  let script = null;
  for (const ch of cluster) if ((script = scriptOfChar(ch))) break;
  const fallbacks = fallbackFaces(primary.style, primary.bold);
  if (script) {
    // CJK characters in a CJK face's text stay in its regional face (Han in Japanese text is Japanese).
    const own =
      script === primary.script || (isCjk(script) && isCjk(primary.script))
        ? primary
        : faceFor(script, primary.style, primary.bold);
    return firstCovering([own, ...fallbacks], cluster) ?? openFace(primary);
  }
  // Spaces, digits, punctuation, symbols: in the face around them when it has them.
  if (previous && previous.face !== EMOJI_FACE && covers(previous, cluster)) return previous;
  return firstCovering([primary, ...fallbacks], cluster) ?? openFace(primary);
}

const cache = new Map<string, ShapedLine>();

/**
 * One line shaped in `primary` (with per-cluster fallback), in a paragraph of direction `direction`.
 * Lines are cached: layout measures the same candidates many times.
 */
export function shapeLine(text: string, primary: Face, direction: Direction): ShapedLine {
  const key = `${primary.name}\u0000${direction}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const line = shapeUncached(text, primary, direction);
  if (cache.size > 20_000) cache.clear();
  cache.set(key, line);
  return line;
}

function shapeUncached(text: string, primary: Face, direction: Direction): ShapedLine {
  if (!text) return { text, runs: [], width: 0 };
  const { levels } = bidi.getEmbeddingLevels(text, direction);

  // Runs (logical order): grapheme clusters of one face and one embedding level.
  type Item = { face: OpenFace; level: number; start: number; end: number };
  const items: Item[] = [];
  let at = 0;
  let previous: OpenFace | null = null;
  for (const cluster of graphemesOf(text)) {
    const face = faceOfCluster(cluster, primary, previous);
    const level = levels[at]!;
    const last = items.at(-1);
    if (face && last && last.face === face && last.level === level) last.end = at + cluster.length;
    else if (face) items.push({ face, level, start: at, end: at + cluster.length });
    previous = face;
    at += cluster.length;
  }

  // Visual order of the runs: the order in which the bidi algorithm's reordering reaches each.
  const order = bidi.getReorderedIndices(text, {
    levels,
    paragraphs: [{ start: 0, end: text.length - 1, level: direction === 'rtl' ? 1 : 0 }],
  });
  const runOf = new Int32Array(text.length).fill(-1);
  items.forEach((it, i) => runOf.fill(i, it.start, it.end));
  const visual: Item[] = [];
  const placed = new Set<number>();
  for (const index of order) {
    const r = runOf[index]!;
    if (r >= 0 && !placed.has(r)) {
      placed.add(r);
      visual.push(items[r]!);
    }
  }

  let pen = 0;
  const runs = visual.map((item): ShapedRun => {
    const rtl = item.level % 2 === 1;
    const buffer = new hb.Buffer();
    // The whole line as context (Arabic letters join across a change of font), shaping the run only.
    buffer.addText(text, item.start, item.end - item.start);
    buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
    buffer.guessSegmentProperties();
    hb.shape(item.face.font, buffer);
    const scale = 1 / item.face.upem;
    const infos = buffer.getGlyphInfos();
    const positions = buffer.getGlyphPositions();
    const glyphs = infos.map((info, i) => {
      const p = positions[i]!;
      const g = { id: info.codepoint, x: pen + p.xOffset * scale, y: p.yOffset * scale, cluster: info.cluster };
      pen += p.xAdvance * scale;
      return g;
    });
    return { face: item.face, glyphs, rtl, emoji: item.face.face === EMOJI_FACE, start: item.start, end: item.end };
  });
  return { text, runs, width: pen };
}

/** Advance width in em of one line of text. */
export const lineWidth = (text: string, primary: Face, direction: Direction): number =>
  shapeLine(text, primary, direction).width;

/**
 * A glyph's outline as closed cubic Bézier contours in font units (y up): vertices `v`, and the
 * control points before (`i`) and after (`o`) each vertex, relative to it.
 */
export type Contour = { v: [number, number][]; i: [number, number][]; o: [number, number][] };

const outlines = new Map<string, Contour[]>();

export function glyphContours(face: OpenFace, glyph: number): Contour[] {
  const key = `${face.face.name}:${glyph}`;
  let contours = outlines.get(key);
  if (contours) return contours;
  contours = [];
  let c: Contour | null = null;
  let last: [number, number] = [0, 0];
  const close = () => {
    if (!c) return;
    // A contour ending on its start point: that point is the first vertex, with the closing curve's tangent.
    const n = c.v.length;
    if (n > 1 && c.v[n - 1]![0] === c.v[0]![0] && c.v[n - 1]![1] === c.v[0]![1]) {
      c.i[0] = c.i[n - 1]!;
      c.v.pop();
      c.i.pop();
      c.o.pop();
    }
    if (c.v.length > 1) contours!.push(c);
    c = null;
  };
  for (const { type, values: a } of face.font.glyphToJson(glyph)) {
    if (type === 'M') {
      close();
      last = [a[0]!, a[1]!];
      c = { v: [last], i: [[0, 0]], o: [[0, 0]] };
    } else if (!c) continue;
    else if (type === 'L') {
      last = [a[0]!, a[1]!];
      c.v.push(last);
      c.i.push([0, 0]);
      c.o.push([0, 0]);
    } else if (type === 'Q' || type === 'C') {
      // A quadratic is the cubic with control points two thirds of the way to its control point.
      const [c1, c2, end]: [number, number][] =
        type === 'Q'
          ? [
              [last[0] + ((a[0]! - last[0]) * 2) / 3, last[1] + ((a[1]! - last[1]) * 2) / 3],
              [a[2]! + ((a[0]! - a[2]!) * 2) / 3, a[3]! + ((a[1]! - a[3]!) * 2) / 3],
              [a[2]!, a[3]!],
            ]
          : [
              [a[0]!, a[1]!],
              [a[2]!, a[3]!],
              [a[4]!, a[5]!],
            ];
      c.o[c.o.length - 1] = [c1[0] - last[0], c1[1] - last[1]];
      c.v.push(end);
      c.i.push([c2[0] - end[0], c2[1] - end[1]]);
      c.o.push([0, 0]);
      last = end;
    } else if (type === 'Z') close();
  }
  close();
  outlines.set(key, contours);
  return contours;
}

export type Picture = { png: Uint8Array; width: number; height: number };

/** The colour picture (PNG) of an emoji glyph, from the colour emoji font. */
export function emojiPng(face: OpenFace, glyph: number): Picture | null {
  const png = face.font.getGlyphColorPng(glyph);
  if (!png || png.length < 24) return null;
  // Its size: the header chunk's width and height.
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { png, width: view.getUint32(16), height: view.getUint32(20) };
}

/** The picture of one emoji (a grapheme cluster: ZWJ sequences, flags and skin tones are one glyph), or null. */
export function emojiPicture(emoji: string): Picture | null {
  const face = openFace(EMOJI_FACE);
  if (!face || !isEmoji(emoji)) return null;
  const line = shapeLine(emoji, EMOJI_FACE, 'ltr');
  const glyphs = line.runs.flatMap((r) => (r.emoji ? r.glyphs : []));
  return glyphs.length === 1 ? emojiPng(face, glyphs[0]!.id) : null;
}
