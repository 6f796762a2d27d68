// The font faces Lottie text layers may name, and where they are on this machine. ThorVG draws text
// only with fonts registered by name, so every name an animation uses is served by a local face:
// the Noto families (Debian fonts-noto-core and fonts-noto-cjk) by script — Noto Sans for Latin,
// Cyrillic and Greek, Noto Sans CJK for Chinese, Japanese and Korean, Noto Sans Arabic, Hebrew,
// Devanagari… — and DejaVu Sans Mono for monospace. Names an animation makes up ("Roboto-Bold") are
// served by the face of the same style (serif, mono, bold) for the script of the text set in them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { scriptOf, scriptOfChar, type Script } from './scripts.js';

export type FaceStyle = 'sans' | 'serif' | 'mono';

export type Face = {
  /** Registered name (the font's PostScript name): what text documents put in `f`. */
  name: string;
  /** fontconfig family, to find the file when it is not at its Debian path. */
  family: string;
  bold: boolean;
  style: FaceStyle;
  script: Script;
  /** Debian paths, first found wins. */
  files: string[];
  /** PostScript name of the face inside a font collection (.ttc). */
  collectionFace?: string;
};

const NOTO = '/usr/share/fonts/truetype/noto';
const NOTO_OT = '/usr/share/fonts/opentype/noto';
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

/** Scripts with their own `Noto Sans <Name>` family in fonts-noto-core. */
const NOTO_SCRIPT_FAMILIES: Partial<Record<Script, string>> = {
  arabic: 'Arabic', hebrew: 'Hebrew', devanagari: 'Devanagari', thai: 'Thai', bengali: 'Bengali', tamil: 'Tamil',
  gujarati: 'Gujarati', gurmukhi: 'Gurmukhi', kannada: 'Kannada', malayalam: 'Malayalam', telugu: 'Telugu',
  georgian: 'Georgian', armenian: 'Armenian', ethiopic: 'Ethiopic', khmer: 'Khmer', lao: 'Lao', sinhala: 'Sinhala', myanmar: 'Myanmar',
};
/** Serif faces of scripts that have one (others use their sans face). */
const NOTO_SERIF_FAMILIES: Partial<Record<Script, { family: string; file: string }>> = {
  arabic: { family: 'Noto Naskh Arabic', file: 'NotoNaskhArabic' },
  hebrew: { family: 'Noto Serif Hebrew', file: 'NotoSerifHebrew' },
  devanagari: { family: 'Noto Serif Devanagari', file: 'NotoSerifDevanagari' },
};
const CJK_REGIONS: Partial<Record<Script, { code: string; region: string }>> = {
  'cjk-jp': { code: 'jp', region: 'JP' },
  'cjk-kr': { code: 'kr', region: 'KR' },
  'cjk-sc': { code: 'sc', region: 'SC' },
};

const weight = (bold: boolean) => (bold ? 'Bold' : 'Regular');

function buildFaces(): Map<string, Face> {
  const faces: Face[] = [];
  for (const bold of [false, true]) {
    const w = weight(bold);
    faces.push(
      { name: `NotoSans-${w}`, family: 'Noto Sans', bold, style: 'sans', script: 'latin', files: [`${NOTO}/NotoSans-${w}.ttf`] },
      { name: `NotoSerif-${w}`, family: 'Noto Serif', bold, style: 'serif', script: 'latin', files: [`${NOTO}/NotoSerif-${w}.ttf`] },
      {
        name: bold ? 'DejaVuSansMono-Bold' : 'DejaVuSansMono',
        family: 'DejaVu Sans Mono',
        bold,
        style: 'mono',
        script: 'latin',
        files: [`${DEJAVU}/DejaVuSansMono${bold ? '-Bold' : ''}.ttf`],
      },
    );
    for (const [script, name] of Object.entries(NOTO_SCRIPT_FAMILIES) as [Script, string][]) {
      faces.push({ name: `NotoSans${name}-${w}`, family: `Noto Sans ${name}`, bold, style: 'sans', script, files: [`${NOTO}/NotoSans${name}-${w}.ttf`] });
    }
    for (const [script, serif] of Object.entries(NOTO_SERIF_FAMILIES) as [Script, { family: string; file: string }][]) {
      faces.push({ name: `${serif.file}-${w}`, family: serif.family, bold, style: 'serif', script, files: [`${NOTO}/${serif.file}-${w}.ttf`] });
    }
    for (const [script, { code, region }] of Object.entries(CJK_REGIONS) as [Script, { code: string; region: string }][]) {
      faces.push(
        { name: `NotoSansCJK${code}-${w}`, family: `Noto Sans CJK ${region}`, bold, style: 'sans', script, files: [`${NOTO_OT}/NotoSansCJK-${w}.ttc`], collectionFace: `NotoSansCJK${code}-${w}` },
        { name: `NotoSerifCJK${code}-${w}`, family: `Noto Serif CJK ${region}`, bold, style: 'serif', script, files: [`${NOTO_OT}/NotoSerifCJK-${w}.ttc`], collectionFace: `NotoSerifCJK${code}-${w}` },
      );
      if (!bold) {
        // The collection has the monospaced CJK face in Regular only.
        for (const b of [false, true]) {
          faces.push({ name: `NotoSansMonoCJK${code}-${weight(b)}`, family: `Noto Sans Mono CJK ${region}`, bold: b, style: 'mono', script, files: [`${NOTO_OT}/NotoSansCJK-Regular.ttc`], collectionFace: `NotoSansMonoCJK${code}-Regular` });
        }
      }
    }
  }
  return new Map(faces.map((f) => [f.name, f]));
}

export const FACES: ReadonlyMap<string, Face> = buildFaces();

/** The face for text in `script`, in a look's style: what the composer names in text documents. */
export function faceFor(script: Script, style: FaceStyle, bold: boolean): Face {
  const w = weight(bold);
  const region = CJK_REGIONS[script];
  if (region) return FACES.get(style === 'serif' ? `NotoSerifCJK${region.code}-${w}` : style === 'mono' ? `NotoSansMonoCJK${region.code}-${w}` : `NotoSansCJK${region.code}-${w}`)!;
  const own = NOTO_SCRIPT_FAMILIES[script];
  if (own) {
    const serif = NOTO_SERIF_FAMILIES[script];
    return FACES.get(style === 'serif' && serif ? `${serif.file}-${w}` : `NotoSans${own}-${w}`)!;
  }
  return FACES.get(style === 'serif' ? `NotoSerif-${w}` : style === 'mono' ? (bold ? 'DejaVuSansMono-Bold' : 'DejaVuSansMono') : `NotoSans-${w}`)!;
}

/**
 * The face serving a font name: ours by name, else by what the name and style say (serif, mono,
 * bold) for the script of the text set in it.
 */
export function faceForName(name: string, style: string | undefined, text: string): Face {
  const known = FACES.get(name);
  if (known) return known;
  const words = `${name} ${style ?? ''}`;
  const bold = /bold|black|heavy|semi-?bold|extra-?bold|demi/i.test(words);
  const look: FaceStyle = /mono|code|courier|consol|menlo/i.test(words)
    ? 'mono'
    : /serif|times|georgia|garamond|playfair|merriweather|lora|baskerville|mincho|song|naskh/i.test(words) && !/sans/i.test(words)
      ? 'serif'
      : 'sans';
  return faceFor(scriptOf(text), look, bold);
}

/** The face of the same style and weight for a character `face` lacks (by the character's script). */
export function fallbackFaces(face: Face, ch: string): Face[] {
  const script = scriptOfChar(ch);
  const out: Face[] = [];
  if (script && script !== face.script) out.push(faceFor(script, face.style, face.bold));
  if (face.script !== 'latin') out.push(faceFor('latin', face.style, face.bold));
  out.push(faceFor('latin', 'sans', face.bold), faceFor('cjk-jp', 'sans', face.bold));
  // Symbols and punctuation Noto Sans lacks: DejaVu Sans covers many.
  out.push({ name: `DejaVuSans${face.bold ? '-Bold' : ''}`, family: 'DejaVu Sans', bold: face.bold, style: 'sans', script: 'latin', files: [`${DEJAVU}/DejaVuSans${face.bold ? '-Bold' : ''}.ttf`] });
  return out.filter((f) => f.name !== face.name);
}

export type FaceFile = { file: string; collectionFace?: string };
const located = new Map<string, FaceFile | null>();

/** Where a face's file is: its Debian path, else what fontconfig finds for its family and weight. */
export function locateFace(face: Face): FaceFile | null {
  if (!located.has(face.name)) located.set(face.name, findFace(face));
  return located.get(face.name)!;
}

function findFace(face: Face): FaceFile | null {
  const file = face.files.find((f) => fs.existsSync(f));
  if (file) return { file, collectionFace: face.collectionFace };
  try {
    const out = execFileSync('fc-match', ['-f', '%{file}\n%{family}\n%{postscriptname}', `${face.family}:style=${weight(face.bold)}`], { encoding: 'utf8', timeout: 5000 });
    const [found = '', families = '', postscript = ''] = out.split('\n');
    if (!families.split(',').some((f) => f.trim().toLowerCase() === face.family.toLowerCase())) return null;
    if (!/\.(ttf|otf|ttc)$/i.test(found)) return null;
    return /\.ttc$/i.test(found) ? { file: found, collectionFace: face.collectionFace ?? postscript } : { file: found };
  } catch {
    return null;
  }
}
