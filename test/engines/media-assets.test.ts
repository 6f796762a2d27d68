// The requester's media in the render processes of both engines, without the rest of the stack: a
// two-colour PNG in the render's assets directory shows up in the frames when the composition refers
// to it as assets/image-1.png (HyperFrames: served from the project by the producer's file server,
// through the page network guard; Lottie: embedded as a data URL before the player loads).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { getEngine, type MediaAsset, type RenderOptions, renderTools } from '../../src/engines/index.js';
import { closeRenderProcesses } from '../../src/engines/isolation/renderProcess.js';
import { runIsolated } from '../../src/engines/isolation/runIsolated.js';
import type { RenderMedia } from '../../src/engines/render.js';
import { imageColourShares, twoColourImage } from '../support/mediaServer.js';

const tools = renderTools(loadConfig({}));
const asset: MediaAsset = {
  name: 'image-1.png',
  kind: 'image',
  mediaType: 'image/png',
  bytes: 0,
  width: 160,
  height: 180,
  durationSeconds: null,
};
let dir: string;
let assetsDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-assets-'));
  assetsDir = path.join(dir, 'assets');
  fs.mkdirSync(assetsDir);
  fs.writeFileSync(path.join(assetsDir, asset.name), twoColourImage(160, 180));
  fs.writeFileSync(path.join(assetsDir, 'image-2.jpg'), twoColourImage(160, 180, 'jpg'));
  fs.writeFileSync(path.join(assetsDir, 'image-3.gif'), twoColourImage(160, 180, 'gif'));
});
afterAll(async () => {
  await closeRenderProcesses();
  fs.rmSync(dir, { recursive: true, force: true });
});

const expectImage = (share: { magenta: number; green: number }) => {
  expect(share.magenta, JSON.stringify(share)).toBeGreaterThan(0.1);
  expect(share.green, JSON.stringify(share)).toBeGreaterThan(0.1);
};

describe('assets in the render', () => {
  it('HyperFrames: <img src="assets/image-1.png"> shows the file', { timeout: 120_000 }, async () => {
    const html = `<!doctype html><html><head><style>html,body{margin:0;width:320px;height:180px;background:#202020}
img{position:absolute;left:80px;top:0;width:160px;height:180px}</style></head><body>
<div id="stage" data-composition-id="main" data-start="0" data-duration="1" data-width="320" data-height="180" \
data-no-timeline>
<img id="photo" class="clip" data-start="0" data-duration="1" data-track-index="0" src="assets/image-1.png" \
alt=""></div></body></html>`;
    const outputPath = path.join(dir, 'hyperframes.mp4');
    const options: RenderOptions & RenderMedia = {
      width: 320,
      height: 180,
      outputPath,
      tools,
      assets: [asset],
      assetsDir,
    };
    await getEngine('hyperframes').render(html, options);
    expectImage(await imageColourShares(outputPath, 0.5));
  });

  // ThorVG draws PNG and WebP only: JPEG and GIF are converted to PNG in the render process.
  it.each([asset.name, 'image-2.jpg', 'image-3.gif'])(
    'Lottie: an image asset "u": "assets/", "p": "%s" is embedded and drawn',
    { timeout: 120_000 },
    async (name) => {
      const animation = {
        v: '5.7.0',
        fr: 10,
        ip: 0,
        op: 10,
        w: 320,
        h: 180,
        ddd: 0,
        assets: [{ id: 'photo', w: 160, h: 180, u: 'assets/', p: name, e: 0 }],
        layers: [
          {
            ddd: 0,
            ind: 1,
            ty: 2,
            refId: 'photo',
            sr: 1,
            ip: 0,
            op: 10,
            st: 0,
            ks: {
              o: { a: 0, k: 100 },
              r: { a: 0, k: 0 },
              p: { a: 0, k: [160, 90, 0] },
              a: { a: 0, k: [80, 90, 0] },
              s: { a: 0, k: [100, 100, 100] },
            },
          },
        ],
      };
      const outputPath = path.join(dir, `lottie-${name}.mp4`);
      const lottie = getEngine('lottie');
      // The render process directly: the Lottie validator's acceptance of assets/ references is its own change.
      await runIsolated(
        {
          engine: 'lottie',
          source: JSON.stringify(animation),
          width: 320,
          height: 180,
          ffmpegPath: tools.ffmpegPath,
          crf: tools.crf,
          settings: tools.engineSettings(lottie),
          assetsDir,
          assets: [asset],
        },
        { entry: lottie.renderEntry, preload: lottie.preload ?? [], readOnly: [] },
        outputPath,
        tools,
        { timeoutMs: 60_000 },
      );
      expectImage(await imageColourShares(outputPath, 0.5));
    },
  );
});
