// Glyphs of the local faces, read with fontkit: advances (to lay text out as ThorVG will draw it) and
// the bytes registered with ThorVG for a font name — the face's own file when it is TrueType and has
// every character, else a TrueType font written for the characters used (CJK faces are CFF-flavoured
// collections, which ThorVG cannot read; characters a face lacks come from the face for their script).
import fs from 'node:fs';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import { fallbackFaces, locateFace, type Face } from './faces.js';
import { trueTypeFont } from './sfnt.js';

const opened = new Map<string, Font | null>();

/** The face's font (one face of a collection), or null when it is not installed. */
export function openFace(face: Face): Font | null {
  if (!opened.has(face.name)) {
    const where = locateFace(face);
    let font: Font | null = null;
    try {
      if (where) {
        const f = fontkit.openSync(where.file, where.collectionFace);
        font = 'glyphForCodePoint' in f ? f : null;
      }
    } catch {
      font = null;
    }
    opened.set(face.name, font);
  }
  return opened.get(face.name)!;
}

const isTrueType = (font: Font) => 'glyf' in (font as unknown as { directory: { tables: Record<string, unknown> } }).directory.tables;

/** The font that draws `cp` for text set in `face`: the face itself, else a fallback by script. */
export function glyphSource(face: Face, cp: number): Font | null {
  const own = openFace(face);
  if (own?.hasGlyphForCodePoint(cp)) return own;
  for (const f of fallbackFaces(face, String.fromCodePoint(cp))) {
    const font = openFace(f);
    if (font?.hasGlyphForCodePoint(cp)) return font;
  }
  return null;
}

/** Vertical metrics as fractions of the font size (Noto Sans's when the face is missing). */
export function verticalMetrics(face: Face): { ascent: number; descent: number } {
  const font = openFace(face);
  return font ? { ascent: font.ascent / font.unitsPerEm, descent: -font.descent / font.unitsPerEm } : { ascent: 1.069, descent: 0.293 };
}

const advances = new Map<string, number>();

/** Advance of one character in em (an estimate by script when no face has it). */
export function advanceOf(face: Face, cp: number): number {
  const key = `${face.name}:${cp}`;
  let em = advances.get(key);
  if (em === undefined) {
    const font = glyphSource(face, cp);
    em = font ? font.glyphForCodePoint(cp).advanceWidth / font.unitsPerEm : estimate(cp, face.bold);
    advances.set(key, em);
  }
  return em;
}

function estimate(cp: number, bold: boolean): number {
  if (cp === 0x20) return 0.26;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(String.fromCodePoint(cp))) return 1;
  if (/\p{Lu}/u.test(String.fromCodePoint(cp))) return bold ? 0.72 : 0.66;
  return bold ? 0.62 : 0.56;
}

/** Width in pixels of one line of text at `size` px with tracking `tracking` (1/1000 em per character). */
export function textWidth(text: string, face: Face, size: number, tracking = 0): number {
  let em = 0;
  let n = 0;
  for (const ch of text) {
    em += advanceOf(face, ch.codePointAt(0)!);
    n++;
  }
  return (em + (tracking / 1000) * Math.max(0, n - 1)) * size;
}

/**
 * The bytes to register for `face` serving `codePoints`: its TrueType file when that has them all,
 * else a TrueType font of just those characters (from the face, or the face for their script).
 */
export function fontBytes(face: Face, codePoints: Iterable<number>): Uint8Array | null {
  const own = openFace(face);
  const cps = [...new Set(codePoints)].filter((cp) => cp > 0x1f && cp !== 0x2028 && cp !== 0x2029);
  const where = locateFace(face);
  if (own && where && !where.collectionFace && isTrueType(own) && cps.every((cp) => own.hasGlyphForCodePoint(cp))) {
    return fs.readFileSync(where.file);
  }
  const sources: { codePoint: number; font: Font }[] = [];
  for (const cp of cps) {
    const font = glyphSource(face, cp);
    if (font) sources.push({ codePoint: cp, font });
  }
  const metrics = own ?? sources[0]?.font;
  if (!metrics) return null;
  return trueTypeFont(metrics, sources);
}
