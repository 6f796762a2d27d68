// Held frames on both engines: a composition that moves, holds still, and moves again. Neither engine
// draws the held frames again, as its render's own report says (Lottie from the JSON, HyperFrames from
// the GSAP timeline through the patched producer), and the video is the one a render that draws every
// frame makes (SSIM, ffmpeg).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { composeHyperframes } from '../../src/engines/hyperframes/offline.js';
import { getEngine, renderTools } from '../../src/engines/index.js';
import { frameSsim } from '../../src/video/index.js';
import type { RenderChunk } from '../../src/engines/types.js';
import { decodeFrame, meanDifference, tools, useRenderSandbox } from './support.js';

const sandbox = useRenderSandbox('held', (e) => e.startsWith('video-render-'));

async function similarity(video: string, reference: string) {
  const frames = await frameSsim(tools.ffmpegPath, video, reference);
  return { frames: frames.length, mean: frames.reduce((a, b) => a + b, 0) / frames.length, worst: Math.min(...frames) };
}

describe('held frames', () => {
  // 60 frames at 30 fps: the box slides in over frames 0–10, rests until frame 50, slides on to 60.
  const [w, h] = [160, 284];
  const still = (k: unknown) => ({ a: 0, k });
  const ease = { i: { x: 0.4, y: 1 }, o: { x: 0.6, y: 0 } };
  const lottie = JSON.stringify({
    v: '5.7.4',
    fr: 30,
    ip: 0,
    op: 60,
    w,
    h,
    nm: 'hold',
    assets: [],
    layers: [
      {
        ty: 4,
        ind: 1,
        nm: 'box',
        ip: 0,
        op: 60,
        st: 0,
        ks: {
          o: still(100),
          r: still(0),
          a: still([0, 0, 0]),
          s: still([100, 100, 100]),
          p: {
            a: 1,
            k: [
              { t: 0, s: [20, 60, 0], ...ease },
              { t: 10, s: [80, 140, 0], ...ease },
              { t: 50, s: [80, 140, 0], ...ease },
              { t: 59, s: [140, 220, 0] },
            ],
          },
        },
        shapes: [
          {
            ty: 'gr',
            it: [
              { ty: 'rc', d: 1, s: still([48, 48]), p: still([0, 0]), r: still(6) },
              // Translucent: blended over the background.
              { ty: 'fl', c: still([0.9, 0.2, 0.3, 1]), o: still(70), r: 1 },
              { ty: 'tr', p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
            ],
          },
        ],
      },
    ],
  });

  it('Lottie: held frames are not drawn again, and the video is the one drawing every frame makes', async () => {
    const render = (name: string, env: Record<string, string>, chunk?: RenderChunk) =>
      getEngine('lottie').render(lottie, {
        tools: renderTools(loadConfig({ ...process.env, ...env })),
        width: w,
        height: h,
        outputPath: path.join(sandbox.out, `${name}.mp4`),
        chunk,
      });
    const skipping = await render('lottie-skip', {});
    const drawing = await render('lottie-draw', { LOTTIE_SKIP_HELD_FRAMES: 'off' });

    expect(drawing.framesSkipped).toBe(0);
    // Frames 12–49 show what frame 11 shows (the frames either side of a keyframe are drawn).
    expect(skipping.framesSkipped).toBeGreaterThanOrEqual(35);
    expect(skipping.framesSkipped).toBeLessThan(40);
    expect([skipping.frames, skipping.durationSeconds]).toEqual([drawing.frames, drawing.durationSeconds]);
    const score = await similarity(skipping.path, drawing.path);
    expect(score.frames).toBe(60);
    expect(score.mean).toBeGreaterThanOrEqual(0.999);
    expect(score.worst).toBeGreaterThanOrEqual(0.995);
    // It does move, then hold.
    expect(meanDifference(await decodeFrame(skipping.path, 0), await decodeFrame(skipping.path, 30))).toBeGreaterThan(
      1,
    );
    expect(meanDifference(await decodeFrame(skipping.path, 20), await decodeFrame(skipping.path, 45))).toBeLessThan(
      0.5,
    );

    // A chunk inside the hold starts with a drawn frame, then repeats it: its frames are the whole render's.
    const chunk: RenderChunk = { index: 1, count: 3, start: 20, end: 40, size: 20, total: 60 };
    const part = await render('lottie-chunk', {}, chunk);
    expect(part).toMatchObject({ frames: 20, framesSkipped: 19 });
    const first = await decodeFrame(part.path, 0);
    expect(meanDifference(first, await decodeFrame(drawing.path, 20))).toBeLessThan(0.5);
    expect(meanDifference(await decodeFrame(part.path, 19), await decodeFrame(drawing.path, 39))).toBeLessThan(0.5);
  }, 180_000);

  // 3 s at 30 fps: the box slides over 0.5 s, rests for 2 s, slides on.
  const html = `<!doctype html><html><head><meta charset="UTF-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>* { margin: 0 } html, body { width: 180px; height: 320px; overflow: hidden; background: #123 }
#box { position: absolute; left: 20px; top: 40px; width: 60px; height: 60px; background: #fc0 }</style></head><body>
<div id="root" data-composition-id="hold" data-start="0" data-duration="3" data-width="180" data-height="320">
<div id="box"></div></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#box', { x: 60, y: 80, duration: 0.5, ease: 'power2.out' }, 0);
  tl.to('#box', { x: 100, y: 200, duration: 0.5, ease: 'power2.in' }, 2.5);
  window.__timelines = window.__timelines || {};
  window.__timelines['hold'] = tl;
</script></body></html>`;

  // The producer's static-frame dedup works under BeginFrame capture only with the repository's patch
  // (patches/@hyperframes+producer+*.patch): without it, or if an upgrade undoes it, nothing is skipped.
  it(
    'HyperFrames: frames the timeline holds still are not captured again, and the video is the one capturing ' +
      'every frame makes',
    async () => {
      const render = (name: string, env: Record<string, string>) =>
        getEngine('hyperframes').render(html, {
          tools: renderTools(loadConfig({ ...process.env, ...env })),
          width: 180,
          height: 320,
          fps: 30,
          outputPath: path.join(sandbox.out, `${name}.mp4`),
        });
      const skipping = await render('hf-skip', {});
      const capturing = await render('hf-capture', { HYPERFRAMES_SKIP_HELD_FRAMES: 'off' });

      expect(capturing.framesSkipped).toBe(0);
      // The rest is frames 15–75; the producer keeps the frames next to a tween's ends.
      expect(skipping.framesSkipped).toBeGreaterThan(0.2 * 90);
      expect(skipping.framesSkipped).toBeLessThanOrEqual(60);
      expect([skipping.frames, skipping.durationSeconds]).toEqual([90, 3]);
      expect([capturing.frames, capturing.durationSeconds]).toEqual([90, 3]);
      const score = await similarity(skipping.path, capturing.path);
      expect(score.frames).toBe(90);
      expect(score.mean).toBeGreaterThanOrEqual(0.999);
      expect(score.worst).toBeGreaterThanOrEqual(0.999);
      // It does move, then hold.
      expect(meanDifference(await decodeFrame(skipping.path, 0), await decodeFrame(skipping.path, 40))).toBeGreaterThan(
        1,
      );
      expect(meanDifference(await decodeFrame(skipping.path, 30), await decodeFrame(skipping.path, 60))).toBeLessThan(
        0.5,
      );
    },
    180_000,
  );

  // The embedded composer's HyperFrames documents let the ornament and the progress line rest between
  // cuts (as the Lottie composer does), so a scene that holds its text is not captured again.
  it('HyperFrames composer: the ornament rests between cuts, so held scenes are not captured again', async () => {
    const source = composeHyperframes({
      width: 180,
      height: 320,
      prompt:
        'An 8-second ad for Harbor Coffee. Fresh beans roasted every morning by the harbour. ' +
        'Open every day from 7 to 18. Order your first bag today.',
      instructions: null,
      durationSeconds: null,
      assets: [],
    });
    const rendered = await getEngine('hyperframes').render(source, {
      tools,
      width: 180,
      height: 320,
      outputPath: path.join(sandbox.out, 'hf-composer.mp4'),
    });
    expect(rendered.durationSeconds).toBe(8);
    expect(rendered.framesSkipped).toBeGreaterThan(0.15 * rendered.frames);
  }, 180_000);
});
