// Deliveries go first: an I/O worker kept busy with compositions (one activity slot here, so the others
// queue in Temporal's backlog) while a generation completes. Each time the slot frees while a step of
// the completion (the terminal record, which sends the completed event's first attempt) waits beside
// compositions queued before it, Temporal hands the slot to the completion (task priority,
// deliveryPriority in the contract), so the completed event is delivered while those compositions
// are still waiting. Ordered by events: the test opens every gate itself and waits on no clock.
// Every generation has the same fairness key (as the API starts them), so only priority can put the
// completion first: with deliveryPriority's key at the default (3) this test fails, all six
// compositions going first.
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { compositionKey, videoKey } from '../../src/storage/keys.js';
import { attemptResult, emittedEvents, outcomeOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(inject('temporalAddress'), { ioWorker: { maxConcurrentActivityTaskExecutions: 1 } });
});
afterAll(async () => {
  await h?.close();
});

// temporal.api.enums.v1.PendingActivityState
const SCHEDULED = 1;

/** The activity types of a workflow waiting in a task queue's backlog (scheduled, not started). */
async function backlogged(handle: WorkflowHandle): Promise<string[]> {
  try {
    const { raw } = await handle.describe();
    return (raw.pendingActivities ?? []).filter((a) => a.state === SCHEDULED).map((a) => a.activityType?.name ?? '');
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return []; // a delivery workflow its parent is still starting
    throw err;
  }
}

/** Gates the stubs wait on; all opened when the test ends, however it ends (the workers drain). */
const gatesOpenAtEnd: Array<{ open(): void }> = [];
afterEach(() => {
  for (const g of gatesOpenAtEnd) g.open();
});

/** Checks `check` until it holds (each check reads Temporal's state: no outcome is timed). */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** A gate a stub waits on; `opened` once the test opens it. */
function openable() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  const g = { opened: false, promise, open: () => ((g.opened = true), open()) };
  gatesOpenAtEnd.push(g);
  return g;
}

it(
  'a completed event is delivered ahead of the compositions queued before it (task priority, ' + 'not arrival order)',
  async () => {
    /** Every activity start on the I/O worker, in order. */
    const starts: Array<{ who: string; activity: string }> = [];
    const log = (who: string, activity: string) => void starts.push({ who, activity });
    const eventTypes = new Map<string, string>();
    const delivered = () => starts.some((s) => s.activity === 'attemptWebhookDelivery video.generation.completed');

    // The generation that completes; its render waits for the test.
    const render = openable();
    const completing = await h.startGeneration(
      {
        renderComposition: async (input) => {
          await render.promise;
          return {
            video: { key: videoKey(input.generationId), content_type: 'video/mp4' },
            artifact: { key: input.compositionKey, content_type: 'text/html' },
            duration_seconds: 2,
          };
        },
        // The terminal record sends the completed event's first attempt, as activities/records.ts does.
        finishGeneration: async (_outcome, event) => {
          log('completing', 'finishGeneration');
          if (!event) return;
          log('completing', `attemptWebhookDelivery ${event.facts.type}`);
          return {
            plan: { retryScheduleMs: [0] },
            result: attemptResult({ eventId: event.eventId, attempt: 1 }, 204),
            status: 'delivered',
          };
        },
        prepareWebhookEvent: async (input) => {
          eventTypes.set(input.eventId, input.facts.type);
          log('completing', `prepareWebhookEvent ${input.facts.type}`);
          return { retryScheduleMs: [0] };
        },
        attemptWebhookDelivery: async (req) => {
          log('completing', `attemptWebhookDelivery ${eventTypes.get(req.eventId)}`);
          return attemptResult(req, 204);
        },
      },
      { webhook_url: 'https://hooks.example.com/video' },
    );
    await completing.trace.waitFor('renderComposition');
    // Its queued and started events are out before the compositions come.
    await until(() => starts.filter((s) => s.activity.startsWith('attemptWebhookDelivery')).length === 2);
    await until(async () => (await backlogged(completing.handle)).length === 0);

    // Six compositions for the one slot: each holds it until the test opens its gate.
    const held: Array<{ who: string; gate: ReturnType<typeof openable> }> = [];
    const composers = await Promise.all(
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((name) =>
        h.startGeneration({
          planRoute: async () => {
            log(name, 'planRoute');
            return { attempts: [{ provider: 'p1', skipped: null, timeoutMs: 60_000 }], repairRounds: 0 };
          },
          writeComposition: async (call) => {
            log(name, 'writeComposition');
            const gate = openable();
            held.push({ who: name, gate });
            await gate.promise;
            return { key: compositionKey(call.generationId, 1, 'html'), usage: { input_tokens: 1, output_tokens: 1 } };
          },
        }),
      ),
    );
    /** The composition holding the slot now. */
    const holder = () => held.find((x) => !x.gate.opened);
    const composing = (who: string) => starts.some((s) => s.who === who && s.activity === 'writeComposition');
    // One composition holds the slot, the five others wait in the backlog.
    await until(
      async () =>
        holder() !== undefined &&
        (await Promise.all(composers.map((c) => backlogged(c.handle)))).filter((q) => q.length > 0).length ===
          composers.length - 1,
    );

    // The render ends: the terminal record joins the backlog behind the five queued compositions.
    render.open();
    await until(async () => (await backlogged(completing.handle)).includes('finishGeneration'));
    const queuedBefore = composers.length - held.length;

    // Whenever a composition holds the slot while a step of the completion (the record, its completed
    // event's preparation and delivery) waits in the backlog, free the slot: first in, first out, the
    // record alone would wait for the five compositions queued before it; by priority each step takes
    // the freed slot (or the next one, when the step has not reached the task queue's matcher yet).
    const completionBacklog = async () => {
      const completed = (await emittedEvents(completing.handle)).find(
        (e) => e.facts.type === 'video.generation.completed',
      );
      const delivery = completed ? await backlogged(h.client.workflow.getHandle(completed.eventId)) : [];
      return [...(await backlogged(completing.handle)), ...delivery];
    };
    let freed = 0;
    while (!delivered()) {
      await until(async () => delivered() || (holder() !== undefined && (await completionBacklog()).length > 0));
      if (delivered()) break;
      holder()!.gate.open();
      freed++;
    }
    const notYetComposing = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].filter((name) => !composing(name));
    // Delivered while compositions queued before the render's end had not even started.
    expect(notYetComposing.length, `${freed} slots freed; ${JSON.stringify(starts)}`).toBeGreaterThan(0);
    expect(freed, JSON.stringify(starts)).toBeLessThan(queuedBefore);

    // The compositions all go on once their gates open, and every workflow ends.
    await until(() => {
      for (const x of held) x.gate.open();
      return held.length === composers.length;
    });
    for (const x of held) x.gate.open();
    for (const c of composers) expect(await outcomeOf(c.handle)).toBe('completed');
    expect(await outcomeOf(completing.handle)).toBe('completed');
    const completed = (await emittedEvents(completing.handle)).find(
      (e) => e.facts.type === 'video.generation.completed',
    )!;
    const delivery = h.client.workflow.getHandle(completed.eventId);
    expect(await delivery.result()).toEqual({ status: 'delivered', attempts: 1 });
    expect((await delivery.describe()).raw.workflowExecutionInfo?.priority).toMatchObject({
      priorityKey: 1,
      fairnessKey: 'org_test',
    });
  },
);
