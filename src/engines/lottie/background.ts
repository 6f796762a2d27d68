// The canvas colour painted by ThorVG as the animation's bottom layer, so that its frames come out
// opaque and ffmpeg only converts them: compositing straight-alpha frames over a colour in ffmpeg cost
// about as much as the x264 encode (bench/README.md, "Where a render's CPU goes").
import { rgba } from './build.js';
import type { LottieAnimation } from './validate.js';

/** Behind everything a Lottie file draws (it has no background of its own; a solid layer is one). */
export const LOTTIE_BACKGROUND = '#ffffff';

/**
 * Beyond the animation's box on every side: covers the canvas where `contain` leaves a margin, whatever ThorVG clips.
 */
const BLEED = 4;

/**
 * `animation` with a bottom layer of `colour`; unchanged when that layer could change what another
 * layer draws (the last layer is a track matte, which would take it as its target).
 */
export function withBackground(animation: LottieAnimation, colour = LOTTIE_BACKGROUND): LottieAnimation {
  const last = animation.layers.at(-1);
  if (last && last.td !== undefined && last.td !== 0) return animation;
  const ind = Math.max(0, ...animation.layers.map((l) => (typeof l.ind === 'number' ? l.ind : 0))) + 1;
  const still = (k: unknown) => ({ a: 0, k });
  const [w, h] = [animation.w, animation.h];
  const background = {
    ty: 4,
    ind,
    nm: 'background (render)',
    ip: animation.ip,
    op: animation.op,
    st: 0,
    ks: { o: still(100), r: still(0), p: still([w / 2, h / 2, 0]), a: still([0, 0, 0]), s: still([100, 100, 100]) },
    shapes: [
      {
        ty: 'gr',
        it: [
          { ty: 'rc', d: 1, s: still([w * (1 + 2 * BLEED), h * (1 + 2 * BLEED)]), p: still([0, 0]), r: still(0) },
          { ty: 'fl', c: still(rgba(colour)), o: still(100), r: 1 },
          { ty: 'tr', p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
        ],
      },
    ],
  };
  return { ...animation, layers: [...animation.layers, background] };
}

/** Whether every pixel of an RGBA frame is fully opaque. */
export function isOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}
