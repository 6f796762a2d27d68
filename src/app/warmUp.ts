// What the first generation after a start would otherwise wait for, done by the worker before it says it
// is ready (issue 45: the first video on a fresh stack took three times as long as the next ones):
//   - I/O queue: the composer thread (src/threads) started, with the engines, the planner's language
//     data, the tokenizer and each engine's validation loaded, by composing and validating a tiny video
//     per engine;
//   - render queue: one tiny render per engine (one second at 96×160, the engine's own offline
//     composition), so Chrome, ffmpeg and the fonts have been read once and a warm spare render process
//     is waiting for the first real render.
// A failed warm-up is logged and the worker starts anyway: the first generation then pays as before.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineIds, getEngine, type RenderTools } from '../engines/index.js';
import type { Logger } from '../logger.js';
import { composeOffThread, validateOffThread } from '../threads/pool.js';

/** The warm-up video: small and short, so it costs a few seconds of CPU at start. */
const CANVAS = { width: 96, height: 160 };
const PROMPT = 'Ready';
const spec = { ...CANVAS, prompt: PROMPT, instructions: null, durationSeconds: 1, assets: [] };

export type WarmUpReport = { composed: string[]; rendered: string[]; failed: string[]; ms: number };

export async function warmUp(queues: readonly string[], tools: RenderTools, log: Logger): Promise<WarmUpReport> {
  const started = performance.now();
  const report: WarmUpReport = { composed: [], rendered: [], failed: [], ms: 0 };
  const attempt = async (what: string, done: string[], id: string, work: () => Promise<unknown>) => {
    try {
      await work();
      done.push(id);
    } catch (err) {
      report.failed.push(`${what} ${id}`);
      log.warn({ engine: id, err: String(err) }, `warm-up ${what} failed; the first generation pays for it`);
    }
  };
  const composing = async () => {
    // One after another: the pool keeps one warm thread, and each engine's modules load into it.
    for (const id of engineIds()) {
      await attempt('compose', report.composed, id, async () => {
        const { source } = await composeOffThread(id, spec, PROMPT);
        await validateOffThread(id, source, { ...CANVAS, assets: [] });
      });
    }
  };
  const rendering = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'warm-up-'));
    try {
      for (const id of engineIds()) {
        const engine = getEngine(id);
        await attempt('render', report.rendered, id, () =>
          engine.render(engine.composeOffline(spec), {
            ...CANVAS,
            tools,
            outputPath: path.join(dir, `${id}.mp4`),
          }),
        );
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  };
  await Promise.all([queues.includes('io') ? composing() : null, queues.includes('render') ? rendering() : null]);
  report.ms = Math.round(performance.now() - started);
  return report;
}
