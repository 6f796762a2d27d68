// Both request shapes from create to completed with a real (small) render, fields checked against
// interface 2.1 and 2.2; cross-shape reads; cost from catalog prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatView, responsesView } from '../../src/api/openapi/schemas.js';
import { Catalog } from '../../src/catalog/index.js';
import { getEngine } from '../../src/engines/index.js';
import { probeUrl } from '../support/media.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
const catalog = Catalog.load();

beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

const nowSeconds = () => Date.now() / 1000;

/** Expected cost computed independently from catalog.json and the engine module: tokens × base price × multiplier. */
function expectedCostUsd(engine: string, model: string, input: number, output: number) {
  const multiplier = getEngine(engine).premiumMultiplier;
  const m = catalog.file.models.find((x) => x.id === model)!;
  const micros = Math.ceil(
    (input * Math.round(m.input_per_million_usd * 1e6 * multiplier) +
      output * Math.round(m.output_per_million_usd * 1e6 * multiplier)) /
      1e6,
  );
  return micros / 1e6;
}

describe('Responses shape', () => {
  it('creates queued, completes with a real video, every field as in interface 2.1', async () => {
    const before = nowSeconds();
    const created = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        input: 'A calm ocean sunrise over a lighthouse',
        engine: 'lottie',
        width: 160,
        height: 284,
      },
    });
    expect(created.status).toBe(200);
    const g = created.body;
    expect(g).toEqual({
      id: expect.stringMatching(/^gen_[0-9a-f]{24}$/),
      object: 'response',
      status: 'queued',
      model: 'gpt-4o-mini',
      engine: 'lottie',
      provider: null,
      created_at: expect.any(Number),
      completed_at: null,
      output: [{ type: 'message', id: `${g.id}_msg`, role: 'assistant', status: 'in_progress', content: [] }],
      output_video_url: null,
      usage: null,
      latency_ms: null,
      error: null,
      artifact_url: null,
      thumbnail_url: null,
      spritesheet_url: null,
      captions_url: null,
      artifact_type: null,
      // Extension: the storyboard the embedded composer planned, once it has.
      storyboard_url: null,
      // Extension: live progress, null once terminal.
      progress: {
        stage: 'queued',
        percent: 0,
        frames_rendered: null,
        frames_total: null,
        eta_seconds: null,
        provider: null,
        repair_round: null,
      },
    });
    expect(Number.isInteger(g.created_at)).toBe(true);
    expect(g.created_at).toBeGreaterThanOrEqual(Math.floor(before));
    expect(g.created_at).toBeLessThanOrEqual(Math.ceil(nowSeconds()));

    const done = (await waitForTerminal(stack.url, key, g.id)).body;
    // Exactly the documented shape: no field missing, none extra (strict schema of the OpenAPI document).
    responsesView.parse(g);
    responsesView.parse(done);
    expect(done.status).toBe('completed');
    expect(done.provider).toBe('local');
    expect(done.created_at).toBe(g.created_at);
    // completed_at is in milliseconds, created_at in seconds.
    expect(done.completed_at).toBeGreaterThan(done.created_at * 1000);
    expect(done.completed_at).toBeLessThanOrEqual(Date.now());
    expect(done.latency_ms).toBeGreaterThan(0);
    expect(done.latency_ms).toBeLessThanOrEqual(done.completed_at - done.created_at * 1000 + 1000);
    expect(done.error).toBeNull();

    const [message] = done.output;
    expect(message).toMatchObject({ type: 'message', id: `${g.id}_msg`, role: 'assistant', status: 'completed' });
    expect(message.content).toEqual([
      { type: 'output_video', video_url: { url: expect.any(String), expires_at: expect.any(Number) } },
    ]);
    const videoUrl = message.content[0].video_url;
    expect(done.output_video_url).toBe(videoUrl.url);
    expect(videoUrl.expires_at).toBeGreaterThan(nowSeconds());

    const usage = done.usage;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage.cost_usd).toBeCloseTo(
      expectedCostUsd('lottie', 'gpt-4o-mini', usage.input_tokens, usage.output_tokens),
      9,
    );

    expect(done.artifact_type).toBe('application/json');
    expect(done.artifact_url).toEqual({ url: expect.any(String), expires_at: expect.any(Number) });
    expect(done.storyboard_url).toEqual({ url: expect.any(String), expires_at: expect.any(Number) });
    const artifact = await fetch(done.artifact_url.url);
    expect(artifact.status).toBe(200);
    const lottie = await artifact.json();
    expect(lottie).toMatchObject({ w: 160, h: 284 });

    const video = await probeUrl(done.output_video_url);
    expect(video).toMatchObject({ codec: 'h264', width: 160, height: 284, contentType: 'video/mp4' });
    expect(video.frames).toBeGreaterThan(10);

    // The same generation through the Chat view.
    const chat = (await api(stack.url, `/v1/chat/completions/${g.id}`, { key })).body;
    expect(chat).toMatchObject({
      id: g.id,
      object: 'chat.completion',
      status: 'completed',
      created: g.created_at,
      completed_at: done.completed_at,
      usage: {
        prompt_tokens: usage.input_tokens,
        completion_tokens: usage.output_tokens,
        total_tokens: usage.total_tokens,
        cost_usd: usage.cost_usd,
      },
    });
    expect(chat.choices[0].message.video_url.url).toEqual(expect.any(String));
  });
});

describe('Chat-Completions shape', () => {
  it('creates pending, completes with a HyperFrames render, every field as in interface 2.2', async () => {
    const created = await api(stack.url, '/v1/chat/completions', {
      method: 'POST',
      key,
      json: {
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'system', content: 'Keep it minimal.' },
          { role: 'user', content: [{ type: 'text', text: 'Neon city skyline at night' }] },
        ],
        width: 160,
        height: 284,
      },
    });
    expect(created.status).toBe(200);
    const g = created.body;
    expect(g).toEqual({
      id: expect.stringMatching(/^gen_/),
      object: 'chat.completion',
      status: 'pending',
      model: 'claude-sonnet-4-5',
      engine: 'hyperframes',
      provider: null,
      created: expect.any(Number),
      completed_at: null,
      choices: [{ index: 0, message: { role: 'assistant', content: null, video_url: null }, finish_reason: null }],
      usage: null,
      latency_ms: null,
      error: null,
      artifact_url: null,
      thumbnail_url: null,
      spritesheet_url: null,
      captions_url: null,
      artifact_type: null,
      // Extension: the storyboard the embedded composer planned, once it has.
      storyboard_url: null,
      progress: {
        stage: 'queued',
        percent: 0,
        frames_rendered: null,
        frames_total: null,
        eta_seconds: null,
        provider: null,
        repair_round: null,
      },
    });

    const done = (await waitForTerminal(stack.url, key, g.id, 120_000, '/v1/chat/completions')).body;
    chatView.parse(g);
    chatView.parse(done);
    expect(done.status).toBe('completed');
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      video_url: { url: expect.any(String), expires_at: expect.any(Number) },
    });
    expect(done.usage.total_tokens).toBe(done.usage.prompt_tokens + done.usage.completion_tokens);
    expect(done.usage.cost_usd).toBeCloseTo(
      expectedCostUsd('hyperframes', 'claude-sonnet-4-5', done.usage.prompt_tokens, done.usage.completion_tokens),
      9,
    );
    expect(done.artifact_type).toBe('text/html');
    const video = await probeUrl(done.choices[0].message.video_url.url);
    expect(video).toMatchObject({ codec: 'h264', width: 160, height: 284 });

    // The system message became instructions; the prompt reached the composition.
    const html = await (await fetch(done.artifact_url.url)).text();
    expect(html).toContain('Neon city skyline at night');

    const responses = (await api(stack.url, `/v1/responses/${g.id}`, { key })).body;
    expect(responses).toMatchObject({ id: g.id, object: 'response', status: 'completed', created_at: g.created });
    // Both views point at the same stored video (signatures may differ by expiry second).
    expect(new URL(responses.output_video_url).pathname).toBe(new URL(done.choices[0].message.video_url.url).pathname);
  });
});

describe('length (duration_seconds extension)', () => {
  // Two HyperFrames renders of 7 s and 4 s: the bound is generous for a loaded 2-core machine.
  it(
    'duration_seconds sets the length; a length stated in the prompt is used without it',
    { timeout: 240_000 },
    async () => {
      const [asked, stated] = await Promise.all(
        [
          {
            model: 'gpt-4o-mini',
            engine: 'hyperframes',
            input: 'A calm ocean sunrise. Waves roll in.',
            duration_seconds: 7,
            width: 160,
            height: 284,
          },
          {
            model: 'gpt-4o-mini',
            engine: 'hyperframes',
            input: 'A 4-second hello from the lighthouse',
            width: 160,
            height: 284,
          },
        ].map(async (json) => {
          const created = await api(stack.url, '/v1/responses', { method: 'POST', key, json });
          expect(created.status).toBe(200);
          return (await waitForTerminal(stack.url, key, created.body.id, 180_000)).body;
        }),
      );
      expect(asked.status).toBe('completed');
      expect((await probeUrl(asked.output_video_url)).duration).toBeCloseTo(7, 1);
      expect(stated.status).toBe('completed');
      expect((await probeUrl(stated.output_video_url)).duration).toBeCloseTo(4, 1);
    },
  );
});
