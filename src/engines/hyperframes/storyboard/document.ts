// A storyboard as one HyperFrames document: a background clip (palette, ornament, a progress line)
// spanning the whole video on track 0 (ornament and line move only at the opening and around the cuts,
// so a scene that holds its text gives frames the render need not capture again), one clip per scene
// (tracks 1 and 2 in turn, so neighbours can cross), transitions and easing from the look, and one
// paused GSAP timeline exactly `durationSeconds` long, which the root element declares as its
// data-duration.
import { mix } from '../../../storyboard/look.js';
import { sceneTexts, type Look, type Storyboard, type TimedScene } from '../../../storyboard/types.js';
import { scriptOf, type Script } from '../../../text/scripts.js';
import { fontFaces, fontStack } from './fonts.js';
import { escapeHtml, frameOf, js, MOTION_EASES, px, readableOn, rgba, sec, type Eases, type Frame } from './frame.js';
import { PAGE_RUNTIME } from './runtime.js';
import { sceneLayout } from './scenes.js';

export const COMPOSITION_ID = 'local';
const GSAP_URL = 'https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js';

/** `transparent`: no background and no ornament (an alpha video shows whatever is behind it). */
export function storyboardDocument(
  sb: Storyboard,
  canvas: { width: number; height: number },
  opts: { transparent?: boolean } = {},
): string {
  const f = frameOf(canvas.width, canvas.height, sb.direction === 'rtl');
  const { look } = sb;
  const ease = MOTION_EASES[look.motion];
  const D = sec(sb.durationSeconds);
  // Cuts: where a scene starts after another (the crossings end there).
  const motion = ornamentMotion(
    sb.scenes.slice(1).map((s) => s.start),
    D,
  );
  const background = opts.transparent ? { html: '', tweens: [] } : decoration(f, look, D, motion);
  const clips: string[] = [];
  const tweens: string[] = [...background.tweens];
  sb.scenes.forEach((scene, i) => {
    const id = `s${i}`;
    const first = i === 0;
    // Scenes cross: each one enters while the one before leaves, so the two alternate between tracks 1
    // and 2 and a scene's clip starts `overlap` seconds before its storyboard start.
    const overlap = first ? 0 : crossing(sb.scenes[i - 1]!, scene);
    const next = sb.scenes[i + 1];
    const t = transition(f, look, ease, id, scene, overlap, next ? crossing(scene, next) : 0);
    // The closing scene shows the brand logo (when asked) above its content, in the top of its safe area.
    const logo = !next && sb.logo ? logoBand(f) : null;
    const area = logo ? { ...f, my: f.my + logo.reserve, sh: f.sh - logo.reserve } : f;
    const layout = sceneLayout({ f: area, look, ease, id, scene, t0: t.t0 });
    const logoHtml = logo && sb.logo ? logoImage(f, logo, sb.logo) : '';
    const moved = logo ? ` style="top:${px(area.my)};height:${px(area.sh)}"` : '';
    const timing = `data-start="${sec(scene.start - overlap)}" data-duration="${sec(scene.duration + overlap)}"`;
    clips.push(
      `<div id="${id}" class="clip" ${timing} data-track-index="${1 + (i % 2)}">` +
        `<div class="sc" id="${id}-c"${moved}>${logoHtml}${layout.html}</div></div>`,
    );
    tweens.push(`// ${scene.kind}`, ...t.tweens, ...layout.tweens);
  });

  return `<!doctype html>
<html lang="${sb.lang === 'und' ? scriptLang(sb) : sb.lang}">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=${f.W}, height=${f.H}">
<script src="${GSAP_URL}"></script>
<style>
${fontFaces([look.font])}
${css(f, look, opts.transparent === true)}
</style>
</head>
<body>
<div id="stage" data-composition-id="${COMPOSITION_ID}" data-start="0" data-duration="${D}" \
data-width="${f.W}" data-height="${f.H}">
<div id="bg" class="clip" data-start="0" data-duration="${D}" data-track-index="0">${background.html}</div>
${clips.join('\n')}
</div>
<script>
${PAGE_RUNTIME.trim()}
var tl = gsap.timeline({ paused: true });
${tweens.join('\n')}
tl.set({}, {}, ${D});
window.__timelines = window.__timelines || {};
window.__timelines[${js(COMPOSITION_ID)}] = tl;
</script>
</body>
</html>
`;
}

/** Languages a script stands for where glyph choice differs (CJK), or the script names one. */
const SCRIPT_LANG: Partial<Record<Script, string>> = {
  'cjk-jp': 'ja',
  'cjk-kr': 'ko',
  'cjk-sc': 'zh',
  hebrew: 'he',
  arabic: 'ar',
};

/**
 * The document language when the planner knows none: from the script of the storyboard's text (glyph choice follows
 * it).
 */
function scriptLang(sb: Storyboard): string {
  return SCRIPT_LANG[scriptOf(sb.scenes.flatMap(sceneTexts).join(' '))] ?? 'und';
}

// ---- brand logo ----------------------------------------------------------------------------------

/** The logo's band at the top of the safe area: its height, and the height the scene gives up for it (band and gap). */
function logoBand(f: Frame): { height: number; reserve: number } {
  const height = Math.round(f.sh * 0.2);
  return { height, reserve: height + Math.round(f.sh * 0.04) };
}

/** The logo, fitted into its band (positioned from the scene's moved safe area, so it moves with the scene). */
function logoImage(f: Frame, band: { height: number; reserve: number }, name: string): string {
  const box = `left:0;top:${px(-band.reserve)};width:${px(f.sw)};height:${px(band.height)}`;
  const style = `position:absolute;${box};object-fit:contain`;
  return `<img class="brand-logo" id="brand-logo" src="assets/${escapeHtml(encodeURI(name))}" alt="" style="${style}">`;
}

// ---- transitions ---------------------------------------------------------------------------------

/** Seconds two consecutive scenes are both on screen: a share of the shorter one. */
const crossing = (a: TimedScene, b: TimedScene) =>
  sec(Math.min(0.45, Math.max(0.15, Math.min(a.duration, b.duration) * 0.2)));

/**
 * The scene's transition in, during the `before` seconds it shares with the scene before (none for the
 * first scene: it is on screen at t = 0), and out, during the `after` seconds it shares with the next.
 */
function transition(f: Frame, look: Look, ease: Eases, id: string, scene: TimedScene, before: number, after: number) {
  const tweens: string[] = [];
  const el = js(`#${id}-c`);
  const end = scene.start + scene.duration;
  const dx = Math.round(f.W * 0.18) * (f.rtl ? -1 : 1);
  const dy = Math.round(f.H * 0.08);
  const wipeFrom = f.rtl ? 'inset(0% 0% 0% 100%)' : 'inset(0% 100% 0% 0%)';
  const wipeTo = f.rtl ? 'inset(0% 100% 0% 0%)' : 'inset(0% 0% 0% 100%)';
  const shown = 'inset(0% 0% 0% 0%)';
  const states: Record<Look['transition'], { in: object; out: object; rest: object }> = {
    fade: { in: { opacity: 0 }, out: { opacity: 0 }, rest: { opacity: 1 } },
    slide: { in: { x: dx, opacity: 0 }, out: { x: -dx, opacity: 0 }, rest: { x: 0, opacity: 1 } },
    wipe: { in: { clipPath: wipeFrom }, out: { clipPath: wipeTo }, rest: { clipPath: shown } },
    zoom: { in: { scale: 1.12, opacity: 0 }, out: { scale: 0.9, opacity: 0 }, rest: { scale: 1, opacity: 1 } },
    rise: { in: { y: dy, opacity: 0 }, out: { y: -Math.round(dy / 2), opacity: 0 }, rest: { y: 0, opacity: 1 } },
  };
  const st = states[look.transition];
  // A wipe's two edges move together; the other transitions ease in and out.
  const wipe = look.transition === 'wipe';
  // Otherwise the scene leaving is gone early in the crossing and the one entering appears a little
  // later, so the two are hardly ever seen on top of each other.
  if (before > 0) {
    const at = wipe ? scene.start - before : scene.start - before * 0.6;
    const duration = wipe ? before : before * 0.6 + 0.25;
    const to = js({ ...st.rest, duration: sec(duration), ease: wipe ? 'power2.inOut' : ease.in });
    tweens.push(`tl.fromTo(${el}, ${js(st.in)}, ${to}, ${sec(at)});`);
  }
  if (after > 0) {
    const duration = wipe ? after : after * 0.7;
    const to = js({
      ...st.out,
      duration: sec(duration),
      ease: wipe ? 'power2.inOut' : ease.out,
      immediateRender: false,
    });
    tweens.push(`tl.fromTo(${el}, ${js(st.rest)}, ${to}, ${sec(end - after)});`);
  }
  return { tweens, t0: before > 0 ? sec(scene.start - before * 0.6) : scene.start };
}

// ---- background ----------------------------------------------------------------------------------

/**
 * When the ornament moves (as the Lottie composer's, src/engines/lottie/offline.ts): the opening and each
 * cut's transition, when the picture changes anyway. It rests while a scene's text holds, so the producer
 * sees from the timeline that those frames repeat the one before and does not capture them again.
 */
type OrnamentMotion = Array<{ from: number; to: number }>;

function ornamentMotion(cuts: number[], D: number): OrnamentMotion {
  const windows = [{ from: 0, to: Math.min(D, 1.5) }];
  for (const cut of cuts) {
    const from = Math.max(windows.at(-1)!.to, cut - 0.4);
    const to = Math.min(D, cut + 0.6);
    if (to > from) windows.push({ from, to });
  }
  return windows;
}

/**
 * Tweens of `selector` stepping from `value(k)` to `value(k + 1)` during the k-th window of motion and
 * holding between windows. Only the first renders its start values at once (the later ones start where
 * the one before ended, so none overrides another while the timeline is seeked).
 */
function stepped(
  selector: string,
  motion: OrnamentMotion,
  value: (k: number) => Record<string, number>,
  ease = 'sine.inOut',
): string[] {
  return motion.map(({ from, to }, k) => {
    const vars = { ...value(k + 1), duration: sec(to - from), ease, ...(k > 0 && { immediateRender: false }) };
    return `tl.fromTo(${js(selector)}, ${js(value(k))}, ${js(vars)}, ${sec(from)});`;
  });
}

/** Back and forth between `a` and `b`, one way per window of motion. */
const drift = (a: Record<string, number>, b: Record<string, number>) => (k: number) => (k % 2 ? b : a);

function decoration(f: Frame, look: Look, D: number, motion: OrnamentMotion): { html: string; tweens: string[] } {
  const p = look.palette;
  const light = look.theme === 'light';
  const L = Math.max(f.W, f.H);
  const S = Math.min(f.W, f.H);
  const parts: string[] = [];
  const tweens: string[] = [];
  const at = (x: number, y: number, w: number, h: number) =>
    `left:${px(x)};top:${px(y)};width:${px(w)};height:${px(h)}`;
  const endX = (x: number, w: number) => (f.rtl ? f.W - x - w : x);
  switch (look.decoration) {
    case 'orbs': {
      const a = light ? 0.32 : 0.4;
      const orbs = [
        { size: 0.85 * L, x: -0.3 * L, y: -0.3 * L, colour: p.accent, alpha: a, dx: 0.08, dy: 0.06 },
        { size: 0.7 * L, x: f.W - 0.4 * L, y: f.H - 0.4 * L, colour: p.accent2, alpha: a * 0.9, dx: -0.07, dy: -0.05 },
        { size: 0.4 * L, x: f.W * 0.55, y: f.H * 0.35, colour: p.accent, alpha: a * 0.45, dx: -0.1, dy: 0.08 },
      ];
      orbs.forEach((o, i) => {
        const box = at(endX(o.x, o.size), o.y, o.size, o.size);
        const fill = `radial-gradient(circle at center, ${rgba(o.colour, o.alpha)} 0%, ${rgba(o.colour, 0)} 68%)`;
        parts.push(`<div class="orb" id="bg-o${i}" style="${box};background:${fill}"></div>`);
        const x = Math.round(o.dx * f.W * (f.rtl ? -1 : 1));
        const away = { x, y: Math.round(o.dy * f.H), scale: 1.12 };
        tweens.push(...stepped(`#bg-o${i}`, motion, drift({ x: 0, y: 0, scale: 1 }, away)));
      });
      break;
    }
    case 'grid': {
      const cell = Math.max(12, Math.round(S / 9));
      const line = rgba(p.accent, light ? 0.16 : 0.13);
      const w = Math.max(1, Math.round(S / 600));
      const box = at(-cell, -cell, f.W + 2 * cell, f.H + 2 * cell);
      const lines = ['right', 'bottom'].map((to) => `linear-gradient(to ${to}, ${line} ${w}px, transparent ${w}px)`);
      const clear = rgba(p.background, 0);
      const shade = `radial-gradient(ellipse at center, ${clear} 35%, ${rgba(p.background, 0.92)} 100%)`;
      parts.push(
        `<div class="grid" id="bg-grid" ` +
          `style="${box};background-image:${lines.join(',')};background-size:${cell}px ${cell}px"></div>`,
        `<div class="vignette" style="background:${shade}"></div>`,
      );
      // One cell over the whole video, a step per window of motion.
      const shift = (k: number) => (cell * k) / motion.length;
      tweens.push(...stepped('#bg-grid', motion, (k) => ({ x: f.rtl ? -shift(k) : shift(k), y: shift(k) })));
      break;
    }
    case 'rings': {
      const cx = f.rtl ? f.W * 0.08 : f.W * 0.92;
      const cy = f.H * 0.9;
      const bw = Math.max(1.5, Math.round(S * 0.004 * 10) / 10);
      [0.45, 0.75, 1.05, 1.35].forEach((k, i) => {
        const size = k * S;
        const dashed = i === 1;
        const box = at(cx - size / 2, cy - size / 2, size, size);
        const colour = rgba(dashed ? p.accent2 : p.accent, light ? 0.35 : 0.3);
        const border = `${bw}px ${dashed ? 'dashed' : 'solid'} ${colour}`;
        parts.push(`<div class="ring-bg" id="bg-r${i}" style="${box};border:${border}"></div>`);
        const turn = (k: number) => (dashed ? (60 * k) / motion.length : 0);
        tweens.push(...stepped(`#bg-r${i}`, motion, (k) => ({ scale: k % 2 ? 1.05 : 0.9, rotation: turn(k) })));
      });
      const small = 0.4 * S;
      const box = at(endX(f.W * 0.06 - small / 2, small), f.H * 0.08 - small / 2, small, small);
      parts.push(`<div class="ring-bg" id="bg-r4" style="${box};border:${bw}px solid ${rgba(p.accent2, 0.3)}"></div>`);
      tweens.push(...stepped('#bg-r4', motion, drift({ scale: 1 }, { scale: 1.2 })));
      break;
    }
    case 'glow': {
      const a = light ? 0.35 : 0.5;
      const glow = (colour: string, alpha: number) =>
        `radial-gradient(ellipse at center, ${rgba(colour, alpha)} 0%, ${rgba(colour, 0)} 65%)`;
      const box0 = at(-0.2 * f.W, f.H * 0.5, 1.4 * f.W, f.H * 0.9);
      const box1 = at(endX(f.W * 0.45, 0.9 * f.W), -0.35 * f.H, 0.9 * f.W, 0.8 * f.H);
      parts.push(
        `<div class="glow" id="bg-g0" style="${box0};background:${glow(p.accent, a)}"></div>`,
        `<div class="glow" id="bg-g1" style="${box1};background:${glow(p.accent2, a * 0.7)}"></div>`,
      );
      tweens.push(
        ...stepped('#bg-g0', motion, drift({ scale: 0.9, opacity: 0.75 }, { scale: 1.1, opacity: 1 })),
        ...stepped('#bg-g1', motion, drift({ scale: 1.1 }, { scale: 0.9 })),
      );
      break;
    }
    case 'none':
      break;
  }
  // The video's progress, a thin line in the bottom margin.
  const lineH = Math.max(2, Math.round(f.u * 0.45));
  const lineY = f.H - Math.round(f.my / 2) - lineH / 2;
  parts.push(
    `<div class="pline-track" style="${at(f.mx, lineY, f.sw, lineH)}"></div>`,
    `<div class="pline" id="bg-line" style="${at(f.mx, lineY, f.sw, lineH)}"></div>`,
  );
  // The line fills scene by scene: in each window of motion it grows to where the next window begins
  // (the end, after the last), so it rests with the ornament.
  const reach = (k: number) => (k === 0 ? 0 : k >= motion.length ? 1 : sec(motion[k]!.from / D));
  tweens.push(...stepped('#bg-line', motion, (k) => ({ scaleX: reach(k) }), 'power1.inOut'));
  return { html: `<div class="bgfill"></div>${parts.join('')}`, tweens };
}

// ---- style ---------------------------------------------------------------------------------------

function css(f: Frame, look: Look, transparent: boolean): string {
  const p = look.palette;
  const page = transparent ? 'transparent' : p.background;
  const u = (n: number) => px(n * f.u);
  const start = f.rtl ? 'right' : 'left';
  const light = look.theme === 'light';
  const shadow = light ? 'none' : `0 ${u(0.3)} ${u(2)} rgba(0,0,0,0.25)`;
  const lettering = look.uppercase ? 'text-transform: uppercase; letter-spacing: 0.01em;' : 'letter-spacing: -0.01em;';
  const portrait = f.orient === 'portrait';
  const barEnd = mix(p.accent, light ? '#000000' : '#ffffff', 0.22);
  const barFill = `${portrait ? (f.rtl ? 270 : 90) : 0}deg, ${p.accent}, ${barEnd}`;
  const markerColour = readableOn(p.accent, [p.background, '#ffffff', '#0b0b12']);
  // A backslash at the end of a line continues it: the style sheet has no line break there.
  return `* { margin: 0; padding: 0; box-sizing: border-box; }
html, body { width: ${f.W}px; height: ${f.H}px; overflow: hidden; background: ${page}; }
#stage { position: relative; width: ${f.W}px; height: ${f.H}px; overflow: hidden; background: ${page}; \
color: ${p.text}; font-family: ${fontStack(look.font)}; -webkit-font-smoothing: antialiased; }
.clip { position: absolute; top: 0; left: 0; width: 100%; height: 100%; visibility: hidden; }
.bgfill { position: absolute; inset: 0; \
background: radial-gradient(120% 85% at ${f.rtl ? '85%' : '15%'} 8%, ${p.surface} 0%, ${p.background} 62%); }
.orb, .glow, .grid, .ring-bg, .vignette, .pline, .pline-track { position: absolute; }
.vignette { inset: 0; }
.ring-bg { border-radius: 50%; }
.pline-track { background: ${rgba(p.text, 0.12)}; border-radius: 99px; }
.pline { background: ${p.accent}; border-radius: 99px; transform-origin: ${start} center; }
.sc { position: absolute; left: ${f.mx}px; top: ${f.my}px; width: ${f.sw}px; height: ${f.sh}px; \
direction: ${f.rtl ? 'rtl' : 'ltr'}; }
.box { position: absolute; display: flex; flex-direction: column; }
.t { max-width: 100%; overflow-wrap: normal; word-break: auto-phrase; line-break: strict; text-shadow: ${shadow}; }
.w { display: inline-block; }
.h, .h2, .h3 { font-weight: ${look.weight}; color: ${p.text}; ${lettering} }
.h { line-height: 1.1; }
.h2 { line-height: 1.16; }
.h3 { line-height: 1.14; }
.sub { margin-top: ${u(2.6)}; color: ${p.muted}; font-weight: 400; line-height: 1.3; }
.rule { flex: none; width: min(30%, ${u(16)}); height: ${px(Math.max(3, f.u * 0.9))}; margin-bottom: ${u(2.8)}; \
border-radius: 99px; background: ${p.accent}; transform-origin: ${start} center; }
.rule.wide { width: min(70%, ${u(34)}); margin: ${u(2.6)} 0; background: ${p.accent2}; }
.num { font-weight: 800; line-height: 1.05; color: ${p.accent}; white-space: nowrap; \
font-variant-numeric: tabular-nums; letter-spacing: -0.02em; }
.unit { font-size: 0.7em; }
.unit.word { font-size: 0.42em; font-weight: 700; letter-spacing: 0; }
.lbl { font-weight: 400; line-height: 1.25; color: ${p.text}; }
.track { flex: none; width: 100%; height: ${px(Math.max(6, f.u * 3))}; margin: ${u(3)} 0; border-radius: 99px; \
background: ${rgba(p.text, 0.12)}; overflow: hidden; }
.fill { height: 100%; border-radius: 99px; background: linear-gradient(${f.rtl ? 270 : 90}deg, ${p.accent}, \
${p.accent2}); transform-origin: ${start} center; }
.bar { position: absolute; border-radius: ${u(0.9)}; background: linear-gradient(${barFill}); \
transform-origin: ${portrait ? `${start} center` : 'center bottom'}; }
.btrack { position: absolute; border-radius: ${u(0.9)}; background: ${rgba(p.text, 0.1)}; }
.blabel { color: ${p.muted}; font-weight: 400; line-height: 1.15; }
.bval { color: ${p.text}; font-weight: 700; line-height: 1.05; white-space: nowrap; }
.dot { position: absolute; border-radius: 50%; background: ${p.accent}; \
box-shadow: 0 0 0 ${u(0.7)} ${rgba(p.accent, 0.25)}; }
.item { font-weight: 700; line-height: 1.2; color: ${p.text}; }
.badge { position: absolute; display: flex; align-items: center; justify-content: center; border-radius: 999px; \
background: ${p.accent}; box-shadow: 0 0 0 ${u(0.8)} ${rgba(p.accent, 0.25)}; }
.marker { font-weight: 800; line-height: 1; color: ${markerColour}; text-shadow: none; white-space: nowrap; }
.count { font-size: 1em; }
.card { position: absolute; border-radius: ${u(3)}; background: ${p.surface}; border: 1px solid ${rgba(p.text, 0.08)}; \
box-shadow: 0 ${u(1.5)} ${u(5)} rgba(0,0,0,${light ? 0.12 : 0.3}); }
.mark { position: absolute; transform-origin: center; }
.mark svg { display: block; width: 100%; height: 100%; fill: ${p.accent}; }
.quote { font-weight: ${Math.min(look.weight, 700)}; line-height: 1.28; color: ${p.text}; text-shadow: none; }
.by { color: ${p.muted}; font-weight: 400; line-height: 1.2; text-shadow: none; }
.pillwrap { position: relative; flex: none; max-width: 100%; margin-top: ${u(4.5)}; }
.pill { position: relative; padding: 0.3em 0.85em; border-radius: 0.8em; background: ${p.accent}; \
box-shadow: 0 ${u(1)} ${u(4)} ${rgba(p.accent, 0.35)}; font-weight: 700; line-height: 1.15; text-shadow: none; }
.ring { position: absolute; inset: 0; border-radius: 999px; border: ${px(Math.max(2, f.u * 0.5))} solid ${p.accent}; \
opacity: 0; }
.itile { position: absolute; border-radius: 50%; background: ${rgba(p.accent, light ? 0.14 : 0.18)}; \
color: ${p.accent}; display: flex; align-items: center; justify-content: center; }
.itile svg { width: 58%; height: 58%; display: block; }
.tline { position: absolute; border-radius: 99px; background: ${rgba(p.accent, 0.45)}; \
transform-origin: ${start} top; }
.tdot { position: absolute; border-radius: 50%; background: ${p.accent}; \
box-shadow: 0 0 0 ${u(0.7)} ${rgba(p.accent, 0.25)}; }
.ttime { font-weight: 800; line-height: 1.1; color: ${p.accent}; white-space: nowrap; }
.ocard { position: absolute; border-radius: ${u(2.5)}; background: ${p.surface}; \
border: ${px(Math.max(1, f.u * 0.25))} solid ${rgba(p.text, 0.1)}; }
.ocard.hl { border: ${px(Math.max(2, f.u * 0.6))} solid ${p.accent}; \
box-shadow: 0 ${u(1)} ${u(4)} ${rgba(p.accent, 0.3)}; }
.ocard .box { position: absolute; }
.oname { font-weight: ${look.weight}; line-height: 1.1; color: ${p.text}; text-shadow: none; }
.ofig { font-weight: 800; line-height: 1.05; color: ${p.accent}; white-space: nowrap; text-shadow: none; }
.ofeat { font-weight: 400; line-height: 1.3; color: ${p.muted}; text-shadow: none; margin-top: ${u(0.8)}; }
.orule { position: absolute; height: ${px(Math.max(1, f.u * 0.2))}; background: ${rgba(p.text, 0.12)}; }
.obadge { padding: ${u(0.9)} ${u(2.8)}; border-radius: 99px; background: ${p.accent}; }
.obadge-text { font-weight: 700; line-height: 1.15; text-shadow: none; white-space: nowrap; }
.media { position: absolute; overflow: hidden; border-radius: ${u(3)}; background: ${p.surface}; }
.media img { display: block; width: 100%; height: 100%; object-fit: cover; }`;
}
