// Render isolation: a hang is killed at the wall-clock limit, an abort stops Chrome/ffmpeg within
// 2 s, a crashed render process fails only its render — and every time, no process or temp file is
// left. Processes are watched independently of the code under test (support.watchDescendants).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getEngine, RenderError } from '../../src/engines/index.js';
import { closeRenderProcesses, spareProcessIds, spareWorkDirs } from '../../src/engines/isolation/renderProcess.js';
import { fixture, tools, waitFor, useRenderSandbox, watchDescendants } from './support.js';

// No work directory, Chrome profile or scratch file survives (tsx keeps its transform cache by design).
const sandbox = useRenderSandbox('isolation', (e) => !e.startsWith('tsx-'));

/** A 60-frames-per-second-of-work Lottie: long enough to abort mid-render. */
function longLottie(seconds: number) {
  const anim = JSON.parse(fixture('text-and-box.lottie.json'));
  anim.op = seconds * anim.fr;
  for (const layer of anim.layers) layer.op = anim.op;
  return JSON.stringify(anim);
}

async function expectRenderError(p: Promise<unknown>): Promise<RenderError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

describe('render isolation', () => {
  it('kills a hanging composition at the time limit, with Chrome and all', async () => {
    const html = fixture('gsap-box.html').replace(
      '<script>\n    const tl',
      '<script>\n    while (true) {}\n    const tl',
    );
    expect(html).toContain('while (true)');
    const watch = watchDescendants();
    const started = Date.now();
    // A limit long enough for Chrome to be up even on a loaded machine (the point: it dies with the render).
    const error = await expectRenderError(
      getEngine('hyperframes').render(html, {
        tools,
        width: 360,
        height: 640,
        outputPath: path.join(sandbox.out, 'hang.mp4'),
        timeoutMs: 12_000,
      }),
    );
    const elapsed = Date.now() - started;
    watch.stop();
    expect(error.code).toBe('render_timeout');
    expect(error.message).toMatch(/time limit of 12 s/);
    expect(elapsed).toBeGreaterThanOrEqual(12_000);
    expect(elapsed).toBeLessThan(14_500);
    expect(watch.seen().some((c) => c.includes('chrom'))).toBe(true);
    expect(watch.leftovers(spareProcessIds())).toEqual([]);
    expect(fs.existsSync(path.join(sandbox.out, 'hang.mp4'))).toBe(false);
  });

  it('stops a HyperFrames render within 2 s of an abort', async () => {
    const html = fixture('gsap-box.html').replace("duration: 1, ease: 'none'", "duration: 20, ease: 'none'");
    const watch = watchDescendants();
    const controller = new AbortController();
    let abortedAt = 0;
    const render = getEngine('hyperframes').render(html, {
      tools,
      width: 360,
      height: 640,
      outputPath: path.join(sandbox.out, 'abort-hf.mp4'),
      signal: controller.signal,
      onProgress: ({ fraction: f }) => {
        // Past 30% the producer is capturing: Chrome and ffmpeg are both running.
        if (f > 0.3 && !abortedAt) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    const error = await expectRenderError(render);
    const stoppedAfter = Date.now() - abortedAt;
    watch.stop();
    expect(error.code).toBe('render_aborted');
    expect(abortedAt).toBeGreaterThan(0);
    expect(stoppedAfter).toBeLessThan(2000);
    expect(watch.seen()).toEqual(expect.arrayContaining(['ffmpeg']));
    expect(watch.seen().some((c) => c.includes('chrom'))).toBe(true);
    expect(watch.leftovers(spareProcessIds())).toEqual([]);
  });

  it('stops a Lottie render within 2 s of an abort', async () => {
    const watch = watchDescendants();
    const controller = new AbortController();
    let abortedAt = 0;
    const render = getEngine('lottie').render(longLottie(30), {
      tools,
      width: 1080,
      height: 1920,
      outputPath: path.join(sandbox.out, 'abort-lottie.mp4'),
      signal: controller.signal,
      onProgress: ({ fraction: f }) => {
        if (f >= 0.02 && !abortedAt) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    const error = await expectRenderError(render);
    const stoppedAfter = Date.now() - abortedAt;
    watch.stop();
    expect(error.code).toBe('render_aborted');
    expect(stoppedAfter).toBeLessThan(2000);
    expect(watch.seen()).toContain('ffmpeg');
    expect(watch.leftovers(spareProcessIds())).toEqual([]);
  });

  it('fails only the render whose process crashed', async () => {
    const watch = watchDescendants(50);
    let killed = false;
    const render = getEngine('lottie').render(longLottie(30), {
      tools,
      width: 1080,
      height: 1920,
      outputPath: path.join(sandbox.out, 'crash.mp4'),
      onProgress: () => {
        // Simulate an out-of-memory kill of the render process: the node process running ffmpeg.
        if (killed) return;
        const pids = watch.pids();
        // Its parent, whatever its name (Node 24 names its main thread "MainThread", older ones "node").
        const ffmpeg = pids.find((c) => c.comm === 'ffmpeg');
        const renderProcess = ffmpeg && pids.find((p) => p.pid === ffmpeg.ppid);
        if (renderProcess) {
          process.kill(renderProcess.pid, 'SIGKILL');
          killed = true;
        }
      },
    });
    const error = await expectRenderError(render);
    watch.stop();
    expect(killed).toBe(true);
    expect(error.code).toBe('render_crashed');
    expect(error.message).toMatch(/SIGKILL/);
    expect(await waitFor(() => watch.leftovers(spareProcessIds()).length === 0, 1000)).toBe(true);

    // The engine still works afterwards.
    const ok = await getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
      tools,
      width: 360,
      height: 640,
      outputPath: path.join(sandbox.out, 'after.mp4'),
    });
    expect(ok.frames).toBe(30);
  });

  it('kills the render and removes its files when the process that started it dies', async () => {
    const watch = watchDescendants(50);
    const parent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/render-forever.ts', import.meta.url)),
        longLottie(30),
        path.join(sandbox.out, 'orphan.mp4'),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, LOG_LEVEL: 'silent' },
      },
    );
    // Wait until frames flow (the render process and its ffmpeg run), then kill the "worker" outright.
    await new Promise<void>((resolve) => parent.stdout!.once('data', () => resolve()));
    expect(watch.seen()).toContain('ffmpeg');
    expect(sandbox.entries().some((e) => e.startsWith('video-render-'))).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitFor(() => watch.leftovers(spareProcessIds()).length === 0, 3000)).toBe(true);
    // The orphan's work directory is gone (this test process's own idle spares keep theirs).
    const renderDirs = () =>
      sandbox.entries().filter(
        (e) =>
          e.startsWith('video-render-') &&
          !spareWorkDirs()
            .map((d) => path.basename(d))
            .includes(e),
      );
    expect(await waitFor(() => renderDirs().length === 0, 3000)).toBe(true);
    watch.stop();
  });

  it('does not start a render whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const started = Date.now();
    const error = await expectRenderError(
      getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
        tools,
        width: 360,
        height: 640,
        outputPath: path.join(sandbox.out, 'x.mp4'),
        signal: controller.signal,
      }),
    );
    expect(error.code).toBe('render_aborted');
    expect(Date.now() - started).toBeLessThan(500);
    // Only the idle spares' own (empty) work directories exist: none was made for this render.
    const spareDirs = spareWorkDirs().map((d) => path.basename(d));
    expect(sandbox.entries().filter((e) => e.startsWith('video-render-') && !spareDirs.includes(e))).toEqual([]);
  });

  it('keeps one warm spare render process per engine, which closeRenderProcesses() ends', async () => {
    const watch = watchDescendants(50);
    await getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
      tools,
      width: 360,
      height: 640,
      outputPath: path.join(sandbox.out, 'spare.mp4'),
    });
    expect(await waitFor(() => spareWorkDirs('lottie').length === 1, 3000)).toBe(true);
    const [spare] = spareWorkDirs('lottie');
    // The next render takes the spare instead of starting a process (the spare renders, then exits).
    await getEngine('lottie').render(fixture('text-and-box.lottie.json'), {
      tools,
      width: 360,
      height: 640,
      outputPath: path.join(sandbox.out, 'spare2.mp4'),
    });
    expect(spareWorkDirs('lottie')).not.toContain(spare);
    expect(await waitFor(() => spareWorkDirs('lottie').length === 1, 3000)).toBe(true);
    await closeRenderProcesses();
    expect(spareProcessIds()).toEqual([]);
    expect(await waitFor(() => watch.leftovers().length === 0, 2000)).toBe(true);
    watch.stop();
  });
});
