// The pictures of the storyboard reference (README, Storyboards): one storyboard with every scene kind
// (the OpenAPI example's scenes and an image scene), drawn and rendered by each engine for real, and
// one frame of each scene — late in it, its entrance done — written as
// src/api/openapi/pictures/<engine>-<kind>.png (served at /docs/pictures/, shown by the README).
//   node src/tooling/lts.mjs --import tsx bench/storyboard-pictures.ts [--size 360x640]
//     [--engines lottie,hyperframes] [--out src/api/openapi/pictures]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { getEngine, renderTools } from '../src/engines/index.js';
import { closeRenderProcesses } from '../src/engines/isolation/renderProcess.js';
import type { RenderMedia } from '../src/engines/render.js';
import type { RenderOptions } from '../src/engines/types.js';
import type { MediaAsset } from '../src/shared.js';
import { assetNamed, STORYBOARD_EXAMPLE, storyboardSchema, toStoryboard } from '../src/storyboard/schema.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '360x640' },
    engines: { type: 'string', default: 'lottie,hyperframes' },
    out: { type: 'string', default: 'src/api/openapi/pictures' },
  },
});
const [width, height] = values.size.split('x').map(Number) as [number, number];
const out = path.resolve(values.out);
fs.mkdirSync(out, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'storyboard-pictures-'));

// The image scene's picture: a gradient made by ffmpeg (no photograph in the repository).
const assetsDir = path.join(work, 'assets');
fs.mkdirSync(assetsDir);
const picture = path.join(assetsDir, 'image-1.png');
execFileSync('ffmpeg', [
  '-v',
  'error',
  '-f',
  'lavfi',
  '-i',
  'gradients=s=640x480:c0=0x14b8a6:c1=0x1e3a8a:x0=0:y0=0:x1=640:y1=480:speed=0.00001',
  '-frames:v',
  '1',
  picture,
]);
const assets: MediaAsset[] = [
  {
    name: 'image-1.png',
    kind: 'image',
    mediaType: 'image/png',
    bytes: fs.statSync(picture).size,
    width: 640,
    height: 480,
    durationSeconds: null,
  },
];

const sent = {
  ...STORYBOARD_EXAMPLE,
  scenes: [...STORYBOARD_EXAMPLE.scenes, { kind: 'image', asset: 'image-1', caption: 'Made in Porto' }].map((s) => ({
    ...s,
    seconds: 2.5,
  })),
  variables: undefined,
};
const filled = JSON.parse(JSON.stringify(sent).replaceAll('{{company}}', 'Casa Lupa'));
const board = toStoryboard(storyboardSchema.parse(filled), { image: (ref) => assetNamed(['image-1.png'], ref) });
const tools = renderTools(loadConfig());

try {
  for (const engine of values.engines.split(',')) {
    const source = getEngine(engine).drawStoryboard!(board, { width, height, assets });
    const video = path.join(work, `${engine}.mp4`);
    const options: RenderOptions & RenderMedia = { width, height, outputPath: video, tools, assets, assetsDir };
    const started = performance.now();
    await getEngine(engine).render(source, options);
    console.log(
      `${engine}: rendered ${board.durationSeconds} s at ${width}×${height} ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const scene of board.scenes) {
      const file = path.join(out, `${engine}-${scene.kind}.png`);
      const at = scene.start + scene.duration * 0.75;
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-ss',
        at.toFixed(3),
        '-i',
        video,
        '-frames:v',
        '1',
        '-vf',
        'scale=180:-2',
        file,
      ]);
      console.log(`  ${path.relative(process.cwd(), file)} (${at.toFixed(2)} s)`);
    }
  }
} finally {
  await closeRenderProcesses();
  fs.rmSync(work, { recursive: true, force: true });
}
