// The offline Lottie composer (the embedded `local` provider's lottie compositions): the storyboard's
// scene kinds drawn with text and shape layers, rendered for real (ThorVG + ffmpeg), at the requested
// length, legible at every aspect ratio (read back with tesseract OCR), in Japanese and with emoji.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { faceForName } from '../../src/engines/lottie/faces.js';
import { fontRegistrations, textDocuments } from '../../src/engines/lottie/fonts.js';
import { textWidth, verticalMetrics } from '../../src/engines/lottie/glyphs.js';
import { joinArabic } from '../../src/engines/lottie/scripts.js';
import type { LottieAnimation } from '../../src/engines/lottie/validate.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { sceneTexts } from '../../src/storyboard/types.js';
import type { MediaAsset } from '../../src/engines/types.js';
import { colourCount, decodeFrame, tools, useRenderSandbox } from './support.js';

const run = promisify(execFile);
const engine = getEngine('lottie');
const sandbox = useRenderSandbox('storyboard-lottie', (e) => e.startsWith('video-render-'));

type Canvas = { width: number; height: number };
const compose = (prompt: string, canvas: Canvas, more: { durationSeconds?: number | null; assets?: MediaAsset[] } = {}) =>
  engine.composeOffline({ prompt, instructions: null, durationSeconds: more.durationSeconds ?? null, assets: more.assets ?? [], ...canvas });

/** Every text the animation shows (all documents of all text layers), one string. */
function shownText(source: string): string {
  return textDocuments(JSON.parse(source) as LottieAnimation)
    .map((d) => String(d.t))
    .join(' ')
    .replace(/\s+/g, ' ');
}

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
  orbit: 'Meet Orbit, the budgeting app 🚀. Over 12000 teams use it every day. "Best tool we ever bought" said Jane Doe. Download it today at orbit.io',
  // title + subtitle, progress, list, call to action
  nova: 'Launch day for Nova: the fastest note app ever. 42% of users came back last quarter. It is fast, private, and free. Sign up at nova.app',
  // title, bars, statement
  report: 'Quarterly report. Signups by quarter: Q1 120, Q2 180, Q3 150, Q4 240. Our team works remotely from five countries.',
  // countdown, steps
  season: '3, 2, 1 — the new season starts! How to join: 1. Download the app. 2. Pick a team. 3. Play your first match.',
};

describe('offline Lottie composition: every scene kind', () => {
  const canvas = { width: 360, height: 640 };

  it('covers all ten scene kinds with these prompts', () => {
    const kinds = new Set(Object.values(PROMPTS).flatMap((p) => planStoryboard({ prompt: p, instructions: null, durationSeconds: null }).scenes.map((s) => s.kind)));
    expect([...kinds].sort()).toEqual(['bars', 'countdown', 'counter', 'cta', 'list', 'progress', 'quote', 'statement', 'steps', 'title']);
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
        const expected = scene.kind === 'title' ? [scene.title.replace(/\s*🚀/u, ''), scene.subtitle ?? ''] : sceneTexts(scene);
        for (const text of expected.filter(Boolean)) expect(shown, `${scene.kind}: ${text}`).toContain(text.toLowerCase());
        // Each scene is a precomposition with text layers (ty 5) and shapes (ty 4) or images (ty 2).
      }
      // No word is broken across lines: every word of the prompt's scenes is whole in some line.
      for (const doc of textDocuments(animation)) expect(String(doc.t), 'a line ending mid-word').not.toMatch(/^[a-z]$|^\p{L} /iu);
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

  it('never starts on an empty frame', async () => {
    for (const [i, prompt] of ['A minimal note about patience', 'Neon night market', PROMPTS.report].entries()) {
      const source = compose(prompt, canvas, { durationSeconds: 2 });
      const { outputPath } = await render(source, canvas, `first-${i}`, 10);
      expect(colourCount(await decodeFrame(outputPath, 0)), prompt).toBeGreaterThan(3);
    }
  });

  it('shows the request image on the title with a Ken Burns move, as an assets/ reference', async () => {
    const photo: MediaAsset = { name: 'photo-1.png', kind: 'image', mediaType: 'image/png', bytes: 1000, width: 640, height: 480, durationSeconds: null };
    const source = compose('Summer collection: light linen for warm days', canvas, { assets: [photo] });
    const animation = JSON.parse(source) as { assets: { id: string; u?: string; p?: string; e?: number; layers?: { ty: number; refId?: string; ks: { s: { a: number } } }[] }[] };
    const image = animation.assets.find((a) => a.u === 'assets/');
    expect(image).toMatchObject({ p: 'photo-1.png', e: 0, w: 640, h: 480 });
    const layer = animation.assets.flatMap((a) => a.layers ?? []).find((l) => l.ty === 2 && l.refId === image!.id);
    expect(layer?.ks.s.a).toBe(1); // the scale moves
    expect(await engine.validate(source, { ...canvas, assets: [photo] })).toEqual([]);
    const errors = async (target: object) => (await engine.validate(source, { ...canvas, ...target })).map((f) => f.code);
    expect(await errors({ assets: [] })).toContain('unknown_asset');
    const remote = source.replace('"u":"assets/","p":"photo-1.png"', '"u":"","p":"https://example.com/photo-1.png"');
    expect(await errors({ assets: [photo] })).toEqual([]);
    expect((await engine.validate(remote, { ...canvas, assets: [photo] })).map((f) => f.code)).toContain('external_asset');
  });
});

describe('offline Lottie composition: layout', () => {
  type Doc = { s: number; f: string; t: string; j: number; lh: number; sz: number[]; ps: number[] };
  type Layer = { ty: number; nm: string; ip: number; op: number; t?: { d: { k: { s: Doc }[] } } };

  /** Ink boxes (cap height above each baseline to descenders below) of every line of a text document. */
  function lineBoxes(doc: Doc) {
    const face = faceForName(doc.f, undefined, doc.t);
    const { ascent } = verticalMetrics(face);
    return doc.t.split('\r').map((line, i) => {
      const width = textWidth(joinArabic(line), face, doc.s); // drawn joined (fonts.ts)
      const baseline = doc.ps[1]! + ascent * doc.s + i * doc.lh;
      const left = doc.j === 0 ? doc.ps[0]! : doc.j === 1 ? doc.ps[0]! + doc.sz[0]! - width : doc.ps[0]! + (doc.sz[0]! - width) / 2;
      return { left, right: left + width, top: baseline - 0.75 * doc.s, bottom: baseline + 0.22 * doc.s, width };
    });
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
    'Internationalization matters: localization, accessibility, documentation, interoperability, and maintainability for everyone',
    '東京の新しいカフェへようこそ 🎉。毎日新鮮なコーヒー、手作りケーキ、そして無料Wi-Fi。',
    'مرحبا بكم في متجرنا الجديد. منتجات طبيعية وأسعار منخفضة',
  ];

  for (const canvas of sizes) {
    it(`keeps every line inside the canvas and apart from the others at ${canvas.width}x${canvas.height}`, () => {
      for (const prompt of prompts) {
        const animation = JSON.parse(compose(prompt, canvas)) as { assets: { layers?: Layer[] }[] };
        for (const scene of animation.assets.filter((a) => a.layers)) {
          const boxes: { nm: string; left: number; right: number; top: number; bottom: number; ip: number; op: number }[] = [];
          for (const layer of scene.layers!.filter((l) => l.ty === 5)) {
            for (const { s: doc } of layer.t!.d.k) {
              for (const b of lineBoxes(doc)) {
                const where = `${prompt.slice(0, 30)} / ${layer.nm}: "${doc.t}"`;
                expect(b.width, `${where} wider than its box`).toBeLessThanOrEqual(doc.sz[0]! + 0.5);
                expect(b.left, where).toBeGreaterThanOrEqual(0);
                expect(b.right, where).toBeLessThanOrEqual(canvas.width);
                expect(b.top, where).toBeGreaterThanOrEqual(0);
                expect(b.bottom, where).toBeLessThanOrEqual(canvas.height);
              }
            }
            // Overlap: the final text of each layer (a counter's last value), quote marks aside.
            if (layer.nm !== 'quote mark') boxes.push(...lineBoxes(layer.t!.d.k.at(-1)!.s).map((b) => ({ ...b, nm: layer.nm, ip: layer.ip, op: layer.op })));
          }
          for (const [i, a] of boxes.entries()) {
            for (const b of boxes.slice(i + 1)) {
              // (Layers on screen at different times — a countdown's numbers — share their place.)
              const together = a.ip < b.op && b.ip < a.op;
              const overlap = together && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
              expect(overlap, `${prompt.slice(0, 30)}: "${a.nm}" overlaps "${b.nm}"`).toBe(false);
            }
          }
        }
      }
    });
  }
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
    const codes = async (durationSeconds: number | null) => (await engine.validate(source, { ...canvas, durationSeconds })).map((f) => f.code);
    expect(await codes(7)).toEqual([]);
    expect(await codes(7.4)).toEqual([]);
    expect(await codes(null)).toEqual([]);
    expect(await codes(10)).toContain('wrong_duration');
    expect(await codes(6)).toContain('wrong_duration');
  });
});

describe('offline Lottie composition: legible text (OCR) at every aspect ratio', () => {
  const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

  for (const canvas of [{ width: 1080, height: 1920 }, { width: 1920, height: 1080 }, { width: 720, height: 720 }]) {
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
    const parts = JSON.parse(source) as { assets: { id: string; p?: string; layers?: { ty: number; nm: string; refId?: string; ks: { p: { k: unknown } } }[] }[] };
    // The text is set in a CJK face registered as a TrueType font (ThorVG reads no CFF collections).
    const fonts = fontRegistrations(animation);
    const cjk = [...fonts.keys()].find((n) => n.startsWith('NotoSerifCJKjp') || n.startsWith('NotoSansCJKjp'));
    expect(cjk).toBeDefined();
    expect(Buffer.from(fonts.get(cjk!)!).readUInt32BE(0)).toBe(0x00010000);
    expect(shownText(source)).not.toContain('🎉'); // emoji are never in text layers

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
        if (Math.abs(frame[i]! - background[0]!) + Math.abs(frame[i + 1]! - background[1]!) + Math.abs(frame[i + 2]! - background[2]!) > 60) differing++;
      }
    }
    expect(differing / total).toBeGreaterThan(0.2);
  });
});
