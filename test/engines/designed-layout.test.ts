// Designed layouts measured on rendered frames (issue 43), both engines, at 9:16, 16:9 and 1:1: one storyboard
// with a comparison, a timeline, six features with pictograms, a six-item list and marked steps is rendered twice
// for real — as drawn, and with every text and pictogram made transparent — and the difference of the two renders'
// frames is the ink of the text and pictograms alone (the background and its ornament are the same in both). On
// that ink, in the middle of each scene once it has come in:
//   - on 9:16 none of it is in the top 12 % or the bottom 20 % of the frame (TALL_SAFE_AREA);
//   - none of it touches the frame's edge (a glyph cut off there);
//   - no line of text is shorter than the smallest body size allows (MIN_TEXT_SHARE of the short side);
//   - on 16:9 the six-item list and the six features stand in columns (fewer rows of ink than items);
//   - the designed scenes use the width they have (their ink spans at least MIN_WIDTH_SHARE of the frame).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { isTall, MIN_TEXT_SHARE, TALL_SAFE_AREA } from '../../src/storyboard/layout.js';
import { storyboardSchema, toStoryboard } from '../../src/storyboard/schema.js';
import type { Storyboard } from '../../src/storyboard/types.js';
import { decodeFrame, tools, useRenderSandbox } from './support.js';

const sandbox = useRenderSandbox('designed-layout', (e) => e.startsWith('video-render-'));

const FPS = 10;
/** The designed scenes span at least this share of the frame's width with their text and pictograms. */
const MIN_WIDTH_SHARE = 0.45;
/** A line's ink, capitals to descenders, is at least this share of its font size. */
const LINE_INK_SHARE = 0.6;
/** Channel difference (summed over R, G, B) that counts as ink: far above the encoder's noise. */
const INK_THRESHOLD = 90;

const STORYBOARD = {
  scenes: [
    {
      kind: 'comparison',
      heading: 'Pick a plan',
      options: [
        { name: 'Solo', figure: '$4', features: ['One calendar', 'Reminders'] },
        { name: 'Team', figure: '$9', features: ['Shared agendas', 'Focus time'], highlight: true },
        { name: 'Company', figure: '$19', features: ['Single sign-on', 'Audit log'] },
      ],
      badge: 'Most popular',
    },
    {
      kind: 'timeline',
      heading: 'Saturday',
      items: [
        { time: '9:00', text: 'Doors open' },
        { time: '10:30', text: 'Keynote' },
        { time: '13:00', text: 'Lunch on the roof' },
        { time: '16:00', text: 'Workshops' },
      ],
    },
    {
      kind: 'features',
      heading: 'In every room',
      items: ['Fast Wi-Fi', 'Fresh coffee', 'Bike storage', 'Quiet booths', 'Showers', 'Parking'],
    },
    { kind: 'list', heading: 'Six reasons', items: ['Fast', 'Private', 'Offline', 'Shared', 'Secure', 'Free'] },
    {
      kind: 'steps',
      heading: 'Get started',
      items: [
        { marker: 'Step 1', text: 'Install the app' },
        { marker: 'Step 2', text: 'Import your notes' },
        { marker: 'Step 3', text: 'Invite your team' },
      ],
    },
  ].map((s) => ({ ...s, seconds: 2.5 })),
};

const CANVASES = [
  { name: '9:16', width: 540, height: 960 },
  { name: '16:9', width: 960, height: 540 },
  { name: '1:1', width: 720, height: 720 },
];

/** The Lottie animation with its text layers and pictogram groups taken out (everything else untouched). */
function lottieWithoutInk(source: string): string {
  type Shape = { ty: string; nm?: string; it?: Shape[] };
  type Layer = { ty: number; shapes?: Shape[] };
  const animation = JSON.parse(source) as { layers: Layer[]; assets: { layers?: Layer[] }[] };
  const withoutIcons = (shapes: Shape[]): Shape[] =>
    shapes
      .filter((s) => !(s.ty === 'gr' && s.nm?.startsWith('icon ')))
      .map((s) => (s.it ? { ...s, it: withoutIcons(s.it) } : s));
  const strip = (layers: Layer[]) =>
    layers.filter((l) => l.ty !== 5).map((l) => (l.shapes ? { ...l, shapes: withoutIcons(l.shapes) } : l));
  animation.layers = strip(animation.layers);
  for (const asset of animation.assets) if (asset.layers) asset.layers = strip(asset.layers);
  return JSON.stringify(animation);
}

/** The HyperFrames document with every text and pictogram (inline SVG stroked in the text's colour) transparent. */
function hyperframesWithoutInk(html: string): string {
  const style =
    '<style>#stage, #stage * { color: transparent !important; -webkit-text-fill-color: transparent !important; ' +
    'text-shadow: none !important; }</style>';
  expect(html).toContain('</head>');
  return html.replace('</head>', `${style}</head>`);
}

const ENGINES = {
  lottie: lottieWithoutInk,
  hyperframes: hyperframesWithoutInk,
} as const;

type Ink = { mask: Uint8Array; width: number; height: number };

function inkOf(drawn: Buffer, bare: Buffer, width: number, height: number): Ink {
  const mask = new Uint8Array(width * height);
  for (let p = 0; p < mask.length; p++) {
    const i = p * 3;
    const d =
      Math.abs(drawn[i]! - bare[i]!) + Math.abs(drawn[i + 1]! - bare[i + 1]!) + Math.abs(drawn[i + 2]! - bare[i + 2]!);
    if (d > INK_THRESHOLD) mask[p] = 1;
  }
  return { mask, width, height };
}

/** Rows (or columns) holding ink, as runs [start, end) of consecutive ones, with at least `min` pixels each. */
function runs(counts: number[], min = 2): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  counts.forEach((n, i) => {
    if (n >= min && start < 0) start = i;
    if (n < min && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  });
  if (start >= 0) out.push([start, counts.length]);
  return out;
}

const rowCounts = ({ mask, width, height }: Ink) =>
  Array.from({ length: height }, (_, y) => mask.subarray(y * width, (y + 1) * width).reduce((a, b) => a + b, 0));
const columnCounts = ({ mask, width, height }: Ink) =>
  Array.from({ length: width }, (_, x) => {
    let n = 0;
    for (let y = 0; y < height; y++) n += mask[y * width + x]!;
    return n;
  });

describe('designed layouts, measured on rendered frames', () => {
  for (const [engineId, withoutInk] of Object.entries(ENGINES)) {
    for (const canvas of CANVASES) {
      it(
        `${engineId} at ${canvas.name}: ink in the safe area, unclipped, legible, in columns, using the width`,
        {
          timeout: 240_000,
        },
        async () => {
          const { width, height } = canvas;
          const board: Storyboard = toStoryboard(storyboardSchema.parse(STORYBOARD), { image: () => null });
          const engine = getEngine(engineId);
          const drawn = engine.drawStoryboard!(board, { width, height, assets: [] });
          const render = async (source: string, name: string) => {
            const outputPath = path.join(sandbox.out, `${engineId}-${width}x${height}-${name}.mp4`);
            await engine.render(source, { tools, width, height, fps: FPS, outputPath });
            expect(fs.statSync(outputPath).size).toBeGreaterThan(0);
            return outputPath;
          };
          const [withInk, bare] = await Promise.all([render(drawn, 'drawn'), render(withoutInk(drawn), 'bare')]);

          const problems: string[] = [];
          const short = Math.min(width, height);
          for (const scene of board.scenes) {
            const frame = Math.round((scene.start + scene.duration * 0.7) * FPS);
            const ink = inkOf(await decodeFrame(withInk, frame), await decodeFrame(bare, frame), width, height);
            const where = `${scene.kind} @${frame}`;
            const rows = rowCounts(ink);
            const columns = columnCounts(ink);
            const lines = runs(rows);
            if (lines.length === 0) {
              problems.push(`${where}: no ink`);
              continue;
            }
            const top = lines[0]![0];
            const bottom = lines.at(-1)![1];
            if (isTall(width, height)) {
              if (top < height * TALL_SAFE_AREA.top)
                problems.push(`${where}: ink at y ${top}, above the safe area (${height * TALL_SAFE_AREA.top})`);
              if (bottom > height * (1 - TALL_SAFE_AREA.bottom))
                problems.push(`${where}: ink down to y ${bottom}, below the safe area`);
            }
            const edge = rows[0]! + rows[height - 1]! + columns[0]! + columns[width - 1]!;
            if (edge > 0) problems.push(`${where}: ${edge} pixels of ink on the frame's edge (cut off)`);
            // The thinnest line of ink: a line of text (items start with a capital) is at least this tall.
            const thinnest = Math.min(...lines.map(([a, b]) => b - a));
            const smallest = LINE_INK_SHARE * MIN_TEXT_SHARE * short;
            if (thinnest < smallest) problems.push(`${where}: a line of ink ${thinnest} px tall (< ${smallest} px)`);
            const spans = runs(columns);
            const span = spans.at(-1)![1] - spans[0]![0];
            if (span < MIN_WIDTH_SHARE * width)
              problems.push(`${where}: ink spans ${span} of ${width} px (< ${MIN_WIDTH_SHARE * 100} %)`);
            // Columns on wide canvases: six items in fewer rows of ink than a column of six (heading, six lines).
            if (canvas.name === '16:9' && (scene.kind === 'list' || scene.kind === 'features') && lines.length >= 7)
              problems.push(`${where}: ${lines.length} rows of ink for six items (one column)`);
            console.log(
              `${engineId} ${canvas.name} ${where}: rows ${lines.length}, ink y ${top}–${bottom}, ` +
                `span ${((span / width) * 100).toFixed(0)} %, thinnest line ${thinnest} px`,
            );
          }
          expect(problems).toEqual([]);
        },
      );
    }
  }
});
