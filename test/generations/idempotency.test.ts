// Idempotency-Key on both create endpoints: a repeated request gets the generation the first one
// started (same id, Idempotent-Replayed: true), once, even when 20 arrive at once on two API
// instances; a different body with the key is 409; a request that failed keeps no key.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTemporalClient } from '../../src/temporal/client.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let first: TestApi;
let second: TestApi;
beforeAll(async () => {
  // Its own namespace: no worker runs these generations (nothing here needs them to).
  const namespace = `test-idem-${crypto.randomBytes(4).toString('hex')}`;
  await createNamespace(inject('temporalAddress'), namespace);
  [first, second] = await Promise.all([
    startApi({ TEMPORAL_NAMESPACE: namespace }),
    startApi({ TEMPORAL_NAMESPACE: namespace }),
  ]);
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});

const responsesBody = { model: 'gpt-4o-mini', input: 'A short clip', width: 160, height: 284 };
const chatBody = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'A short clip' }],
  width: 160,
  height: 284,
};
const newKey = () => `idem-${crypto.randomBytes(8).toString('hex')}`;

async function generationsOf(db: TestApi['db'], organizationId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM generations WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows.map((r) => r.id);
}

describe('Idempotency-Key', () => {
  for (const [path, body] of [
    ['/v1/responses', responsesBody],
    ['/v1/chat/completions', chatBody],
  ] as const) {
    it(`${path}: the same key and body returns the original generation, created once`, async () => {
      const { key, org } = await createOrgWithKey(first.db);
      const headers = { 'Idempotency-Key': newKey() };
      const a = await api(first.url, path, { method: 'POST', key, json: body, headers });
      expect(a.status).toBe(200);
      expect(a.headers.get('idempotent-replayed')).toBeNull();
      const b = await api(second.url, path, { method: 'POST', key, json: body, headers });
      expect(b.status).toBe(200);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.body.id).toBe(a.body.id);
      expect(await generationsOf(first.db, org.id)).toEqual([a.body.id]);
      // Another key is another generation.
      const c = await api(first.url, path, {
        method: 'POST',
        key,
        json: body,
        headers: { 'Idempotency-Key': newKey() },
      });
      expect(c.body.id).not.toBe(a.body.id);
    });
  }

  it('20 identical requests at once on two API instances: exactly one generation, every answer its id', async () => {
    const { key, org } = await createOrgWithKey(first.db);
    const headers = { 'Idempotency-Key': newKey() };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api((i % 2 ? second : first).url, '/v1/responses', { method: 'POST', key, json: responsesBody, headers }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await generationsOf(first.db, org.id)).toEqual([...ids]);
    // Its workflow runs (workflow id = generation id: a second one could not even start).
    const temporal = createTemporalClient(first.config);
    expect((await temporal.workflow.getHandle([...ids][0]!).describe()).status.name).toBe('RUNNING');
  });

  it('the same key with a different body is 409 idempotency_key_reused naming the header', async () => {
    const { key } = await createOrgWithKey(first.db);
    const headers = { 'Idempotency-Key': newKey() };
    expect((await api(first.url, '/v1/responses', { method: 'POST', key, json: responsesBody, headers })).status).toBe(
      200,
    );
    const other = await api(first.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { ...responsesBody, input: 'Another clip' },
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    // The same body in the other shape is a different request too.
    const chat = await api(first.url, '/v1/chat/completions', { method: 'POST', key, json: chatBody, headers });
    expect(chat.status).toBe(409);
  });

  it('keys are per organization', async () => {
    const a = await createOrgWithKey(first.db);
    const b = await createOrgWithKey(first.db);
    const headers = { 'Idempotency-Key': newKey() };
    const one = await api(first.url, '/v1/responses', { method: 'POST', key: a.key, json: responsesBody, headers });
    const two = await api(first.url, '/v1/responses', { method: 'POST', key: b.key, json: responsesBody, headers });
    expect(two.status).toBe(200);
    expect(two.body.id).not.toBe(one.body.id);
    expect(two.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a request that failed (validation, no credit) keeps no key: the retry creates the generation', async () => {
    const { key, org } = await createOrgWithKey(first.db);
    const headers = { 'Idempotency-Key': newKey() };
    const invalid = await api(first.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { ...responsesBody, width: 5 },
      headers,
    });
    expect(invalid.status).toBe(400);
    const ok = await api(first.url, '/v1/responses', { method: 'POST', key, json: responsesBody, headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();

    const broke = await createOrgWithKey(first.db, 0);
    const poorHeaders = { 'Idempotency-Key': newKey() };
    expect(
      (
        await api(first.url, '/v1/responses', {
          method: 'POST',
          key: broke.key,
          json: responsesBody,
          headers: poorHeaders,
        })
      ).status,
    ).toBe(402);
    await first.db.query('UPDATE organizations SET credit_balance_micros = 1000000 WHERE id = $1', [broke.org.id]);
    const paid = await api(first.url, '/v1/responses', {
      method: 'POST',
      key: broke.key,
      json: responsesBody,
      headers: poorHeaders,
    });
    expect(paid.status).toBe(200);
    expect(paid.headers.get('idempotent-replayed')).toBeNull();
    expect((await generationsOf(first.db, org.id)).length).toBe(1);
  });

  it('a key that is not 1–255 printable ASCII characters is 400 naming the header', async () => {
    const { key } = await createOrgWithKey(first.db);
    for (const bad of ['x'.repeat(256), 'tab\there']) {
      const res = await api(first.url, '/v1/responses', {
        method: 'POST',
        key,
        json: responsesBody,
        headers: { 'Idempotency-Key': bad },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
    }
  });
});

it('an empty webhook_url is 400 invalid_webhook_url, not "no webhook"', async () => {
  const { key } = await createOrgWithKey(first.db);
  const res = await api(first.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { ...responsesBody, webhook_url: '' },
  });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_webhook_url');
});
