// The prompt and message limits (src/api/generations/schema.ts LIMITS) that bound what reaches the
// providers: every limit is accepted exactly at its value and answered 400, naming the field, one
// past it. Accepted requests start workflows in a namespace of their own that no worker serves.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { LIMITS } from '../../src/api/generations/schema.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
let key: string;
beforeAll(async () => {
  const namespace = `limits-${crypto.randomBytes(4).toString('hex')}`;
  await createNamespace(inject('temporalAddress'), namespace);
  // Media URLs on loopback pass the request check only with the test setting; no worker fetches them here.
  stack = await startApi({ TEMPORAL_NAMESPACE: namespace, OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true' });
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

const base = { model: 'gpt-4o-mini', engine: 'lottie', width: 160, height: 284 };
const chars = (n: number) => 'x'.repeat(n);
const url = (n: number) => `https://127.0.0.1/${chars(n - 'https://127.0.0.1/'.length - 4)}.png`;
const userMessages = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: 'x' }));
const textParts = (n: number, type = 'input_text') => Array.from({ length: n }, () => ({ type, text: 'x' }));
const imageInput = (u: string) => [
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'x' },
      { type: 'input_image', image_url: { url: u } },
    ],
  },
];

/** [limit, body at the limit, body one past it, param named by the 400] for POST /v1/responses. */
const responsesCases: [string, object, object, string][] = [
  [
    'maxMessages',
    { input: userMessages(LIMITS.maxMessages) },
    { input: userMessages(LIMITS.maxMessages + 1) },
    'input',
  ],
  [
    'maxPartsPerMessage',
    { input: [{ role: 'user', content: textParts(LIMITS.maxPartsPerMessage) }] },
    { input: [{ role: 'user', content: textParts(LIMITS.maxPartsPerMessage + 1) }] },
    'input.0.content',
  ],
  [
    'maxTextChars (input string)',
    { input: chars(LIMITS.maxTextChars) },
    { input: chars(LIMITS.maxTextChars + 1) },
    'input',
  ],
  [
    'maxTextChars (text part)',
    { input: [{ role: 'user', content: [{ type: 'input_text', text: chars(LIMITS.maxTextChars) }] }] },
    { input: [{ role: 'user', content: [{ type: 'input_text', text: chars(LIMITS.maxTextChars + 1) }] }] },
    'input.0.content.0.text',
  ],
  [
    'maxTextChars (instructions)',
    { input: 'x', instructions: chars(LIMITS.maxTextChars) },
    { input: 'x', instructions: chars(LIMITS.maxTextChars + 1) },
    'instructions',
  ],
  [
    'maxTotalTextChars',
    {
      input: [
        { role: 'user', content: chars(LIMITS.maxTextChars) },
        { role: 'user', content: chars(LIMITS.maxTotalTextChars - LIMITS.maxTextChars) },
      ],
    },
    {
      input: [
        { role: 'user', content: chars(LIMITS.maxTextChars) },
        { role: 'user', content: chars(LIMITS.maxTotalTextChars - LIMITS.maxTextChars) },
        { role: 'user', content: 'x' },
      ],
    },
    'input',
  ],
  [
    'maxUrlChars (image)',
    { input: imageInput(url(LIMITS.maxUrlChars)) },
    { input: imageInput(url(LIMITS.maxUrlChars + 1)) },
    'input.0.content.1.image_url.url',
  ],
  [
    'maxProviders',
    { input: 'x', provider: { order: Array(LIMITS.maxProviders).fill('local') } },
    { input: 'x', provider: { order: Array(LIMITS.maxProviders + 1).fill('local') } },
    'provider.order',
  ],
  [
    'provider slug length (64)',
    { input: 'x', provider: { order: ['local'] } },
    { input: 'x', provider: { order: [chars(65)] } },
    'provider.order.0',
  ],
  ['model id length (100)', { input: 'x' }, { input: 'x', model: chars(101) }, 'model'],
];

/** The same limits through the Chat shape. */
const chatCases: [string, object, object, string][] = [
  [
    'maxMessages',
    { messages: userMessages(LIMITS.maxMessages) },
    { messages: userMessages(LIMITS.maxMessages + 1) },
    'messages',
  ],
  [
    'maxPartsPerMessage',
    { messages: [{ role: 'user', content: textParts(LIMITS.maxPartsPerMessage, 'text') }] },
    { messages: [{ role: 'user', content: textParts(LIMITS.maxPartsPerMessage + 1, 'text') }] },
    'messages.0.content',
  ],
  [
    'maxTextChars (message string)',
    { messages: [{ role: 'user', content: chars(LIMITS.maxTextChars) }] },
    { messages: [{ role: 'user', content: chars(LIMITS.maxTextChars + 1) }] },
    'messages.0.content',
  ],
  [
    'maxUrlChars (video)',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'video_url', video_url: { url: url(LIMITS.maxUrlChars) } },
          ],
        },
      ],
    },
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'video_url', video_url: { url: url(LIMITS.maxUrlChars + 1) } },
          ],
        },
      ],
    },
    'messages.0.content.1.video_url.url',
  ],
];

async function post(path: string, body: object) {
  return api(stack.url, path, { method: 'POST', key, json: { ...base, ...body } });
}

describe.each([
  ['/v1/responses', responsesCases],
  ['/v1/chat/completions', chatCases],
] as const)('POST %s limits', (path, cases) => {
  it.each(cases)('%s: accepted at the limit, 400 past it', async (_limit, atLimit, pastLimit, param) => {
    const ok = await post(path, atLimit);
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
    const bad = await post(path, pastLimit);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: 'invalid_request', message: expect.any(String), param });
  });
});

describe('provider.order at request time', () => {
  it('400 with param provider.order for an unknown provider slug, naming it', async () => {
    const res = await post('/v1/responses', { input: 'x', provider: { order: ['local', 'no-such-provider'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'invalid_request',
      message: expect.stringContaining('"no-such-provider"'),
      param: 'provider.order',
    });
  });

  it('400 with param provider.order when no listed provider serves the model', async () => {
    const res = await post('/v1/chat/completions', {
      messages: [{ role: 'user', content: 'x' }],
      model: 'gpt-4o-mini',
      provider: { order: ['ollama'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      param: 'provider.order',
      message: expect.stringContaining('serves model gpt-4o-mini'),
    });
  });
});
