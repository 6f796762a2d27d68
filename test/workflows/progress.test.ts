// Live progress in the workflow, with stub activities on the real Temporal dev server: the render
// activity's reports (signals) become the state query's `progress`, the percentage never goes back,
// `video.generation.progress` events go out at most once per 10 points when the organization wants
// them, and a failed generation's workflow ends Failed with the error code as its type.
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { RenderInput, RenderProgressReport } from '../../src/temporal/contract.js';
import { renderProgressSignal, stateQuery } from '../../src/temporal/contract.js';
import { defaults, emittedEvents, gate, outcomeOf, startHarness, stateWhen, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

const report = (
  stage: RenderProgressReport['stage'],
  fraction: number,
  frames: number | null = null,
): RenderProgressReport => ({
  stage,
  fraction,
  frames_rendered: frames,
  frames_total: frames === null ? null : 100,
  eta_seconds: frames === null ? null : 100 - frames,
});

/** Signals the generation's own workflow from inside the stub render, as the real activity does. */
const signal = (input: RenderInput, r: RenderProgressReport) =>
  Context.current().client.workflow.getHandle(input.generationId).signal(renderProgressSignal, r);

describe.concurrent('live progress', () => {
  test('render reports become the query’s progress: frames, estimate, stages; the percentage never goes back', async ({
    expect,
  }) => {
    const [step1, step2, step3, done] = [gate(), gate(), gate(), gate()];
    const { id, handle } = await h.startGeneration({
      renderComposition: async (input) => {
        await signal(input, report('rendering', 0.5, 50));
        await step1.promise;
        await signal(input, report('rendering', 0.25, 25)); // a late, lower report
        await step2.promise;
        await signal(input, report('encoding', 0.97, 100));
        await step3.promise;
        await signal(input, report('storing', 1, 100));
        await done.promise;
        return defaults.renderComposition(input);
      },
    });
    const half = await stateWhen(h, id, (s) => s.progress?.frames_rendered === 50);
    expect(half.progress).toEqual({
      stage: 'rendering',
      percent: 55,
      frames_rendered: 50,
      frames_total: 100,
      eta_seconds: 50,
      provider: null,
      repair_round: null,
    });
    step1.open();
    const late = await stateWhen(h, id, (s) => s.progress?.frames_rendered === 25);
    expect(late.progress?.percent).toBe(55);
    expect(late.seq).toBeGreaterThan(half.seq);
    step2.open();
    expect((await stateWhen(h, id, (s) => s.progress?.stage === 'encoding')).progress).toMatchObject({
      percent: 93,
      frames_rendered: 100,
    });
    step3.open();
    expect((await stateWhen(h, id, (s) => s.progress?.stage === 'storing')).progress).toMatchObject({ percent: 97 });
    done.open();
    expect(await outcomeOf(handle)).toBe('completed');
    expect((await handle.query(stateQuery)).progress).toBeNull();
  });

  test('progress events: with a webhook_url and the type enabled, at most one per 10 points, in order', async ({
    expect,
  }) => {
    const { handle } = await h.startGeneration(
      {
        webhookEventEnabled: async () => true,
        renderComposition: async (input) => {
          for (let k = 1; k <= 20; k++) {
            await signal(input, report('rendering', k / 20, k * 5));
            // Each report lands before the next (the workflow may turn any of them into an event).
            await stateWhen(h, input.generationId, (s) => s.progress?.frames_rendered === k * 5);
          }
          return defaults.renderComposition(input);
        },
      },
      { webhook_url: 'https://hooks.example.com/video' },
    );
    expect(await outcomeOf(handle)).toBe('completed');
    const progress = (await emittedEvents(handle))
      .filter((e) => e.facts.type === 'video.generation.progress')
      .map((e) => e.facts.progress!.percent);
    // 15 % (rendering began) and then every further ten up to 95 %.
    expect(progress.length).toBeGreaterThanOrEqual(8);
    expect(progress.length).toBeLessThanOrEqual(10);
    const decades = progress.map((p) => Math.floor(p / 10));
    expect(new Set(decades).size).toBe(decades.length);
    expect([...decades].sort((a, b) => a - b)).toEqual(decades);
    const types = (await emittedEvents(handle)).map((e) => e.facts.type);
    expect(types.at(-1)).toBe('video.generation.completed');
  });

  test('progress events stay off when the organization did not turn them on (asked once)', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration(
      {
        renderComposition: async (input) => {
          await signal(input, report('rendering', 0.5, 50));
          await stateWhen(h, input.generationId, (s) => s.progress?.frames_rendered === 50);
          await signal(input, report('rendering', 1, 100));
          await stateWhen(h, input.generationId, (s) => s.progress?.frames_rendered === 100);
          return defaults.renderComposition(input);
        },
      },
      { webhook_url: 'https://hooks.example.com/video' },
    );
    expect(await outcomeOf(handle)).toBe('completed');
    expect((await emittedEvents(handle)).map((e) => e.facts.type)).toEqual([
      'video.generation.queued',
      'video.generation.started',
      'video.generation.completed',
    ]);
    expect(trace.inputs('webhookEventEnabled')).toHaveLength(1);
  });

  test('a failed generation’s workflow ends Failed, its type the error code', async ({ expect }) => {
    const { handle } = await h.startGeneration({
      renderComposition: async () => {
        throw ApplicationFailure.create({
          type: 'render_failed',
          message: 'ffmpeg exited with code 1',
          nonRetryable: true,
        });
      },
    });
    const failure = await handle.result().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'render_failed', message: 'ffmpeg exited with code 1' });
    const described = await handle.describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.raw.pendingActivities ?? []).toEqual([]);
  });
});
