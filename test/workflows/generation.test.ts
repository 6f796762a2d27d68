// The generation workflow's branches with stub activities: provider routing, repair rounds, failure
// mapping and the state query. Real workflows, real worker, real Temporal dev server (own namespace);
// every activity is a scripted stub (test/workflows/harness.ts). Tests run concurrently.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { Finding } from '../../src/shared.js';
import { videoKey } from '../../src/storage/keys.js';
import { stateQuery, type WebhookDeliveryInput } from '../../src/temporal/contract.js';
import {
  attempt,
  defaults,
  draftKey,
  emittedEvents,
  gate,
  hang,
  outcomeOf,
  providerFailure,
  startHarness,
  usage,
  type Harness,
} from './harness.js';

// Every test below runs concurrently (vitest runs at most `maxConcurrency`, 5, at once).
let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'));
});
afterAll(async () => {
  await h?.close();
});

const finding = (n: number): Finding => ({
  code: `bad_${n}`,
  message: `problem ${n}`,
  location: `/layers/${n}`,
  severity: 'error',
});

/** Clients get a fixed message naming the generation; the failure's own words go to the operator's log only. */
const internalError = (id: string) => ({
  code: 'internal_error',
  message: `The generation failed on an internal error; its cause is in the service's logs under ${id}`,
});

describe.concurrent('generation workflow', () => {
  describe('render failure mapping', () => {
    test('an ApplicationFailure type becomes error.code (render_failed); provider and tokens are kept', async ({
      expect,
    }) => {
      const { handle, trace } = await h.startGeneration({
        renderComposition: async () => {
          throw ApplicationFailure.create({
            type: 'render_failed',
            message: 'ffmpeg exited with code 1',
            nonRetryable: true,
          });
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('renderComposition')).toHaveLength(1);
      expect(trace.outcome).toMatchObject({
        status: 'failed',
        provider: 'p1',
        usage: usage(10, 20),
        rendered: null,
        error: { code: 'render_failed', message: 'ffmpeg exited with code 1' },
      });
    });

    test('a render that times out (heartbeat timeout on its last attempt): timeout', async ({ expect }) => {
      const { handle, trace } = await h.startGeneration({
        renderComposition: async () => {
          const { attempt: n } = Context.current().info;
          // Retryable failures on the first two attempts (retried at once), then silence: the 5 s heartbeat timeout.
          if (n < 3)
            throw ApplicationFailure.create({
              type: 'render_crashed',
              message: 'render process died',
              nextRetryDelay: 10,
            });
          return hang({ heartbeat: false });
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('renderComposition')).toHaveLength(3);
      expect(trace.outcome.error).toEqual({ code: 'timeout', message: 'A step of the generation timed out' });
    });

    test('a failure without a type: internal_error, its message kept for the log only', async ({ expect }) => {
      const { handle, trace, id } = await h.startGeneration({
        renderComposition: async () => {
          throw ApplicationFailure.create({ message: 'something unexpected', nonRetryable: true });
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.outcome.error).toEqual(internalError(id));
      expect(trace.outcome.internalCause).toBe('ApplicationFailure: something unexpected');
    });

    // Any non-ApplicationFailure error an activity throws reaches the workflow as an ApplicationFailure
    // whose type is the error's class name (Temporal's ensureApplicationFailure): not one of our codes.
    test('a plain Error thrown by the render (after its 3 attempts) is internal_error', async ({ expect }) => {
      const { handle, trace, id } = await h.startGeneration({
        renderComposition: async () => {
          throw new Error('ENOENT: no such file or directory, open /srv/secret/path');
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('renderComposition')).toHaveLength(3);
      expect(trace.outcome.error).toEqual(internalError(id));
      expect(trace.outcome.internalCause).toBe('Error: ENOENT: no such file or directory, open /srv/secret/path');
    });

    test('a provider call that crashes (not a classified provider failure) hands over without its words', async ({
      expect,
    }) => {
      const { handle, trace, id } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1')], repairRounds: 1 }),
        writeComposition: async () => {
          throw new Error('connect ECONNREFUSED /var/run/secret.sock');
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.outcome.error).toEqual({
        code: 'provider_unavailable',
        message:
          'No provider could write the composition: p1: the call failed unexpectedly' +
          `. The provider's answer is in the service's logs under ${id}`,
      });
    });
  });

  describe('provider routing', () => {
    test('an unavailable provider hands over to the next; the tokens it reported are billed', async ({ expect }) => {
      const { handle, trace, id } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
        writeComposition: async (call) => {
          if (call.provider === 'p1')
            throw providerFailure('provider_unavailable', '503 Service Unavailable', usage(3, 4));
          return defaults.writeComposition(call);
        },
      });
      expect(await outcomeOf(handle)).toBe('completed');
      const writes = trace.inputs('writeComposition');
      expect(writes.map((w) => [w.provider, w.draftNumber])).toEqual([
        ['p1', 1],
        ['p2', 2],
      ]);
      expect(trace.inputs('renderComposition')[0]!.compositionKey).toBe(draftKey(id, 2));
      expect(trace.outcome).toMatchObject({ status: 'completed', provider: 'p2', error: null, usage: usage(13, 24) });
      expect(trace.outcome.rendered?.video.key).toBe(videoKey(id));
    });

    test('provider_rejected ends the generation with that code; the message lists the earlier attempts', async ({
      expect,
    }) => {
      const { handle, trace, id } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2'), attempt('p3')], repairRounds: 1 }),
        writeComposition: async (call) => {
          if (call.provider === 'p1') throw providerFailure('provider_unavailable', 'connection refused');
          throw providerFailure('provider_rejected', '400 invalid request', usage(5, 0));
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('writeComposition').map((w) => w.provider)).toEqual(['p1', 'p2']);
      expect(trace.inputs('renderComposition')).toEqual([]);
      expect(trace.outcome).toMatchObject({
        status: 'failed',
        provider: null,
        usage: usage(5, 0),
        rendered: null,
        error: {
          code: 'provider_rejected',
          message:
            'p2: 400 invalid request (earlier attempts: p1: connection refused)' +
            `. The provider's answer is in the service's logs under ${id}`,
        },
      });
    });

    test('content_refused ends the generation at once, billed, without trying the next provider', async ({
      expect,
    }) => {
      const { handle, trace, id } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
        writeComposition: async () => {
          throw providerFailure('content_refused', 'the request violates the content policy', usage(7, 1));
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('writeComposition').map((w) => w.provider)).toEqual(['p1']);
      expect(trace.outcome).toMatchObject({
        status: 'failed',
        usage: usage(7, 1),
        error: {
          code: 'content_refused',
          message:
            'p1: the request violates the content policy' +
            `. The provider's answer is in the service's logs under ${id}`,
        },
      });
    });

    test('a call that times out (activity TimeoutFailure, after its one retry) counts as unavailable', async ({
      expect,
    }) => {
      const { handle, trace } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
        writeComposition: async (call) => (call.provider === 'p1' ? hang() : defaults.writeComposition(call)),
      });
      expect(await outcomeOf(handle)).toBe('completed');
      // Temporal runs the timed-out call twice (maximumAttempts 2), then p2 takes over.
      expect(
        trace.calls.filter((c) => c.activity === 'writeComposition' && !('event' in c)).map((c) => c.attempt),
      ).toEqual([1, 2, 1]);
      expect(trace.inputs('writeComposition').map((w) => w.provider)).toEqual(['p1', 'p1', 'p2']);
      expect(trace.outcome).toMatchObject({ status: 'completed', provider: 'p2', usage: usage(10, 20) });
    });

    test('skipped providers and all providers failing: provider_unavailable listing each reason', async ({
      expect,
    }) => {
      const { handle, trace, id } = await h.startGeneration({
        planRoute: async () => ({
          attempts: [
            attempt('p1', 'no API key configured'),
            attempt('p2'),
            attempt('p3'),
            attempt('p4', 'model not offered'),
          ],
          repairRounds: 1,
        }),
        writeComposition: async (call) => {
          if (call.provider === 'p2') return hang();
          throw providerFailure('provider_unavailable', '429 Too Many Requests', usage(2, 0));
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.outcome).toMatchObject({
        status: 'failed',
        usage: usage(2, 0),
        error: {
          code: 'provider_unavailable',
          message:
            'No provider could write the composition: p1: skipped, no API key configured; p2: ' +
            'the call did not finish in time; ' +
            'p3: 429 Too Many Requests; p4: skipped, model not offered' +
            `. The provider's answer is in the service's logs under ${id}`,
        },
      });
    });

    test(
      'every provider skipped: no call; started (naming the planned first provider) before completed; ' +
        'provider_unavailable with the reasons',
      async ({ expect }) => {
        const { handle, trace } = await h.startGeneration(
          {
            planRoute: async () => ({
              attempts: [attempt('p1', 'no API key configured'), attempt('p2', 'model not offered')],
              repairRounds: 1,
            }),
          },
          { webhook_url: 'https://hooks.example.com/video' },
        );
        expect(await outcomeOf(handle)).toBe('failed');
        expect(trace.inputs('writeComposition')).toEqual([]);
        expect(trace.outcome).toMatchObject({
          usage: null,
          error: {
            code: 'provider_unavailable',
            message:
              'No provider could write the composition: p1: skipped, no API key configured; p2: skipped, ' +
              'model not offered',
          },
        });
        const events = await emittedEvents(handle);
        expect(events.map((e) => [e.facts.type, e.facts.provider])).toEqual([
          ['video.generation.queued', 'p1'],
          ['video.generation.started', 'p1'],
          ['video.generation.completed', null],
        ]);
        // The started event goes out first, before the terminal record, which is given the completed one to send.
        const [, given] = trace.inputs('finishGeneration')[0] as unknown as [unknown, WebhookDeliveryInput];
        expect(given).toEqual(events[2]);
        const { events: history } = await handle.fetchHistory();
        const startedAt = (history ?? []).findIndex(
          (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId === events[1]!.eventId,
        );
        const recordAt = (history ?? []).findIndex(
          (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'finishGeneration',
        );
        expect(startedAt).toBeGreaterThan(0);
        expect(startedAt).toBeLessThan(recordAt);
      },
    );

    test('an empty plan: "No provider is configured"', async ({ expect }) => {
      const { handle, trace } = await h.startGeneration({ planRoute: async () => ({ attempts: [], repairRounds: 1 }) });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.outcome.error).toEqual({
        code: 'provider_unavailable',
        message: 'No provider is configured for this request',
      });
    });

    test('expand_prompt: one expansion, reused by the provider that takes over; every call is billed', async ({
      expect,
    }) => {
      const { handle, trace } = await h.startGeneration(
        {
          planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
          writeComposition: async (call) => {
            if (call.provider === 'p1') throw providerFailure('provider_unavailable', '502 Bad Gateway', usage(3, 4));
            return defaults.writeComposition(call);
          },
        },
        { expand_prompt: true },
      );
      expect(await outcomeOf(handle)).toBe('completed');
      expect(trace.inputs('expandPrompt').map((e) => e.provider)).toEqual(['p1']);
      expect(trace.inputs('writeComposition').map((w) => [w.provider, w.expandedPrompt])).toEqual([
        ['p1', 'expanded by p1'],
        ['p2', 'expanded by p1'],
      ]);
      // expansion (1, 2) + p1's failed call (3, 4) + p2's composition (10, 20)
      expect(trace.outcome.usage).toEqual(usage(14, 26));
    });

    test('expand_prompt: an expansion that fails is done again by the next provider', async ({ expect }) => {
      const { handle, trace } = await h.startGeneration(
        {
          planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
          expandPrompt: async (call) => {
            if (call.provider === 'p1') throw providerFailure('provider_unavailable', 'socket hang up', usage(1, 0));
            return defaults.expandPrompt(call);
          },
        },
        { expand_prompt: true },
      );
      expect(await outcomeOf(handle)).toBe('completed');
      expect(trace.inputs('expandPrompt').map((e) => e.provider)).toEqual(['p1', 'p2']);
      expect(trace.inputs('writeComposition').map((w) => [w.provider, w.expandedPrompt, w.draftNumber])).toEqual([
        ['p2', 'expanded by p2', 1],
      ]);
      expect(trace.outcome).toMatchObject({ provider: 'p2', usage: usage(12, 22) });
    });
  });

  describe('repair rounds', () => {
    test('invalid, then valid after one repair: the repair gets the previous draft key and its findings', async ({
      expect,
    }) => {
      const findings = [finding(1)];
      const { handle, trace, id } = await h.startGeneration({
        validateComposition: async (input) => (input.key === draftKey(id, 1) ? findings : []),
      });
      expect(await outcomeOf(handle)).toBe('completed');
      expect(trace.inputs('writeComposition').map((w) => [w.draftNumber, w.repair])).toEqual([
        [1, null],
        [2, { draftKey: draftKey(id, 1), findings }],
      ]);
      expect(trace.inputs('validateComposition').map((v) => v.key)).toEqual([draftKey(id, 1), draftKey(id, 2)]);
      expect(trace.inputs('renderComposition')[0]!.compositionKey).toBe(draftKey(id, 2));
      expect(trace.outcome).toMatchObject({ status: 'completed', provider: 'p1', usage: usage(20, 40) });
    });

    test(
      'still invalid after repairRounds: ' + 'invalid_composition listing the findings; no other provider is tried',
      async ({ expect }) => {
        const findings = Array.from({ length: 12 }, (_, i) => finding(i + 1));
        const { handle, trace, id } = await h.startGeneration({
          planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 2 }),
          validateComposition: async () => findings,
        });
        expect(await outcomeOf(handle)).toBe('failed');
        const writes = trace.inputs('writeComposition');
        expect(writes.map((w) => [w.provider, w.draftNumber, w.repair?.draftKey ?? null])).toEqual([
          ['p1', 1, null],
          ['p1', 2, draftKey(id, 1)],
          ['p1', 3, draftKey(id, 2)],
        ]);
        const listed = findings
          .slice(0, 10)
          .map((f) => `${f.code} at ${f.location}: ${f.message}`)
          .join('; ');
        expect(trace.outcome).toMatchObject({
          status: 'failed',
          usage: usage(30, 60),
          error: {
            code: 'invalid_composition',
            message: `The composition from p1 is still invalid after 2 repair round(s): ${listed}; and 2 more`,
          },
        });
      },
    );

    test('repairRounds 0: the first invalid draft fails the generation', async ({ expect }) => {
      const { handle, trace } = await h.startGeneration({
        planRoute: async () => ({ attempts: [attempt('p1')], repairRounds: 0 }),
        validateComposition: async () => [{ code: 'no_timeline', message: 'no timeline', severity: 'error' }],
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('writeComposition')).toHaveLength(1);
      expect(trace.outcome.error).toEqual({
        code: 'invalid_composition',
        message: 'The composition from p1 is still invalid after 0 repair round(s): no_timeline: no timeline',
      });
    });

    test('a validation activity that keeps failing: internal_error, the tokens billed', async ({ expect }) => {
      const { handle, trace, id } = await h.startGeneration({
        validateComposition: async () => {
          throw ApplicationFailure.create({ message: 'storage read failed', type: 'StorageError', nextRetryDelay: 10 });
        },
      });
      expect(await outcomeOf(handle)).toBe('failed');
      expect(trace.inputs('validateComposition')).toHaveLength(3); // planning retry policy: 3 attempts
      expect(trace.outcome).toMatchObject({
        usage: usage(10, 20),
        error: internalError(id),
        internalCause: 'StorageError: storage read failed',
      });
    });
  });

  test('stateQuery: queued, then in_progress without and with the provider, then the terminal status', async ({
    expect,
  }) => {
    const [started, written, rendered] = [gate(), gate(), gate()];
    const { handle, trace } = await h.startGeneration({
      planRoute: async () => ({ attempts: [attempt('p1'), attempt('p2')], repairRounds: 1 }),
      markStarted: () => started.promise,
      writeComposition: async (call) => {
        if (call.provider === 'p1') throw providerFailure('provider_unavailable', '503');
        await written.promise;
        return defaults.writeComposition(call);
      },
      renderComposition: async (input) => {
        await rendered.promise;
        return defaults.renderComposition(input);
      },
    });
    await trace.waitFor('markStarted');
    expect(await handle.query(stateQuery)).toMatchObject({
      status: 'queued',
      provider: null,
      progress: { stage: 'queued', percent: 0 },
    });
    started.open();
    await trace.waitFor('writeComposition', { nth: 2 });
    // The second provider after the first failed: composing with p2, the bar moved on.
    expect(await handle.query(stateQuery)).toMatchObject({
      status: 'in_progress',
      provider: null,
      progress: { stage: 'composing', provider: 'p2', repair_round: 0, percent: 8 },
    });
    written.open();
    await trace.waitFor('renderComposition');
    expect(await handle.query(stateQuery)).toMatchObject({
      status: 'in_progress',
      provider: 'p2',
      progress: { stage: 'rendering', percent: 15 },
    });
    rendered.open();
    expect(await outcomeOf(handle)).toBe('completed');
    const final = await handle.query(stateQuery);
    expect(final).toMatchObject({ status: 'completed', provider: 'p2', progress: null });
    // The record carries the terminal state's number (streams number their last event with it).
    expect(trace.outcome).toMatchObject({ eventSeq: final.seq });
  });

  test('stateQuery after a failure answers failed', async ({ expect }) => {
    const { handle } = await h.startGeneration({ planRoute: async () => ({ attempts: [], repairRounds: 1 }) });
    expect(await outcomeOf(handle)).toBe('failed');
    expect(await handle.query(stateQuery)).toMatchObject({ status: 'failed', provider: null, progress: null });
  });
});
