// A stock client works unchanged: the official `openai` npm package against the local base URL.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let client: OpenAI;
let key: string;
beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
  client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
});
afterAll(() => stack?.close());

// Our extra body parameters ride along as the SDK sends unknown fields through unchanged.
const extra = { engine: 'lottie', width: 160, height: 284 } as Record<string, unknown>;

describe('official openai client', () => {
  it('responses.create / responses.retrieve', async () => {
    const created: any = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'A paper plane loop',
      ...extra,
    } as any);
    expect(created).toMatchObject({ object: 'response', status: 'queued', engine: 'lottie' });
    await waitForTerminal(stack.url, key, created.id);
    const done: any = await client.responses.retrieve(created.id);
    expect(done.status).toBe('completed');
    expect(done.output[0].content[0]).toMatchObject({ type: 'output_video', video_url: { url: expect.any(String) } });
    expect(done.output_video_url).toBe(done.output[0].content[0].video_url.url);
  });

  it('chat.completions.create with extra body parameters, then retrieve', async () => {
    const created: any = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Confetti burst' }],
      ...extra,
      aspectRatio: '9:16',
    } as any);
    expect(created).toMatchObject({
      object: 'chat.completion',
      status: 'pending',
      choices: [{ index: 0, finish_reason: null }],
    });
    await waitForTerminal(stack.url, key, created.id, 90_000, '/v1/chat/completions');
    const done: any = await client.chat.completions.retrieve(created.id);
    expect(done.status).toBe('completed');
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.choices[0].message.video_url.url).toEqual(expect.any(String));
  });

  it('surfaces our errors as the SDK errors', async () => {
    await expect(client.responses.create({ model: 'no-such-model', input: 'x' } as any)).rejects.toMatchObject({
      status: 400,
      error: { code: 'invalid_request', param: 'model' },
    });
    const bad = new OpenAI({ apiKey: 'vg_nope', baseURL: `${stack.url}/v1`, maxRetries: 0 });
    await expect(bad.responses.retrieve('gen_000000000000000000000000')).rejects.toMatchObject({ status: 401 });
  });
});
