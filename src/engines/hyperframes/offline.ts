// The HyperFrames engine's offline composition (the embedded `local` provider): a GSAP timeline
// with colours and motion derived from the prompt, sized to the canvas.
import { headline, hex, OFFLINE_DURATION_SECONDS, palette, seeded } from '../offline.js';
import type { OfflineCompositionSpec } from '../types.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function composeHyperframes({ prompt, width, height }: OfflineCompositionSpec): string {
  const d = OFFLINE_DURATION_SECONDS;
  const rand = seeded(prompt);
  const p = palette(rand);
  const title = escapeHtml(headline(prompt));
  const short = Math.min(width, height);
  const fontSize = Math.round(short / 11);
  const orb = Math.round(short * (0.35 + rand() * 0.2));
  const spin = Math.round(90 + rand() * 270);
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
