// 20 generations at once all complete; a worker killed with SIGKILL mid-render still completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendering, waitUntil } from '../support/media.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

describe('resilience', () => {
  it('20 generations started at once all complete', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(stack.url, i % 2 ? '/v1/responses' : '/v1/chat/completions', {
          method: 'POST',
          key,
          json:
            i % 2
              ? { model: 'gpt-4o-mini', engine: 'lottie', input: `Shape study ${i}`, width: 160, height: 284 }
              : { model: 'gpt-4o-mini', engine: 'lottie', messages: [{ role: 'user', content: `Shape study ${i}` }], width: 160, height: 284 },
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual(Array(20).fill(200));
    const ids = created.map((c) => c.body.id);
    expect(new Set(ids).size).toBe(20);
    const done = await Promise.all(ids.map((id) => waitForTerminal(stack.url, key, id, 180_000)));
    expect(done.map((d) => d.body.status)).toEqual(Array(20).fill('completed'));
  }, 240_000);

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
  }, 180_000);
});
