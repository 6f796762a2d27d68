// Every 401 case, and organization scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteApiKey, revokeApiKey } from '../../src/db/apiKeys.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
beforeAll(async () => {
  stack = await startApi();
});
afterAll(() => stack.close());

const PATH = '/v1/responses/gen_000000000000000000000000';

describe('authentication', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['empty Authorization header', { authorization: '' }],
    ['Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without a key', { authorization: 'Bearer' }],
    ['Bearer with two tokens', { authorization: 'Bearer a b' }],
    ['garbage key', { authorization: 'Bearer not-a-key' }],
    ['well-formed unknown key', { authorization: `Bearer vg_${'ab'.repeat(32)}` }],
    ['right prefix, short hex', { authorization: `Bearer vg_${'ab'.repeat(10)}` }],
  ];
  for (const [name, headers] of cases) {
    it(`401 with the JSON error shape: ${name}`, async () => {
      for (const [method, path] of [
        ['GET', PATH],
        ['DELETE', PATH],
        ['POST', '/v1/responses'],
        ['GET', '/v1/usage'],
      ] as const) {
        const res = await api(stack.url, path, { method, headers, json: method === 'POST' ? {} : undefined });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      }
    });
  }

  it('revoked and deleted keys get 401 on the next request', async () => {
    const a = await createOrgWithKey(stack.db);
    expect((await api(stack.url, PATH, { key: a.key })).status).toBe(404);
    await revokeApiKey(stack.db, a.keyId);
    expect((await api(stack.url, PATH, { key: a.key })).status).toBe(401);

    const b = await createOrgWithKey(stack.db);
    expect((await api(stack.url, PATH, { key: b.key })).status).toBe(404);
    await deleteApiKey(stack.db, b.keyId);
    expect((await api(stack.url, PATH, { key: b.key })).status).toBe(401);
  });

  it('GET /v1/engines needs no key, and ignores a bad one', async () => {
    expect((await api(stack.url, '/v1/engines')).status).toBe(200);
    expect((await api(stack.url, '/v1/engines', { headers: { authorization: 'Bearer nope' } })).status).toBe(200);
  });

  it('scopes generations to the key organization: another org gets 404, never the data', async () => {
    const a = await createOrgWithKey(stack.db);
    const b = await createOrgWithKey(stack.db);
    const created = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key: a.key,
      json: { model: 'gpt-4o-mini', input: 'A private launch video', width: 360, height: 640 },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect((await api(stack.url, `/v1/responses/${id}`, { key: a.key })).status).toBe(200);
    for (const path of [`/v1/responses/${id}`, `/v1/chat/completions/${id}`]) {
      const other = await api(stack.url, path, { key: b.key });
      expect(other.status).toBe(404);
      expect(JSON.stringify(other.body)).not.toContain('private launch');
      expect((await api(stack.url, path, { method: 'DELETE', key: b.key })).status).toBe(404);
    }
  });
});
