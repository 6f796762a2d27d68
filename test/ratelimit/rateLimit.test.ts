// Per-key sliding-window rate limit (interface sections 7 and 8), with a short window (5 requests per
// 2 s) so the window can be watched sliding: two API instances on one database share each key's
// bucket; keys are independent; only the endpoints of section 8 are limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRateLimited } from '../../src/api/middleware/rateLimit.js';
import { loadConfig } from '../../src/config.js';
import { createApiKey } from '../../src/db/apiKeys.js';
import { sweepIdleRateLimitKeys } from '../../src/db/rateLimit.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

const LIMIT = 5;
const WINDOW_S = 2;
const limited = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_PER_WINDOW: String(LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
  RATE_LIMIT_UNAUTHENTICATED_PER_WINDOW: String(LIMIT),
};

let a: TestApi;
let b: TestApi;
beforeAll(async () => {
  [a, b] = await Promise.all([startApi(limited), startApi(limited)]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const usage = (base: string, key: string) => api(base, '/v1/usage', { key });
const newKey = () => createOrgWithKey(a.db);

/** The database times (ms) of the key's accepted requests still stored, oldest first. */
async function storedHits(keyId: string): Promise<number[]> {
  const { rows } = await a.db.query(
    'SELECT extract(epoch FROM hit_at)::float8 * 1000 AS ms FROM rate_limit_hits WHERE api_key_id = $1 ORDER BY hit_at',
    [keyId],
  );
  return rows.map((r) => r.ms);
}

function expectRateLimited(res: Awaited<ReturnType<typeof api>>) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_S).toBe(true);
  // Both shapes of section 7 at once.
  expect(res.body).toEqual({
    error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) },
    message: res.body.error.message,
    data: { retry_after: retryAfter },
  });
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  return retryAfter;
}

describe('rate limit', () => {
  it('counts rejections in rate_limit_rejections_total', async () => {
    const rejections = async () =>
      Number(/^rate_limit_rejections_total (\d+)/m.exec(await (await fetch(`${a.url}/metrics`)).text())?.[1] ?? 0);
    const before = await rejections();
    const { key } = await newKey();
    for (let i = 0; i < LIMIT; i++) expect((await usage(a.url, key)).status).toBe(200);
    expectRateLimited(await usage(a.url, key));
    expectRateLimited(await usage(a.url, key));
    expect(await rejections()).toBe(before + 2);
  });

  it(
    'lets LIMIT requests through, counting down, ' + 'then answers 429 with Retry-After to the oldest request',
    async () => {
      const { key, keyId } = await newKey();
      for (let i = 1; i <= LIMIT; i++) {
        const res = await usage(a.url, key);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - i));
      }
      const [oldest] = await storedHits(keyId);
      const sent = Date.now();
      const rejected = await usage(a.url, key);
      const received = Date.now();
      const retryAfter = expectRateLimited(rejected);
      // Exact: whole seconds from the rejection to the moment the oldest request leaves the window.
      const leaves = oldest! + WINDOW_S * 1000;
      expect([Math.ceil((leaves - received) / 1000), Math.ceil((leaves - sent) / 1000)]).toContain(retryAfter);
      expect(Number(rejected.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(leaves / 1000));
    },
  );

  it('frees a slot exactly when the oldest request leaves the window, not at a fixed boundary', async () => {
    const { key, keyId } = await newKey();
    // Three requests now, two more 1 s later: the window is full.
    for (let i = 0; i < 3; i++) expect((await usage(a.url, key)).status).toBe(200);
    await sleep(1000);
    for (let i = 0; i < 2; i++) expect((await usage(a.url, key)).status).toBe(200);
    const hits = await storedHits(keyId);
    expect(hits).toHaveLength(LIMIT);

    // Just before the first one leaves: still refused, Retry-After 1 s.
    await sleep(hits[0]! + WINDOW_S * 1000 - 250 - Date.now());
    expect(expectRateLimited(await usage(a.url, key))).toBe(1);

    // Just after: exactly three slots are back (the two later requests still count).
    await sleep(hits[2]! + WINDOW_S * 1000 + 50 - Date.now());
    for (let i = 0; i < 3; i++) expect((await usage(a.url, key)).status, `request ${i + 1} after the slide`).toBe(200);
    expectRateLimited(await usage(a.url, key));

    // And the two later ones leave one window length after they were accepted.
    await sleep(hits[4]! + WINDOW_S * 1000 + 50 - Date.now());
    for (let i = 0; i < 2; i++) expect((await usage(a.url, key)).status).toBe(200);
    expectRateLimited(await usage(a.url, key));
  });

  it('waiting Retry-After seconds is enough', async () => {
    const { key } = await newKey();
    for (let i = 0; i < LIMIT; i++) await usage(a.url, key);
    const retryAfter = expectRateLimited(await usage(a.url, key));
    await sleep(retryAfter * 1000);
    expect((await usage(a.url, key)).status).toBe(200);
  });

  it('two API processes share one bucket per key, atomically under concurrency', async () => {
    const { key } = await newKey();
    // Alternating between the two instances: LIMIT pass in total.
    for (let i = 0; i < LIMIT; i++) expect((await usage(i % 2 ? b.url : a.url, key)).status).toBe(200);
    expectRateLimited(await usage(b.url, key));
    expectRateLimited(await usage(a.url, key));

    // A burst from both at once on a fresh key: exactly LIMIT succeed.
    const burst = await newKey();
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => usage(i % 2 ? b.url : a.url, burst.key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(results.filter((r) => r.status === 429)).toHaveLength(24 - LIMIT);
    expect(await storedHits(burst.keyId)).toHaveLength(LIMIT);
    const { rows } = await a.db.query('SELECT in_window FROM rate_limit_counts WHERE api_key_id = $1', [burst.keyId]);
    expect(rows[0].in_window).toBe(LIMIT);
  });

  it('gives every key its own bucket, also within one organization', async () => {
    const { org, key } = await createOrgWithKey(a.db);
    const second = (await createApiKey(a.db, org.id, 'second')).key;
    for (let i = 0; i < LIMIT; i++) await usage(a.url, key);
    expectRateLimited(await usage(a.url, key));
    const other = await usage(a.url, second);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('limits every endpoint of section 8 and puts the headers on 4xx answers too', async () => {
    const { key } = await newKey();
    const unknown = 'gen_000000000000000000000000';
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/v1/responses', { model: 'nope', input: 'x' }],
      ['GET', `/v1/responses/${unknown}`],
      ['DELETE', `/v1/chat/completions/${unknown}`],
      ['POST', '/v1/chat/completions', {}],
      ['GET', `/v1/chat/completions/${unknown}`],
    ];
    for (const [i, [method, path, json]] of calls.entries()) {
      const res = await api(a.url, path, { method, key, json });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(429);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1 - i));
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    // …and no spelling of a path gets around it.
    for (const [method, path] of [
      ['GET', '/v1/usage'],
      ['GET', '/v1/Usage/'],
      ['DELETE', `/v1/responses/${unknown}`],
      ['POST', '/v1/responses'],
    ]) {
      expectRateLimited(await api(a.url, path!, { method, key, json: method === 'POST' ? {} : undefined }));
    }
    // The limit comes before the body is read: brackets nested past the bound still get the 429, not a 400.
    expectRateLimited(
      await api(a.url, '/v1/responses', {
        method: 'POST',
        key,
        headers: { 'content-type': 'application/json' },
        body: '['.repeat(100_000),
      }),
    );
  });

  it('never limits GET /v1/engines, health or unkeyed requests', async () => {
    const { key } = await newKey();
    for (let i = 0; i < LIMIT; i++) await usage(a.url, key);
    expectRateLimited(await usage(a.url, key));
    for (let i = 0; i < LIMIT * 3; i++) {
      for (const [path, auth] of [
        ['/v1/engines', key],
        ['/v1/engines', undefined],
        ['/healthz', undefined],
      ] as const) {
        const res = await api(a.url, path, { key: auth });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
    }
    expect(isRateLimited('GET', '/v1/engines')).toBe(false);
    expect(isRateLimited('GET', '/media/videos/x.mp4')).toBe(false);
    expect(isRateLimited('GET', '/readyz')).toBe(false);
    for (const path of [
      '/v1/responses',
      '/v1/responses/gen_1',
      '/v1/chat/completions',
      '/v1/chat/completions/gen_1',
      '/v1/usage',
      '/v1/Usage/',
    ]) {
      expect(isRateLimited('GET', path) && isRateLimited('POST', path) && isRateLimited('DELETE', path), path).toBe(
        true,
      );
    }
  });

  it(
    'limits requests without a valid key per client address, ' + 'whatever the key or route, on both API processes',
    async () => {
      const { key } = await newKey();
      const bad = (base: string, i: number) =>
        api(base, i % 2 ? '/v1/responses' : '/v1/usage', {
          method: i % 2 ? 'POST' : 'GET',
          key: `vg_guess${i}`,
          json: i % 2 ? { model: 'x' } : undefined,
        });
      // Every test request comes from 127.0.0.1: one address, counted across both processes.
      for (let i = 0; i < LIMIT; i++) expect((await bad(i % 2 ? a.url : b.url, i)).status).toBe(401);
      const refused = await api(a.url, '/v1/usage', {});
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
      expect(refused.body).toEqual({
        error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringContaining('without a valid API key') },
        message: refused.body.error.message,
        data: { retry_after: retryAfter },
      });
      // Refused before the body is read, as cheaply as a GET.
      const nested = await api(b.url, '/v1/responses', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '['.repeat(100_000),
      });
      expect(nested.status).toBe(429);
      // A valid key is not affected.
      expect((await usage(a.url, key)).status).toBe(200);
    },
  );

  it('keeps only the requests inside the window and sweeps idle keys', async () => {
    const { key, keyId } = await newKey();
    for (let i = 0; i < LIMIT + 3; i++) await usage(a.url, key);
    expect(await storedHits(keyId)).toHaveLength(LIMIT); // refused requests are not stored
    await sleep(WINDOW_S * 1000 + 50);
    await usage(a.url, key);
    expect(await storedHits(keyId)).toHaveLength(1); // the old ones were dropped by the write
    await sleep(WINDOW_S * 1000 + 50);
    expect(await sweepIdleRateLimitKeys(a.db, WINDOW_S)).toBeGreaterThanOrEqual(1);
    expect(await storedHits(keyId)).toHaveLength(0);
  });

  it('can be switched off (RATE_LIMIT_ENABLED=false): no limit, no headers', async () => {
    const off = await startApi({ ...limited, RATE_LIMIT_ENABLED: 'false' });
    try {
      const key = (await createOrgWithKey(off.db)).key;
      for (let i = 0; i < LIMIT * 2; i++) {
        const res = await usage(off.url, key);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
    } finally {
      await off.close();
    }
  });

  it('reads its settings from the environment, 100 per 60 s by default', () => {
    expect(loadConfig({}).rateLimit).toEqual({
      enabled: true,
      perWindow: 100,
      windowSeconds: 60,
      unauthenticatedPerWindow: 30,
    });
    expect(loadConfig({ ...limited, RATE_LIMIT_ENABLED: 'false' }).rateLimit).toEqual({
      enabled: false,
      perWindow: 5,
      windowSeconds: 2,
      unauthenticatedPerWindow: 5,
    });
    for (const [name, value] of [
      ['RATE_LIMIT_PER_WINDOW', '0'],
      ['RATE_LIMIT_WINDOW_SECONDS', '-1'],
      ['RATE_LIMIT_ENABLED', 'yes'],
      ['RATE_LIMIT_UNAUTHENTICATED_PER_WINDOW', '0'],
    ]) {
      expect(() => loadConfig({ [name!]: value })).toThrow(new RegExp(name!));
    }
  });
});
