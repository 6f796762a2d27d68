// Font files, found once when this module loads (worker or render process start) by listing the
// system's font directories asynchronously, and opened with HarfBuzz on first use (the bytes then
// stay in the process: every later text in the same face costs nothing to open).
import fs from 'node:fs';
import path from 'node:path';
import * as hb from 'harfbuzzjs';
import type { Face } from './families.js';

/** Where Debian (and most Linux images) keep fonts; FONT_DIRS (colon-separated) adds more. */
const FONT_DIRS = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  ...(process.env.FONT_DIRS?.split(':').filter(Boolean) ?? []),
];

async function listFontFiles(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const dir of FONT_DIRS) {
    let entries: string[];
    try {
      entries = await fs.promises.readdir(dir, { recursive: true });
    } catch {
      continue; // absent
    }
    for (const rel of entries) {
      const base = path.basename(rel);
      if (/\.(ttf|otf|ttc)$/i.test(base) && !found.has(base)) found.set(base, path.join(dir, rel));
    }
  }
  return found;
}

/** File name → path of every font file on this machine (first found wins). */
const FILES = await listFontFiles();

/** A face opened with HarfBuzz; lengths in font units (`upem` per em). */
export type OpenFace = {
  face: Face;
  font: hb.Font;
  upem: number;
  /** Ascender and descender (positive, below the baseline) in em, from the font's horizontal header. */
  ascent: number;
  descent: number;
  /** Whether the font maps a code point to a glyph. */
  has(cp: number): boolean;
};

const blobs = new Map<string, hb.Blob | null>();
const opened = new Map<string, OpenFace | null>();

function blobOf(file: string): hb.Blob | null {
  if (!blobs.has(file)) {
    const where = FILES.get(file);
    blobs.set(file, where ? new hb.Blob(fs.readFileSync(where)) : null);
  }
  return blobs.get(file)!;
}

/** A collection's face whose PostScript name is `name` (collections hold a handful of faces). */
function collectionFace(blob: hb.Blob, name: string): hb.Face | null {
  for (let i = 0; i < 32; i++) {
    const face = new hb.Face(blob, i);
    const ps = face.getName(6, 'en');
    if (ps === name) return face;
    if (!ps) return null;
  }
  return null;
}

/** The face opened for shaping and drawing, or null when its file is not installed. */
export function openFace(face: Face): OpenFace | null {
  if (!opened.has(face.name)) {
    const blob = blobOf(face.file);
    const hbFace = blob && (face.collectionFace ? collectionFace(blob, face.collectionFace) : new hb.Face(blob));
    let open: OpenFace | null = null;
    if (hbFace && hbFace.upem > 0) {
      const font = new hb.Font(hbFace);
      const upem = hbFace.upem;
      const { ascender, descender } = font.hExtents();
      open = {
        face,
        font,
        upem,
        ascent: ascender / upem,
        descent: -descender / upem,
        has: (cp) => font.nominalGlyph(cp) !== undefined,
      };
    }
    opened.set(face.name, open);
  }
  return opened.get(face.name)!;
}

/** Whether a face's file is on this machine. */
export const isInstalled = (face: Face): boolean => FILES.has(face.file);
