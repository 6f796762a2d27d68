// The lottie engine end to end: real ThorVG (WASM), real ffmpeg, checked with ffprobe; and its validation.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getEngine, RenderError, renderTools } from '../../src/engines/index.js';
import { spareProcessIds } from '../../src/engines/isolation/renderProcess.js';
import { probeVideo } from '../../src/video/index.js';
import { loadConfig } from '../../src/config.js';
import {
  colourCount,
  decodeFrame,
  fixture,
  meanDifference,
  tools,
  useRenderSandbox,
  watchDescendants,
} from './support.js';

const engine = getEngine('lottie');
const canvas = { width: 360, height: 640 };
const base = () => JSON.parse(fixture('text-and-box.lottie.json'));
const sandbox = useRenderSandbox('lottie', (e) => e.startsWith('video-render-'));

/** Pixels of an RGB frame inside a rectangle that match `test`. */
function countPixels(
  rgb: Buffer,
  width: number,
  rect: [number, number, number, number],
  test: (r: number, g: number, b: number) => boolean,
) {
  let n = 0;
  for (let y = rect[1]; y < rect[3]; y++) {
    for (let x = rect[0]; x < rect[2]; x++) {
      const i = (y * width + x) * 3;
      if (test(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) n++;
    }
  }
  return n;
}

describe('lottie engine', () => {
  it('renders shapes and text over a white background to H.264 at the requested size', async () => {
    const watch = watchDescendants();
    const outputPath = path.join(sandbox.out, 'anim.mp4');
    const result = await engine.render(fixture('text-and-box.lottie.json'), { tools, ...canvas, outputPath });
    watch.stop();

    const probed = await probeVideo('ffmpeg', outputPath, { countPackets: true });
    expect(probed).toMatchObject({ codec: 'h264', width: 360, height: 640, frames: 30, fps: 30 });
    expect(probed.durationSeconds).toBeCloseTo(1, 1);
    expect(result).toMatchObject({ codec: 'h264', width: 360, height: 640, frames: 30, fps: 30 });

    const first = await decodeFrame(outputPath, 0);
    const last = await decodeFrame(outputPath, 29);
    expect(colourCount(first)).toBeGreaterThan(2);
    expect(meanDifference(first, last)).toBeGreaterThan(1); // the box moved
    expect(first.subarray(0, 3).every((v) => v > 240)).toBe(true); // composited over white
    // "Hello" in dark blue at (40, 500) baseline: the font named Roboto-Bold was served by a local face.
    expect(countPixels(first, 360, [40, 450, 220, 510], (r, g, b) => b > 100 && r < 80 && g < 80)).toBeGreaterThan(200);

    expect(watch.seen()).toContain('ffmpeg');
    expect(watch.leftovers(spareProcessIds())).toEqual([]);
  });

  it('blends translucent shapes over the white background (straight alpha)', async () => {
    const [w, h] = [160, 284];
    const still = (k: unknown) => ({ a: 0, k });
    const veil = {
      v: '5.7.4',
      fr: 30,
      ip: 0,
      op: 5,
      w,
      h,
      nm: 'veil',
      assets: [],
      layers: [
        {
          ty: 4,
          ind: 1,
          nm: 'half red',
          ip: 0,
          op: 5,
          st: 0,
          ks: {
            o: still(50),
            r: still(0),
            p: still([w / 2, h / 2, 0]),
            a: still([0, 0, 0]),
            s: still([100, 100, 100]),
          },
          shapes: [
            {
              ty: 'gr',
              it: [
                { ty: 'rc', d: 1, s: still([w, h]), p: still([0, 0]), r: still(0) },
                { ty: 'fl', c: still([1, 0, 0, 1]), o: still(100), r: 1 },
                { ty: 'tr', p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
              ],
            },
          ],
        },
      ],
    };
    const outputPath = path.join(sandbox.out, 'veil.mp4');
    await engine.render(JSON.stringify(veil), { tools, width: w, height: h, outputPath });
    const frame = await decodeFrame(outputPath, 0);
    const centre = ((h / 2) * w + w / 2) * 3;
    // Half-opaque red over white is (255, 128, 128), give or take the yuv420p round trip.
    expect(Math.abs(frame[centre]! - 255)).toBeLessThanOrEqual(6);
    expect(Math.abs(frame[centre + 1]! - 128)).toBeLessThanOrEqual(8);
    expect(Math.abs(frame[centre + 2]! - 128)).toBeLessThanOrEqual(8);
  });

  it(
    'an animation the render cannot paint a background under (its last layer a track matte) ' +
      'still comes out over white once its first frame is covered',
    async () => {
      const [w, h] = [160, 284];
      const still = (k: unknown) => ({ a: 0, k });
      const rect = (ind: number, nm: string, colour: number[], extra: object) => ({
        ty: 4,
        ind,
        nm,
        ip: 0,
        op: 10,
        st: 0,
        ...extra,
        ks: { o: still(100), r: still(0), p: still([w / 2, h / 2, 0]), a: still([0, 0, 0]), s: still([100, 100, 100]) },
        shapes: [
          {
            ty: 'gr',
            it: [
              { ty: 'rc', d: 1, s: still([w, h]), p: still([0, 0]), r: still(0) },
              { ty: 'fl', c: still(colour), o: still(100), r: 1 },
              { ty: 'tr', p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
            ],
          },
        ],
      });
      // Blue over the whole canvas, through a matte that covers it, for the first 3 frames; nothing after.
      const matted = {
        v: '5.7.4',
        fr: 30,
        ip: 0,
        op: 10,
        w,
        h,
        nm: 'matted',
        assets: [],
        layers: [rect(1, 'blue', [0, 0, 1, 1], { op: 3, tt: 1 }), rect(2, 'matte', [1, 1, 1, 1], { op: 3, td: 1 })],
      };
      const outputPath = path.join(sandbox.out, 'matted.mp4');
      await engine.render(JSON.stringify(matted), { tools, width: w, height: h, outputPath });
      const [first, last] = [await decodeFrame(outputPath, 0), await decodeFrame(outputPath, 9)];
      const centre = ((h / 2) * w + w / 2) * 3;
      expect(first[centre + 2]).toBeGreaterThan(200); // blue
      expect(first[centre]).toBeLessThan(60);
      expect(
        [...last.subarray(centre, centre + 3)].every((v) => v > 240),
        'white, not black',
      ).toBe(true);
    },
  );

  it('encodes with the configured CRF and preset', async () => {
    const render = async (crf: number, preset: 'ultrafast' | 'medium') => {
      const outputPath = path.join(sandbox.out, `crf-${crf}-${preset}.mp4`);
      // As a worker reads them: RENDER_CRF and the engine's own variable.
      const settings = renderTools(loadConfig({ ...process.env, RENDER_CRF: String(crf), LOTTIE_X264_PRESET: preset }));
      await engine.render(fixture('text-and-box.lottie.json'), { tools: settings, ...canvas, outputPath });
      return fs.statSync(outputPath).size;
    };
    // A lower CRF keeps more detail in more bytes; the same CRF with a slower preset, fewer bytes.
    const [fine, coarse, slower] = [
      await render(12, 'ultrafast'),
      await render(36, 'ultrafast'),
      await render(12, 'medium'),
    ];
    expect(fine).toBeGreaterThan(coarse * 2);
    expect(slower).toBeLessThan(fine);
  });

  it('resamples to the requested frame rate', async () => {
    const anim = { ...base(), fr: 24, op: 48 }; // 2 s at 24 fps
    const result = await engine.render(JSON.stringify(anim), {
      tools,
      ...canvas,
      fps: 30,
      outputPath: path.join(sandbox.out, 'fps.mp4'),
    });
    expect(result).toMatchObject({ fps: 30, frames: 60 });
    expect(result.durationSeconds).toBeCloseTo(2, 1);
  });

  it('refuses to render an animation with an expression', async () => {
    const anim = base();
    anim.layers[1].ks.r = { a: 0, k: 0, x: 'var $bm_rt = time * 360;' };
    const error = await engine
      .render(JSON.stringify(anim), { tools, ...canvas, outputPath: path.join(sandbox.out, 'expr.mp4') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).code).toBe('invalid_composition');
    expect((error as RenderError).findings[0]).toMatchObject({
      code: 'expression_not_supported',
      location: '/layers/1/ks/r/x',
    });
  });
});

describe('lottie validation', () => {
  const errors = async (source: string) =>
    (await engine.validate(source, canvas)).filter((f) => f.severity === 'error');

  it('accepts the reference animation', async () => {
    expect(await errors(fixture('text-and-box.lottie.json'))).toEqual([]);
  });

  it('reports broken JSON', async () => {
    const [finding] = await errors('{"v": "5.7.4", "layers": [');
    expect(finding).toMatchObject({ code: 'invalid_json', severity: 'error' });
  });

  it('reports schema violations with their JSON paths', async () => {
    const anim = base();
    anim.fr = -5;
    delete anim.layers[1].ks;
    const found = await errors(JSON.stringify(anim));
    expect(found).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'schema_violation', location: '/fr' })]),
    );
    expect(found.some((f) => f.code === 'schema_violation' && f.location === '/layers/1')).toBe(true);
  });

  it('rejects expressions, unsupported layer types and an empty frame range, each at its path', async () => {
    const anim = base();
    anim.layers[1].ks.o = { a: 0, k: 100, x: 'loopOut()' };
    anim.layers.push({ ty: 13, nm: 'camera', ind: 3, ip: 0, op: 30, st: 0, ks: {} });
    anim.op = 0;
    const found = await errors(JSON.stringify(anim));
    const byCode = Object.fromEntries(found.map((f) => [f.code, f.location]));
    expect(byCode.expression_not_supported).toBe('/layers/1/ks/o/x');
    expect(byCode.unsupported_layer_type).toBe('/layers/2/ty');
    expect(byCode.invalid_frame_range).toBe('/op');
  });

  it('applies the duration, fps and size limits', async () => {
    expect((await errors(JSON.stringify({ ...base(), op: 61 * 30 }))).map((f) => f.code)).toContain(
      'duration_too_long',
    );
    expect((await errors(JSON.stringify({ ...base(), fr: 120, op: 120 }))).map((f) => f.code)).toContain(
      'fps_out_of_range',
    );
    expect((await errors(JSON.stringify({ ...base(), w: 5000 }))).map((f) => f.code)).toContain('invalid_size');
    const warnings = await engine.validate(JSON.stringify({ ...base(), w: 640, h: 360 }), canvas);
    expect(warnings.map((f) => f.code)).toContain('aspect_ratio_mismatch');
  });

  it('rejects image assets that are not embedded', async () => {
    const anim = { ...base(), assets: [{ id: 'img', w: 10, h: 10, p: 'https://example.com/a.png', u: '', e: 0 }] };
    expect((await errors(JSON.stringify(anim))).map((f) => f.code)).toContain('external_asset');
  });
});
