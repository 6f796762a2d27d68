// The HyperFrames offline composer (the `local` provider) draws the prompt's storyboard: every scene
// kind has its own layout, the video lasts exactly the storyboard's length, text fits the canvas at any
// size (checked in Chromium) and is legible in the rendered frames (checked by OCR).
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareComposition } from '../../src/engines/hyperframes/prepare.js';
import { getEngine } from '../../src/engines/index.js';
import { probeVideo } from '../../src/video/index.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { MIN_TEXT_SHARE } from '../../src/storyboard/layout.js';
import { storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import type { Storyboard } from '../../src/storyboard/types.js';
import { iconSvg } from '../../src/engines/hyperframes/storyboard/scenes.js';
import type { MediaAsset } from '../../src/engines/types.js';
import { launchTestBrowser } from '../support/browser.js';
import { comparisonBoard, decodeFrame, ocrFrame, pictogramBoard, tools, useRenderSandbox } from './support.js';

const engine = getEngine('hyperframes');
const sandbox = useRenderSandbox('sbhf', (e) => e.startsWith('video-render-'));

const compose = (
  prompt: string,
  width: number,
  height: number,
  durationSeconds: number | null = null,
  assets: MediaAsset[] = [],
) => engine.composeOffline({ prompt, instructions: null, durationSeconds, assets, width, height });

/**
 * One prompt for every scene kind (a title, then a countdown, statement, counter, progress, bars, quote, list, steps
 * and call to action).
 */
const ALL_KINDS =
  'Nimbus notes. 3, 2, 1 — Nimbus is here! Your notes sync the moment you type them. ' +
  'Over 2 million notes were written last month. 42% of teams use it daily. ' +
  'Notes by quarter: Q1 12, Q2 18, Q3 25 and Q4 31. "It changed how our team thinks" says Maria Lopez. ' +
  'Nimbus gives you: speed, security, privacy and support. ' +
  'How to start: 1. Install the app. 2. Import your notes. 3. Invite your team. Download free at nimbus.app.';
const ALL_KINDS_SECONDS = 20;

/** Share of a frame's pixels within a small distance of the colour #rrggbb. */
function inkShare(rgb: Buffer, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < rgb.length; i += 3)
    if (Math.abs(rgb[i]! - r!) + Math.abs(rgb[i + 1]! - g!) + Math.abs(rgb[i + 2]! - b!) < 60) n++;
  return n / (rgb.length / 3);
}

const rootDuration = (html: string) =>
  Number(/data-composition-id="[^"]*"[^>]*data-duration="([\d.]+)"/.exec(html)?.[1]);

// One browser for every test of this file that measures a page.
let browser: Browser;
beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('storyboard composer: one layout per scene kind', () => {
  it(
    'draws each kind with its own elements: counter targets, progress, bars, quote card, features with their ' +
      'pictograms, call to action',
    () => {
      const storyboard = planStoryboard({
        prompt: ALL_KINDS,
        instructions: null,
        durationSeconds: ALL_KINDS_SECONDS,
        image: null,
      });
      expect(storyboard.scenes.map((s) => s.kind)).toEqual([
        'title',
        'countdown',
        'statement',
        'counter',
        'progress',
        'bars',
        'quote',
        'features',
        'steps',
        'cta',
      ]);
      const html = compose(ALL_KINDS, 360, 640, ALL_KINDS_SECONDS);

      expect(html).toContain('>Nimbus notes</div>'); // title
      // countdown, a number a beat
      for (const [i, n] of ['3', '2', '1'].entries()) expect(html).toMatch(new RegExp(`id="s1-n${i}"[^>]*>${n}</div>`));
      expect(html).toMatch(/id="s1-pay"[^>]*>Nimbus is here!<\/div>/); // …then its payoff
      expect(html).toMatch(/<span class="w">sync<\/span>/); // statement, word by word
      // counter target and unit
      expect(html).toMatch(/data-final="2">2<\/span><span class="unit word"> million<\/span>/);
      expect(html).toContain('>Over</div>'); // …its qualifier
      // …counting up from 0
      expect(html).toContain(
        '__counter(tl, "s3-v", 2, {"decimals":0,"group":"","decimal":".","zero":48,"lakh":false},',
      );
      expect(html).toMatch(/data-final="42">42<\/span><span class="unit">%<\/span>/); // progress number
      expect(html).toContain('class="fill" id="s4-fill" style="width:42%"'); // …and its bar
      for (const [label, value] of [
        ['Q1', '12'],
        ['Q2', '18'],
        ['Q3', '25'],
        ['Q4', '31'],
      ]) {
        expect(html).toContain(`>${label}</div>`);
        expect(html).toContain(`>${value}</div>`);
      }
      expect(html.match(/class="bar" id="s5-b\d"/g)).toHaveLength(4); // one bar per figure
      expect(html).toContain('class="card" id="s6-card"'); // quote card, its mark and attribution
      expect(html).toContain('<svg viewBox="0 0 100 80"');
      for (const word of ['It', 'changed', 'how', 'our', 'team', 'thinks'])
        expect(html).toContain(`<span class="w">${word}</span>`);
      expect(html).toContain('>— says Maria Lopez</div>');
      // features: each item with its pictogram tile
      for (const [i, item] of ['Speed', 'Security', 'Privacy', 'Support'].entries())
        expect(html).toMatch(new RegExp(`id="s7-i${i}"[^>]*>${item}</div>`));
      expect(html.match(/class="itile" id="s7-c\d"[^>]*><svg/g)).toHaveLength(4);
      for (const [i, step] of ['Install the app', 'Import your notes', 'Invite your team'].entries()) {
        // steps: the marker as written in its badge
        expect(html).toMatch(new RegExp(`id="s8-n${i}"[^>]*>${i + 1}</div>`));
        expect(html).toMatch(new RegExp(`id="s8-i${i}"[^>]*>${step}</div>`)); // …and the step whole
      }
      expect(html).toContain('>Download free</div>'); // call to action, the detail as a button
      expect(html).toMatch(/<div id="s9-detail" class="t pill"[^>]*>nimbus\.app<\/div>/);
    },
  );

  it('shows the first image on the title scene, with a slow zoom and pan', () => {
    const photo: MediaAsset = {
      name: 'photo-1.jpg',
      kind: 'image',
      mediaType: 'image/jpeg',
      bytes: 1000,
      width: 1200,
      height: 800,
      durationSeconds: null,
    };
    const html = compose('Summer in Lisbon: trams, tiles and sunsets', 1920, 1080, null, [photo]);
    expect(html).toContain('<img id="s0-img" src="assets/photo-1.jpg" alt="">');
    expect(html).toMatch(/tl\.fromTo\("#s0-img", \{"scale":1\.06[^)]*\{"scale":1\.18/);
  });

  it('is deterministic, and different prompts make different videos', () => {
    const a = compose('A calm ocean at dawn', 360, 640);
    expect(compose('A calm ocean at dawn', 360, 640)).toBe(a);
    const b = compose('Bold neon city nights. 3 new venues open on Friday.', 360, 640);
    expect(b).not.toBe(a);
    // Not just other words: other colours, fonts or motion.
    const style = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1]!.replace(/>[^<]*</g, '><');
    expect(style(b)).not.toBe(style(a));
  });

  it('writes right-to-left prompts right-aligned, every text with dir="auto"', () => {
    const html = compose('مرحبا بكم في مقهى الياسمين. قهوة طازجة كل يوم.', 720, 720);
    expect(html).toContain('direction: rtl');
    expect(html).toContain('lang="ar"');
    expect(html).not.toMatch(/<html[^>]*\sdir=/); // (dir on <html> renders a blank video)
    const texts = html.match(/<div id="[^"]+" class="t [^"]*"[^>]*>/g)!;
    expect(texts.length).toBeGreaterThan(0);
    for (const tag of texts) expect(tag).toContain('dir="auto"');
  });

  it('passes validation at every size, with the requested length declared on the root', async () => {
    for (const [width, height] of [
      [1080, 1920],
      [1920, 1080],
      [256, 456],
    ] as const) {
      const html = compose(ALL_KINDS, width, height, ALL_KINDS_SECONDS);
      expect(rootDuration(html)).toBe(ALL_KINDS_SECONDS);
      const errors = (await engine.validate(html, { width, height, durationSeconds: ALL_KINDS_SECONDS })).filter(
        (f) => f.severity === 'error',
      );
      expect(errors).toEqual([]);
    }
  });

  it(
    'renders every scene kind: the whole length, no blank scene, the title on the first frame',
    { timeout: 240_000 },
    async () => {
      const html = compose(ALL_KINDS, 270, 480, ALL_KINDS_SECONDS);
      const outputPath = path.join(sandbox.out, 'kinds.mp4');
      const fps = 10;
      await engine.render(html, { tools, width: 270, height: 480, fps, outputPath });
      const probed = await probeVideo('ffmpeg', outputPath, { countPackets: true });
      expect(probed).toMatchObject({ codec: 'h264', width: 270, height: 480, frames: ALL_KINDS_SECONDS * fps });
      expect(Math.abs(probed.durationSeconds - ALL_KINDS_SECONDS)).toBeLessThanOrEqual(0.1);
      // Text is drawn in the palette's text colour, which the background never comes near: every scene's
      // middle frame and the very first frame show some.
      const storyboard = planStoryboard({
        prompt: ALL_KINDS,
        instructions: null,
        durationSeconds: ALL_KINDS_SECONDS,
        image: null,
      });
      // (Figures — counters, countdown numbers — are drawn in the accent colour.)
      const { text: ink, accent } = storyboard.look.palette;
      for (const scene of storyboard.scenes) {
        const frame = await decodeFrame(outputPath, Math.round((scene.start + scene.duration / 2) * fps));
        expect(inkShare(frame, ink) + inkShare(frame, accent), scene.kind).toBeGreaterThan(0.002);
      }
      expect(inkShare(await decodeFrame(outputPath, 0), ink), 'first frame').toBeGreaterThan(0.002);
    },
  );
});

describe('storyboard composer: lengths', () => {
  it(
    'a prompt asking for a "10-second" video lasts 10 s; durationSeconds 7 lasts 7 s',
    { timeout: 240_000 },
    async () => {
      const cases = [
        {
          name: 'ten',
          html: compose(
            'A 10-second teaser for Lumen, the reading lamp. Warm light for late nights. Order at lumen.shop.',
            160,
            284,
          ),
          seconds: 10,
        },
        {
          name: 'seven',
          html: compose('A teaser for Lumen, the reading lamp. Warm light for late nights.', 160, 284, 7),
          seconds: 7,
        },
      ];
      for (const c of cases) {
        expect(rootDuration(c.html)).toBe(c.seconds);
        const outputPath = path.join(sandbox.out, `${c.name}.mp4`);
        await engine.render(c.html, { tools, width: 160, height: 284, fps: 10, outputPath });
        const probed = await probeVideo('ffmpeg', outputPath, { countPackets: true });
        expect(Math.abs(probed.durationSeconds - c.seconds), c.name).toBeLessThanOrEqual(0.1);
        expect(probed.frames).toBe(c.seconds * 10);
      }
    },
  );

  it('validation holds a composition to the requested length through the root data-duration', async () => {
    const canvas = { width: 360, height: 640 };
    const html = compose('A teaser for Lumen, the reading lamp.', 360, 640, 7);
    const errors = async (source: string, durationSeconds: number | null) =>
      (await engine.validate(source, { ...canvas, durationSeconds })).filter((f) => f.severity === 'error');
    expect(await errors(html, 7)).toEqual([]);
    expect(await errors(html, 7.4)).toEqual([]); // within 0.5 s
    expect(await errors(html, null)).toEqual([]); // no length asked for: none enforced

    const wrong = await errors(html, 12);
    expect(wrong.map((f) => f.code)).toEqual(['wrong_duration']);
    expect(wrong[0]!.message).toContain('12 s');
    expect(wrong[0]!.fix_hint).toContain('data-duration="12"');

    const missing = await errors(
      html.replace(/(data-composition-id="local" data-start="0") data-duration="7"/, '$1'),
      7,
    );
    expect(missing.map((f) => f.code)).toEqual(['missing_duration']);
    expect(missing[0]!.fix_hint).toContain('data-duration="7"');
  });
});

// ---- Layout, measured in Chromium ----------------------------------------------------------------

/**
 * In the page: shows the clips live at `t` (the producer's runtime does this while rendering), seeks the
 * timeline there and returns each visible text element's box (the union of its text's line boxes).
 */
const MEASURE = String.raw`(t) => {
  for (const c of document.querySelectorAll('#stage > .clip')) {
    const s = Number(c.getAttribute('data-start')), d = Number(c.getAttribute('data-duration'));
    c.style.visibility = t >= s && t < s + d ? 'visible' : 'hidden';
  }
  window.__timelines.local.seek(t, false);
  const opacity = (e) => {
    let o = 1;
    for (; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const boxes = new Map();
  const walker = document.createTreeWalker(document.getElementById('stage'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const parent = n.parentElement;
    if (getComputedStyle(parent).visibility !== 'visible' || opacity(parent) < 0.05) continue;
    const owner = parent.closest('[data-fit]') || parent;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      const b = boxes.get(owner);
      boxes.set(owner, b
        ? { l: Math.min(b.l, r.left), t: Math.min(b.t, r.top), r: Math.max(b.r, r.right), b: Math.max(b.b, r.bottom) }
        : { l: r.left, t: r.top, r: r.right, b: r.bottom });
    }
  }
  return [...boxes].map(([el, b]) => ({
    id: el.id, text: el.textContent.trim().slice(0, 40), fontSize: parseFloat(getComputedStyle(el).fontSize), ...b,
  }));
}`;

/** Serves the prepared document (GSAP from the local copy) to the page, waits for its fonts: as the producer does. */
async function showComposition(page: Page, prepared: ReturnType<typeof prepareComposition>) {
  await page.route('http://composition.test/**', async (route) => {
    const file = new URL(route.request().url()).pathname.slice(1);
    if (file === '') return route.fulfill({ body: prepared.html, contentType: 'text/html' });
    const vendor = prepared.vendorFiles.find((v) => file === `vendor/${v.file}`);
    return vendor
      ? route.fulfill({ path: vendor.from, contentType: 'text/javascript' })
      : route.fulfill({ status: 404 });
  });
  await page.goto('http://composition.test/');
  await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(r)))');
}

type TextBox = { id: string; text: string; fontSize: number; l: number; t: number; r: number; b: number };

const LAYOUT_PROMPTS = {
  long:
    'The quick brown fox jumps over the lazy dog while the sun sets slowly behind the distant purple mountains ' +
    'and everyone watches in awe, then the night falls and the stars come out one by one across the sky',
  japanese: '東京の夜景を紹介する短い動画 🌃✨。ネオンが輝く街。',
  arabic: 'مرحبا بكم في مقهى الياسمين. قهوة طازجة كل يوم.',
  list:
    'Meet Nimbus. Nimbus offers speed, security, privacy and unlimited support for international teams. ' +
    'Join the beta on March 3.',
  bars: 'Quarterly report. Revenue by quarter: Q1 12, Q2 18, Q3 25 and Q4 31 this year. Thanks for watching.',
  all: ALL_KINDS,
  photo: 'Summer in Lisbon: trams, tiles and endless sunsets over the Tagus river',
};
/** The photo prompt shows an image beside (landscape) or above (portrait) its title. */
const LAYOUT_ASSETS: Partial<Record<keyof typeof LAYOUT_PROMPTS, MediaAsset[]>> = {
  photo: [
    {
      name: 'photo.jpg',
      kind: 'image',
      mediaType: 'image/jpeg',
      bytes: 1000,
      width: 1200,
      height: 800,
      durationSeconds: null,
    },
  ],
};
const LAYOUT_SIZES = [
  [1080, 1920],
  [1920, 1080],
  [720, 720],
  [256, 456],
] as const;

describe('storyboard composer: layout at every size', () => {
  it(
    'keeps every visible text inside the canvas, overlapping no other, in the middle of every scene, ' +
      'and shows the title at t = 0',
    { timeout: 180_000 },
    async () => {
      const problems: string[] = [];
      for (const [name, prompt] of Object.entries(LAYOUT_PROMPTS)) {
        for (const [width, height] of LAYOUT_SIZES) {
          const where = `${name} ${width}x${height}`;
          // The document as the producer serves it: prepared, GSAP from the local copy (the photo itself is
          // not served: its box has a fixed size).
          const prepared = prepareComposition(
            compose(prompt, width, height, null, LAYOUT_ASSETS[name as keyof typeof LAYOUT_PROMPTS]),
            { width, height },
          );
          const page = await browser.newPage({ viewport: { width, height } });
          try {
            await showComposition(page, prepared);
            const clips: { start: number; duration: number }[] = await page.evaluate(
              `[...document.querySelectorAll('#stage > .clip[data-track-index]:not(#bg)')]` +
                '.map((c) => ({ start: Number(c.dataset.start), duration: Number(c.dataset.duration) }))',
            );
            expect(clips.length, where).toBeGreaterThan(0);
            const atStart: TextBox[] = await page.evaluate(`(${MEASURE})(0)`);
            const title = atStart.find((b) => b.id === 's0-title');
            if (!title || title.r - title.l < 4) problems.push(`${where}: no title at t = 0`);
            for (const [i, clip] of clips.entries()) {
              const t = clip.start + clip.duration / 2;
              const boxes: TextBox[] = await page.evaluate(`(${MEASURE})(${t})`);
              if (boxes.length === 0) problems.push(`${where} scene ${i}: no visible text`);
              for (const b of boxes) {
                if (b.l < -1 || b.t < -1 || b.r > width + 1 || b.b > height + 1)
                  problems.push(`${where} scene ${i}: "${b.text}" leaves the canvas ${JSON.stringify(b)}`);
                if (b.fontSize < 8) problems.push(`${where} scene ${i}: "${b.text}" at ${b.fontSize}px`);
              }
              for (const [j, a] of boxes.entries()) {
                for (const c of boxes.slice(j + 1)) {
                  if (Math.min(a.r, c.r) - Math.max(a.l, c.l) > 1 && Math.min(a.b, c.b) - Math.max(a.t, c.t) > 1) {
                    problems.push(`${where} scene ${i}: "${a.text}" overlaps "${c.text}"`);
                  }
                }
              }
            }
          } finally {
            await page.close();
          }
        }
      }
      expect(problems).toEqual([]);
    },
  );
});

// ---- A scene's own pictogram ---------------------------------------------------------------------------

describe("storyboard composer: a scene's own pictogram", () => {
  const board = pictogramBoard;
  const draw = (sb: Storyboard, width: number, height: number) =>
    engine.drawStoryboard!(sb, { width, height, assets: [] });

  it('draws the icon of a title and of a list as inline SVG in a tile; none for icon: null', () => {
    const html = draw(board({ icon: null }), 360, 640);
    // icon: null is no icon: the same document as a statement without the field.
    expect(draw(board({}), 360, 640)).toBe(html);
    for (const [i, icon] of [
      [0, 'coffee'],
      [1, 'wifi'],
    ] as const) {
      const tile = new RegExp(`<div class="itile" id="s${i}-icon" style="[^"]*"><svg [^>]*>(.*?)</svg></div>`).exec(
        html,
      );
      expect(tile, `scene ${i + 1}`).not.toBeNull();
      // The icon's own geometry (Lucide's, read from the package).
      expect(tile![1]).toBe(/<svg [^>]*>(.*?)<\/svg>/.exec(iconSvg(icon))![1]);
      expect(html).toContain(`tl.fromTo("#s${i}-icon", {"scale":0`); // it pops in
    }
    expect(html).not.toContain('id="s2-icon"');
    expect(html.match(/class="itile"/g)).toHaveLength(2);
  });

  it(
    "puts the tile above the scene's texts, inside the safe area, at 9:16, 16:9 and 1:1",
    { timeout: 120_000 },
    async () => {
      const problems: string[] = [];
      for (const [width, height] of [
        [540, 960],
        [960, 540],
        [600, 600],
      ] as const) {
        const prepared = prepareComposition(draw(board({ icon: null }), width, height), { width, height });
        const page = await browser.newPage({ viewport: { width, height } });
        try {
          await showComposition(page, prepared);
          const short = Math.min(width, height);
          const tall = width / height <= 0.8;
          for (const [i, t] of [
            [0, 1.5],
            [1, 3.5],
          ] as const) {
            const where = `${width}x${height} scene ${i + 1}`;
            const texts: TextBox[] = await page.evaluate(`(${MEASURE})(${t})`);
            const tile: { l: number; t: number; r: number; b: number } = await page.evaluate(
              `(() => { const r = document.getElementById('s${i}-icon').getBoundingClientRect(); ` +
                'return { l: r.left, t: r.top, r: r.right, b: r.bottom }; })()',
            );
            const side = tile.r - tile.l;
            if (side < short * 0.09 || side > short * 0.12) problems.push(`${where}: a tile ${side}px wide`);
            if (tile.t < height * (tall ? 0.12 : 0.07) - 1 || tile.l < width * 0.07 - 1 || tile.r > width * 0.93 + 1)
              problems.push(`${where}: the tile leaves the safe area ${JSON.stringify(tile)}`);
            if (texts.length === 0) problems.push(`${where}: no text`);
            for (const b of texts)
              if (b.t < tile.b - 1) problems.push(`${where}: "${b.text}" is not below the tile ${JSON.stringify(b)}`);
          }
        } finally {
          await page.close();
        }
      }
      expect(problems).toEqual([]);
    },
  );
});

describe('storyboard composer: comparison cards', () => {
  const documentOf = (features: string[], canvas: { width: number; height: number }, direction?: 'rtl') =>
    getEngine('hyperframes').drawStoryboard!(comparisonBoard(features, direction), {
      ...canvas,
      assets: [],
    });
  const heights = (html: string) =>
    [...html.matchAll(/class="ocard[^"]*" id="[^"]+" style="[^"]*height:([\d.]+)px/gu)].map((m) => Number(m[1]));
  /** The left edge of each option's name and figure box inside its card. */
  const lefts = (html: string, what: 'n' | 'v') =>
    [...html.matchAll(new RegExp(`style="left:([\\d.]+)px[^"]*"><div id="s\\d+-${what}\\d`, 'gu'))].map((m) =>
      Number(m[1]),
    );

  it('cards without features are shorter, side by side and stacked', () => {
    for (const canvas of [
      { width: 640, height: 360 },
      { width: 360, height: 640 },
    ]) {
      const bare = heights(documentOf([], canvas));
      const featured = heights(documentOf(['2 GB', 'calls'], canvas));
      expect(bare).toHaveLength(3);
      for (const [i, h] of bare.entries()) expect(h).toBeLessThan(featured[i]! * 0.8);
    }
  });

  it("stacked right to left, the name is at the card's right and the figure at its left", () => {
    const canvas = { width: 360, height: 640 };
    const ltr = documentOf([], canvas);
    const rtl = documentOf([], canvas, 'rtl');
    expect(lefts(ltr, 'n')[0]!).toBeLessThan(lefts(ltr, 'v')[0]!);
    expect(lefts(rtl, 'n')[0]!).toBeGreaterThan(lefts(rtl, 'v')[0]!);
  });
});

describe('storyboard composer: pills hold their text', () => {
  const SIZES = [
    [360, 640],
    [640, 360],
    [720, 720],
  ] as const;

  /**
   * Each pill's text measured in Chromium in the scene's last moment: whole inside its pill (the glyphs' box, not
   * the element's) and never below the smallest text size. Returns the texts and the problems found.
   */
  async function pills(sb: Storyboard, pill: string, label: string) {
    const problems: string[] = [];
    const texts: string[][] = [];
    for (const [width, height] of SIZES) {
      const page = await browser.newPage({ viewport: { width, height } });
      try {
        await showComposition(
          page,
          prepareComposition(engine.drawStoryboard!(sb, { width, height, assets: [] }), { width, height }),
        );
        const boxes: { text: string; inside: boolean; size: number }[] = await page.evaluate(`(() => {
          window.__timelines.local.seek(${sb.scenes[0]!.duration - 0.1}, false);
          return [...document.querySelectorAll('${pill}')].map((pill) => {
            const b = pill.getBoundingClientRect();
            const label = pill.querySelector('${label}');
            const range = document.createRange();
            range.selectNodeContents(label);
            const m = range.getBoundingClientRect();
            const inside = m.left >= b.left - 0.5 && m.right <= b.right + 0.5 &&
              m.top >= b.top - 0.5 && m.bottom <= b.bottom + 0.5;
            return { text: pill.textContent, inside, size: parseFloat(getComputedStyle(label).fontSize) };
          });
        })()`);
        texts.push(boxes.map((b) => b.text));
        for (const b of boxes) {
          if (!b.inside) problems.push(`${width}x${height}: "${b.text}" leaves its pill`);
          if (b.size < MIN_TEXT_SHARE * Math.min(width, height) - 0.1)
            problems.push(`${width}x${height}: "${b.text}" at ${b.size}px`);
        }
      } finally {
        await page.close();
      }
    }
    return { texts, problems };
  }

  it(
    'draws every step marker whole inside its badge, long ones ("第一步", "Schritt 1", "Première étape") too',
    { timeout: 120_000 },
    async () => {
      const problems: string[] = [];
      for (const markers of [
        ['1.', '2.', '3.'],
        ['第一步', '第二步', '第三步'],
        ['Schritt 1', 'Schritt 2', 'Schritt 3'],
        ['Première étape', 'Deuxième étape', 'Troisième étape'],
      ]) {
        const sb = toStoryboard(
          storyboardSchema.parse({
            scenes: [
              {
                kind: 'steps',
                items: markers.map((marker, i) => ({ marker, text: ['Sign up', 'Connect', 'Invite your team'][i] })),
                seconds: 3,
              },
            ],
          }),
          { image: () => null },
        );
        const found = await pills(sb, '.badge', '.marker');
        for (const texts of found.texts) expect(texts).toEqual(markers);
        problems.push(...found.problems);
      }
      expect(problems).toEqual([]);
    },
  );

  it("draws a comparison's badge whole inside its pill, long and CJK ones too", { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    for (const badge of ['Best value', 'Le plus populaire auprès des familles', '一番人気のプラン']) {
      const sb = toStoryboard(
        storyboardSchema.parse({
          scenes: [
            {
              kind: 'comparison',
              options: [
                { name: 'Basic', figure: '9 €', features: ['1 user'] },
                { name: 'Family', figure: '19 €', features: ['5 users'], highlight: true },
                { name: 'Max', figure: '29 €', features: ['10 users'] },
              ],
              badge,
              seconds: 3,
            },
          ],
        }),
        { image: () => null },
      );
      const found = await pills(sb, '.obadge', '.obadge-text');
      for (const texts of found.texts) expect(texts).toEqual([badge]);
      problems.push(...found.problems);
    }
    expect(problems).toEqual([]);
  });
});

// ---- Legibility: OCR of rendered frames --------------------------------------------------------------

const inkOf = (prompt: string) =>
  planStoryboard({ prompt, instructions: null, durationSeconds: 2, image: null }).look.palette.text;

describe('storyboard composer: the title is legible (OCR)', () => {
  const titleCases = [
    { width: 1080, height: 1920, prompt: 'Fresh coffee delivered to your door every morning' },
    { width: 1920, height: 1080, prompt: 'Learn to paint with watercolors this summer' },
    { width: 720, height: 720, prompt: 'Our bakery opens a second shop downtown' },
  ];

  it('finds the title words in a frame at 1080x1920, 1920x1080 and 720x720', { timeout: 240_000 }, async () => {
    for (const c of titleCases) {
      const outputPath = path.join(sandbox.out, `ocr-${c.width}x${c.height}.mp4`);
      await engine.render(compose(c.prompt, c.width, c.height, 2), {
        tools,
        width: c.width,
        height: c.height,
        fps: 5,
        outputPath,
      });
      const words = c.prompt.toLowerCase().match(/[a-z]+/g)!;
      const read = (await ocrFrame(outputPath, 5, c, inkOf(c.prompt), 'eng')).toLowerCase();
      const found = words.filter((w) => read.includes(w));
      expect(
        found.length / words.length,
        `${c.width}x${c.height} read: ${JSON.stringify(read)}`,
      ).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('finds a Japanese title (tesseract -l jpn)', { timeout: 120_000 }, async () => {
    const title = '東京の夜景を楽しもう';
    const outputPath = path.join(sandbox.out, 'ocr-jpn.mp4');
    await engine.render(compose(title, 720, 720, 2), { tools, width: 720, height: 720, fps: 5, outputPath });
    const read = (await ocrFrame(outputPath, 5, { width: 720, height: 720 }, inkOf(title), 'jpn')).replace(/\s+/g, '');
    const found = [...title].filter((ch) => read.includes(ch));
    expect(found.length / [...title].length, `read: ${JSON.stringify(read)}`).toBeGreaterThanOrEqual(0.8);
  });
});
