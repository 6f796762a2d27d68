// Fonts for Lottie text layers, prepared in the render process. ThorVG draws text only with fonts
// registered by name, so every font an animation names gets bytes to register: the local face that
// serves it (faces.ts) — its own TrueType file, or a small TrueType font of the characters used when
// the face is a CFF collection (CJK) or lacks some of them (glyphs.ts). ThorVG lays Arabic out
// without joining letters, so Arabic lines are rewritten first into joined presentation forms in
// display order (scripts.ts).
import { faceForName, locateFace, type Face } from './faces.js';
import { fontBytes, glyphSource, textWidth } from './glyphs.js';
import { joinArabic, visualOrder, withoutArabicMarks } from './scripts.js';
import { wrapText } from './textLayout.js';
import type { LottieAnimation } from './validate.js';

type TextDocument = { f?: unknown; t?: unknown; s?: unknown; sz?: unknown; tr?: unknown };
type FontEntry = { fName?: string; fFamily?: string; fStyle?: string };

/** Every text document (`t.d.k[].s`) of the animation's text layers, in precompositions too. */
export function textDocuments(animation: Pick<LottieAnimation, 'layers' | 'assets'>): TextDocument[] {
  const out: TextDocument[] = [];
  const visit = (layers: unknown) => {
    if (!Array.isArray(layers)) return;
    for (const layer of layers as Record<string, unknown>[]) {
      if (layer?.ty !== 5) continue;
      const keyframes = (layer.t as { d?: { k?: unknown } } | undefined)?.d?.k;
      if (!Array.isArray(keyframes)) continue;
      for (const kf of keyframes as { s?: unknown }[]) if (kf && typeof kf.s === 'object' && kf.s !== null) out.push(kf.s as TextDocument);
    }
  };
  visit(animation.layers);
  for (const asset of animation.assets ?? []) visit(asset.layers);
  return out;
}

function faceOf(doc: TextDocument, fonts: FontEntry[]): Face {
  const name = typeof doc.f === 'string' ? doc.f : '';
  const entry = fonts.find((f) => f.fName === name);
  return faceForName(name, entry?.fStyle, typeof doc.t === 'string' ? doc.t : '');
}

/**
 * Arabic text joined and put in display order, line by line (box text wrapped first, at the box's
 * width, since the lines' order must be known). Returns whether any text changed.
 */
export function shapeText(animation: LottieAnimation): boolean {
  let changed = false;
  const fonts = animation.fonts?.list ?? [];
  for (const doc of textDocuments(animation)) {
    if (typeof doc.t !== 'string' || !/\p{Script=Arabic}/u.test(doc.t)) continue;
    const face = faceOf(doc, fonts);
    const has = (cp: number) => glyphSource(face, cp) !== null;
    const size = typeof doc.s === 'number' ? doc.s : 0;
    const tracking = typeof doc.tr === 'number' ? doc.tr : 0;
    const box = Array.isArray(doc.sz) && typeof doc.sz[0] === 'number' ? doc.sz[0] : null;
    const lines = withoutArabicMarks(doc.t)
      .split(/\r\n|\r|\n|\u0003/)
      .flatMap((line) => (box && size > 0 ? wrapText(line, box, (s) => textWidth(joinArabic(s, has), face, size, tracking)) : [line]));
    doc.t = lines.map((line) => visualOrder(joinArabic(line, has))).join('\r');
    changed = true;
  }
  return changed;
}

/** Font name → bytes to register, for every font the animation's text documents use. */
export function fontRegistrations(animation: Pick<LottieAnimation, 'layers' | 'assets' | 'fonts'>): Map<string, Uint8Array> {
  const fonts = animation.fonts?.list ?? [];
  const uses = new Map<string, { face: Face; codePoints: Set<number> }>();
  const docs = textDocuments(animation);
  // A made-up name is served by the face for the script of all the text set in it.
  const textOf = new Map<string, string>();
  for (const doc of docs) if (typeof doc.f === 'string' && typeof doc.t === 'string') textOf.set(doc.f, (textOf.get(doc.f) ?? '') + doc.t);
  for (const [name, text] of textOf) {
    const face = faceOf({ f: name, t: text }, fonts);
    const codePoints = new Set([...text].map((c) => c.codePointAt(0)!));
    uses.set(name, { face, codePoints });
  }
  const out = new Map<string, Uint8Array>();
  for (const [name, { face, codePoints }] of uses) {
    const bytes = fontBytes(face, codePoints);
    if (bytes) out.set(name, bytes);
  }
  return out;
}

/**
 * Font name → file of the face serving it, for a plain ThorVG run (the benchmark's): whole files only,
 * so text in CJK faces (collections) is left out.
 */
export function fontsFor(animation: Pick<LottieAnimation, 'layers' | 'assets' | 'fonts'>): Map<string, string> {
  const out = new Map<string, string>();
  const fonts = animation.fonts?.list ?? [];
  for (const font of fonts) {
    if (!font.fName) continue;
    const text = textDocuments(animation).filter((d) => d.f === font.fName).map((d) => (typeof d.t === 'string' ? d.t : '')).join('');
    const where = locateFace(faceOf({ f: font.fName, t: text }, fonts));
    if (where && !where.collectionFace) for (const name of [font.fName, font.fFamily]) if (name) out.set(name, where.file);
  }
  return out;
}
