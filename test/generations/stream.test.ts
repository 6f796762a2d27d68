// Live progress through stock clients: the official `openai` package's streaming iterators read our
// server-sent events unchanged (Responses events and chat.completion chunks), a client can reattach
// after a given event, leaving never cancels, and a cancelled generation streams its end and closes
// (its workflow ends Canceled in Temporal, nothing left pending).
import { Client, Connection } from '@temporalio/client';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, bearer, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let client: OpenAI;
let key: string;
let temporal: Client;
let connection: Connection;
beforeAll(async () => {
  // Keep-alive comments every 200 ms, so a test can see them.
  stack = await startStack({ STREAM_HEARTBEAT_SECONDS: '0.2' });
  ({ key } = await createOrgWithKey(stack.db));
  client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
  connection = await Connection.connect({ address: inject('temporalAddress') });
  temporal = new Client({ connection, namespace: stack.namespace });
});
afterAll(async () => {
  await connection?.close();
  await stack?.close();
});

/** A HyperFrames render of a few seconds at a small size: long enough to show progress. */
const slow = { engine: 'hyperframes', width: 270, height: 480, duration_seconds: 4 } as Record<string, unknown>;
const quick = { engine: 'lottie', width: 160, height: 284 } as Record<string, unknown>;

type Event = { type: string; sequence_number: number; response?: any; progress?: any };

describe('streams through the official openai client', () => {
  it(
    'responses.create({stream: true}): created, queued, in_progress, rising progress, ' +
      'completed with the whole object',
    async () => {
      const stream = (await client.responses.create({
        model: 'gpt-4o-mini',
        input: 'A rocket launch countdown',
        stream: true,
        ...slow,
      } as any)) as unknown as AsyncIterable<Event>;
      const events: Event[] = [];
      for await (const event of stream) events.push(event);

      const types = events.map((e) => e.type);
      expect(types.slice(0, 3)).toEqual(['response.created', 'response.queued', 'response.in_progress']);
      expect(types.at(-1)).toBe('response.completed');
      const numbers = events.map((e) => e.sequence_number);
      expect(numbers.slice(0, 3)).toEqual([0, 1, 2]);
      expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)).toBe(true);

      const progress = events.filter((e) => e.type === 'response.progress').map((e) => e.progress);
      expect(progress.length).toBeGreaterThanOrEqual(2);
      const percents = progress.map((p) => p.percent);
      expect(percents.every((p, i) => i === 0 || p >= percents[i - 1])).toBe(true);
      expect(progress.map((p) => p.stage)).toContain('rendering');
      const rendering = progress.find((p) => p.stage === 'rendering' && p.frames_total);
      expect(rendering).toMatchObject({ frames_total: 120, frames_rendered: expect.any(Number) });

      const created = events[0]!.response;
      expect(created).toMatchObject({
        object: 'response',
        status: 'queued',
        output_video_url: null,
        progress: { stage: 'queued', percent: 0 },
      });
      const done = events.at(-1)!.response;
      expect(done).toMatchObject({
        id: created.id,
        status: 'completed',
        progress: null,
        output_video_url: expect.any(String),
      });
      // The same object a GET answers.
      const retrieved = (await api(stack.url, `/v1/responses/${created.id}`, { key })).body;
      expect(retrieved.output_video_url).toEqual(expect.any(String));
      expect(done.usage).toEqual(retrieved.usage);
    },
  );

  it(
    'chat.completions.create({stream: true}): chunks whose delta carries status and progress, ' +
      'the last one video_url and finish_reason',
    async () => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Confetti burst' }],
        stream: true,
        ...quick,
      } as any);
      const chunks: any[] = [];
      for await (const chunk of stream as unknown as AsyncIterable<any>) chunks.push(chunk);

      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0].id)).toBe(true);
      expect(chunks[0].choices[0].delta).toMatchObject({
        role: 'assistant',
        status: 'pending',
        progress: { stage: 'queued' },
      });
      const last = chunks.at(-1);
      expect(last.choices[0]).toMatchObject({
        finish_reason: 'stop',
        delta: { status: 'completed', video_url: { url: expect.any(String) } },
      });
      expect(last.usage).toMatchObject({ total_tokens: expect.any(Number) });
      const middle = chunks.slice(1, -1).map((c) => c.choices[0]);
      expect(middle.every((c) => c.finish_reason === null)).toBe(true);
      const percents = chunks
        .map((c) => c.choices[0].delta.progress?.percent)
        .filter((p) => p !== undefined && p !== null);
      expect(percents.every((p, i) => i === 0 || p >= percents[i - 1])).toBe(true);
    },
  );

  it('reattaches with ?stream=true&starting_after=N: only later events, ending with the final object', async () => {
    const created: any = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'A city skyline at dusk',
      ...slow,
    } as any);
    const first: Event[] = [];
    // Attach, read until the generation is in progress, then drop the connection.
    const attached = (await client.responses.retrieve(created.id, {
      stream: true,
    } as any)) as unknown as AsyncIterable<Event> & { controller: AbortController };
    for await (const event of attached) {
      first.push(event);
      if (event.sequence_number >= 2) break;
    }
    const seen = first.at(-1)!.sequence_number;
    const again = (await client.responses.retrieve(created.id, {
      stream: true,
      starting_after: seen,
    } as any)) as unknown as AsyncIterable<Event>;
    const later: Event[] = [];
    for await (const event of again) later.push(event);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((e) => e.sequence_number > seen)).toBe(true);
    expect(later.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { id: created.id, status: 'completed' },
    });

    // Attaching after the end: the final event alone, numbered as before.
    const after = (await client.responses.retrieve(created.id, {
      stream: true,
    } as any)) as unknown as AsyncIterable<Event>;
    const tail: Event[] = [];
    for await (const event of after) tail.push(event);
    expect(tail).toEqual([
      expect.objectContaining({ type: 'response.completed', sequence_number: later.at(-1)!.sequence_number }),
    ]);
  });

  it('a client that leaves does not cancel the generation; idle streams get keep-alive comments', async () => {
    const res = await fetch(`${stack.url}/v1/responses`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'Falling leaves', stream: true, ...quick }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': keep-alive') || !text.includes('response.created'))
      text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const id = /"id":"(gen_[^"]+)"/.exec(text)![1]!;
    expect((await waitForTerminal(stack.url, key, id)).body.status).toBe('completed');
  });

  it(
    'a cancelled generation streams its cancellation and closes; ' + 'its workflow ends Canceled with nothing pending',
    async () => {
      const stream = (await client.responses.create({
        model: 'gpt-4o-mini',
        input: 'A long cinematic title sequence',
        stream: true,
        ...slow,
        duration_seconds: 20,
      } as any)) as unknown as AsyncIterable<Event>;
      const events: Event[] = [];
      let cancel: Promise<unknown> | null = null;
      for await (const event of stream) {
        events.push(event);
        // Cancel once the render is under way.
        if (!cancel && event.type === 'response.progress' && event.progress.stage === 'rendering') {
          cancel = api(stack.url, `/v1/responses/${events[0]!.response.id}`, { method: 'DELETE', key });
        }
      }
      expect(await cancel).toMatchObject({ status: 200 });
      expect(events.at(-1)).toMatchObject({
        type: 'response.cancelled',
        response: { status: 'cancelled', error: { code: 'cancelled' }, progress: null },
      });

      const described = await temporal.workflow.getHandle(events[0]!.response.id).describe();
      expect(described.status.name).toBe('CANCELLED');
      expect(described.raw.pendingActivities ?? []).toEqual([]);
    },
  );

  it(
    'streams answer errors as JSON before any event: ' + '404 for an unknown id, 400 for a bad starting_after',
    async () => {
      expect((await api(stack.url, '/v1/responses/gen_000000000000000000000000?stream=true', { key })).status).toBe(
        404,
      );
      const bad = await api(stack.url, '/v1/responses/gen_000000000000000000000000?stream=true&starting_after=-1', {
        key,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ param: 'starting_after' });
    },
  );
});
