// Font stacks of the offline composer: the families of every script (src/text/families.ts, the same
// table Lottie text is drawn from), one stack per storyboard font. Every family is declared with
// @font-face from local() files, so Chrome uses exactly these files and the producer neither
// substitutes its bundled web fonts (it maps "Noto Sans" to Inter) nor tries to download or embed
// system fonts.
import { facesOfFamily, familyStack, type FaceStyle } from '../../../text/families.js';
import type { FontFamily } from '../../../storyboard/types.js';

const STYLE: Record<FontFamily, { style: FaceStyle; generic: string; first?: string }> = {
  sans: { style: 'sans', generic: 'sans-serif' },
  serif: { style: 'serif', generic: 'serif' },
  mono: { style: 'mono', generic: 'monospace' },
  // Nunito is one of the producer's bundled fonts (Latin only); everything else falls through to Noto.
  rounded: { style: 'sans', generic: 'sans-serif', first: 'Nunito' },
};

const families = (font: FontFamily) => familyStack(STYLE[font].style);

/** The CSS font-family value of a storyboard font. */
export function fontStack(font: FontFamily): string {
  const { generic, first } = STYLE[font];
  return [...(first ? [first] : []), ...families(font)]
    .map((f) => `'${f}'`)
    .concat(generic)
    .join(', ');
}

/** @font-face rules for the families a stack names (Nunito is left to the producer, which bundles it). */
export function fontFaces(fonts: FontFamily[]): string {
  const wanted = [...new Set(fonts.flatMap(families))];
  return wanted
    .flatMap((family) =>
      facesOfFamily(family).map((face) => {
        const weight = facesOfFamily(family).length === 1 ? '100 900' : face.bold ? '600 900' : '100 500';
        return (
          `@font-face { font-family: '${family}'; src: local('${face.fullName}'), local('${face.name}'); ` +
          `font-weight: ${weight}; }`
        );
      }),
    )
    .join('\n');
}
