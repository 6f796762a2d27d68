// The first generation after a start is not the slow one: the worker composes, validates and renders a
// tiny video with every engine before it says it is ready (src/app/warmUp.ts), so the composer thread,
// the engines, Chrome and ffmpeg are loaded and a warm spare render process waits for the first real
// render. Checked from the worker's own log, in order: not a timing test.
import crypto from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { engineIds } from '../../src/engines/index.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { startWorkerProcess, testEnv } from '../support/stack.js';

type Line = { msg: string; composed?: string[]; rendered?: string[]; failed?: string[]; engine?: string };

const linesOf = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

describe('worker warm-up', () => {
  it('composes and renders with every engine before the worker reports ready', async () => {
    const namespace = `test-${crypto.randomBytes(4).toString('hex')}`;
    await createNamespace(inject('temporalAddress'), namespace);
    const worker = startWorkerProcess(testEnv({ TEMPORAL_NAMESPACE: namespace, WORKER_WARM_UP: 'true' }));
    try {
      await worker.ready;
      const lines = linesOf(worker.output());
      const warmed = lines.findIndex((l) => l.msg === 'worker warmed');
      const running = lines.findIndex((l) => l.msg === 'worker running');
      expect(warmed).toBeGreaterThanOrEqual(0);
      expect(warmed).toBeLessThan(running);
      expect(lines[warmed]).toMatchObject({ failed: [] });
      expect([...lines[warmed]!.composed!].sort()).toEqual([...engineIds()].sort());
      expect([...lines[warmed]!.rendered!].sort()).toEqual([...engineIds()].sort());
      // Every engine's render really ran (its isolated process reported it) before the worker was ready.
      const renders = lines.slice(0, running).filter((l) => l.msg === 'render finished');
      expect(new Set(renders.map((l) => l.engine))).toEqual(new Set(engineIds()));
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
