// Cancellation: mid-render (render aborted, no stray processes), after completion (409), unknown (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendering, waitUntil } from '../support/media.js';
import { expectSettled } from '../usage/support.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
let orgId: string;
beforeAll(async () => {
  stack = await startStack();
  ({
    key,
    org: { id: orgId },
  } = await createOrgWithKey(stack.db, 10_000));
});
afterAll(() => stack?.close());

type LogLine = { level: number; msg: string; generation_id?: string; [field: string]: unknown };
/** The worker's JSON log lines so far (the output kept may begin mid-line). */
const workerLines = () =>
  stack.worker
    .output()
    .split('\n')
    .flatMap((l): LogLine[] => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });

describe('cancellation', () => {
  it('cancels mid-render: cancelled in both views, render processes gone', async () => {
    // A full-size HyperFrames render takes several seconds: long enough to cancel in the middle.
    const created = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'A long cinematic title sequence', width: 1080, height: 1920 },
    });
    const id = created.body.id;
    await waitUntil('render started', () => rendering(stack.worker.child.pid!));
    expect((await api(stack.url, `/v1/responses/${id}`, { key })).body.status).toBe('in_progress');

    const del = await api(stack.url, `/v1/chat/completions/${id}`, { method: 'DELETE', key });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id, cancelled: true });

    const responses = (await api(stack.url, `/v1/responses/${id}`, { key })).body;
    expect(responses.status).toBe('cancelled');
    expect(responses.output_video_url).toBeNull();
    expect(responses.output[0].status).toBe('incomplete');
    expect(responses.error).toEqual({ code: 'cancelled', message: expect.any(String) });
    const chat = (await api(stack.url, `/v1/chat/completions/${id}`, { key })).body;
    expect(chat.status).toBe('cancelled');
    expect(chat.error).toEqual({ message: expect.any(String), type: 'cancelled' });
    expect(chat.choices[0]).toMatchObject({ finish_reason: null, message: { video_url: null } });

    // The render was aborted: no Chrome or ffmpeg left under the worker.
    await waitUntil('render processes gone', async () => !(await rendering(stack.worker.child.pid!)), 5000);

    // The worker logs it as a cancel, naming the generation: never as a render that failed.
    const linesOf = () => workerLines().filter((l) => l.generation_id === id);
    const logged = (msg: string) => linesOf().some((l) => l.msg === msg && l.level === 30);
    await waitUntil('cancel logged', async () => logged('generation cancelled') && logged('render cancelled'));
    expect(linesOf().filter((l) => l.level >= 40)).toEqual([]);

    // Terminal states are never left: cancelling again is a conflict.
    const again = await api(stack.url, `/v1/responses/${id}`, { method: 'DELETE', key });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('generation_finished');
    // The cancel released the generation's credit hold and charged what its calls used.
    await expectSettled(stack, key, orgId, 10_000);
  });

  it('cancelling a completed generation answers 409 and changes nothing', async () => {
    const created = await api(stack.url, '/v1/chat/completions', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        engine: 'lottie',
        messages: [{ role: 'user', content: 'Quick dot' }],
        width: 160,
        height: 284,
      },
    });
    const done = await waitForTerminal(stack.url, key, created.body.id);
    expect(done.body.status).toBe('completed');
    const del = await api(stack.url, `/v1/chat/completions/${created.body.id}`, { method: 'DELETE', key });
    expect(del.status).toBe(409);
    expect(del.body.error).toEqual({ code: 'generation_finished', message: expect.stringContaining('completed') });
    expect((await api(stack.url, `/v1/responses/${created.body.id}`, { key })).body.status).toBe('completed');
  });

  it('unknown ids answer 404 on GET and DELETE in both shapes', async () => {
    for (const path of ['/v1/responses', '/v1/chat/completions']) {
      for (const id of ['gen_000000000000000000000000', 'nope', 'x'.repeat(500)]) {
        for (const method of ['GET', 'DELETE']) {
          const res = await api(stack.url, `${path}/${id}`, { method, key });
          expect(res.status, `${method} ${path}/${id.slice(0, 20)}`).toBe(404);
          expect(res.body.error.code).toBe('not_found');
        }
      }
    }
  });
});
