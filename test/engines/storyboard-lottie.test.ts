// The offline Lottie composer (the embedded `local` provider's lottie compositions): the storyboard's
// scene kinds drawn with text and shape layers, rendered for real (ThorVG + ffmpeg), at the requested
// length, legible at every aspect ratio (read back with tesseract OCR), in Japanese and with emoji.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { frameHolds } from '../../src/engines/lottie/holds.js';
import { loadPlayer } from '../../src/engines/lottie/player.js';
import { outlineText, textDocuments } from '../../src/engines/lottie/text.js';
import type { LottieAnimation } from '../../src/engines/lottie/validate.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import { sceneTexts } from '../../src/storyboard/types.js';
import type { MediaAsset } from '../../src/engines/types.js';
import { colourCount, comparisonBoard, decodeFrame, pictogramBoard, tools, useRenderSandbox } from './support.js';

const run = promisify(execFile);
const engine = getEngine('lottie');
const sandbox = useRenderSandbox('storyboard-lottie', (e) => e.startsWith('video-render-'));

type Canvas = { width: number; height: number };
const compose = (
  prompt: string,
  canvas: Canvas,
  more: { durationSeconds?: number | null; assets?: MediaAsset[] } = {},
) =>
  engine.composeOffline({
    prompt,
    instructions: null,
    durationSeconds: more.durationSeconds ?? null,
    assets: more.assets ?? [],
    ...canvas,
  });

/** Every text the animation shows (all documents of all text layers), one string. */
function shownText(source: string): string {
  return textDocuments(JSON.parse(source) as LottieAnimation)
    .map((d) => String(d.t))
    .join(' ')
    .replace(/\s+/g, ' ');
}

/** The words of a text as a reader counts them: lower case, without the punctuation around them, figures aside. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ''))
    .filter((w) => /\p{L}/u.test(w) && !/\d/.test(w));

const seconds = (source: string) => {
  const a = JSON.parse(source) as LottieAnimation;
  return (a.op - a.ip) / a.fr;
};

async function render(source: string, canvas: Canvas, name: string, fps?: number) {
  const outputPath = path.join(sandbox.out, `${name}.mp4`);
  const result = await engine.render(source, { tools, ...canvas, fps, outputPath });
  return { outputPath, result };
}

/** Frame `n` of a video as a PNG file (for tesseract). */
async function framePng(video: string, n: number): Promise<string> {
  const png = video.replace(/\.mp4$/, `-${n}.png`);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', video, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', png]);
  return png;
}

async function ocr(png: string, lang: 'eng' | 'jpn'): Promise<string> {
  const { stdout } = await run('tesseract', [png, '-', '-l', lang, '--psm', '3'], { maxBuffer: 4 << 20 });
  return stdout;
}

const PROMPTS = {
  // title, counter, quote, call to action (with an emoji)
  orbit:
    'Meet Orbit, the budgeting app 🚀. Over 12000 teams use it every day. "Best tool we ever bought" said Jane Doe. ' +
    'Download it today at orbit.io',
  // title + subtitle, progress, list, call to action
  nova:
    'Launch day for Nova: the fastest note app ever. 42% of users came back last quarter. It is fast, private, ' +
    'and free. Sign up at nova.app',
  // title, bars, statement
  report:
    'Quarterly report. Signups by quarter: Q1 120, Q2 180, Q3 150, Q4 240. Our team works remotely from ' +
    'five countries.',
  // countdown, steps
  season:
    '3, 2, 1 — the new season starts! How to join: 1. Download the app. 2. Pick a team. 3. Play your first match.',
};

describe('offline Lottie composition: every scene kind', () => {
  const canvas = { width: 360, height: 640 };

  it('covers all ten scene kinds with these prompts', () => {
    const kinds = new Set(
      Object.values(PROMPTS).flatMap((p) =>
        planStoryboard({ prompt: p, instructions: null, durationSeconds: null }).scenes.map((s) => s.kind),
      ),
    );
    expect([...kinds].sort()).toEqual([
      'bars',
      'countdown',
      'counter',
      'cta',
      'list',
      'progress',
      'quote',
      'statement',
      'steps',
      'title',
    ]);
  });

  for (const [name, prompt] of Object.entries(PROMPTS)) {
    it(`draws the texts of each scene as text layers and renders (${name})`, async () => {
      const source = compose(prompt, canvas);
      expect(await engine.validate(source, canvas)).toEqual([]);
      const animation = JSON.parse(source) as LottieAnimation;
      const parts = JSON.parse(source) as { assets: { id: string; layers?: { ty: number }[] }[] };
      const shown = shownText(source).toLowerCase();
      const board = planStoryboard({ prompt, instructions: null, durationSeconds: null });
      for (const scene of board.scenes) {
        const expected =
          scene.kind === 'title' ? [scene.title.replace(/\s*🚀/u, ''), scene.subtitle ?? ''] : sceneTexts(scene);
        for (const text of expected.filter(Boolean))
          expect(shown, `${scene.kind}: ${text}`).toContain(text.toLowerCase());
        // Each scene is a precomposition with text layers (ty 5) and shapes (ty 4) or images (ty 2).
      }
      // No word is broken across lines: every word on every line (`\r` separates them) is a whole word of the prompt.
      const promptWords = new Set(wordsOf(prompt));
      for (const doc of textDocuments(animation)) {
        for (const line of String(doc.t).split('\r'))
          for (const word of wordsOf(line)) expect(promptWords, `"${word}" in the line "${line}"`).toContain(word);
      }
      const scenes = parts.assets.filter((a) => a.layers);
      expect(scenes).toHaveLength(board.scenes.length);
      for (const s of scenes) expect(s.layers!.some((l) => l.ty === 5)).toBe(true);
      // The counter counts: its number layer holds the steps up to the final value.
      if (name === 'orbit') expect(shown).toMatch(/\b0\b.*12000/);

      const { result } = await render(source, canvas, `kinds-${name}`, 10);
      expect(result.durationSeconds).toBeCloseTo(board.durationSeconds, 0);
    });
  }

  it('is deterministic, and different prompts look different', () => {
    const a = compose(PROMPTS.nova, canvas);
    expect(compose(PROMPTS.nova, canvas)).toBe(a);
    // Looks come from the prompt: across a few prompts, more than one background colour.
    const background = (s: string) => JSON.stringify((JSON.parse(s) as { layers: unknown[] }).layers.at(-1));
    const prompts = [PROMPTS.orbit, PROMPTS.report, 'Neon night market', 'A vintage postcard from Lisbon'];
    expect(new Set([a, ...prompts.map((p) => compose(p, canvas))].map(background)).size).toBeGreaterThan(1);
    for (const p of prompts) expect(compose(p, canvas)).not.toBe(a);
  });

  it(
    'rests while a scene holds its text: the ornament moves only at the opening and at the cuts, ' +
      'so a render skips those frames',
    async () => {
      for (const [name, prompt] of Object.entries(PROMPTS)) {
        const animation = JSON.parse(compose(prompt, canvas)) as LottieAnimation & {
          markers: { tm: number; dr: number }[];
        };
        const holds = frameHolds(animation)!;
        expect(holds, name).not.toBeNull();
        // Every scene but the title holds still for a third of a second or more between its entrance
        // and its exit (the title's image, where it has one, keeps moving).
        for (const { tm, dr } of animation.markers.slice(1)) {
          const rest = Array.from({ length: dr }, (_, k) => tm + k).filter((f) => f > tm && holds.same(f - 1, f));
          expect(rest.length, `${name}: held frames of the scene at ${tm}`).toBeGreaterThanOrEqual(10);
        }
      }
      // The render draws none of them again, and reports so.
      const source = compose(PROMPTS.report, canvas);
      const { result } = await render(source, canvas, 'held', 10);
      expect(result.framesSkipped).toBeGreaterThan(result.frames * 0.2);
    },
  );

  it('never starts on an empty frame', async () => {
    for (const [i, prompt] of ['A minimal note about patience', 'Neon night market', PROMPTS.report].entries()) {
      const source = compose(prompt, canvas, { durationSeconds: 2 });
      const { outputPath } = await render(source, canvas, `first-${i}`, 10);
      expect(colourCount(await decodeFrame(outputPath, 0)), prompt).toBeGreaterThan(3);
    }
  });

  it('shows the request image on the title with a Ken Burns move, as an assets/ reference', async () => {
    const photo: MediaAsset = {
      name: 'photo-1.png',
      kind: 'image',
      mediaType: 'image/png',
      bytes: 1000,
      width: 640,
      height: 480,
      durationSeconds: null,
    };
    const source = compose('Summer collection: light linen for warm days', canvas, { assets: [photo] });
    const animation = JSON.parse(source) as {
      assets: {
        id: string;
        u?: string;
        p?: string;
        e?: number;
        layers?: { ty: number; refId?: string; ks: { s: { a: number } } }[];
      }[];
    };
    const image = animation.assets.find((a) => a.u === 'assets/');
    expect(image).toMatchObject({ p: 'photo-1.png', e: 0, w: 640, h: 480 });
    const layer = animation.assets.flatMap((a) => a.layers ?? []).find((l) => l.ty === 2 && l.refId === image!.id);
    expect(layer?.ks.s.a).toBe(1); // the scale moves
    const codes = async (composition: string, assets: MediaAsset[]) =>
      (await engine.validate(composition, { ...canvas, assets })).map((f) => f.code);
    expect(await codes(source, [photo])).toEqual([]);
    expect(await codes(source, [])).toContain('unknown_asset');
    // The same image as a remote URL is refused, whatever the request's assets.
    const remote = source.replace('"u":"assets/","p":"photo-1.png"', '"u":"","p":"https://example.com/photo-1.png"');
    expect(remote).not.toBe(source);
    expect(await codes(remote, [photo])).toContain('external_asset');
    expect(await codes(remote, [])).toContain('external_asset');
  });
});

describe('offline Lottie composition: layout, measured on rendered frames', () => {
  type Keyed = { a: number; k: unknown };
  type Layer = {
    ty: number;
    nm: string;
    ip: number;
    op: number;
    ks: Record<string, Keyed | undefined>;
    t?: { d: { k: { s: { fc: number[]; t: string }; t: number }[] } };
  };
  type Animation = Omit<LottieAnimation, 'assets' | 'layers'> & {
    assets: { id: string; layers?: Layer[] }[];
    layers: Layer[];
    markers: { tm: number; dr: number }[];
  };

  /** Settled value of an animated property: its last keyframe (the scenes' own motion is entrances). */
  const settle = (prop: Keyed | undefined): Keyed | undefined => {
    if (!prop || prop.a !== 1 || !Array.isArray(prop.k)) return prop;
    const last = (prop.k as { s?: unknown }[]).findLast((key) => key.s !== undefined);
    return { a: 0, k: last?.s };
  };

  type CodedLayer = { scene: number; nm: string; text: string; ip: number; op: number };

  /**
   * The animation as the reader sees each scene once it has come in: every text layer of a scene
   * settled, fully opaque and in a colour of its own (its final text: a counter's last value), shapes,
   * images and the background removed, the scenes' own transitions at rest. Returns the colour of
   * each text layer, with when it is on screen within its scene.
   */
  function colourCoded(source: string): { animation: Animation; layersByColour: Map<string, CodedLayer> } {
    const animation = JSON.parse(source) as Animation;
    const layersByColour = new Map<string, CodedLayer>();
    let n = 0;
    animation.assets.forEach((asset) => {
      if (!asset.layers) return;
      const scene = Number(asset.id.replace(/\D+/g, ''));
      asset.layers = asset.layers.filter((l) => l.ty === 5);
      for (const layer of asset.layers) {
        for (const key of Object.keys(layer.ks)) layer.ks[key] = settle(layer.ks[key]);
        layer.ks.o = { a: 0, k: 100 }; // a dimmed step is still measured
        const final = layer.t!.d.k.at(-1)!.s;
        const rgb = PALETTE[n++ % PALETTE.length]!;
        layer.t!.d.k = [{ s: { ...final, fc: rgb.map((c) => c / 255) }, t: 0 }];
        layersByColour.set(rgb.join(','), { scene, nm: layer.nm, text: final.t, ip: layer.ip, op: layer.op });
      }
    });
    animation.layers = animation.layers.filter((l) => l.ty === 0);
    for (const layer of animation.layers)
      layer.ks = { a: layer.ks.a, p: layer.ks.a, s: { a: 0, k: [100, 100, 100] }, o: { a: 0, k: 100 } };
    return { animation, layersByColour };
  }

  /** Colours 64 levels apart in every channel: an edge pixel's colour, off by a rounding, still names its layer. */
  const LEVELS = [0, 64, 128, 192, 255];
  const PALETTE = LEVELS.flatMap((r) => LEVELS.flatMap((g) => LEVELS.map((b) => [r, g, b])))
    .filter(([r, g, b]) => r! + g! + b! > 0)
    .map((_, i, all) => all[(i * 47) % all.length]!); // neighbours in the list far apart in colour

  type Box = { left: number; top: number; right: number; bottom: number };

  /**
   * The ink box of every text layer in a rendered RGBA frame, by colour (straight alpha: an edge pixel
   * keeps its layer's colour, give or take the rounding of un-premultiplying; the faintest are left
   * out). Pixels of no layer's colour are counted: drawn ink that is not one layer's.
   */
  function inkBoxes(
    rgba: Uint8Array,
    canvas: Canvas,
    colours: Set<string>,
  ): { boxes: Map<string, Box>; blended: number } {
    const boxes = new Map<string, Box>();
    const palette = [...colours].map((c) => [c, c.split(',').map(Number)] as const);
    let blended = 0;
    for (let y = 0; y < canvas.height; y++) {
      for (let x = 0; x < canvas.width; x++) {
        const i = (y * canvas.width + x) * 4;
        if (rgba[i + 3]! < 128) continue;
        const colour = palette.find(
          ([, c]) =>
            Math.abs(c[0]! - rgba[i]!) <= 12 &&
            Math.abs(c[1]! - rgba[i + 1]!) <= 12 &&
            Math.abs(c[2]! - rgba[i + 2]!) <= 12,
        )?.[0];
        if (!colour) {
          blended++;
          continue;
        }
        const b = boxes.get(colour);
        if (!b) boxes.set(colour, { left: x, top: y, right: x, bottom: y });
        else
          Object.assign(b, {
            left: Math.min(b.left, x),
            top: Math.min(b.top, y),
            right: Math.max(b.right, x),
            bottom: Math.max(b.bottom, y),
          });
      }
    }
    return { boxes, blended };
  }

  const sizes = [
    { width: 256, height: 456 },
    { width: 456, height: 256 },
    { width: 256, height: 256 },
    { width: 1080, height: 1350 },
    { width: 1080, height: 1920 },
    { width: 1920, height: 1080 },
  ];
  const prompts = [
    ...Object.values(PROMPTS),
    'Internationalization matters: localization, accessibility, documentation, interoperability, ' +
      'and maintainability for everyone',
    '東京の新しいカフェへようこそ 🎉。毎日新鮮なコーヒー、手作りケーキ、そして無料Wi-Fi。',
    'مرحبا بكم في متجرنا الجديد. منتجات طبيعية وأسعار منخفضة',
  ];

  for (const canvas of sizes) {
    it(`draws every text inside the canvas and apart from the others at ${canvas.width}x${canvas.height}`, async () => {
      for (const prompt of prompts) {
        const { animation, layersByColour } = colourCoded(compose(prompt, canvas));
        const json = JSON.stringify(animation);
        const player = await loadPlayer(JSON.parse(json) as LottieAnimation, json, canvas);
        try {
          // Each scene at the middle of every text layer's time on screen (most layers: the whole scene;
          // a countdown's numbers: one after another), with the layers on screen then.
          const frames = animation.markers.flatMap((marker, index) => {
            const layers = [...layersByColour].filter(([, l]) => l.scene === index + 1);
            return [
              ...new Set(layers.map(([, l]) => Math.floor((Math.max(0, l.ip) + Math.min(marker.dr, l.op)) / 2))),
            ].map((t) => ({
              scene: index + 1,
              frame: marker.tm + t,
              ours: new Set(layers.filter(([, l]) => l.text.trim() && l.ip <= t && t < l.op).map(([c]) => c)),
            }));
          });
          for (const { scene, frame, ours } of frames) {
            const { boxes, blended } = inkBoxes(player.render(frame), canvas, new Set(layersByColour.keys()));
            const where = (colour: string) =>
              `${prompt.slice(0, 30)} / scene ${scene} @${frame} / ${layersByColour.get(colour)!.nm}: ` +
              `"${layersByColour.get(colour)!.text}"`;
            for (const colour of ours) {
              const b = boxes.get(colour);
              expect(b, `${where(colour)} is not drawn`).toBeDefined();
              // Ink touching the canvas edge has been cut off there.
              expect(b!.left, where(colour)).toBeGreaterThan(0);
              expect(b!.top, where(colour)).toBeGreaterThan(0);
              expect(b!.right, where(colour)).toBeLessThan(canvas.width - 1);
              expect(b!.bottom, where(colour)).toBeLessThan(canvas.height - 1);
            }
            // Texts apart: no two ink boxes meet (the big quote mark stands behind its quote by design).
            const apart = [...boxes].filter(([c]) => ours.has(c) && layersByColour.get(c)!.nm !== 'quote mark');
            for (const [i, [ca, a]] of apart.entries()) {
              for (const [cb, b] of apart.slice(i + 1)) {
                const overlap = a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
                expect(overlap, `${where(ca)} overlaps ${where(cb)}`).toBe(false);
              }
            }
            expect(
              blended,
              `${prompt.slice(0, 30)} / scene ${scene}: ink of no one text layer (texts drawn over each other)`,
            ).toBe(0);
          }
        } finally {
          player.destroy();
        }
      }
    });
  }
});

describe("offline Lottie composition: a scene's own pictogram", () => {
  const board = pictogramBoard;
  type Shape = { ty: string; nm?: string; it?: Shape[]; p?: { k: number[] }; s?: { k: number[] } };
  type Layer = { ty: number; nm: string; shapes?: Shape[]; t?: { d: { k: { s: { ps: number[] } }[] } } };
  const scenesOf = (source: string) =>
    (JSON.parse(source) as { assets: { layers?: Layer[] }[] }).assets.flatMap((a) => (a.layers ? [a.layers] : []));
  /** Share of the pixels of a square (x, y, side) of an RGB24 frame `width` wide near the colour #rrggbb. */
  const inkIn = (rgb: Buffer, width: number, sq: { x: number; y: number; side: number }, hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let n = 0;
    for (let y = Math.round(sq.y); y < Math.round(sq.y + sq.side); y++)
      for (let x = Math.round(sq.x); x < Math.round(sq.x + sq.side); x++) {
        const i = (y * width + x) * 3;
        if (Math.abs(rgb[i]! - r!) + Math.abs(rgb[i + 1]! - g!) + Math.abs(rgb[i + 2]! - b!) < 90) n++;
      }
    return n / (sq.side * sq.side);
  };

  it("draws a title's and a list's icon above their texts, inside the safe area; none for icon: null", async () => {
    let tile: { x: number; y: number; side: number } | null = null;
    for (const canvas of [
      { width: 360, height: 640 },
      { width: 640, height: 360 },
      { width: 480, height: 480 },
    ]) {
      const source = engine.drawStoryboard!(board({ icon: null }), { ...canvas, assets: [] });
      expect(await engine.validate(source, canvas)).toEqual([]);
      // icon: null is no icon: the same animation as a statement without the field.
      expect(engine.drawStoryboard!(board({}), { ...canvas, assets: [] })).toBe(source);
      const short = Math.min(canvas.width, canvas.height);
      const tall = canvas.width / canvas.height <= 0.8;
      const scenes = scenesOf(source);
      for (const [i, icon] of [
        [0, 'coffee'],
        [1, 'wifi'],
      ] as const) {
        const where = `${canvas.width}x${canvas.height} scene ${i + 1}`;
        const layer = scenes[i]!.find((l) => l.nm === 'scene icon');
        expect(layer, where).toBeDefined();
        // The pictogram's strokes (a group named after the icon) on a round tile.
        expect(layer!.shapes!.map((g) => g.nm)).toEqual([`icon ${icon}`, 'tile']);
        const disc = layer!.shapes![1]!.it!.find((x) => x.ty === 'el')!;
        const [cx, cy] = disc.p!.k as [number, number];
        const side = disc.s!.k[0]!;
        expect(side / short, where).toBeGreaterThanOrEqual(0.09);
        expect(side / short, where).toBeLessThanOrEqual(0.12);
        // Inside the safe area (on 9:16 not in the top 12 %)…
        expect(cy - side / 2, where).toBeGreaterThanOrEqual(canvas.height * (tall ? 0.12 : 0.07) - 0.5);
        expect(cx - side / 2, where).toBeGreaterThanOrEqual(canvas.width * 0.07 - 0.5);
        expect(cx + side / 2, where).toBeLessThanOrEqual(canvas.width * 0.93 + 0.5);
        // …and above every text of the scene.
        const tops = scenes[i]!.filter((l) => l.ty === 5).map((l) => l.t!.d.k[0]!.s.ps[1]!);
        expect(tops.length, where).toBeGreaterThan(0);
        expect(Math.min(...tops), where).toBeGreaterThanOrEqual(cy + side / 2);
        if (canvas.width === 360 && i === 0) tile = { x: cx - side / 2, y: cy - side / 2, side };
      }
      const none = scenes[2]!;
      expect(none.some((l) => l.nm === 'scene icon' || l.shapes?.some((g) => g.nm?.startsWith('icon ')))).toBe(false);
    }
    // Rendered: the tile's square shows the accent (the icon's strokes and the tile) once the scene has come in.
    const canvas = { width: 360, height: 640 };
    const sb = board({ icon: null });
    const { outputPath } = await render(engine.drawStoryboard!(sb, { ...canvas, assets: [] }), canvas, 'icons', 10);
    const accent = sb.look.palette.accent;
    const at = (seconds: number) => decodeFrame(outputPath, Math.round(seconds * 10));
    expect(inkIn(await at(1.5), canvas.width, tile!, accent)).toBeGreaterThan(0.05);
    expect(inkIn(await at(5.5), canvas.width, tile!, accent)).toBeLessThan(0.01);
  });
});

describe('offline Lottie composition: step markers', () => {
  type Shape = { ty: string; it?: Shape[]; s?: { k: number[] }; r?: { k: number } };
  type Layer = { ty: number; nm: string; shapes?: Shape[] };
  const board = toStoryboard(
    storyboardSchema.parse({
      scenes: [
        {
          kind: 'steps',
          items: [
            { marker: 'Schritt 1', text: 'Konto anlegen' },
            { marker: 'Schritt 2', text: 'Kurs auswählen' },
            { marker: 'Schritt 3', text: 'Platz bezahlen' },
          ],
        },
      ],
    }),
    { image: () => null },
  );

  it('sets a worded marker on one line in a pill, at a legible size, at 9:16, 16:9 and 1:1', () => {
    for (const canvas of [
      { width: 360, height: 640 },
      { width: 640, height: 360 },
      { width: 480, height: 480 },
    ]) {
      const animation = JSON.parse(engine.drawStoryboard!(board, { ...canvas, assets: [] })) as LottieAnimation;
      const markers = textDocuments(animation).filter((d) => /^Schritt/u.test(String(d.t)));
      expect(markers.map((d) => String(d.t))).toEqual(['Schritt 1', 'Schritt 2', 'Schritt 3']);
      for (const d of markers)
        expect(Number(d.s)).toBeGreaterThanOrEqual(Math.min(canvas.width, canvas.height) * 0.022);
      const layers = [animation.layers, ...(animation.assets ?? []).map((a) => a.layers ?? [])].flat() as Layer[];
      const pills = layers
        .filter((l) => /^badge \d/u.test(l.nm))
        .map((l) => l.shapes![0]!.it!.find((x) => x.ty === 'rc')!);
      expect(pills).toHaveLength(3);
      for (const pill of pills) {
        const [w, h] = pill.s!.k as [number, number];
        // Wider than tall, rounded at the ends, and wide enough for its words at their size.
        expect(w).toBeGreaterThan(h * 2);
        expect(pill.r!.k).toBeCloseTo(h / 2, 3);
        expect(w).toBeGreaterThan(Number(markers[0]!.s) * 'Schritt 1'.length * 0.45);
      }
    }
  });

  it('sets a one-word marker ("Erstens") whole on one line in a pill, a number alone in a round badge', () => {
    const steps = (markers: string[]) =>
      toStoryboard(
        storyboardSchema.parse({
          scenes: [{ kind: 'steps', items: markers.map((marker, i) => ({ marker, text: `Punkt ${i + 1}` })) }],
        }),
        { image: () => null },
      );
    const canvas = { width: 360, height: 640, assets: [] };
    const worded = JSON.parse(engine.drawStoryboard!(steps(['Erstens', 'Zweitens', 'Drittens']), canvas));
    expect(textDocuments(worded as LottieAnimation).map((d) => String(d.t))).toEqual(
      expect.arrayContaining(['Erstens', 'Zweitens', 'Drittens']),
    );
    const shapesOf = (a: LottieAnimation) =>
      ([a.layers, ...(a.assets ?? []).map((x) => x.layers ?? [])].flat() as Layer[])
        .filter((l) => /^badge \d/u.test(l.nm))
        .map((l) => l.shapes![0]!.it![0]!.ty);
    expect(shapesOf(worded as LottieAnimation)).toEqual(['rc', 'rc', 'rc']);
    const numbered = JSON.parse(engine.drawStoryboard!(steps(['1', '2', '3']), canvas));
    expect(shapesOf(numbered as LottieAnimation)).toEqual(['el', 'el', 'el']);
  });
});

describe('offline Lottie composition: length', () => {
  const canvas = { width: 270, height: 480 };

  it('lasts what the prompt states: a "10-second" teaser is 10 s', async () => {
    const source = compose('A 10-second teaser for our coffee shop. Fresh beans every morning. Visit us today', canvas);
    expect(seconds(source)).toBeCloseTo(10, 5);
    const { outputPath, result } = await render(source, canvas, 'ten-seconds', 10);
    expect(Math.abs(result.durationSeconds - 10)).toBeLessThanOrEqual(0.1);
    expect(fs.existsSync(outputPath)).toBe(true);
  });

  it('lasts durationSeconds when given (7 s)', async () => {
    const source = compose(PROMPTS.nova, canvas, { durationSeconds: 7 });
    expect(seconds(source)).toBeCloseTo(7, 5);
    const { result } = await render(source, canvas, 'seven-seconds', 10);
    expect(Math.abs(result.durationSeconds - 7)).toBeLessThanOrEqual(0.1);
  });

  it('validation refuses an animation off the requested length by more than 0.5 s', async () => {
    const source = compose(PROMPTS.nova, canvas, { durationSeconds: 7 });
    const codes = async (durationSeconds: number | null) =>
      (await engine.validate(source, { ...canvas, durationSeconds })).map((f) => f.code);
    expect(await codes(7)).toEqual([]);
    expect(await codes(7.4)).toEqual([]);
    expect(await codes(null)).toEqual([]);
    expect(await codes(10)).toContain('wrong_duration');
    expect(await codes(6)).toContain('wrong_duration');
  });
});

describe('offline Lottie composition: legible text (OCR) at every aspect ratio', () => {
  const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

  for (const canvas of [
    { width: 1080, height: 1920 },
    { width: 1920, height: 1080 },
    { width: 720, height: 720 },
  ]) {
    it(`reads the title back at ${canvas.width}x${canvas.height}`, async () => {
      const title = 'Bright Future Festival opens this weekend';
      const source = compose(title, canvas, { durationSeconds: 2 });
      const { outputPath } = await render(source, canvas, `ocr-${canvas.width}x${canvas.height}`, 5);
      const read = words(await ocr(await framePng(outputPath, 5), 'eng'));
      const expected = words(title);
      const found = expected.filter((w) => read.includes(w));
      expect(found.length / expected.length, `read: ${read.join(' ')}`).toBeGreaterThanOrEqual(0.8);
    });
  }

  it('draws a Japanese title with its glyphs (and the emoji as a picture)', async () => {
    const canvas = { width: 1080, height: 1920 };
    const title = '東京の新しいカフェへようこそ';
    const source = compose(`${title} 🎉`, canvas, { durationSeconds: 2 });
    const animation = JSON.parse(source) as LottieAnimation;
    const parts = JSON.parse(source) as {
      assets: {
        id: string;
        p?: string;
        layers?: { ty: number; nm: string; refId?: string; ks: { p: { k: unknown } } }[];
      }[];
    };
    // The render draws the text as outlines of the Japanese CJK face's glyphs (ThorVG reads no CFF collections).
    outlineText(animation);
    expect(JSON.stringify(animation)).toMatch(/"nm":"Noto(Sans|Serif)CJKjp-(Regular|Bold)"/);
    expect(shownText(source)).not.toContain('🎉'); // the composer shows emoji as pictures, not in text

    const { outputPath } = await render(source, canvas, 'ocr-japanese', 5);
    const png = await framePng(outputPath, 5);
    const read = (await ocr(png, 'jpn')).replace(/\s+/g, '');
    const chars = [...title];
    const found = chars.filter((c) => read.includes(c));
    expect(found.length / chars.length, `read: ${read}`).toBeGreaterThanOrEqual(0.8);

    // The emoji: an image layer of an embedded PNG; where it stands, the frame shows its colours.
    const emojiLayer = parts.assets.flatMap((a) => a.layers ?? []).find((l) => l.ty === 2 && l.nm.includes('🎉'))!;
    const emojiAsset = parts.assets.find((a) => a.id === emojiLayer.refId)!;
    expect(emojiAsset.p).toMatch(/^data:image\/png;base64,/);
    const p = emojiLayer.ks.p.k as number[] | { s: number[] }[];
    const [x, y] = (typeof p[0] === 'number' ? p : (p[0] as { s: number[] }).s) as number[];
    const frame = await decodeFrame(outputPath, 5);
    const background = [frame[0]!, frame[1]!, frame[2]!];
    let differing = 0;
    let total = 0;
    const r = 30;
    for (let yy = Math.round(y!) - r; yy < Math.round(y!) + r; yy++) {
      for (let xx = Math.round(x!) - r; xx < Math.round(x!) + r; xx++) {
        const i = (yy * canvas.width + xx) * 3;
        total++;
        if (
          Math.abs(frame[i]! - background[0]!) +
            Math.abs(frame[i + 1]! - background[1]!) +
            Math.abs(frame[i + 2]! - background[2]!) >
          60
        )
          differing++;
      }
    }
    expect(differing / total).toBeGreaterThan(0.2);
  });
});

describe('offline Lottie composition: comparison cards', () => {
  type Shape = { ty: string; it?: Shape[]; s?: { k: number[] } };
  type Layer = { nm: string; shapes?: Shape[] };
  const cardHeights = (features: string[], canvas: { width: number; height: number }) => {
    const animation = JSON.parse(
      engine.drawStoryboard!(comparisonBoard(features), { ...canvas, assets: [] }),
    ) as LottieAnimation;
    const layers = [animation.layers, ...(animation.assets ?? []).map((a) => a.layers ?? [])].flat() as Layer[];
    return layers
      .filter((l) => /^card \d/u.test(l.nm))
      .map((l) => l.shapes![0]!.it!.find((x) => x.ty === 'rc')!.s!.k[1]!);
  };

  it('cards without features are shorter than cards with features, side by side and stacked', () => {
    for (const canvas of [
      { width: 640, height: 360 },
      { width: 360, height: 640 },
    ]) {
      const bare = cardHeights([], canvas);
      const featured = cardHeights(['2 GB', 'calls'], canvas);
      expect(bare).toHaveLength(3);
      for (const [i, h] of bare.entries()) expect(h).toBeLessThan(featured[i]! * 0.8);
    }
  });
});
