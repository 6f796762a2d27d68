// The render activity's progress reporter: at most one report a second per stage, only on a change
// of whole percent or stage, one signal out at a time (the newest waits), and a flush that never
// waits long for a server that does not answer.
import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../src/progress/reporter.js';
import type { RenderProgressReport } from '../../src/temporal/contract.js';

const frames = (n: number) => ({ stage: 'rendering' as const, fraction: n / 100, framesRendered: n, framesTotal: 100 });

describe('progressReporter', () => {
  it('throttles to one report a second per stage, and only when the percent or the stage changed', async () => {
    let t = 0;
    const sent: RenderProgressReport[] = [];
    const reporter = progressReporter(
      async (r) => void sent.push(r),
      () => t,
    );
    // Each call after the previous signal went out (the next test covers signals still out).
    const step = async (report: () => void) => {
      report();
      await reporter.flush();
    };
    await step(() => reporter.render(frames(1)));
    await step(() => reporter.render(frames(2))); // same second
    t = 1500;
    await step(() => reporter.render(frames(2)));
    t = 3000;
    await step(() => reporter.render(frames(2))); // no change
    // A new stage goes at once.
    await step(() => reporter.render({ stage: 'encoding', fraction: 0.97, framesRendered: 100, framesTotal: 100 }));
    await step(() => reporter.storing());
    expect(sent.map((r) => [r.stage, r.frames_rendered])).toEqual([
      ['rendering', 1],
      ['rendering', 2],
      ['encoding', 100],
      ['storing', 100],
    ]);
    expect(sent[1]!.eta_seconds).toEqual(expect.any(Number));
  });

  it('sends one signal at a time: while one is out, only the newest report waits', async () => {
    let t = 0;
    const sent: RenderProgressReport[] = [];
    let release: () => void = () => {};
    const reporter = progressReporter(
      (r) => {
        sent.push(r);
        return sent.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
      () => t,
    );
    for (let k = 1; k <= 5; k++) {
      t = k * 2000;
      reporter.render(frames(k * 10));
    }
    expect(sent).toHaveLength(1);
    release();
    await reporter.flush();
    expect(sent.map((r) => r.frames_rendered)).toEqual([10, 50]);
  });

  it('flush gives up on a server that does not answer', async () => {
    const reporter = progressReporter(() => new Promise<void>(() => {}));
    reporter.render(frames(10));
    const started = Date.now();
    await reporter.flush();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
