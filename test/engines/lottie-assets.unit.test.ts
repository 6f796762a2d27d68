// Lottie image assets that refer to the requester's media (`"u": "assets/", "p": "<name>"`) are
// embedded as data URLs in the render process before the player loads the animation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineLottieAssets } from '../../src/engines/lottie/assets.js';
import { imageSize } from '../../src/sniff.js';
import { twoColourImage } from '../support/mediaServer.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lottie-assets-'));
  fs.writeFileSync(path.join(dir, 'image-1.png'), PNG);
  fs.writeFileSync(
    path.join(dir, 'video-1.mp4'),
    Buffer.from('AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDE=', 'base64'),
  );
  fs.writeFileSync(path.join(dir, 'fake.png'), '<html></html>');
  fs.writeFileSync(path.join(dir, 'image-2.jpg'), twoColourImage(40, 20, 'jpg'));
  fs.writeFileSync(path.join(dir, 'image-3.png'), twoColourImage(4000, 1000));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const animation = (assets: object[]) =>
  JSON.stringify({ v: '5.7.0', fr: 30, ip: 0, op: 30, w: 100, h: 100, assets, layers: [] });
const assetsOf = async (source: string) =>
  (JSON.parse(await inlineLottieAssets(source, dir, 'ffmpeg')) as { assets: Record<string, unknown>[] }).assets;

describe('inlineLottieAssets', () => {
  it('embeds assets/<name> images ("u" + "p", or "p" alone) as data URLs of their sniffed type', async () => {
    const assets = await assetsOf(
      animation([
        { id: 'a', w: 1, h: 1, u: 'assets/', p: 'image-1.png', e: 0 },
        { id: 'b', w: 1, h: 1, u: '', p: 'assets/image-1.png' },
      ]),
    );
    const embedded = { u: '', p: `data:image/png;base64,${PNG.toString('base64')}`, e: 1 };
    expect(assets).toEqual([
      { id: 'a', w: 1, h: 1, ...embedded },
      { id: 'b', w: 1, h: 1, ...embedded },
    ]);
  });

  it('turns images ThorVG cannot decode (JPEG) and oversized ones into a PNG, scaled to at most 2048 px', async () => {
    const [jpeg, large] = await assetsOf(
      animation([
        { id: 'j', u: 'assets/', p: 'image-2.jpg' },
        { id: 'l', u: 'assets/', p: 'image-3.png' },
      ]),
    );
    const pngOf = (asset: Record<string, unknown> | undefined) => {
      const url = String(asset?.p);
      expect(url.startsWith('data:image/png;base64,'), url.slice(0, 40)).toBe(true);
      return imageSize(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'), 'image/png');
    };
    expect(pngOf(jpeg)).toEqual({ width: 40, height: 20 });
    expect(pngOf(large)).toEqual({ width: 2048, height: 512 });
  });

  it(
    'leaves everything else as written: ' + 'missing files, non-images, other paths, traversal, precompositions',
    async () => {
      const source = animation([
        { id: 'missing', u: 'assets/', p: 'image-9.png' },
        { id: 'video', u: 'assets/', p: 'video-1.mp4' },
        { id: 'fake', u: 'assets/', p: 'fake.png' },
        { id: 'up', u: 'assets/', p: '../image-1.png' },
        { id: 'nested', u: 'assets/sub/', p: 'image-1.png' },
        { id: 'remote', u: 'https://example.com/assets/', p: 'image-1.png' },
        { id: 'data', e: 1, p: 'data:image/png;base64,AAAA' },
        { id: 'precomp', layers: [] },
      ]);
      expect(await inlineLottieAssets(source, dir, 'ffmpeg')).toBe(source);
    },
  );

  it('no assets directory, or no assets: the source unchanged', async () => {
    const source = animation([{ id: 'a', u: 'assets/', p: 'image-1.png' }]);
    expect(await inlineLottieAssets(source, undefined, 'ffmpeg')).toBe(source);
    const plain = JSON.stringify({ v: '5.7.0', layers: [] });
    expect(await inlineLottieAssets(plain, dir, 'ffmpeg')).toBe(plain);
  });
});
