import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/tooling/ports.js';
import { api, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
beforeAll(async () => {
  stack = await startApi();
});
afterAll(() => stack.close());

describe('health', () => {
  it('/healthz and /readyz answer 200 when PostgreSQL and Temporal are reachable', async () => {
    expect(await api(stack.url, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await api(stack.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('/readyz turns 503 when the database is unreachable, naming it (its error text for this machine)', async () => {
    const deadPort = await freePort();
    const broken = await startApi({ DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/nothing` });
    try {
      expect((await api(broken.url, '/healthz')).status).toBe(200);
      const res = await api(broken.url, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('not_ready');
      expect(res.body.error.message).toMatch(/database/);
      expect(res.body.checks.database).toMatch(/^unavailable/);
      expect(res.body.checks.temporal).toBe('ok');
    } finally {
      await broken.close();
    }
  });

  it(
    '/readyz from elsewhere (through a proxy) names the dependency that is down without its error text; ' +
      'the operator token shows it',
    async () => {
      const deadPort = await freePort();
      const operatorToken = 'operator-token-of-at-least-32-characters';
      const broken = await startApi({
        DATABASE_URL: `postgres://secret_user@127.0.0.1:${deadPort}/nothing`,
        OPERATOR_TOKEN: operatorToken,
      });
      try {
        const proxied = { 'x-forwarded-for': '203.0.113.9' };
        const res = await api(broken.url, '/readyz', { headers: proxied });
        expect(res.status).toBe(503);
        expect(res.body.checks).toEqual({ database: 'unavailable', temporal: 'ok' });
        expect(res.body.error).toEqual({ code: 'not_ready', message: 'database unavailable' });
        expect(JSON.stringify(res.body)).not.toMatch(new RegExp(`${deadPort}|ECONNREFUSED|secret_user`));

        const wrongToken = await api(broken.url, '/readyz', { headers: proxied, key: 'not-the-operator-token' });
        expect(wrongToken.body.checks.database).toBe('unavailable');

        const operator = await api(broken.url, '/readyz', { headers: proxied, key: operatorToken });
        expect(operator.status).toBe(503);
        expect(operator.body.checks.database).toMatch(/^unavailable: .+/);
      } finally {
        await broken.close();
      }
    },
  );

  it('/readyz turns 503 when Temporal is unreachable', async () => {
    const deadPort = await freePort();
    const broken = await startApi({ TEMPORAL_ADDRESS: `127.0.0.1:${deadPort}` });
    try {
      const res = await api(broken.url, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.checks).toMatchObject({ database: 'ok', temporal: expect.stringMatching(/^unavailable/) });
    } finally {
      await broken.close();
    }
  });

  it('unknown routes get 404 in the error shape', async () => {
    const res = await api(stack.url, '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});
