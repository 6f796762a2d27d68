// The Lottie engine's offline composition (the embedded `local` provider): the prompt's storyboard
// (src/storyboard/) drawn as motion graphics. Each scene is a precomposition — text layers set
// in the Noto face for their script and fitted to the canvas's safe area, shapes, counters counting up,
// bars growing, lists staggering in, emoji as images — entering and leaving by the look's transition,
// over a background and an ornament that moves only at the opening and at the cuts (so a scene that
// holds its text gives frames the render need not draw again). The first frame already shows the
// title. Same prompt, same JSON.
import { drawComparison, drawFeatures, drawTimeline, withIcon } from './designed.js';
import { sceneTexts, type Look, type Storyboard, type TimedScene } from '../../storyboard/types.js';
import { directionOf } from '../../text/scripts.js';
import { composeStoryboard } from '../storyboard.js';
import type { MediaAsset, OfflineCompositionSpec, StoryboardTarget } from '../types.js';
import {
  EASE,
  ellipse,
  fill,
  group,
  imageLayer,
  precompLayer,
  rect,
  shapeLayer,
  stroke,
  type Json,
  type Key,
  type Transform,
} from './build.js';
import { Composer, FPS } from './compose.js';
import {
  drawBars,
  drawCountdown,
  drawCounter,
  drawCta,
  drawImage,
  drawList,
  drawProgress,
  drawQuote,
  drawStatement,
  drawSteps,
  drawTitle,
} from './scenes.js';

export function composeLottie(spec: OfflineCompositionSpec): string {
  return composeStoryboard(drawLottie, spec).source;
}

type ImageRef = { id: string; w: number; h: number };

export function drawLottie(board: Storyboard, target: StoryboardTarget): string {
  const frames = Math.round(board.durationSeconds * FPS);
  const texts = board.scenes.map(sceneText).join(' ');
  const c = new Composer(
    target.width,
    target.height,
    board.look,
    board.direction === 'rtl' || directionOf(texts) === 'rtl',
    board.lang,
  );

  // One image asset per picture the scenes show (image_1 the first, as a planned title has it).
  const images = new Map<string, ImageRef>();
  for (const name of board.scenes.flatMap((s) =>
    s.kind === 'title' && s.image ? [s.image] : s.kind === 'image' ? [s.image] : [],
  )) {
    const a = target.assets.find((x) => x.name === name);
    if (!a || images.has(name)) continue;
    const { asset, ref } = imageAsset(a, `image_${images.size + 1}`);
    images.set(name, ref);
    c.assets.push(asset);
  }
  const logo = board.logo ? target.assets.find((a) => a.name === board.logo) : undefined;
  const logoRef = logo ? imageAsset(logo, 'brand_logo') : null;
  if (logoRef) c.assets.push(logoRef.asset);

  // Scene windows in frames: they tile the timeline exactly.
  const windows = board.scenes.map((scene, i) => {
    const start = Math.round(scene.start * FPS);
    const end = i === board.scenes.length - 1 ? frames : Math.round((scene.start + scene.duration) * FPS);
    return { scene, start, end: Math.max(start + 1, end) };
  });
  const precomps: Json[] = [];
  const sceneLayers = windows.map(({ scene, start, end }, i) => {
    const L = end - start;
    const id = `scene_${i + 1}`;
    const last = i === windows.length - 1;
    const layers =
      last && logoRef
        ? closingWithLogo(c, logoRef.ref, L, () => drawScene(c, scene, L, images))
        : drawScene(c, scene, L, images);
    precomps.push({ id, nm: `${i + 1} ${scene.kind}`, fr: FPS, layers: indexed(layers) });
    return precompLayer(
      {
        ind: 0,
        nm: `${i + 1} ${scene.kind}`,
        ip: start,
        op: end,
        st: start,
        ks: sceneTransition(c, start, end, i === 0, i === windows.length - 1),
      },
      id,
      c.W,
      c.H,
    );
  });
  const cuts = windows.slice(0, -1).map((w) => w.end);

  const animation = {
    v: '5.7.0',
    fr: FPS,
    ip: 0,
    op: frames,
    w: c.W,
    h: c.H,
    nm: sceneText(board.scenes[0]!).slice(0, 80) || 'animation',
    ddd: 0,
    assets: [...c.assets, ...precomps],
    fonts: c.fontList(),
    // Lottie draws the first layer on top: wipes, scenes (later ones over earlier), ornament, background.
    // A transparent video has neither of the last two: it shows whatever is behind it.
    layers: indexed([
      ...(board.look.transition === 'wipe' ? wipes(c, cuts, frames) : []),
      ...sceneLayers.reverse(),
      ...(target.transparent ? [] : [...decoration(c, frames, ornamentMotion(cuts, frames)), background(c, frames)]),
    ]),
    markers: windows.map(({ scene, start, end }) => ({ tm: start, cm: scene.kind, dr: end - start })),
  };
  return JSON.stringify(animation);
}

/** Layer indices 1, 2, 3… in drawing order. */
function indexed(layers: Json[]): Json[] {
  return layers.map((l, i) => ({ ...l, ind: i + 1 }));
}

function sceneText(scene: TimedScene): string {
  return sceneTexts(scene).filter(Boolean).join(' ');
}

/** The user's picture (or the brand logo): an image asset the render resolves from the generation's stored media. */
function imageAsset(a: MediaAsset, id: string): { asset: Json; ref: ImageRef } {
  const w = a.width ?? 1024;
  const h = a.height ?? 1024;
  return { asset: { id, w, h, u: 'assets/', p: a.name, e: 0 }, ref: { id, w, h } };
}

/** The closing scene drawn below the brand logo, which is fitted into a band at the top of the safe area. */
function closingWithLogo(c: Composer, logo: ImageRef, L: number, draw: () => Json[]): Json[] {
  const band = Math.round(c.safe.h * 0.2);
  const reserve = band + Math.round(c.safe.h * 0.04);
  const layers = c.within({ ...c.safe, y: c.safe.y + reserve, h: c.safe.h - reserve }, draw);
  const scale = Math.min(c.safe.w / logo.w, band / logo.h) * 100;
  const centre = [c.safe.x + c.safe.w / 2, c.safe.y + band / 2];
  return [
    imageLayer(
      { ind: 0, nm: 'brand logo', ip: 0, op: L, ks: { a: [logo.w / 2, logo.h / 2], p: centre, s: [scale, scale] } },
      logo.id,
    ),
    ...layers,
  ];
}

/**
 * A scene with its own pictogram above it (src/storyboard/types.ts `Pictogram`): not a features scene (its items have
 * theirs), a countdown or a full-frame picture. Counters and calls to action centre it; the others as the look aligns.
 */
function drawScene(c: Composer, scene: TimedScene, L: number, images: Map<string, ImageRef>): Json[] {
  if (scene.kind === 'features' || scene.kind === 'countdown' || scene.kind === 'image')
    return drawKind(c, scene, L, images);
  const centred = scene.kind === 'counter' || scene.kind === 'cta' || c.align === 'center';
  return withIcon(c, scene.icon, L, () => drawKind(c, scene, L, images), centred);
}

function drawKind(c: Composer, scene: TimedScene, L: number, images: Map<string, ImageRef>): Json[] {
  switch (scene.kind) {
    case 'title':
      return drawTitle(c, scene, L, scene.image ? (images.get(scene.image) ?? null) : null);
    case 'image':
      return drawImage(c, scene, L, images.get(scene.image) ?? null);
    case 'statement':
      return drawStatement(c, scene, L);
    case 'counter':
      return drawCounter(c, scene, L);
    case 'progress':
      return drawProgress(c, scene, L);
    case 'bars':
      return drawBars(c, scene, L);
    case 'list':
      return drawList(c, scene, L);
    case 'steps':
      return drawSteps(c, scene, L);
    case 'countdown':
      return drawCountdown(c, scene, L);
    case 'quote':
      return drawQuote(c, scene, L);
    case 'cta':
      return drawCta(c, scene, L);
    case 'comparison':
      return drawComparison(c, scene, L);
    case 'timeline':
      return drawTimeline(c, scene, L);
    case 'features':
      return drawFeatures(c, scene, L);
  }
}

// ---- Transitions ---------------------------------------------------------------------------------

/** How a scene comes in (unless first) and goes out (unless last), by the look's transition. */
function sceneTransition(c: Composer, start: number, end: number, first: boolean, last: boolean): Transform {
  const L = end - start;
  const E = Math.max(3, Math.min(15, Math.round(L * 0.25)));
  const X = Math.max(3, Math.min(10, Math.round(L * 0.2)));
  const centre = [c.W / 2, c.H / 2];
  const t: Transform = { a: centre, p: centre };
  const o: Key[] = [];
  const p: Key[] = [];
  const s: Key[] = [];
  const ease = c.motion.ease === EASE.back ? EASE.out : c.motion.ease;
  const kind = c.look.transition;
  const shift = (dx: number, dy: number) => [c.W / 2 + dx, c.H / 2 + dy];
  if (!first) {
    if (kind !== 'wipe') o.push([start, 0, EASE.out], [start + E, 100]);
    if (kind === 'slide') p.push([start, shift((c.rtl ? -1 : 1) * c.W * 0.12, 0), ease], [start + E, centre]);
    if (kind === 'rise') p.push([start, shift(0, c.H * 0.06), ease], [start + E, centre]);
    if (kind === 'zoom') s.push([start, 86, ease], [start + E, 100]);
  }
  if (!last) {
    if (kind !== 'wipe') o.push([end - X, 100, EASE.in], [end, 0]);
    if (kind === 'slide') p.push([end - X, centre, EASE.in], [end, shift((c.rtl ? 1 : -1) * c.W * 0.12, 0)]);
    if (kind === 'rise') p.push([end - X, centre, EASE.in], [end, shift(0, -c.H * 0.06)]);
    if (kind === 'zoom') s.push([end - X, 100, EASE.in], [end, 112]);
  }
  if (o.length) t.o = o;
  if (p.length) t.p = p;
  if (s.length) t.s = s;
  return t;
}

/** Wipe transition: accent panels sweep across the canvas, covering each cut. */
function wipes(c: Composer, cuts: number[], frames: number): Json[] {
  const { W, H, palette } = c;
  return cuts
    .flatMap((cut, i) =>
      [
        { colour: palette.accent, lead: 0 },
        { colour: palette.accent2, lead: 3 },
      ].map(({ colour, lead }) => {
        const t0 = Math.max(0, cut - 9 - lead);
        const t2 = Math.min(frames, cut + 9 - lead);
        const dir = c.rtl ? -1 : 1;
        return shapeLayer(
          {
            ind: 0,
            nm: `wipe ${i + 1}${lead ? ' b' : ''}`,
            ip: t0,
            op: t2,
            ks: {
              p: [
                [t0, [W / 2 - dir * W, H / 2], EASE.in],
                [cut - lead, [W / 2, H / 2], EASE.out],
                [t2, [W / 2 + dir * W * 1.05, H / 2]],
              ],
            },
          },
          [group('panel', [rect([0, 0], [W * 1.02, H * 1.02]), fill(colour)])],
        );
      }),
    )
    .reverse();
}

// ---- Background and ornament --------------------------------------------------------------------------

function background(c: Composer, frames: number): Json {
  const { W, H, palette } = c;
  // Opaque fills only: ThorVG paints a solid fill far faster than a gradient over the whole canvas.
  return shapeLayer({ ind: 0, nm: 'background', ip: 0, op: frames }, [
    group('background', [rect([W / 2, H / 2], [W, H]), fill(palette.background)]),
  ]);
}

function mixTo(a: string, b: string, t: number): string {
  return `#${[1, 3, 5]
    .map((i) =>
      Math.round(parseInt(a.slice(i, i + 2), 16) * (1 - t) + parseInt(b.slice(i, i + 2), 16) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * When the ornament moves: the opening and each cut's transition, when the picture changes anyway. It
 * rests while a scene's text holds, so those frames repeat the one before and the render need not draw
 * them again (holds.ts).
 */
type OrnamentMotion = Array<{ from: number; to: number }>;

function ornamentMotion(cuts: number[], frames: number): OrnamentMotion {
  const windows = [{ from: 0, to: Math.min(frames, 1.5 * FPS) }];
  for (const cut of cuts) {
    const from = Math.max(windows.at(-1)!.to, cut - 0.4 * FPS);
    const to = Math.min(frames, cut + 0.6 * FPS);
    if (to > from) windows.push({ from, to });
  }
  return windows;
}

/** Keyframes that step from `value(k)` to `value(k + 1)` during the k-th window of motion and hold between windows. */
function steps(motion: OrnamentMotion, value: (k: number) => number | number[]): Key[] {
  return motion.flatMap(({ from, to }, k): Key[] => [
    [from, value(k), EASE.inOut],
    [to, value(k + 1), EASE.inOut],
  ]);
}

/** Back and forth between `a` and `b`, one way per window of motion. */
const drift = (motion: OrnamentMotion, a: number[], b: number[]) => steps(motion, (k) => (k % 2 ? b : a));

/** Concentric opaque discs stepping from the background towards `colour`: a soft halo, cheap to paint. */
function halo(c: Composer, x: number, y: number, radius: number, colour: string, strength: number, steps = 4): Json[] {
  return Array.from({ length: steps }, (_, k) => {
    const r = radius * (1 - k / steps);
    return group(`halo ${k + 1}`, [
      ellipse([x, y], [r * 2, r * 2]),
      fill(mixTo(c.palette.background, colour, (strength * (k + 1)) / steps)),
    ]);
  }).reverse();
}

function decoration(c: Composer, frames: number, motion: OrnamentMotion): Json[] {
  const { W, H, T, palette } = c;
  const look: Look = c.look;
  const tint = look.theme === 'dark' ? 0.22 : 0.16;
  switch (look.decoration) {
    case 'orbs':
      return [
        shapeLayer(
          { ind: 0, nm: 'orb 1', ip: 0, op: frames, ks: { p: drift(motion, [0, 0], [T * 0.06, T * 0.04]) } },
          halo(c, W * 0.08, H * 0.14, T * 0.42, palette.accent, tint, 6),
        ),
        shapeLayer(
          { ind: 0, nm: 'orb 2', ip: 0, op: frames, ks: { p: drift(motion, [0, 0], [-T * 0.05, -T * 0.06]) } },
          halo(c, W * 0.94, H * 0.86, T * 0.46, palette.accent2, tint, 6),
        ),
        shapeLayer(
          { ind: 0, nm: 'orb 3', ip: 0, op: frames, ks: { p: drift(motion, [0, 0], [-T * 0.04, T * 0.05]) } },
          halo(c, W * 0.86, H * 0.08, T * 0.16, palette.accent, tint * 1.3, 3),
        ),
      ];
    case 'glow':
      return [
        shapeLayer(
          {
            ind: 0,
            nm: 'glow',
            ip: 0,
            op: frames,
            ks: { a: [W / 2, H / 2], p: [W / 2, H / 2], s: drift(motion, [100, 100], [112, 112]) },
          },
          halo(c, W / 2, H / 2, Math.max(W, H) * 0.42, palette.accent, tint, 9),
        ),
      ];
    case 'rings': {
      const ring = (x: number, y: number, colour: string, n: number, rot: number) =>
        shapeLayer(
          {
            ind: 0,
            nm: 'rings',
            ip: 0,
            op: frames,
            ks: { a: [x, y], p: [x, y], r: steps(motion, (k) => (rot * k) / motion.length) },
          },
          [
            group(
              'rings',
              Array.from({ length: n }, (_, k) => ellipse([x, y], [T * (0.3 + 0.22 * k), T * (0.3 + 0.22 * k)])).concat(
                [stroke(mixTo(palette.background, colour, 0.45), Math.max(1, T * 0.004), 100, [T * 0.03, T * 0.018])],
              ),
            ),
          ],
        );
      return [ring(W * 0.92, H * 0.1, palette.accent, 4, 40), ring(W * 0.06, H * 0.92, palette.accent2, 3, -30)];
    }
    case 'grid': {
      const cell = T / 7;
      const lines: Json[] = [];
      for (let x = -cell; x <= W + cell; x += cell)
        lines.push(rect([x, H / 2], [Math.max(1, T * 0.002), H + 2 * cell]));
      for (let y = -cell; y <= H + cell; y += cell)
        lines.push(rect([W / 2, y], [W + 2 * cell, Math.max(1, T * 0.002)]));
      return [
        shapeLayer(
          {
            ind: 0,
            nm: 'grid',
            ip: 0,
            op: frames,
            ks: { p: steps(motion, (k) => [(cell * k) / motion.length, (cell * k) / motion.length]) },
          },
          [group('grid', [...lines, fill(mixTo(palette.background, palette.muted, 0.18))])],
        ),
        shapeLayer(
          { ind: 0, nm: 'grid glow', ip: 0, op: frames, ks: { p: drift(motion, [0, 0], [T * 0.1, T * 0.06]) } },
          halo(c, W * 0.78, H * 0.22, T * 0.4, palette.accent, tint),
        ),
      ];
    }
    default:
      return [];
  }
}
