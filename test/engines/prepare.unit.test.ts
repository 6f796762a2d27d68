// What the hyperframes engine changes in a composition before rendering it offline.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareComposition } from '../../src/engines/hyperframes/prepare.js';
import { localCopyFor } from '../../src/engines/hyperframes/vendor.js';

const canvas = { width: 720, height: 1280 };
const doc = (head: string, rootAttrs: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body><div id="r" ` +
  `data-composition-id="main" ${rootAttrs}>${body}</div></body></html>`;

describe('local copies of CDN libraries', () => {
  it.each([
    ['https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js', 'gsap.min.js'],
    ['https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/ScrollTrigger.min.js', 'ScrollTrigger.min.js'],
    ['https://unpkg.com/gsap@3/dist/MotionPathPlugin.js', 'MotionPathPlugin.min.js'],
    ['https://cdn.jsdelivr.net/npm/gsap@3.12.5', 'gsap.min.js'],
    ['https://cdnjs.cloudflare.com/ajax/libs/bodymovin/5.12.2/lottie.min.js', 'lottie.min.js'],
    ['https://unpkg.com/lottie-web@5.12.2/build/player/lottie_light.min.js', 'lottie_light.min.js'],
  ])('%s → %s', (url, file) => {
    const local = localCopyFor(url);
    expect(local?.file).toBe(file);
    expect(fs.existsSync(local!.from)).toBe(true);
  });

  it('has no copy of other libraries', () => {
    expect(localCopyFor('https://cdn.jsdelivr.net/npm/three@0.160/build/three.min.js')).toBeUndefined();
    expect(localCopyFor('https://unpkg.com/@lottiefiles/lottie-player@2/dist/lottie-player.js')).toBeUndefined();
  });
});

describe('prepareComposition', () => {
  it('points CDN scripts at local copies and lists the files to copy', () => {
    const html = doc(
      '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>',
      'data-width="720" data-height="1280"',
      '<script>window.__timelines={};</script>',
    );
    const prepared = prepareComposition(html, canvas);
    expect(prepared.html).toContain('<script src="vendor/gsap.min.js"></script>');
    expect(prepared.html).not.toContain('cdn.jsdelivr.net');
    expect(prepared.vendorFiles.map((f) => f.file)).toEqual(['gsap.min.js']);
    expect(prepared.findings).toEqual([]);
  });

  it('forces the canvas size onto the root composition and says so', () => {
    const prepared = prepareComposition(
      doc('', 'data-width="1920" data-height="1080"', '<script>window.__timelines={}</script>'),
      canvas,
    );
    expect(prepared.html).toContain('data-width="720" data-height="1280"');
    expect(prepared.findings.map((f) => f.code)).toEqual(['canvas_size_overridden']);
  });

  it('adds the canvas size when the root declares none', () => {
    const prepared = prepareComposition(doc('', 'data-duration="2"'), canvas);
    expect(prepared.html).toMatch(
      /data-composition-id="main" data-duration="2" data-width="720" data-height="1280" data-no-timeline>/,
    );
  });

  it('marks compositions without GSAP timelines data-no-timeline, and needs their duration', () => {
    const withDuration = prepareComposition(doc('', 'data-duration="3"'), canvas);
    expect(withDuration.html).toContain('data-no-timeline');
    expect(withDuration.findings).toEqual([]);
    const without = prepareComposition(doc('', ''), canvas);
    expect(without.findings.map((f) => f.code)).toEqual(['missing_duration']);
  });

  it('leaves GSAP compositions to register their timeline (no data-no-timeline)', () => {
    const prepared = prepareComposition(
      doc('', '', '<script>const tl = gsap.timeline({paused:true});</script>'),
      canvas,
    );
    expect(prepared.html).not.toContain('data-no-timeline');
  });

  it('removes remote stylesheets and warns about remote media', () => {
    const html = doc(
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"><link rel="preconnect" href="https://fonts.gstatic.com">',
      'data-duration="1"',
      '<img src="https://example.com/a.png">',
    );
    const prepared = prepareComposition(html, canvas);
    expect(prepared.html).not.toContain('googleapis');
    expect(prepared.html).not.toContain('gstatic');
    expect(prepared.findings.map((f) => [f.code, f.severity])).toEqual([
      ['remote_stylesheet_removed', 'warning'],
      ['remote_asset', 'warning'],
    ]);
  });

  it('does not mistake markup inside scripts or templates for the root', () => {
    const html = `<!doctype html><html><body><script>const s = '<div data-composition-id="fake">';</script>
      <template><div data-composition-id="sub" data-width="10"></div></template>
      <div data-composition-id="real" data-duration="1"></div></body></html>`;
    const prepared = prepareComposition(html, canvas);
    expect(prepared.html).toContain(`'<div data-composition-id="fake">'`);
    expect(prepared.html).toContain('<div data-composition-id="sub" data-width="10">');
    expect(prepared.html).toContain(
      '<div data-composition-id="real" data-duration="1" data-width="720" data-height="1280" data-no-timeline>',
    );
  });
});
