// Cancelling a generation at each stage, with stub activities (test/workflows/harness.ts) on the real
// Temporal dev server: the outcome is `cancelled`, finishGeneration is still called (with the tokens
// used so far), the running activity receives the cancellation, and no completed webhook event is
// emitted (every request carries a webhook_url, so the events are visible in the history).
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { GenerationRequest, TokenUsage } from '../../src/shared.js';
import { stateQuery } from '../../src/temporal/contract.js';
import {
  emittedEvents,
  hang,
  outcomeOf,
  startHarness,
  unconfirmedCancellations,
  usage,
  type GenerationRun,
  type Harness,
  type Name,
  type Script,
} from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

const withWebhook: Partial<GenerationRequest> = { webhook_url: 'https://hooks.example.com/video' };

type Stage = {
  name: string;
  /** The stub that blocks until cancelled. */
  blocking: Name;
  script: Script;
  request?: Partial<GenerationRequest>;
  /** What the state query answers while blocked there. */
  state: { status: string; provider: string | null; progress: Record<string, unknown> };
  provider: string | null;
  usage: TokenUsage | null;
  events: string[];
};

const STAGES: Stage[] = [
  {
    name: 'while queued (markStarted running)',
    blocking: 'markStarted',
    script: { markStarted: () => hang() },
    state: { status: 'queued', provider: null, progress: { stage: 'queued', percent: 0 } },
    provider: null,
    usage: null,
    events: ['video.generation.queued'],
  },
  {
    name: 'while fetching the media',
    blocking: 'fetchMedia',
    script: { fetchMedia: () => hang() },
    request: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A teaser' },
            { type: 'image', url: 'https://media.example.com/a.png' },
          ],
        },
      ],
    },
    state: { status: 'in_progress', provider: null, progress: { stage: 'composing', provider: null } },
    provider: null,
    usage: null,
    events: ['video.generation.queued'],
  },
  {
    name: 'during a provider call (after the expansion)',
    blocking: 'writeComposition',
    script: { writeComposition: () => hang() },
    request: { expand_prompt: true },
    state: { status: 'in_progress', provider: null, progress: { stage: 'composing', provider: 'p1', repair_round: 0 } },
    provider: null,
    usage: usage(1, 2), // the expansion's tokens are billed
    events: ['video.generation.queued', 'video.generation.started'],
  },
  {
    name: 'during validation',
    blocking: 'validateComposition',
    script: { validateComposition: () => hang() },
    state: { status: 'in_progress', provider: null, progress: { stage: 'composing', provider: 'p1', repair_round: 0 } },
    provider: null,
    usage: usage(10, 20),
    events: ['video.generation.queued', 'video.generation.started'],
  },
  {
    name: 'during the render',
    blocking: 'renderComposition',
    script: { renderComposition: () => hang() },
    state: { status: 'in_progress', provider: 'p1', progress: { stage: 'rendering', percent: 15 } },
    provider: 'p1',
    usage: usage(10, 20),
    events: ['video.generation.queued', 'video.generation.started'],
  },
];

describe.concurrent('cancellation', () => {
  for (const stage of STAGES) {
    test(stage.name, async ({ expect }) => {
      const run: GenerationRun = await h.startGeneration(stage.script, { ...withWebhook, ...stage.request });
      const { handle, trace } = run;
      await trace.waitFor(stage.blocking);
      expect(await handle.query(stateQuery)).toMatchObject(stage.state);

      await handle.cancel();
      expect(await outcomeOf(handle)).toBe('cancelled');
      // Operators see it in Temporal as Canceled, after the record was written; nothing left pending.
      const described = await handle.describe();
      expect(described.status.name).toBe('CANCELLED');
      expect(described.raw.pendingActivities ?? []).toEqual([]);
      expect(await unconfirmedCancellations(handle)).toBe(0);
      // The blocked activity was told (through its heartbeats).
      await trace.waitFor(stage.blocking, { event: 'cancelled' });

      expect(trace.outcome).toEqual({
        generationId: run.id,
        status: 'cancelled',
        provider: stage.provider,
        usage: stage.usage,
        rendered: null,
        error: { code: 'cancelled', message: 'Generation was cancelled' },
        eventSeq: expect.any(Number),
      });
      expect(await handle.query(stateQuery)).toMatchObject({
        status: 'cancelled',
        provider: stage.provider,
        progress: null,
      });
      expect((await emittedEvents(handle)).map((e) => e.facts.type)).toEqual(stage.events);
    });
  }
});
