// The hyperframes engine end to end: real Chrome, real producer, real ffmpeg, checked with ffprobe.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

const engine = getEngine('hyperframes');
const canvas = { width: 360, height: 640 };
// Every render's work directory (Chrome profile, producer scratch) is gone.
const sandbox = useRenderSandbox('hf', (e) => e.startsWith('video-render-'));

describe('hyperframes engine', () => {
  it('renders a GSAP composition loaded from a CDN URL to H.264 at the requested size', async () => {
    const watch = watchDescendants();
    const progress: number[] = [];
    const outputPath = path.join(sandbox.out, 'gsap.mp4');
    const result = await engine.render(fixture('gsap-box.html'), {
      tools,
      ...canvas,
      fps: 30,
      outputPath,
      onProgress: (p) => progress.push(p.fraction),
    });
    watch.stop();

    const probed = await probeVideo('ffmpeg', outputPath, { countPackets: true });
    expect(probed).toMatchObject({ codec: 'h264', width: 360, height: 640, frames: 30, fps: 30 });
    expect(probed.durationSeconds).toBeCloseTo(1, 1);
    expect(result).toMatchObject({ path: outputPath, codec: 'h264', width: 360, height: 640, frames: 30 });
    expect(progress.at(-1)).toBe(1);

    const [first, last] = [await decodeFrame(outputPath, 0), await decodeFrame(outputPath, 29)];
    expect(colourCount(first)).toBeGreaterThan(2); // background, box, title: not blank
    expect(meanDifference(first, last)).toBeGreaterThan(1); // the box moved

    expect(watch.seen().some((c) => c.includes('chrom'))).toBe(true); // Chrome really ran…
    expect(watch.leftovers(spareProcessIds())).toEqual([]); // …and nothing it started is left
  });

  it('captures and encodes with the configured settings (quality level, CRF, workers)', async () => {
    // As a worker reads them: RENDER_CRF and the engine's own variables.
    const render = async (name: string, env: Record<string, string>) => {
      const outputPath = path.join(sandbox.out, `${name}.mp4`);
      const result = await engine.render(fixture('gsap-box.html'), {
        tools: renderTools(loadConfig({ ...process.env, ...env })),
        ...canvas,
        fps: 30,
        outputPath,
      });
      expect(result).toMatchObject({ codec: 'h264', width: 360, height: 640, frames: 30 });
      return fs.statSync(outputPath).size;
    };
    // The CRF reaches the producer's encoder: near-lossless is several times the size of coarse.
    const fine = await render('hf-crf-4', { HYPERFRAMES_QUALITY: 'high', RENDER_CRF: '4', HYPERFRAMES_WORKERS: '1' });
    const coarse = await render('hf-crf-40', {
      HYPERFRAMES_QUALITY: 'draft',
      RENDER_CRF: '40',
      HYPERFRAMES_WORKERS: '2',
    });
    expect(fine).toBeGreaterThan(coarse * 3);
  });

  it('renders a composition without GSAP timelines (CSS animation, data-duration) without the 45 s wait', async () => {
    const html = `<!doctype html><html><head><style>
      html,body{margin:0;width:360px;height:640px;background:#123}
      @keyframes mv { from { transform: translateX(0) } to { transform: translateX(200px) } }
      #b{position:absolute;left:10px;top:100px;width:80px;height:80px;background:#fc0;animation:mv 1s linear both}
      </style></head><body><div id="r" data-composition-id="css" data-duration="1" data-width="360" \
data-height="640"><div id="b"></div></div></body></html>`;
    const started = Date.now();
    const outputPath = path.join(sandbox.out, 'css.mp4');
    const result = await engine.render(html, { tools, ...canvas, outputPath });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result).toMatchObject({ codec: 'h264', width: 360, height: 640, frames: 30 });
    expect(meanDifference(await decodeFrame(outputPath, 0), await decodeFrame(outputPath, 29))).toBeGreaterThan(0.5);
  });

  it(
    "keeps the page off the network: a composition's requests to local services never arrive, " +
      'its own files still load',
    async () => {
      const hits: string[] = [];
      const service = http.createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        res.end('secret');
      });
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const probe = `<script>
      fetch('${origin}/fetch').catch(() => {});
      fetch('${origin}/post', { method: 'POST', body: 'x', mode: 'no-cors' }).catch(() => {});
      new Image().src = '${origin}/image';
      navigator.sendBeacon('${origin}/beacon', 'x');
      try { new WebSocket('${origin.replace('http', 'ws')}/socket'); } catch {}
    </script><iframe src="${origin}/frame"></iframe>`;
      const html = fixture('gsap-box.html').replace('</body>', `${probe}</body>`);
      const outputPath = path.join(sandbox.out, 'offline.mp4');
      try {
        // GSAP comes from the producer's own file server (its CDN URL is rewritten): the box still moves.
        const result = await engine.render(html, { tools, ...canvas, outputPath });
        expect(result).toMatchObject({ codec: 'h264', frames: 30 });
        expect(meanDifference(await decodeFrame(outputPath, 0), await decodeFrame(outputPath, 29))).toBeGreaterThan(1);
        expect(hits).toEqual([]);
      } finally {
        service.close();
      }
    },
  );

  it('refuses a composition whose timeline is longer than the limit once the producer knows its duration', async () => {
    const html = fixture('gsap-box.html').replace("duration: 1, ease: 'none'", "duration: 61, ease: 'none'");
    const error = await engine
      .render(html, { tools, ...canvas, outputPath: path.join(sandbox.out, 'long.mp4') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).code).toBe('invalid_composition');
    expect((error as RenderError).findings.map((f) => f.code)).toEqual(['duration_too_long']);
    expect(fs.existsSync(path.join(sandbox.out, 'long.mp4'))).toBe(false);
  });
});

describe('hyperframes validation', () => {
  it('accepts the reference composition, warning that its declared size is overridden', async () => {
    const findings = await engine.validate(fixture('gsap-box.html'), canvas);
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(findings.map((f) => f.code)).toContain('canvas_size_overridden');
  });

  it('reports lint findings with codes, messages and fix hints for broken HTML', async () => {
    const findings = await engine.validate('<html><body><div>hello', canvas);
    const codes = findings.map((f) => f.code);
    expect(codes).toContain('root_missing_composition_id');
    const finding = findings.find((f) => f.code === 'root_missing_composition_id')!;
    expect(finding.severity).toBe('error');
    expect(finding.message).toMatch(/data-composition-id/);
    expect(finding.fix_hint).toBeTruthy();
  });

  it('rejects a GSAP composition that never registers its timeline', async () => {
    const html = fixture('gsap-box.html').replace(/window\.__timelines.*\n/g, '');
    const codes = (await engine.validate(html, canvas)).filter((f) => f.severity === 'error').map((f) => f.code);
    expect(codes).toContain('missing_timeline_registry');
  });

  it(
    'rejects remote scripts that have no local copy, ' + 'and a timeline-less composition without data-duration',
    async () => {
      const html = `<!doctype html><html><head><script src="https://example.com/lib/chart.js"></script></head>
      <body><div id="r" data-composition-id="c" data-width="360" data-height="640">hi</div></body></html>`;
      const errors = (await engine.validate(html, canvas)).filter((f) => f.severity === 'error');
      expect(errors.map((f) => f.code)).toEqual(expect.arrayContaining(['remote_script', 'missing_duration']));
      expect(errors.find((f) => f.code === 'remote_script')!.location).toContain('example.com');
    },
  );

  it('refuses to render an invalid composition, with the findings on the error', async () => {
    const error = await engine
      .render('<html><body>no composition', { tools, ...canvas, outputPath: path.join(sandbox.out, 'bad.mp4') })
      .catch((e: unknown) => e);
    expect((error as RenderError).code).toBe('invalid_composition');
    expect((error as RenderError).findings.length).toBeGreaterThan(0);
  });

  it('rejects a source over the size limit without parsing it', async () => {
    const findings = await engine.validate(`<html>${'x'.repeat(2 * 1024 * 1024)}</html>`, canvas);
    expect(findings.map((f) => f.code)).toEqual(['source_too_large']);
  });
});
