// Font stacks of the offline composer: the Noto families installed on the render machine, one stack per
// storyboard font. Every family is declared with @font-face from local() files, so Chrome uses exactly
// these files and the producer neither substitutes its bundled web fonts (it maps "Noto Sans" to Inter)
// nor tries to download or embed system fonts.
import type { FontFamily } from '../../../storyboard/types.js';

type Face = { family: string; regular: string[]; bold?: string[] };

/** local() names (full name, PostScript name) of the regular and bold file of each family. */
const FACES: Face[] = [
  { family: 'Noto Sans', regular: ['Noto Sans Regular', 'NotoSans-Regular'], bold: ['Noto Sans Bold', 'NotoSans-Bold'] },
  { family: 'Noto Serif', regular: ['Noto Serif Regular', 'NotoSerif-Regular'], bold: ['Noto Serif Bold', 'NotoSerif-Bold'] },
  { family: 'Noto Sans CJK JP', regular: ['Noto Sans CJK JP', 'NotoSansCJKjp-Regular'], bold: ['Noto Sans CJK JP Bold', 'NotoSansCJKjp-Bold'] },
  { family: 'Noto Serif CJK JP', regular: ['Noto Serif CJK JP', 'NotoSerifCJKjp-Regular'], bold: ['Noto Serif CJK JP Bold', 'NotoSerifCJKjp-Bold'] },
  { family: 'Noto Sans Mono CJK JP', regular: ['Noto Sans Mono CJK JP', 'NotoSansMonoCJKjp-Regular'], bold: ['Noto Sans Mono CJK JP Bold', 'NotoSansMonoCJKjp-Bold'] },
  { family: 'Noto Sans Arabic', regular: ['Noto Sans Arabic Regular', 'NotoSansArabic-Regular'], bold: ['Noto Sans Arabic Bold', 'NotoSansArabic-Bold'] },
  { family: 'Noto Naskh Arabic', regular: ['Noto Naskh Arabic Regular', 'NotoNaskhArabic-Regular'], bold: ['Noto Naskh Arabic Bold', 'NotoNaskhArabic-Bold'] },
  { family: 'Noto Sans Hebrew', regular: ['Noto Sans Hebrew Regular', 'NotoSansHebrew-Regular'], bold: ['Noto Sans Hebrew Bold', 'NotoSansHebrew-Bold'] },
  { family: 'Noto Serif Hebrew', regular: ['Noto Serif Hebrew Regular', 'NotoSerifHebrew-Regular'], bold: ['Noto Serif Hebrew Bold', 'NotoSerifHebrew-Bold'] },
  { family: 'Noto Sans Devanagari', regular: ['Noto Sans Devanagari Regular', 'NotoSansDevanagari-Regular'], bold: ['Noto Sans Devanagari Bold', 'NotoSansDevanagari-Bold'] },
  { family: 'Noto Serif Devanagari', regular: ['Noto Serif Devanagari Regular', 'NotoSerifDevanagari-Regular'], bold: ['Noto Serif Devanagari Bold', 'NotoSerifDevanagari-Bold'] },
  { family: 'DejaVu Sans Mono', regular: ['DejaVu Sans Mono', 'DejaVuSansMono'], bold: ['DejaVu Sans Mono Bold', 'DejaVuSansMono-Bold'] },
  { family: 'Noto Color Emoji', regular: ['Noto Color Emoji', 'NotoColorEmoji'] },
];

const SANS_FALLBACKS = ['Noto Sans CJK JP', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans Devanagari', 'Noto Color Emoji'];

const STACKS: Record<FontFamily, { families: string[]; generic: string }> = {
  sans: { families: ['Noto Sans', ...SANS_FALLBACKS], generic: 'sans-serif' },
  serif: {
    families: ['Noto Serif', 'Noto Serif CJK JP', 'Noto Naskh Arabic', 'Noto Serif Hebrew', 'Noto Serif Devanagari', 'Noto Color Emoji'],
    generic: 'serif',
  },
  mono: {
    families: ['DejaVu Sans Mono', 'Noto Sans Mono CJK JP', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans Devanagari', 'Noto Color Emoji'],
    generic: 'monospace',
  },
  // Nunito is one of the producer's bundled fonts (Latin only); everything else falls through to Noto.
  rounded: { families: ['Nunito', 'Noto Sans', ...SANS_FALLBACKS], generic: 'sans-serif' },
};

/** The CSS font-family value of a storyboard font. */
export function fontStack(font: FontFamily): string {
  const { families, generic } = STACKS[font];
  return [...families.map((f) => `'${f}'`), generic].join(', ');
}

const src = (names: string[]) => names.map((n) => `local('${n}')`).join(', ');

/** @font-face rules for the families a stack names (Nunito is left to the producer, which bundles it). */
export function fontFaces(fonts: FontFamily[]): string {
  const wanted = new Set(fonts.flatMap((f) => STACKS[f].families));
  return FACES.filter((f) => wanted.has(f.family))
    .flatMap((f) =>
      f.bold
        ? [
            `@font-face { font-family: '${f.family}'; src: ${src(f.regular)}; font-weight: 100 500; }`,
            `@font-face { font-family: '${f.family}'; src: ${src(f.bold)}; font-weight: 600 900; }`,
          ]
        : [`@font-face { font-family: '${f.family}'; src: ${src(f.regular)}; font-weight: 100 900; }`],
    )
    .join('\n');
}
