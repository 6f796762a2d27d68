// Chunked rendering in the workflow, with stub activities on the real Temporal dev server: a long
// video's planned chunks run as render activities all at once, then one join; their progress reports
// are summed; cancelling the generation, or one chunk failing, cancels every chunk still running,
// and the generation ends only once they all have.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { splitFrames } from '../../src/engines/chunks.js';
import { videoKey } from '../../src/storage/keys.js';
import type { ChunkRenderInput, RenderProgressReport } from '../../src/temporal/contract.js';
import { renderProgressSignal } from '../../src/temporal/contract.js';
import {
  defaults,
  gate,
  hang,
  outcomeOf,
  startHarness,
  stateWhen,
  unconfirmedCancellations,
  type Harness,
} from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

/** 10 s at 30 fps in three chunks: 100 frames each. */
const CHUNKS = splitFrames(300, 3);
const planned = { planRender: async () => ({ chunks: CHUNKS }) };

/** `arrive()` resolves once every chunk activity has arrived: they run at once, not one after another. */
function allChunks() {
  const all = gate();
  let arrived = 0;
  return {
    arrive: () => {
      if (++arrived === CHUNKS.length) all.open();
      return all.promise;
    },
  };
}

const chunkReport = (
  input: ChunkRenderInput,
  fraction: number,
  stage: RenderProgressReport['stage'] = 'rendering',
): Promise<void> => {
  const frames = input.chunk.end - input.chunk.start;
  const report: RenderProgressReport = {
    stage,
    fraction,
    frames_rendered: Math.round(fraction * frames),
    frames_total: frames,
    eta_seconds: 10 + input.chunk.index,
    chunk: input.chunk.index,
  };
  return Context.current().client.workflow.getHandle(input.generationId).signal(renderProgressSignal, report);
};

/** The percentage a generation rendering in one piece shows when its render reports half the frames drawn. */
async function halfRenderedPercent(): Promise<number> {
  const reported = gate();
  const release = gate();
  const run = await h.startGeneration({
    renderComposition: async (input) => {
      await Context.current().client.workflow.getHandle(input.generationId).signal(renderProgressSignal, {
        stage: 'rendering',
        fraction: 0.5,
        frames_rendered: 150,
        frames_total: 300,
        eta_seconds: null,
      });
      reported.open();
      await release.promise;
      return defaults.renderComposition(input);
    },
  });
  await reported.promise;
  const state = await stateWhen(h, run.id, (s) => s.progress?.frames_rendered === 150);
  release.open();
  await outcomeOf(run.handle);
  return state.progress!.percent;
}

describe.concurrent('chunked rendering', () => {
  test('a short video renders in one piece', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration();
    expect(await outcomeOf(handle)).toBe('completed');
    expect(trace.inputs('planRender')).toHaveLength(1);
    expect(trace.inputs('renderComposition')).toHaveLength(1);
    expect(trace.inputs('renderChunk')).toEqual([]);
  });

  test('a long video: every chunk at once, then one join of all of them in order; their progress is summed', async ({
    expect,
  }) => {
    const [release, started] = [gate(), allChunks()];
    const run = await h.startGeneration({
      ...planned,
      renderChunk: async (input) => {
        await started.arrive();
        // Chunk 0 halfway, chunk 1 done drawing, chunk 2 not reported yet.
        if (input.chunk.index < 2)
          await chunkReport(
            input,
            input.chunk.index === 0 ? 0.5 : 1,
            input.chunk.index === 0 ? 'rendering' : 'encoding',
          );
        await release.promise;
        return defaults.renderChunk(input);
      },
    });
    const { trace } = run;
    const state = await stateWhen(h, run.id, (s) => s.progress?.frames_rendered === 150);
    // (0.5·100 + 1·100 + 0·100) / 300 of the render: the generation stands where a one-piece render
    // half drawn stands (its own report, through the same workflow); the estimate waits for every chunk.
    expect(state.progress).toMatchObject({
      stage: 'rendering',
      frames_rendered: 150,
      frames_total: 300,
      eta_seconds: null,
      percent: await halfRenderedPercent(),
    });
    release.open();

    expect(await outcomeOf(run.handle)).toBe('completed');
    expect(trace.inputs('renderComposition')).toEqual([]);
    expect(trace.inputs('renderChunk').map((i) => i.chunk)).toEqual(expect.arrayContaining(CHUNKS));
    const [join] = trace.inputs('joinChunks');
    expect(join!.chunks.map((c) => [c.index, c.frames])).toEqual([
      [0, 100],
      [1, 100],
      [2, 100],
    ]);
    expect(trace.outcome.rendered).toMatchObject({ video: { key: videoKey(run.id) }, duration_seconds: 10 });
  });

  test('cancelling the generation mid-chunk cancels every chunk; it ends once all have stopped', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration({ ...planned, renderChunk: () => hang() });
    await trace.waitFor('renderChunk', { nth: CHUNKS.length });
    await handle.cancel();
    expect(await outcomeOf(handle)).toBe('cancelled');
    expect(
      trace.calls.filter((c) => 'event' in c && c.activity === 'renderChunk' && c.event === 'cancelled'),
    ).toHaveLength(CHUNKS.length);
    expect((await handle.describe()).raw.pendingActivities ?? []).toEqual([]);
    expect(await unconfirmedCancellations(handle)).toBe(0);
    expect(trace.inputs('joinChunks')).toEqual([]);
    expect(trace.outcome).toMatchObject({ status: 'cancelled', rendered: null });
  });

  test('a chunk that fails for good cancels the others; the generation fails with its error', async ({ expect }) => {
    const started = allChunks();
    const run = await h.startGeneration({
      ...planned,
      renderChunk: async (input) => {
        if (input.chunk.index !== 1) return started.arrive().then(() => hang());
        await started.arrive();
        throw ApplicationFailure.create({
          type: 'render_failed',
          message: 'HyperFrames chunk render failed: page crashed',
          nonRetryable: true,
        });
      },
    });
    const { trace } = run;
    expect(await outcomeOf(run.handle)).toBe('failed');
    expect(trace.outcome.error).toEqual({
      code: 'render_failed',
      message: 'HyperFrames chunk render failed: page crashed',
    });
    expect(trace.calls.filter((c) => 'event' in c && c.event === 'cancelled').map((c) => c.activity)).toEqual([
      'renderChunk',
      'renderChunk',
    ]);
    expect(await unconfirmedCancellations(run.handle)).toBe(0);
    expect(trace.inputs('joinChunks')).toEqual([]);
  });

  test('a chunk whose attempt fails (a crashed render) is retried alone; the video completes', async ({ expect }) => {
    const { handle, trace } = await h.startGeneration({
      ...planned,
      renderChunk: async (input) => {
        if (input.chunk.index === 2 && Context.current().info.attempt === 1) {
          throw ApplicationFailure.create({
            type: 'render_crashed',
            message: 'Render process was killed by SIGKILL',
            nonRetryable: false,
          });
        }
        return defaults.renderChunk(input);
      },
    });
    expect(await outcomeOf(handle)).toBe('completed');
    const attempts = trace.calls.filter((c) => c.activity === 'renderChunk' && !('event' in c)) as {
      input: ChunkRenderInput;
      attempt: number;
    }[];
    expect(attempts.map((c) => [c.input.chunk.index, c.attempt]).sort()).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
      [2, 2],
    ]);
    expect(trace.inputs('joinChunks')[0]!.chunks).toHaveLength(3);
  });
});
