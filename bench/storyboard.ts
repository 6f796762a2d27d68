// bench/storyboard: the embedded offline composer (the `local` provider) on ten varied prompts, for
// both engines: scenes, duration and render time of each, a contact sheet per video (one PNG, frames
// every half second), and render seconds per second of video next to the previous composer's.
//   npx tsx bench/storyboard.ts [--size 720x1280] [--engines hyperframes,lottie] [--corpus id,id,…] [--fps 30]
//                               [--before <checkout of the previous composer>] [--out dir]
// --corpus takes the prompts from the planner corpus (test/storyboard/corpus/, any part, by id) instead of the ten
// below. --before imports that checkout's engines (src/engines/index.ts) and renders their offline
// compositions of the same prompts with today's engines, so only the composition differs: before/after contact
// sheets (bench/render.ts --mode composer measures the same in CPU seconds, alternating).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { engineIds, getEngine, renderTools } from '../src/engines/index.js';
import { closeRenderProcesses } from '../src/engines/isolation/renderProcess.js';
import { planStoryboard } from '../src/storyboard/plan.js';
import { loadCorpus } from '../test/storyboard/corpus.js';
import { today } from './support.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '720x1280' },
    engines: { type: 'string' },
    corpus: { type: 'string' },
    fps: { type: 'string' },
    before: { type: 'string' },
    out: { type: 'string' },
  },
});
const engines = values.engines?.split(',') ?? engineIds();
const [width, height] = values.size.split('x').map(Number) as [number, number];
const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-storyboard-'));
fs.mkdirSync(out, { recursive: true });
const tools = renderTools(loadConfig());

const DEFAULT_PROMPTS = [
  'A 10-second explainer: revenue grew 42% to $18.6M. Customers love it. Sign up at acme.com today!',
  'Launch teaser for Nimbus, the note app for teams. It syncs instantly, works offline, and encrypts everything. ' +
    '"The best notes app I have used" says Jane Doe. Available March 3 for $4.99.',
  'Quarterly signups with teal accents: Q1 12k, Q2 18k, Q3 25k and Q4 31k.',
  'A minimal dark logo reveal for Orbit',
  '新しいアプリのご紹介 🚀。とても速くて、使いやすいです。',
  'مرحبا بكم في متجرنا الجديد. خصم 30% هذا الأسبوع.',
  'Half a minute neon promo for our retro arcade night. Doors open Friday 8pm. Book now at arcade.io',
  'Our bakery turns 25! Fresh bread every morning, local flour, and a smile. Visit us on Main Street.',
  'Three tips for better sleep: dim the lights, skip late coffee, and keep a schedule.',
  'A sepia, serif tribute to the 1969 moon landing. "That\'s one small step for man." 600 million people watched.',
];

const corpus = (['tuning', 'held-out', 'designed', 'designed-seen', 'designed-held-out'] as const).flatMap(loadCorpus);
const PROMPTS = values.corpus
  ? values.corpus.split(',').map((id) => corpus.find((p) => p.id === id)?.prompt ?? `(no corpus prompt ${id})`)
  : DEFAULT_PROMPTS;
const fps = values.fps ? Number(values.fps) : undefined;

type Row = { engine: string; prompt: number; scenes: string; seconds: number; renderS: number; sheet: string };

async function renderOne(
  engine: string,
  source: string,
  name: string,
): Promise<{ seconds: number; renderS: number; sheet: string }> {
  const video = path.join(out, `${name}.mp4`);
  const started = performance.now();
  const result = await getEngine(engine).render(source, { width, height, fps, outputPath: video, tools });
  const renderS = (performance.now() - started) / 1000;
  const sheet = path.join(out, `${name}.png`);
  const frames = Math.max(1, Math.ceil(result.durationSeconds * 2));
  const columns = Math.min(frames, 10);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    video,
    '-vf',
    `fps=2,scale=180:-1,tile=${columns}x${Math.ceil(frames / columns)}`,
    '-frames:v',
    '1',
    sheet,
  ]);
  return { seconds: result.durationSeconds, renderS, sheet };
}

const rows: Row[] = [];
const before: Array<{ engine: string; perSecond: number }> = [];
try {
  for (const engine of engines) {
    for (const [i, prompt] of PROMPTS.entries()) {
      const spec = { prompt, instructions: null, durationSeconds: null, assets: [], width, height };
      const scenes = planStoryboard({ prompt, instructions: null, durationSeconds: null })
        .scenes.map((s) => s.kind)
        .join(' → ');
      const r = await renderOne(engine, getEngine(engine).composeOffline(spec), `${engine}-${i + 1}`);
      rows.push({ engine, prompt: i + 1, scenes, ...r });
      console.log(`${engine} #${i + 1}: ${r.seconds.toFixed(1)} s video in ${r.renderS.toFixed(1)} s (${scenes})`);
    }
    if (values.before) {
      const previous = (await import(path.resolve(values.before, 'src/engines/index.ts'))) as {
        getEngine: typeof getEngine;
      };
      let video = 0;
      let render = 0;
      for (const [i, prompt] of PROMPTS.entries()) {
        const r = await renderOne(
          engine,
          previous
            .getEngine(engine)
            .composeOffline({ prompt, instructions: null, durationSeconds: null, assets: [], width, height }),
          `before-${engine}-${i + 1}`,
        );
        video += r.seconds;
        render += r.renderS;
      }
      before.push({ engine, perSecond: render / video });
    }
  }
} finally {
  await closeRenderProcesses();
}

console.log(`\n${today()}, ${width}x${height}, load ${os.loadavg()[0]!.toFixed(2)}; sheets in ${out}\n`);
console.log('| engine | # | scenes | video s | render s | render s per video s |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.engine} | ${r.prompt} | ${r.scenes} | ${r.seconds.toFixed(1)} | ${r.renderS.toFixed(1)} ` +
      `| ${(r.renderS / r.seconds).toFixed(2)} |`,
  );
for (const engine of engines) {
  const mine = rows.filter((r) => r.engine === engine);
  const perSecond = mine.reduce((a, r) => a + r.renderS, 0) / mine.reduce((a, r) => a + r.seconds, 0);
  const was = before.find((b) => b.engine === engine);
  console.log(
    `${engine}: ${perSecond.toFixed(2)} render s per video s${
      was ? ` (previous composer ${was.perSecond.toFixed(2)}: ×${(perSecond / was.perSecond).toFixed(2)})` : ''
    }`,
  );
}
