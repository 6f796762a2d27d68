// Fonts for Lottie text layers. ThorVG draws text only with fonts registered by name, and an
// animation names its fonts freely (fonts.list[].fName), so every named font is served by a local
// sans-serif face (bold when the style says so). The face comes from the system: Debian's DejaVu or
// Liberation (pulled in by fontconfig, which Chrome and ffmpeg need), else whatever fc-match picks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { LottieAnimation } from './validate.js';

const CANDIDATES = {
  regular: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'],
  bold: ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'],
};

let cached: { regular?: string; bold?: string } | undefined;

function fcMatch(pattern: string): string | undefined {
  try {
    const file = execFileSync('fc-match', ['-f', '%{file}', pattern], { encoding: 'utf8', timeout: 5000 }).trim();
    return /\.(ttf|otf)$/i.test(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Paths of a regular and a bold TrueType sans-serif face available on this machine. */
export function localFontFiles(): { regular?: string; bold?: string } {
  cached ??= {
    regular: CANDIDATES.regular.find((f) => fs.existsSync(f)) ?? fcMatch('sans-serif'),
    bold: CANDIDATES.bold.find((f) => fs.existsSync(f)) ?? fcMatch('sans-serif:style=Bold'),
  };
  return cached;
}

/** Font name → font file for every font the animation names. */
export function fontsFor(animation: Pick<LottieAnimation, 'fonts'>): Map<string, string> {
  const files = localFontFiles();
  const out = new Map<string, string>();
  for (const font of animation.fonts?.list ?? []) {
    const bold = /bold|black|heavy|semibold/i.test(`${font.fStyle ?? ''} ${font.fName ?? ''}`);
    const file = (bold ? files.bold : files.regular) ?? files.regular;
    if (!file) continue;
    for (const name of [font.fName, font.fFamily]) if (name) out.set(name, file);
  }
  return out;
}
