// The webhook delivery workflow end to end with stub activities (test/workflows/harness.ts) on the
// real Temporal dev server, with a compressed retry schedule: every outcome, the attempts recorded,
// the durable timers' lengths read from the history (Retry-After); and the lifecycle events a
// generation starts as child workflows.
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { WebhookEventStatus } from '../../src/shared.js';
import { videoKey } from '../../src/storage/keys.js';
import type { WebhookDeliveryInput } from '../../src/temporal/contract.js';
import { ATTEMPT_FAILURES } from '../../src/webhooks/attemptFailures.js';
import {
  attemptResult,
  emittedEvents,
  outcomeOf,
  providerFailure,
  startHarness,
  timerDurations,
  type Harness,
  type Trace,
} from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

const SCHEDULE = [0, 200, 200, 400];
const schedule = async () => ({ retryScheduleMs: SCHEDULE });

/** The attempts as recordWebhookAttempt received them: [attempt, status code, event status]. */
const recorded = (trace: Trace) =>
  trace
    .inputs('recordWebhookAttempt')
    .map(([result, status]): [number, number | null, WebhookEventStatus] => [
      result.attempt,
      result.statusCode,
      status,
    ]);

// Every test below runs concurrently (at most vitest's maxConcurrency, 5, at once).
describe.concurrent('webhooks', () => {
  describe('webhook delivery', () => {
    test('500, 500, then 200: delivered after 3 attempts, each recorded, on the schedule', async ({ expect }) => {
      const codes = [500, 500, 200];
      const { handle, trace, eventId } = await h.startWebhook({
        prepareWebhookEvent: schedule,
        attemptWebhookDelivery: async (req) => attemptResult(req, codes[req.attempt - 1]!),
      });
      expect(await outcomeOf(handle)).toEqual({ status: 'delivered', attempts: 3 });
      expect(trace.inputs('attemptWebhookDelivery')).toEqual([1, 2, 3].map((attempt) => ({ eventId, attempt })));
      expect(recorded(trace)).toEqual([
        [1, 500, 'pending'],
        [2, 500, 'pending'],
        [3, 200, 'delivered'],
      ]);
      expect(await timerDurations(handle)).toEqual([200, 200]);
    });

    test('410: gone, no further attempt', async ({ expect }) => {
      const codes = [503, 410];
      const { handle, trace } = await h.startWebhook({
        prepareWebhookEvent: schedule,
        attemptWebhookDelivery: async (req) => attemptResult(req, codes[req.attempt - 1]!),
      });
      expect(await outcomeOf(handle)).toEqual({ status: 'gone', attempts: 2 });
      expect(recorded(trace)).toEqual([
        [1, 503, 'pending'],
        [2, 410, 'gone'],
      ]);
    });

    test('every attempt failing: failed after the last one of the schedule', async ({ expect }) => {
      const { handle, trace } = await h.startWebhook({
        prepareWebhookEvent: schedule,
        attemptWebhookDelivery: async (req) => attemptResult(req, req.attempt % 2 ? 500 : null),
      });
      expect(await outcomeOf(handle)).toEqual({ status: 'failed', attempts: 4 });
      expect(recorded(trace)).toEqual([
        [1, 500, 'pending'],
        [2, null, 'pending'],
        [3, 500, 'pending'],
        [4, null, 'failed'],
      ]);
      expect(await timerDurations(handle)).toEqual([200, 200, 400]);
    });

    test(
      'Retry-After of a 429/503 longer than the scheduled wait is honoured; ' + 'shorter, or on other codes, it is not',
      async ({ expect }) => {
        const replies = [
          { statusCode: 429, retryAfterMs: 1000 }, // next wait: 1000 instead of 200
          { statusCode: 503, retryAfterMs: 50 }, // shorter than the schedule's 200: 200
          { statusCode: 500, retryAfterMs: 5000 }, // not a 429/503: the schedule's 400
          { statusCode: 200, retryAfterMs: null },
        ];
        const { handle, trace } = await h.startWebhook({
          prepareWebhookEvent: schedule,
          attemptWebhookDelivery: async (req) => {
            const { statusCode, retryAfterMs } = replies[req.attempt - 1]!;
            return attemptResult(req, statusCode, { retryAfterMs });
          },
        });
        expect(await outcomeOf(handle)).toEqual({ status: 'delivered', attempts: 4 });
        expect(await timerDurations(handle)).toEqual([1000, 200, 400]);
        expect(recorded(trace).map(([, , status]) => status)).toEqual(['pending', 'pending', 'pending', 'delivered']);
      },
    );

    test('an attempt whose activity throws is a failed attempt, recorded, and the schedule goes on', async ({
      expect,
    }) => {
      const { handle, trace } = await h.startWebhook({
        prepareWebhookEvent: schedule,
        attemptWebhookDelivery: async (req) => {
          if (req.attempt === 1) throw new Error('worker lost mid-send');
          return attemptResult(req, 204);
        },
      });
      expect(await outcomeOf(handle)).toEqual({ status: 'delivered', attempts: 2 });
      // One activity run per attempt: the throwing one is not retried by Temporal.
      expect(trace.inputs('attemptWebhookDelivery').map((r) => r.attempt)).toEqual([1, 2]);
      // Recorded in fixed words; the cause went to the worker's log.
      const [failed] = trace.inputs('recordWebhookAttempt')[0]!;
      expect(failed).toMatchObject({
        attempt: 1,
        statusCode: null,
        retryAfterMs: null,
        error: ATTEMPT_FAILURES.incomplete,
      });
      expect(JSON.stringify(trace.inputs('recordWebhookAttempt'))).not.toContain('worker lost');
      expect(recorded(trace)).toEqual([
        [1, null, 'pending'],
        [2, 204, 'delivered'],
      ]);
    });

    test(
      'a delivery workflow started before `prepared` was named so (its input says `attempted`) ' +
        'carries on from attempt 2',
      async ({ expect }) => {
        const { handle, trace, eventId } = await h.startWebhook(
          { attemptWebhookDelivery: async (req) => attemptResult(req, 200) },
          {},
          (input) => ({
            ...input,
            attempted: {
              plan: { retryScheduleMs: SCHEDULE },
              result: attemptResult({ eventId: input.eventId, attempt: 1 }, 500),
              status: 'pending',
            },
          }),
        );
        expect(await outcomeOf(handle)).toEqual({ status: 'delivered', attempts: 2 });
        expect(trace.inputs('attemptWebhookDelivery')).toEqual([{ eventId, attempt: 2 }]);
        expect(trace.inputs('prepareWebhookEvent')).toEqual([]);
      },
    );

    test('an event type the organization disabled (prepare returns null): disabled, nothing sent', async ({
      expect,
    }) => {
      const { handle, trace } = await h.startWebhook({ prepareWebhookEvent: async () => null });
      expect(await outcomeOf(handle)).toEqual({ status: 'disabled', attempts: 0 });
      expect(trace.inputs('attemptWebhookDelivery')).toEqual([]);
      expect(trace.inputs('recordWebhookAttempt')).toEqual([]);
    });
  });

  describe('lifecycle events of a generation', () => {
    const webhook_url = 'https://hooks.example.com/video';

    test('with webhook_url: queued, started and completed, each its own delivery workflow', async ({ expect }) => {
      const { handle, trace, id } = await h.startGeneration({}, { webhook_url });
      expect(await outcomeOf(handle)).toBe('completed');
      const events = await emittedEvents(handle);
      expect(events.map((e) => e.facts)).toEqual([
        { type: 'video.generation.queued', status: 'queued', provider: 'p1', errorMessage: null, videoKey: null },
        { type: 'video.generation.started', status: 'in_progress', provider: 'p1', errorMessage: null, videoKey: null },
        {
          type: 'video.generation.completed',
          status: 'completed',
          provider: 'p1',
          errorMessage: null,
          videoKey: videoKey(id),
        },
      ]);
      for (const event of events) {
        expect(event).toMatchObject({
          generationId: id,
          organizationId: 'org_test',
          webhookUrl: webhook_url,
          engine: 'hyperframes',
          model: 'test-model',
        });
        expect(event.eventId).toMatch(/^evt_[0-9a-f]{32}$/);
        // Each child workflow (id = event id) ran its delivery to the end.
        expect(await h.client.workflow.getHandle(event.eventId).result()).toEqual({ status: 'delivered', attempts: 1 });
      }
      expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
      expect(
        trace
          .inputs('prepareWebhookEvent')
          .map((e) => e.eventId)
          .sort(),
      ).toEqual(events.map((e) => e.eventId).sort());
    });

    test('a failed generation announces its completion with the error message', async ({ expect }) => {
      const { handle, id } = await h.startGeneration(
        {
          writeComposition: async () => {
            throw providerFailure('content_refused', 'refused');
          },
        },
        { webhook_url },
      );
      expect(await outcomeOf(handle)).toBe('failed');
      const completed = (await emittedEvents(handle)).at(-1)!;
      expect(completed.facts).toEqual({
        type: 'video.generation.completed',
        status: 'failed',
        provider: null,
        errorMessage: `p1: refused. The provider's answer is in the service's logs under ${id}`,
        videoKey: null,
      });
    });

    test(
      'the completed event goes to the terminal record, which makes its first attempt; ' +
        'its delivery workflow attempts nothing more',
      async ({ expect }) => {
        const { handle, trace } = await h.startGeneration(
          {
            finishGeneration: async (_outcome, event) =>
              event && {
                plan: { retryScheduleMs: SCHEDULE },
                result: attemptResult({ eventId: event.eventId, attempt: 1 }, 204),
                status: 'delivered',
              },
          },
          { webhook_url },
        );
        expect(await outcomeOf(handle)).toBe('completed');
        const completed = (await emittedEvents(handle)).find((e) => e.facts.type === 'video.generation.completed')!;
        const [, given] = trace.inputs('finishGeneration')[0] as unknown as [unknown, WebhookDeliveryInput];
        expect(given).toEqual({ ...completed, prepared: undefined });
        expect(completed.prepared).toMatchObject({ status: 'delivered', result: { statusCode: 204 } });
        expect(await h.client.workflow.getHandle(completed.eventId).result()).toEqual({
          status: 'delivered',
          attempts: 1,
        });
        // Queued and started are prepared and attempted by their own workflows; the completed one is not.
        expect(
          trace
            .inputs('prepareWebhookEvent')
            .map((e) => e.facts.type)
            .sort(),
        ).toEqual(['video.generation.queued', 'video.generation.started']);
        expect(trace.inputs('attemptWebhookDelivery').map((r) => r.eventId)).not.toContain(completed.eventId);
      },
    );

    test(
      'a first attempt with the record that failed (503, Retry-After): the delivery workflow waits and carries on ' +
        'from attempt 2',
      async ({ expect }) => {
        const { handle, trace } = await h.startGeneration(
          {
            finishGeneration: async (_outcome, event) =>
              event && {
                plan: { retryScheduleMs: SCHEDULE },
                result: attemptResult({ eventId: event.eventId, attempt: 1 }, 503, { retryAfterMs: 300 }),
                status: 'pending',
              },
            attemptWebhookDelivery: async (req) => attemptResult(req, 200),
          },
          { webhook_url },
        );
        expect(await outcomeOf(handle)).toBe('completed');
        const completed = (await emittedEvents(handle)).find((e) => e.facts.type === 'video.generation.completed')!;
        const delivery = h.client.workflow.getHandle(completed.eventId);
        expect(await delivery.result()).toEqual({ status: 'delivered', attempts: 2 });
        expect(trace.inputs('attemptWebhookDelivery').filter((r) => r.eventId === completed.eventId)).toEqual([
          { eventId: completed.eventId, attempt: 2 },
        ]);
        expect(recorded(trace).filter(([attempt]) => attempt === 2)).toEqual([[2, 200, 'delivered']]);
        // The schedule's 200 ms, lengthened to the receiver's Retry-After.
        expect(await timerDurations(delivery)).toEqual([300]);
      },
    );

    test(
      'prepared by the terminal record without an attempt (the schedule starts with a wait): ' +
        'the delivery workflow waits and makes attempt 1, preparing nothing',
      async ({ expect }) => {
        const { handle, trace } = await h.startGeneration(
          {
            finishGeneration: async (_outcome, event) => event && { plan: { retryScheduleMs: [300, 200] } },
            attemptWebhookDelivery: async (req) => attemptResult(req, 200),
          },
          { webhook_url },
        );
        expect(await outcomeOf(handle)).toBe('completed');
        const completed = (await emittedEvents(handle)).find((e) => e.facts.type === 'video.generation.completed')!;
        expect(completed.prepared).toEqual({ plan: { retryScheduleMs: [300, 200] } });
        const delivery = h.client.workflow.getHandle(completed.eventId);
        expect(await delivery.result()).toEqual({ status: 'delivered', attempts: 1 });
        expect(await timerDurations(delivery)).toEqual([300]);
        expect(trace.inputs('attemptWebhookDelivery').filter((r) => r.eventId === completed.eventId)).toEqual([
          { eventId: completed.eventId, attempt: 1 },
        ]);
        expect(trace.inputs('prepareWebhookEvent').map((e) => e.facts.type)).not.toContain(
          'video.generation.completed',
        );
      },
    );

    test('without webhook_url: no event, no child workflow', async ({ expect }) => {
      const { handle, trace } = await h.startGeneration({});
      expect(await outcomeOf(handle)).toBe('completed');
      expect(await emittedEvents(handle)).toEqual([]);
      expect(trace.inputs('prepareWebhookEvent')).toEqual([]);
    });
  });
});
