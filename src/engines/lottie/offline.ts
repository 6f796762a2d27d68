// The Lottie engine's offline composition (the embedded `local` provider): shape layers with
// colours and motion derived from the prompt, sized to the canvas.
import { headline, OFFLINE_DURATION_SECONDS, palette, seeded } from '../offline.js';
import type { OfflineCompositionSpec } from '../types.js';

const FPS = 30;

export function composeLottie({ prompt, width, height }: OfflineCompositionSpec): string {
  const rand = seeded(prompt);
  const p = palette(rand);
  const frames = Math.round(OFFLINE_DURATION_SECONDS * FPS);
  const short = Math.min(width, height);
  const rgba = (c: [number, number, number]) => [...c.map((v) => Number(v.toFixed(3))), 1];
  const kf = (t: number, s: number[], e?: number[]) => ({
    t,
    s,
    ...(e ? { e } : {}),
    i: { x: [0.42], y: [1] },
    o: { x: [0.58], y: [0] },
  });
  const shapeLayer = (ind: number, name: string, shape: object, color: [number, number, number], ks: object) => ({
    ddd: 0,
    ind,
    ty: 4,
    nm: name,
    sr: 1,
    ip: 0,
    op: frames,
    st: 0,
    ks,
    shapes: [
      { ty: 'gr', nm: name, it: [shape, { ty: 'fl', c: { a: 0, k: rgba(color) }, o: { a: 0, k: 100 }, r: 1 }, { ty: 'tr', p: { a: 0, k: [0, 0] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, r: { a: 0, k: 0 }, o: { a: 0, k: 100 } }] },
    ],
  });
  const cx = width / 2;
  const orb = Math.round(short * (0.3 + rand() * 0.2));
  const spin = Math.round(90 + rand() * 270);
  const count = 3 + Math.floor(rand() * 3);
  const dots = Array.from({ length: count }, (_, k) => {
    const size = Math.round(short * (0.05 + rand() * 0.06));
    const y = Math.round(height * (0.62 + 0.08 * k));
    return shapeLayer(
      3 + k,
      `dot${k}`,
      { ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [size, size] } },
      k % 2 ? p.accent : p.accent2,
      {
        o: { a: 0, k: 100 },
        r: { a: 0, k: 0 },
        s: { a: 0, k: [100, 100, 100] },
        a: { a: 0, k: [0, 0, 0] },
        p: { a: 1, k: [kf(0, [-size, y, 0]), kf(Math.round(frames * (0.5 + 0.1 * k)), [width + size, y, 0])] },
      },
    );
  });
  const animation = {
    v: '5.7.0',
    fr: FPS,
    ip: 0,
    op: frames,
    w: width,
    h: height,
    nm: headline(prompt),
    ddd: 0,
    assets: [],
    // Lottie draws the first layer on top: orb, then the dots, then the background.
    layers: [
      shapeLayer(
        1,
        'orb',
        { ty: 'rc', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [orb, orb] }, r: { a: 1, k: [kf(0, [orb / 2]), kf(frames, [orb / 6])] } },
        p.accent,
        {
          o: { a: 1, k: [kf(0, [0]), kf(Math.round(frames * 0.3), [100])] },
          r: { a: 1, k: [kf(0, [0]), kf(frames, [spin])] },
          s: { a: 1, k: [kf(0, [20, 20, 100]), kf(Math.round(frames * 0.35), [100, 100, 100])] },
          a: { a: 0, k: [0, 0, 0] },
          p: { a: 0, k: [cx, Math.round(height * 0.35), 0] },
        },
      ),
      ...dots,
      shapeLayer(
        2,
        'background',
        { ty: 'rc', p: { a: 0, k: [width / 2, height / 2] }, s: { a: 0, k: [width, height] }, r: { a: 0, k: 0 } },
        p.background,
        { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, s: { a: 0, k: [100, 100, 100] }, a: { a: 0, k: [0, 0, 0] }, p: { a: 0, k: [0, 0, 0] } },
      ),
    ],
  };
  return JSON.stringify(animation);
}
