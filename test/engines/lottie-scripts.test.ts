// Lottie text in every script, as HarfBuzz shapes it (src/text, src/engines/lottie/text.ts): titles in
// Hindi, Bengali, Thai, Hebrew and Arabic rendered for real and read back with tesseract; the text of
// every layer read back from the artifact; colour emoji drawn as one picture each; shaping checked
// glyph by glyph (Hebrew right to left, Arabic joined, Devanagari conjuncts).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { capitals, outlineText, textDocuments } from '../../src/engines/lottie/text.js';
import type { LottieAnimation } from '../../src/engines/lottie/validate.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { sceneTexts } from '../../src/storyboard/types.js';
import { faceFor } from '../../src/text/families.js';
import { openFace } from '../../src/text/fonts.js';
import { emojiIn, withoutEmoji } from '../../src/text/scripts.js';
import { shapeLine } from '../../src/text/shape.js';
import { decodeFrame, tools, useRenderSandbox } from './support.js';

const run = promisify(execFile);
const engine = getEngine('lottie');
const sandbox = useRenderSandbox('lottie-scripts', (e) => e.startsWith('video-render-'));

type Canvas = { width: number; height: number };
// A clean look (no ornament behind the text): OCR reads the glyphs, not the decoration.
const compose = (
  prompt: string,
  canvas: Canvas,
  instructions: string | null = 'minimal, light',
  durationSeconds: number | null = 2,
) => engine.composeOffline({ prompt, instructions, durationSeconds, assets: [], ...canvas });

/** Edit distance between two sequences of characters. */
function distance(a: string[], b: string[]): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

/**
 * Character error rate of an OCR reading. Tesseract returns a line mixing directions ("הכירו את
 * Nova 2025") with its runs in an order of its own, so the words are compared in sorted order; the
 * order on screen is checked glyph by glyph below.
 */
export function characterErrorRate(expected: string, read: string): number {
  const words = (s: string) => [
    ...s
      .normalize('NFC')
      .replace(/\p{Cf}/gu, '')
      .split(/\s+/)
      .filter(Boolean)
      .sort()
      .join(''),
  ];
  const e = words(expected);
  return distance(e, words(read)) / e.length;
}

/**
 * The text block of a frame, read by tesseract: cropped to the boxes of the animation's text
 * documents and scaled so that the type is about 40 px (tesseract's best size), read as one block.
 */
async function ocrTextBlock(
  video: string,
  frame: number,
  source: string,
  canvas: Canvas,
  lang: string,
): Promise<string> {
  const docs = textDocuments(JSON.parse(source) as LottieAnimation) as { s: number; sz: number[]; ps: number[] }[];
  const em = Math.max(...docs.map((d) => d.s));
  const left = Math.max(0, Math.floor(Math.min(...docs.map((d) => d.ps[0]!)) - em * 0.3));
  const top = Math.max(0, Math.floor(Math.min(...docs.map((d) => d.ps[1]!)) - em * 0.3));
  const right = Math.min(canvas.width, Math.ceil(Math.max(...docs.map((d) => d.ps[0]! + d.sz[0]!)) + em * 0.3));
  const bottom = Math.min(canvas.height, Math.ceil(Math.max(...docs.map((d) => d.ps[1]! + d.sz[1]!)) + em * 0.3));
  const png = video.replace(/\.mp4$/, `-${frame}.png`);
  const crop = `crop=${right - left}:${bottom - top}:${left}:${top}`;
  const filter = `select=eq(n\\,${frame}),${crop},scale=iw*${40 / em}:-1,format=gray`;
  await run('ffmpeg', ['-v', 'error', '-y', '-i', video, '-vf', filter, '-frames:v', '1', png]);
  const { stdout } = await run('tesseract', [png, '-', '-l', `${lang}+eng`, '--psm', '6'], { maxBuffer: 4 << 20 });
  return stdout;
}

const TITLES: { lang: string; script: string; title: string }[] = [
  { lang: 'hin', script: 'Hindi (conjuncts, reordered matras)', title: 'प्रधानमंत्री ने क्षमा माँगी' },
  { lang: 'ben', script: 'Bengali', title: 'বাংলা ভাষায় স্বাগতম' },
  { lang: 'tha', script: 'Thai (stacked marks, no spaces)', title: 'ยินดีต้อนรับสู่ร้านกาแฟ' },
  { lang: 'heb', script: 'Hebrew with a brand name and a number', title: 'הכירו את Nova 2025' },
  { lang: 'ara', script: 'Arabic with a Latin product name', title: 'متجر Orbit Pro الجديد' },
];

describe('Lottie titles in every script, read back by OCR', () => {
  for (const canvas of [
    { width: 1080, height: 1920 },
    { width: 1920, height: 1080 },
  ]) {
    for (const { lang, script, title } of TITLES) {
      it(`${script} at ${canvas.width}x${canvas.height}: character error rate ≤ 10 %`, async () => {
        const source = compose(title, canvas);
        const outputPath = path.join(sandbox.out, `${lang}-${canvas.width}x${canvas.height}.mp4`);
        await engine.render(source, { tools, ...canvas, fps: 5, outputPath });
        const read = await ocrTextBlock(outputPath, 5, source, canvas, lang);
        expect(characterErrorRate(title, read), `read: ${read}`).toBeLessThanOrEqual(0.1);
      });
    }
  }
});

describe('shaping, glyph by glyph', () => {
  const glyphOf = (script: Parameters<typeof faceFor>[0], ch: string) =>
    openFace(faceFor(script, 'sans', false))!.font.nominalGlyph(ch.codePointAt(0)!);
  const glyphs = (text: string, script: Parameters<typeof faceFor>[0], dir: 'ltr' | 'rtl') =>
    shapeLine(text, faceFor(script, 'sans', false), dir).runs.flatMap((r) =>
      r.glyphs.map((g) => ({ ...g, face: r.face.face.name })),
    );

  it(
    'sets Hebrew right to left: ' + 'the final letter of "שלום" is drawn leftmost, the brand name reads left to right',
    () => {
      const drawn = glyphs('שלום Nova', 'hebrew', 'rtl').sort((a, b) => a.x - b.x);
      // Left to right on screen: "Nova", the space, then ם ו ל ש.
      expect(drawn.slice(-4).map((g) => g.id)).toEqual(['ם', 'ו', 'ל', 'ש'].map((c) => glyphOf('hebrew', c)));
      expect(drawn.slice(0, 4).map((g) => g.id)).toEqual(['N', 'o', 'v', 'a'].map((c) => glyphOf('latin', c)));
    },
  );

  it('joins Arabic letters: no letter of "مرحبا" is drawn in its isolated form but the last', () => {
    const drawn = glyphs('مرحبا', 'arabic', 'rtl');
    const isolated = [...'مرحبا'].map((c) => glyphOf('arabic', c));
    // Meem, hah and beh take their joining forms (different glyphs); reh and alef join on one side only.
    expect(drawn.find((g) => g.cluster === 0)!.id).not.toBe(isolated[0]);
    expect(drawn.find((g) => g.cluster === 2)!.id).not.toBe(isolated[2]);
    expect(drawn.find((g) => g.cluster === 3)!.id).not.toBe(isolated[3]);
  });

  it('forms Devanagari conjuncts: "क्ष" is fewer glyphs than characters, and ि is drawn before its consonant', () => {
    expect(glyphs('क्ष', 'devanagari', 'ltr').length).toBeLessThan([...'क्ष'].length);
    const drawn = glyphs('कि', 'devanagari', 'ltr').sort((a, b) => a.x - b.x);
    expect(drawn[0]!.id).not.toBe(glyphOf('devanagari', 'क')); // the i-matra stands first
  });

  it("sets capitals (ca: 1) by the language the document names: Turkish i → İ, else Unicode's default", () => {
    expect(capitals('istanbul', 'tr')).toBe('İSTANBUL');
    expect(capitals('istanbul', undefined)).toBe('ISTANBUL');
    expect(capitals('istanbul', 'not a tag!')).toBe('ISTANBUL'); // an LLM's stray value changes nothing
  });

  it('falls back per cluster: a Latin word inside Thai text is set in Noto Sans', () => {
    const faces = new Set(glyphs('สวัสดี Nova', 'thai', 'ltr').map((g) => g.face));
    expect(faces).toEqual(new Set(['NotoSansThai-Regular', 'NotoSans-Regular']));
  });
});

describe('the artifact says what it shows', () => {
  const canvas = { width: 360, height: 640 };
  const PROMPTS = [
    'Meet Orbit, the budgeting app 🚀. Over 12000 teams use it every day. "Best tool we ever bought" said Jane Doe. ' +
      'Download it today at orbit.io',
    'הכירו את Nova 2025. האפליקציה החדשה שלנו מהירה ופשוטה. הורידו עכשיו',
    'प्रधानमंत्री ने क्षमा माँगी। तीन बातें: धैर्य, साहस और विनम्रता।',
    '東京の新しいカフェへようこそ 🎉。毎日新鮮なコーヒー、手作りケーキ、そして無料Wi-Fi。',
    'مرحبا بكم في متجر Orbit Pro. خصم 30% هذا الأسبوع.',
  ];
  const squash = (s: string) => s.replace(/\s+/g, '');

  for (const prompt of PROMPTS) {
    it(`holds every text of the storyboard as written, emoji as named pictures (${prompt.slice(0, 24)}…)`, () => {
      const source = compose(prompt, canvas, null, null);
      const animation = JSON.parse(source) as {
        assets: { nm?: string; layers?: { ty: number; nm: string; t?: { d: { k: { s: { t: string } }[] } } }[] }[];
      };
      // What a tool reads from the artifact: each scene's text layers (every document) and emoji pictures' names.
      const scenes = animation.assets
        .filter((a) => a.layers)
        .map((a) => ({
          text: squash(
            a
              .layers!.filter((l) => l.ty === 5)
              .flatMap((l) => l.t!.d.k.map((k) => k.s.t))
              .join(''),
          ),
          emoji: a
            .layers!.filter((l) => l.ty === 2 && l.nm.startsWith('emoji '))
            .map((l) => l.nm.slice('emoji '.length)),
        }));
      const board = planStoryboard({ prompt, instructions: null, durationSeconds: null });
      expect(scenes).toHaveLength(board.scenes.length);
      board.scenes.forEach((scene, i) => {
        for (const input of sceneTexts(scene).filter(Boolean)) {
          expect(scenes[i]!.text, `${scene.kind}: ${input}`).toContain(squash(withoutEmoji(input)));
          for (const e of emojiIn(input).slice(0, 3)) expect(scenes[i]!.emoji, `${scene.kind}: ${e}`).toContain(e);
        }
      });
    });
  }
});

describe('colour emoji', () => {
  /**
   * Pixels of a square around (x, y): the fraction that differs from the frame's background, the
   * fraction clearly coloured (not grey), and the distinct hues among those.
   */
  function colourIn(frame: Buffer, width: number, x: number, y: number, r: number) {
    let coloured = 0;
    let drawn = 0;
    let total = 0;
    const hues = new Set<number>();
    const background = [frame[0]!, frame[1]!, frame[2]!];
    for (let yy = Math.round(y - r); yy < y + r; yy++) {
      for (let xx = Math.round(x - r); xx < x + r; xx++) {
        const i = (yy * width + xx) * 3;
        const [R, G, B] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
        total++;
        if (Math.abs(R - background[0]!) + Math.abs(G - background[1]!) + Math.abs(B - background[2]!) > 60) drawn++;
        const max = Math.max(R, G, B);
        const min = Math.min(R, G, B);
        if (max - min < 60) continue;
        coloured++;
        const h =
          max === R
            ? ((G - B) / (max - min) + 6) % 6
            : max === G
              ? (B - R) / (max - min) + 2
              : (R - G) / (max - min) + 4;
        hues.add(Math.floor(h * 2)); // twelve hue bins
      }
    }
    return { drawn: drawn / total, fraction: coloured / total, hues: hues.size };
  }

  const EMOJI = ['👨‍👩‍👧‍👦', '🇯🇵', '👍🏽'];

  it('draws a ZWJ family, a flag and a skin-tone emoji as one colour picture each (composer)', async () => {
    const canvas = { width: 540, height: 960 };
    const source = compose(`Family trip to Japan ${EMOJI.join(' ')}`, canvas);
    const animation = JSON.parse(source) as {
      assets: {
        id: string;
        w?: number;
        h?: number;
        p?: string;
        layers?: { ty: number; nm: string; refId?: string; ks: { p: { k: unknown } } }[];
      }[];
    };
    const layers = animation.assets
      .flatMap((a) => a.layers ?? [])
      .filter((l) => l.ty === 2 && l.nm.startsWith('emoji '));
    // One picture per emoji: the family is one glyph of the font (not four people), the flag one (not two letters).
    expect(layers.map((l) => l.nm)).toEqual(EMOJI.map((e) => `emoji ${e}`));
    for (const l of layers) {
      const asset = animation.assets.find((a) => a.id === l.refId)!;
      expect(asset.p).toMatch(/^data:image\/png;base64,/);
      expect(asset.w! / asset.h!).toBeGreaterThan(0.8);
      expect(asset.w! / asset.h!).toBeLessThan(1.25);
    }
    const outputPath = path.join(sandbox.out, 'emoji.mp4');
    await engine.render(source, { tools, ...canvas, fps: 5, outputPath });
    const frame = await decodeFrame(outputPath, 5);
    for (const l of layers) {
      const p = l.ks.p.k as number[] | { s: number[] }[];
      const [x, y] = (typeof p[0] === 'number' ? p : (p[0] as { s: number[] }).s) as [number, number];
      const seen = colourIn(frame, canvas.width, x, y, 20);
      expect(seen.drawn, l.nm).toBeGreaterThan(0.25);
      // Noto Color Emoji draws the family as grey figures on a tile (its design since Unicode 15.1);
      // the flag and the thumb are in colour.
      if (!l.nm.includes('\u200d')) expect(seen.fraction, l.nm).toBeGreaterThan(0.25);
    }
  });

  it('draws emoji inside a text layer in colour, beside the shaped text (an LLM-written animation)', async () => {
    const canvas = { width: 480, height: 270 };
    const doc = { s: 48, f: 'NotoSans-Bold', t: `Hi ${EMOJI.join('')}`, j: 0, tr: 0, lh: 56, ls: 0, fc: [0, 0, 0] };
    const layer = {
      ddd: 0,
      ind: 1,
      ty: 5,
      nm: 'greeting',
      sr: 1,
      ks: {
        o: { a: 0, k: 100 },
        r: { a: 0, k: 0 },
        p: { a: 0, k: [40, 150, 0] },
        a: { a: 0, k: [0, 0, 0] },
        s: { a: 0, k: [100, 100, 100] },
      },
      ao: 0,
      ip: 0,
      op: 10,
      st: 0,
      bm: 0,
      t: { d: { k: [{ t: 0, s: doc }] }, p: {}, m: { g: 1, a: { a: 0, k: [0, 0] } }, a: [] },
    };
    const animation = {
      v: '5.7.0',
      fr: 10,
      ip: 0,
      op: 10,
      w: canvas.width,
      h: canvas.height,
      ddd: 0,
      assets: [],
      fonts: { list: [{ fName: 'NotoSans-Bold', fFamily: 'Noto Sans', fStyle: 'Bold', ascent: 75 }] },
      layers: [layer],
    };
    const source = JSON.stringify(animation);
    expect(await engine.validate(source, canvas)).toEqual([]);
    // The render replaces the layer by a precomposition of the outlines and the three pictures.
    const drawn = structuredClone(animation) as unknown as LottieAnimation;
    outlineText(drawn);
    expect((drawn.layers[0] as { ty: number }).ty).toBe(0);
    expect(JSON.stringify(drawn.assets).match(/data:image\/png/g)).toHaveLength(3);

    const outputPath = path.join(sandbox.out, 'emoji-text.mp4');
    await engine.render(source, { tools, ...canvas, fps: 10, outputPath });
    const frame = await decodeFrame(outputPath, 3);
    // "Hi " is about 1.6 em wide, each emoji about 1.25 em; the text is black: every coloured pixel is an emoji's.
    const emojiRow = colourIn(frame, canvas.width, 40 + 48 * 3.5, 150 - 48 * 0.35, 60);
    expect(emojiRow.fraction).toBeGreaterThan(0.05);
    expect(emojiRow.hues).toBeGreaterThanOrEqual(3);
  });
});
