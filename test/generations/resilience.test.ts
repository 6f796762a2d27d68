// 20 generations at once all complete, and another organization's generation is not queued behind
// them (fairness keys); a worker killed with SIGKILL mid-render still completes.
import { tsToMs } from '@temporalio/common/lib/time.js';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemporalClient } from '../../src/temporal/client.js';
import { expectSettled } from '../usage/support.js';
import { rendering, waitUntil } from '../support/media.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

const INITIAL_CENTS = 10_000;
let stack: TestStack;
let key: string;
let orgId: string;
beforeAll(async () => {
  stack = await startStack();
  ({
    key,
    org: { id: orgId },
  } = await createOrgWithKey(stack.db, INITIAL_CENTS));
});
afterAll(() => stack?.close());

/** When the generation's render task was queued and when a render slot took it (its last attempt). */
async function renderQueueWait(temporal: Client, id: string): Promise<{ scheduledMs: number; startedMs: number }> {
  const { events } = await temporal.workflow.getHandle(id).fetchHistory();
  const scheduled = events!.find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'renderComposition',
  )!;
  const started = events!.find(
    (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === scheduled.eventId!.toString(),
  )!;
  return { scheduledMs: tsToMs(scheduled.eventTime), startedMs: tsToMs(started.eventTime) };
}

describe('resilience', () => {
  it(
    "20 generations of one organization started at once all complete; another organization's generation overtakes " +
      'their render backlog (fairness keys)',
    async () => {
      const bodyOf = (i: number) =>
        i % 2
          ? {
              path: '/v1/responses',
              json: { model: 'gpt-4o-mini', engine: 'lottie', input: `Shape study ${i}`, width: 160, height: 284 },
            }
          : {
              path: '/v1/chat/completions',
              json: {
                model: 'gpt-4o-mini',
                engine: 'lottie',
                messages: [{ role: 'user', content: `Shape study ${i}` }],
                width: 160,
                height: 284,
              },
            };
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api(stack.url, bodyOf(i).path, { method: 'POST', key, json: bodyOf(i).json }),
        ),
      );
      expect(created.map((c) => c.status)).toEqual(Array(20).fill(200));
      const ids = created.map((c) => c.body.id as string);
      expect(new Set(ids).size).toBe(20);

      // Organization B sends one once A's renders have begun (a backlog of A's renders is queued).
      await waitUntil('a render of organization A', () => rendering(stack.worker.child.pid!), 60_000);
      const other = await createOrgWithKey(stack.db);
      const b = await api(stack.url, '/v1/responses', { method: 'POST', key: other.key, json: bodyOf(1).json });
      expect(b.status).toBe(200);

      const done = await Promise.all(
        [...ids, b.body.id].map((id, i) => waitForTerminal(stack.url, i < 20 ? key : other.key, id, 180_000)),
      );
      expect(done.map((d) => d.body.status)).toEqual(Array(21).fill('completed'));
      await expectSettled(stack, other.key, other.org.id, 10_000);

      // Render queue waits from the workflows' histories (render task scheduled → a render slot took it).
      const temporal = createTemporalClient(stack.config);
      try {
        const [waitB, ...waitsA] = await Promise.all([b.body.id, ...ids].map((id) => renderQueueWait(temporal, id)));
        // A's renders still waiting when B's was queued, and which of them B's overtook.
        const backlog = waitsA.filter((a) => a.scheduledMs < waitB!.scheduledMs && a.startedMs > waitB!.scheduledMs);
        const overtaken = backlog.filter((a) => a.startedMs > waitB!.startedMs);
        const seconds = (ms: number) => (ms / 1000).toFixed(1);
        console.log(
          `fairness: B's render waited ${seconds(waitB!.startedMs - waitB!.scheduledMs)} s; A's waited ` +
            `${waitsA.map((a) => seconds(a.startedMs - a.scheduledMs)).join(', ')} s; ` +
            `B overtook ${overtaken.length} of the ${backlog.length} A renders queued before it`,
        );
        expect(backlog.length).toBeGreaterThan(1);
        // Round-robin across fairness keys: at most the one A task dispatched alongside B's turn goes first.
        expect(overtaken.length).toBeGreaterThanOrEqual(backlog.length - 1);
      } finally {
        await temporal.connection.close();
      }
    },
    240_000,
  );

  it('a worker killed with SIGKILL mid-render is replaced and the generation still completes', async () => {
    const created = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'Survives a crash', width: 540, height: 960 },
    });
    const id = created.body.id;
    await waitUntil('render started', () => rendering(stack.worker.child.pid!));
    await stack.restartWorker('SIGKILL');
    const done = await waitForTerminal(stack.url, key, id, 120_000);
    expect(done.body.status).toBe('completed');
    expect(done.body.output_video_url).toEqual(expect.any(String));
    // Charged once, even though the render ran twice.
    const { rows } = await stack.db.query(
      `SELECT count(*)::int AS n FROM credit_ledger WHERE generation_id = $1 AND kind = 'generation_charge'`,
      [id],
    );
    expect(rows[0].n).toBe(1);
    // Every hold of the organization released (this one by the retried workflow's end), costs exact.
    await expectSettled(stack, key, orgId, INITIAL_CENTS);
  }, 180_000);
});
