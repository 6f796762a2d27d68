// Request ids, Prometheus metrics of the API and the worker, and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

let stack: TestStack;
let key: string;
beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

/** The value of one Prometheus sample, or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && want.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('request ids', () => {
  it('echoes a given X-Request-Id, makes one otherwise, and replaces an unsafe one', async () => {
    expect(
      (await api(stack.url, '/healthz', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id'),
    ).toBe('abc-123');
    expect((await api(stack.url, '/healthz')).headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    const unsafe = await api(stack.url, '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_/);
    // Errors carry it too.
    expect(
      (await api(stack.url, '/v1/usage', { headers: { 'x-request-id': 'err-1' } })).headers.get('x-request-id'),
    ).toBe('err-1');
  });
});

describe('metrics', () => {
  it('the API counts requests by route template and status, and generations created', async () => {
    const before = await (await fetch(`${stack.url}/metrics`)).text();
    const created = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', engine: 'lottie', input: 'Metrics check', width: 160, height: 284 },
    });
    await api(stack.url, `/v1/responses/${created.body.id}`, { key });
    await api(stack.url, '/v1/responses/gen_000000000000000000000000', { key });
    const after = await (await fetch(`${stack.url}/metrics`)).text();

    const route = { method: 'GET', route: '/v1/responses/:id' };
    expect(sample(after, 'http_requests_total', { ...route, status: '200' })).toBe(
      sample(before, 'http_requests_total', { ...route, status: '200' }) + 1,
    );
    expect(sample(after, 'http_requests_total', { ...route, status: '404' })).toBe(
      sample(before, 'http_requests_total', { ...route, status: '404' }) + 1,
    );
    expect(
      sample(after, 'http_request_duration_seconds_count', { method: 'POST', route: '/v1/responses', status: '200' }),
    ).toBeGreaterThan(0);
    expect(sample(after, 'generations_created_total', { engine: 'lottie', model: 'gpt-4o-mini' })).toBe(
      sample(before, 'generations_created_total', { engine: 'lottie', model: 'gpt-4o-mini' }) + 1,
    );
    expect(after).toContain('process_resident_memory_bytes');

    // The worker's own metrics: terminal statuses by engine, render duration and frame rate.
    expect((await waitForTerminal(stack.url, key, created.body.id)).body.status).toBe('completed');
    const worker = await (await fetch(`http://127.0.0.1:${stack.worker.metricsPort()}/metrics`)).text();
    expect(
      sample(worker, 'generations_finished_total', { engine: 'lottie', status: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(worker, 'render_duration_seconds_count', { engine: 'lottie' })).toBeGreaterThanOrEqual(1);
    expect(sample(worker, 'render_frames_per_second_count', { engine: 'lottie' })).toBeGreaterThanOrEqual(1);
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document of every endpoint, built from the validation schemas', async () => {
    const res = await api(stack.url, '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/healthz',
        '/readyz',
        '/v1/brand',
        '/v1/chat/completions',
        '/v1/chat/completions/{id}',
        '/v1/engines',
        '/v1/responses',
        '/v1/responses/{id}',
        '/v1/usage',
        '/v1/videos',
        '/v1/videos/{id}',
        '/v1/videos/{id}/content',
        '/v1/videos/{id}/remix',
        '/v1/webhook_endpoints',
        '/v1/webhook_endpoints/{id}',
      ].sort(),
    );
    const schemaOf = (body: { content: Record<string, { schema: { $ref: string } }> }) =>
      doc.components.schemas[body.content['application/json'].schema.$ref.split('/').pop()!];
    const create = schemaOf(doc.paths['/v1/responses'].post.requestBody);
    // `input` is required unless a storyboard is sent (extension): the schema requires only the model.
    expect(create.required).toEqual(expect.arrayContaining(['model']));
    expect(create.properties).toHaveProperty('input');
    expect(create.properties.storyboard).toMatchObject({ $ref: '#/components/schemas/Storyboard' });
    // An engine id, or null for the default (optional fields take null as "not given").
    expect(create.properties.engine.anyOf).toEqual([
      expect.objectContaining({ enum: ['hyperframes', 'lottie', 'auto'] }),
      { type: 'null' },
    ]);
    const chat = schemaOf(doc.paths['/v1/chat/completions'].post.requestBody);
    expect(chat.properties).toHaveProperty('aspectRatio');
    expect(doc.paths['/v1/engines'].get.security).toEqual([]);
    expect(Object.keys(doc.paths['/v1/responses/{id}'].delete.responses)).toEqual(
      expect.arrayContaining(['200', '404', '409']),
    );
  });

  it('serves a readable docs page without external resources', async () => {
    const res = await fetch(`${stack.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('<redoc spec-url="/openapi.json"');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
    const bundle = await fetch(`${stack.url}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
