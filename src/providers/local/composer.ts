// The embedded `local` provider: a deterministic, offline composer. It turns the prompt into a valid
// composition for either engine — text, colours and motion derived from the prompt, sized to the
// requested canvas — so the whole pipeline works with no LLM configured.
import crypto from 'node:crypto';
import type { EngineId } from '../../shared.js';

export type ComposeSpec = { engine: EngineId; prompt: string; width: number; height: number; durationSeconds?: number };

export const LOCAL_DEFAULT_DURATION_SECONDS = 3;
const FPS = 30;

/** Stable pseudo-random numbers from the prompt: same prompt, same video. */
function seeded(prompt: string) {
  let state = crypto.createHash('sha256').update(prompt).digest();
  let i = 0;
  return () => {
    if (i + 4 > state.length) {
      state = crypto.createHash('sha256').update(state).digest();
      i = 0;
    }
    const v = state.readUInt32BE(i) / 2 ** 32;
    i += 4;
    return v;
  };
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h * 12) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}
const hex = ([r, g, b]: [number, number, number]) =>
  '#' + [r, g, b].map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('');

function palette(rand: () => number) {
  const hue = rand();
  return {
    background: hsl(hue, 0.55, 0.14),
    accent: hsl((hue + 0.33) % 1, 0.75, 0.58),
    accent2: hsl((hue + 0.62) % 1, 0.7, 0.62),
    text: [0.97, 0.97, 0.97] as [number, number, number],
  };
}

/** The headline shown in the video: the prompt's first sentence, shortened. */
export function headline(prompt: string): string {
  const first = prompt.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s/)[0] ?? '';
  const words = first.split(' ').slice(0, 9).join(' ');
  return (words.length > 60 ? words.slice(0, 57) + '…' : words) || 'Hello';
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function composeLocally(spec: ComposeSpec): string {
  return spec.engine === 'lottie' ? composeLottie(spec) : composeHtml(spec);
}

function composeHtml({ prompt, width, height, durationSeconds = LOCAL_DEFAULT_DURATION_SECONDS }: ComposeSpec): string {
  const rand = seeded(prompt);
  const p = palette(rand);
  const title = escapeHtml(headline(prompt));
  const short = Math.min(width, height);
  const fontSize = Math.round(short / 11);
  const orb = Math.round(short * (0.35 + rand() * 0.2));
  const spin = Math.round(90 + rand() * 270);
  const d = durationSeconds;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=${width}, height=${height}" />
<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>
  * { margin: 0; padding: 0; box-sizing: border-box; }
  html, body { width: ${width}px; height: ${height}px; overflow: hidden; background: ${hex(p.background)}; }
  #stage { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; }
  .clip { position: absolute; top: 0; left: 0; width: 100%; height: 100%; visibility: hidden; }
  #orb { position: absolute; width: ${orb}px; height: ${orb}px; border-radius: 50%;
         left: ${Math.round((width - orb) / 2)}px; top: ${Math.round(height * 0.22)}px;
         background: linear-gradient(135deg, ${hex(p.accent)}, ${hex(p.accent2)}); }
  #bar { position: absolute; left: 10%; width: 80%; height: ${Math.max(4, Math.round(short / 60))}px;
         top: ${Math.round(height * 0.72)}px; background: ${hex(p.accent2)}; transform-origin: left center; }
  #title { position: absolute; left: 8%; width: 84%; top: ${Math.round(height * 0.55)}px; text-align: center;
           font-family: sans-serif; font-weight: 700; font-size: ${fontSize}px; line-height: 1.15; color: ${hex(p.text)}; }
</style>
</head>
<body>
<div id="stage" data-composition-id="local" data-start="0" data-width="${width}" data-height="${height}">
  <div id="scene" class="clip" data-start="0" data-duration="${d}" data-track-index="0">
    <div id="orb"></div>
    <div id="bar"></div>
    <div id="title">${title}</div>
  </div>
</div>
<script>
  var tl = gsap.timeline({ paused: true });
  tl.from("#orb", { scale: 0.2, opacity: 0, duration: ${(d * 0.35).toFixed(2)}, ease: "back.out(1.7)" }, 0);
  tl.to("#orb", { rotation: ${spin}, borderRadius: "30%", duration: ${(d * 0.65).toFixed(2)}, ease: "sine.inOut" }, ${(d * 0.35).toFixed(2)});
  tl.from("#title", { y: ${Math.round(height * 0.05)}, opacity: 0, duration: ${(d * 0.3).toFixed(2)}, ease: "power2.out" }, ${(d * 0.15).toFixed(2)});
  tl.from("#bar", { scaleX: 0, duration: ${(d * 0.5).toFixed(2)}, ease: "power1.inOut" }, ${(d * 0.3).toFixed(2)});
  tl.set({}, {}, ${d});
  window.__timelines = window.__timelines || {};
  window.__timelines["local"] = tl;
</script>
</body>
</html>
`;
}

function composeLottie({ prompt, width, height, durationSeconds = LOCAL_DEFAULT_DURATION_SECONDS }: ComposeSpec): string {
  const rand = seeded(prompt);
  const p = palette(rand);
  const frames = Math.round(durationSeconds * FPS);
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
