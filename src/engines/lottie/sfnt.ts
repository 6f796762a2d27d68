// A TrueType font of just the characters an animation uses, written from any font fontkit reads.
// ThorVG's font loader reads TrueType outlines only (`glyf`/`loca`, sfnt version 1.0): it refuses
// the CFF outlines of OpenType fonts such as Noto Sans CJK, and font collections (.ttc) altogether.
// So the glyphs an animation needs are read (CFF cubic curves, or TrueType quadratics), converted to
// quadratic Béziers and written as a small standalone TrueType font that registers in a few ms.
import type { Font, PathCommand } from 'fontkit';

type Point = { x: number; y: number; on: boolean };
type Contour = Point[];

/** Largest distance (font units) between a cubic curve and its quadratic approximation. */
const TOLERANCE = 0.5;

/** Quadratic control points (off-curve) and end points (on-curve) approximating one cubic. */
function cubicToQuadratics(p0: [number, number], c1: [number, number], c2: [number, number], p3: [number, number]): Point[] {
  // The error of the mid-point quadratic of a cubic segment is at most |p3 - 3c2 + 3c1 - p0| * √3/36,
  // and shrinks with the cube of the segment's parameter length.
  const dx = p3[0] - 3 * c2[0] + 3 * c1[0] - p0[0];
  const dy = p3[1] - 3 * c2[1] + 3 * c1[1] - p0[1];
  const error = (Math.hypot(dx, dy) * Math.sqrt(3)) / 36;
  const n = Math.max(1, Math.min(16, Math.ceil(Math.cbrt(error / TOLERANCE))));
  const at = (t: number): [number, number] => {
    const u = 1 - t;
    const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
    return [a * p0[0] + b * c1[0] + c * c2[0] + d * p3[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p3[1]];
  };
  const derivative = (t: number): [number, number] => {
    const u = 1 - t;
    return [
      3 * (u * u * (c1[0] - p0[0]) + 2 * u * t * (c2[0] - c1[0]) + t * t * (p3[0] - c2[0])),
      3 * (u * u * (c1[1] - p0[1]) + 2 * u * t * (c2[1] - c1[1]) + t * t * (p3[1] - c2[1])),
    ];
  };
  const out: Point[] = [];
  for (let k = 0; k < n; k++) {
    const t0 = k / n, t1 = (k + 1) / n, h = t1 - t0;
    const s = at(t0), e = at(t1);
    // Sub-cubic control points from the derivatives, then the quadratic control point (3(c1+c2) - s - e)/4.
    const d0 = derivative(t0), d1 = derivative(t1);
    const q1: [number, number] = [s[0] + (d0[0] * h) / 3, s[1] + (d0[1] * h) / 3];
    const q2: [number, number] = [e[0] - (d1[0] * h) / 3, e[1] - (d1[1] * h) / 3];
    out.push({ x: (3 * (q1[0] + q2[0]) - s[0] - e[0]) / 4, y: (3 * (q1[1] + q2[1]) - s[1] - e[1]) / 4, on: false });
    out.push({ x: e[0], y: e[1], on: true });
  }
  return out;
}

/** A glyph's path as TrueType contours (on- and off-curve points, integer font units). */
export function contoursOf(commands: readonly PathCommand[]): Contour[] {
  const contours: Contour[] = [];
  let current: Contour = [];
  let last: [number, number] = [0, 0];
  const close = () => {
    // TrueType closes contours itself: drop an end point that repeats the start.
    const first = current[0];
    const end = current[current.length - 1];
    if (first && end && current.length > 1 && end.on && Math.round(end.x) === Math.round(first.x) && Math.round(end.y) === Math.round(first.y)) current.pop();
    if (current.length > 1) contours.push(current);
    current = [];
  };
  for (const { command, args } of commands) {
    if (command === 'moveTo') {
      close();
      last = [args[0]!, args[1]!];
      current.push({ x: last[0], y: last[1], on: true });
    } else if (command === 'lineTo') {
      last = [args[0]!, args[1]!];
      current.push({ x: last[0], y: last[1], on: true });
    } else if (command === 'quadraticCurveTo') {
      current.push({ x: args[0]!, y: args[1]!, on: false });
      last = [args[2]!, args[3]!];
      current.push({ x: last[0], y: last[1], on: true });
    } else if (command === 'bezierCurveTo') {
      const end: [number, number] = [args[4]!, args[5]!];
      current.push(...cubicToQuadratics(last, [args[0]!, args[1]!], [args[2]!, args[3]!], end));
      last = end;
    } else if (command === 'closePath') close();
  }
  close();
  return contours.map((c) => c.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y), on: p.on })));
}

/** One simple glyph in the `glyf` format (coordinates as 16-bit deltas, no instructions). */
function encodeGlyph(contours: Contour[]): { data: Buffer; xMin: number; yMin: number; xMax: number; yMax: number; points: number } {
  const points = contours.flat();
  if (points.length === 0) return { data: Buffer.alloc(0), xMin: 0, yMin: 0, xMax: 0, yMax: 0, points: 0 };
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const box = { xMin: Math.min(...xs), yMin: Math.min(...ys), xMax: Math.max(...xs), yMax: Math.max(...ys) };
  const size = 10 + 2 * contours.length + 2 + points.length * 5;
  const data = Buffer.alloc(size + (size % 2));
  let o = data.writeInt16BE(contours.length, 0);
  for (const v of [box.xMin, box.yMin, box.xMax, box.yMax]) o = data.writeInt16BE(v, o);
  let end = -1;
  for (const c of contours) o = data.writeUInt16BE((end += c.length), o);
  o = data.writeUInt16BE(0, o); // instructionLength
  for (const p of points) o = data.writeUInt8(p.on ? 1 : 0, o); // x and y: 16-bit signed deltas
  let prev = 0;
  for (const p of points) {
    o = data.writeInt16BE(p.x - prev, o);
    prev = p.x;
  }
  prev = 0;
  for (const p of points) {
    o = data.writeInt16BE(p.y - prev, o);
    prev = p.y;
  }
  return { data, ...box, points: points.length };
}

/** The sfnt container: table directory (sorted by tag, as ThorVG binary-searches it) and 4-byte aligned tables. */
function sfnt(tables: Record<string, Buffer>): Buffer {
  const tags = Object.keys(tables).sort();
  const entrySelector = Math.floor(Math.log2(tags.length));
  const header = Buffer.alloc(12 + 16 * tags.length);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tags.length, 4);
  header.writeUInt16BE(16 * 2 ** entrySelector, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(16 * tags.length - 16 * 2 ** entrySelector, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tags.forEach((tag, i) => {
    const table = tables[tag]!;
    const padded = Buffer.alloc((table.length + 3) & ~3);
    table.copy(padded);
    let sum = 0;
    for (let k = 0; k < padded.length; k += 4) sum = (sum + padded.readUInt32BE(k)) >>> 0;
    const r = 12 + 16 * i;
    header.write(tag.padEnd(4, ' '), r, 'latin1');
    header.writeUInt32BE(sum, r + 4);
    header.writeUInt32BE(offset, r + 8);
    header.writeUInt32BE(table.length, r + 12);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/** The font whose vertical metrics and units per em the written font takes. */
export type FontMetrics = Pick<Font, 'unitsPerEm' | 'ascent' | 'descent' | 'lineGap'>;

/**
 * A TrueType font of `.notdef` and one glyph per code point, each taken from its source font (its
 * outline and advance scaled to `metrics.unitsPerEm`).
 */
export function trueTypeFont(metrics: FontMetrics, sources: { codePoint: number; font: Font }[]): Buffer {
  const seen = new Set<number>();
  const chars = sources.filter(({ codePoint }) => !seen.has(codePoint) && seen.add(codePoint)).sort((a, b) => a.codePoint - b.codePoint);
  const glyphs = [{ advance: Math.round(metrics.unitsPerEm / 2), glyph: encodeGlyph([]) }];
  for (const { codePoint, font } of chars) {
    const g = font.glyphForCodePoint(codePoint);
    const scale = metrics.unitsPerEm / font.unitsPerEm;
    const commands = scale === 1 ? g.path.commands : g.path.commands.map((c) => ({ command: c.command, args: c.args.map((v) => v * scale) }));
    glyphs.push({ advance: Math.round(g.advanceWidth * scale), glyph: encodeGlyph(contoursOf(commands)) });
  }

  const inked = glyphs.filter((g) => g.glyph.points > 0).map((g) => g.glyph);
  const bbox = inked.length
    ? { xMin: Math.min(...inked.map((g) => g.xMin)), yMin: Math.min(...inked.map((g) => g.yMin)), xMax: Math.max(...inked.map((g) => g.xMax)), yMax: Math.max(...inked.map((g) => g.yMax)) }
    : { xMin: 0, yMin: 0, xMax: 0, yMax: 0 };

  const glyf = Buffer.concat(glyphs.map((g) => g.glyph.data));
  const loca = Buffer.alloc(4 * (glyphs.length + 1));
  let at = 0;
  glyphs.forEach((g, i) => {
    loca.writeUInt32BE(at, 4 * i);
    at += g.glyph.data.length;
  });
  loca.writeUInt32BE(at, 4 * glyphs.length);

  const hmtx = Buffer.alloc(4 * glyphs.length);
  glyphs.forEach((g, i) => {
    hmtx.writeUInt16BE(g.advance, 4 * i);
    hmtx.writeInt16BE(g.glyph.points ? g.glyph.xMin : 0, 4 * i + 2);
  });

  const head = Buffer.alloc(54);
  head.writeUInt32BE(0x00010000, 0); // version
  head.writeUInt32BE(0x00010000, 4); // fontRevision
  head.writeUInt32BE(0x5f0f3cf5, 12); // magicNumber
  head.writeUInt16BE(0x000b, 16); // flags: baseline at y=0, lsb at x=0, integer scaling
  head.writeUInt16BE(metrics.unitsPerEm, 18);
  head.writeInt16BE(bbox.xMin, 36);
  head.writeInt16BE(bbox.yMin, 38);
  head.writeInt16BE(bbox.xMax, 40);
  head.writeInt16BE(bbox.yMax, 42);
  head.writeUInt16BE(8, 46); // lowestRecPPEM
  head.writeInt16BE(2, 48); // fontDirectionHint
  head.writeInt16BE(1, 50); // indexToLocFormat: 32-bit offsets

  const hhea = Buffer.alloc(36);
  hhea.writeUInt32BE(0x00010000, 0);
  hhea.writeInt16BE(Math.round(metrics.ascent), 4);
  hhea.writeInt16BE(Math.round(metrics.descent), 6);
  hhea.writeInt16BE(Math.round(metrics.lineGap), 8);
  hhea.writeUInt16BE(Math.max(...glyphs.map((g) => g.advance)), 10);
  hhea.writeInt16BE(bbox.xMin, 12);
  hhea.writeInt16BE(1, 18); // caretSlopeRise
  hhea.writeUInt16BE(glyphs.length, 34); // numberOfHMetrics

  const maxp = Buffer.alloc(32);
  maxp.writeUInt32BE(0x00010000, 0);
  maxp.writeUInt16BE(glyphs.length, 4);
  maxp.writeUInt16BE(Math.max(0, ...glyphs.map((g) => g.glyph.points)), 6);
  maxp.writeUInt16BE(Math.max(0, ...glyphs.map((g) => (g.glyph.data.length ? g.glyph.data.readInt16BE(0) : 0))), 8);
  maxp.writeUInt16BE(2, 14); // maxZones

  // cmap: format 12 (all of Unicode), one group per character, as (0, 4) and (3, 10).
  const groups = chars.length;
  const codePoints = chars.map((c) => c.codePoint);
  const format12 = Buffer.alloc(16 + 12 * groups);
  format12.writeUInt16BE(12, 0);
  format12.writeUInt32BE(format12.length, 4);
  format12.writeUInt32BE(groups, 12);
  codePoints.forEach((cp, i) => {
    format12.writeUInt32BE(cp, 16 + 12 * i);
    format12.writeUInt32BE(cp, 20 + 12 * i);
    format12.writeUInt32BE(i + 1, 24 + 12 * i);
  });
  const cmapHeader = Buffer.alloc(4 + 8 * 2);
  cmapHeader.writeUInt16BE(2, 2);
  cmapHeader.writeUInt16BE(0, 4);
  cmapHeader.writeUInt16BE(4, 6);
  cmapHeader.writeUInt32BE(cmapHeader.length, 8);
  cmapHeader.writeUInt16BE(3, 12);
  cmapHeader.writeUInt16BE(10, 14);
  cmapHeader.writeUInt32BE(cmapHeader.length, 16);
  const cmap = Buffer.concat([cmapHeader, format12]);

  return sfnt({ cmap, glyf, head, hhea, hmtx, loca, maxp });
}
