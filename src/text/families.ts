// The font families of every script, for both engines: HyperFrames declares them with @font-face
// (Chrome shapes with them), Lottie text is shaped and drawn with the same files (shape.ts). They are
// the Noto families Debian ships (fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji) and DejaVu
// for monospace and symbols; the installer brings them (src/tooling/install.mjs).
import { SCRIPT_NAMES, type Script } from './scripts.js';

export type FaceStyle = 'sans' | 'serif' | 'mono';

export type Face = {
  /** PostScript name: the face's name in Lottie text documents (`f`) and CSS `local()`. */
  name: string;
  family: string;
  /** Full name, the other name CSS `local()` matches. */
  fullName: string;
  bold: boolean;
  style: FaceStyle;
  /** The script the face is chosen for ('latin' also for general faces such as DejaVu Sans). */
  script: Script;
  /** File name (found under the system's font directories, fonts.ts). */
  file: string;
  /** PostScript name of the face inside a font collection (.ttc). */
  collectionFace?: string;
};

const weight = (bold: boolean) => (bold ? 'Bold' : 'Regular');

/** Scripts whose Noto serif family is not `Noto Serif <Script>`. */
const SERIF_FAMILY: Partial<Record<Script, string>> = { arabic: 'Noto Naskh Arabic' };
const CJK_REGIONS = { 'cjk-jp': 'JP', 'cjk-kr': 'KR', 'cjk-sc': 'SC' } as const satisfies Partial<
  Record<Script, string>
>;

const noto = (family: string, bold: boolean, style: FaceStyle, script: Script): Face => {
  const name = `${family.replace(/ /g, '')}-${weight(bold)}`;
  return { name, family, fullName: `${family} ${weight(bold)}`, bold, style, script, file: `${name}.ttf` };
};

const cjk = (
  kind: 'Sans' | 'Serif' | 'Sans Mono',
  region: string,
  bold: boolean,
  style: FaceStyle,
  script: Script,
): Face => {
  const family = `Noto ${kind} CJK ${region}`;
  const name = `Noto${kind.replace(' ', '')}CJK${region.toLowerCase()}-${weight(bold)}`;
  // Every CJK face is in the Sans or the Serif collection (the monospaced ones in Sans).
  const file = `Noto${kind === 'Serif' ? 'Serif' : 'Sans'}CJK-${weight(bold)}.ttc`;
  return { name, family, fullName: bold ? `${family} Bold` : family, bold, style, script, file, collectionFace: name };
};

const dejaVu = (family: 'DejaVu Sans' | 'DejaVu Sans Mono', bold: boolean, style: FaceStyle): Face => {
  const name = `${family.replace(/ /g, '')}${bold ? '-Bold' : ''}`;
  return {
    name,
    family,
    fullName: bold ? `${family} Bold` : family,
    bold,
    style,
    script: 'latin',
    file: `${name}.ttf`,
  };
};

/** The face for text in `script`, in a style and weight: what Lottie text documents name and both engines draw. */
export function faceFor(script: Script, style: FaceStyle, bold: boolean): Face {
  if (script in CJK_REGIONS) {
    const region = CJK_REGIONS[script as keyof typeof CJK_REGIONS];
    return cjk(style === 'serif' ? 'Serif' : style === 'mono' ? 'Sans Mono' : 'Sans', region, bold, style, script);
  }
  const own = SCRIPT_NAMES[script as keyof typeof SCRIPT_NAMES];
  if (own)
    return noto(
      style === 'serif' ? (SERIF_FAMILY[script] ?? `Noto Serif ${own}`) : `Noto Sans ${own}`,
      bold,
      style === 'mono' ? 'sans' : style,
      script,
    );
  if (style === 'mono') return dejaVu('DejaVu Sans Mono', bold, 'mono');
  return noto(style === 'serif' ? 'Noto Serif' : 'Noto Sans', bold, style, 'latin');
}

/** Faces tried, in order, for characters the face of their script lacks (symbols, other scripts). */
export function fallbackFaces(style: FaceStyle, bold: boolean): Face[] {
  return [
    faceFor('latin', style, bold),
    faceFor('latin', 'sans', bold),
    faceFor('cjk-jp', style, bold),
    dejaVu('DejaVu Sans', bold, 'sans'),
    noto('Noto Sans Symbols', false, 'sans', 'latin'),
    { ...noto('Noto Sans Symbols2', false, 'sans', 'latin'), fullName: 'Noto Sans Symbols2 Regular' },
  ];
}

/** The colour emoji face (bitmaps: drawn as pictures, never as outlines). */
export const EMOJI_FACE: Face = {
  name: 'NotoColorEmoji',
  family: 'Noto Color Emoji',
  fullName: 'Noto Color Emoji',
  bold: false,
  style: 'sans',
  script: 'latin',
  file: 'NotoColorEmoji.ttf',
};

const SCRIPTS: Script[] = ['latin', 'cjk-jp', 'cjk-kr', 'cjk-sc', ...(Object.keys(SCRIPT_NAMES) as Script[])];

/** Every face any text may name, by name. */
export const FACES: ReadonlyMap<string, Face> = new Map(
  SCRIPTS.flatMap((script) =>
    (['sans', 'serif', 'mono'] as const).flatMap((style) => [false, true].map((bold) => faceFor(script, style, bold))),
  )
    .concat([false, true].flatMap((bold) => fallbackFaces('sans', bold)))
    .map((f) => [f.name, f]),
);

/**
 * The face serving a font name: ours by name, else by what the name and style say (serif, mono,
 * bold) for `script` — an animation may name fonts we do not have ("Roboto-Bold").
 */
export function faceForName(name: string, style: string | undefined, script: Script): Face {
  const known = FACES.get(name);
  if (known) return known;
  const words = `${name} ${style ?? ''}`;
  const bold = /bold|black|heavy|semi-?bold|extra-?bold|demi/i.test(words);
  const look: FaceStyle = /mono|code|courier|consol|menlo/i.test(words)
    ? 'mono'
    : /serif|times|georgia|garamond|playfair|merriweather|lora|baskerville|mincho|song|naskh/i.test(words) &&
        !/sans/i.test(words)
      ? 'serif'
      : 'sans';
  return faceFor(script, look, bold);
}

/**
 * The families of a look's font style, in CSS fallback order: its Latin face, then the face of every
 * other script in the same style, then colour emoji.
 */
export function familyStack(style: FaceStyle): string[] {
  const families = SCRIPTS.map((s) => faceFor(s, style, false).family);
  return [...new Set([...families, EMOJI_FACE.family])];
}

/** Regular and bold faces of a family (one face when it has no bold, like the emoji). */
export function facesOfFamily(family: string): Face[] {
  if (family === EMOJI_FACE.family) return [EMOJI_FACE];
  return [...FACES.values()].filter(
    (f) => f.family === family && !(f.family.startsWith('Noto Sans Symbols') && f.bold),
  );
}
