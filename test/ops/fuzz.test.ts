// Property-based fuzzing of every endpoint: random and mutated bodies, headers and paths. Never a
// 5xx, every error in the one shape, and nothing written for a rejected request.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/api/openapi/schemas.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
let key: string;
let orgId: string;
beforeAll(async () => {
  stack = await startApi();
  const created = await createOrgWithKey(stack.db);
  key = created.key;
  orgId = created.org.id;
});
afterAll(() => stack.close());

const RUNS = Number(process.env.FUZZ_RUNS ?? 750);

const validResponses = { model: 'gpt-4o-mini', input: 'A fuzzed clip', engine: 'lottie', width: 160, height: 284 };
const validChat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'A fuzzed clip' }], engine: 'lottie', width: 160, height: 284 };

/** Any JSON value, biased towards the strings and numbers that break parsers and validators. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', 'null', '<script>', '../../etc/passwd', 'gen_', 'a'.repeat(5000), -1, 0, 1e308, -0, 3.5, NaN, true, [], {}),
);

/** A valid body with some fields replaced, removed or added. */
function mutated(valid: Record<string, unknown>) {
  const keys = [...Object.keys(valid), 'instructions', 'aspect_ratio', 'aspectRatio', 'provider', 'webhook_url', 'expand_prompt', '__proto__', 'constructor'];
  return fc
    .array(fc.tuple(fc.constantFrom(...keys), fc.option(nasty, { nil: undefined })), { minLength: 1, maxLength: 4 })
    .map((edits) => {
      const body: Record<string, unknown> = { ...valid };
      for (const [k, v] of edits) {
        if (v === undefined) delete body[k];
        else body[k] = v;
      }
      return body;
    });
}

async function generationCount(): Promise<number> {
  const { rows } = await stack.db.query('SELECT count(*)::int AS n FROM generations WHERE organization_id = $1', [orgId]);
  return rows[0].n;
}

function expectWellFormed(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400) errorBody.parse(res.body);
}

describe('fuzzing', () => {
  it('POST bodies (random and mutated) to both create endpoints', async () => {
    const body = fc.oneof(nasty, mutated(validResponses), mutated(validChat));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/responses', '/v1/chat/completions'), body, async (path, json) => {
        const before = await generationCount();
        const res = await api(stack.url, path, { method: 'POST', key, json });
        expectWellFormed(res);
        if (res.status !== 200) expect(await generationCount()).toBe(before);
        else expect(res.body.id).toMatch(/^gen_/);
      }),
      { numRuns: RUNS },
    );
  });

  it('raw bodies that are not JSON, with any content type', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/responses', '/v1/chat/completions'),
        fc.string({ maxLength: 300 }),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''),
        async (path, raw, type) => {
          const before = await generationCount();
          const res = await api(stack.url, path, { method: 'POST', key, headers: type ? { 'content-type': type } : {}, body: raw });
          expectWellFormed(res);
          if (res.status !== 200) expect(await generationCount()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('headers: authorization, request id and application headers', async () => {
    const headerValue = fc.string({ maxLength: 3000 }).map((s) => s.replace(/[\r\n\u0000]/g, '').replace(/[^\t\u0020-\u00ff]/g, 'x'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(`Bearer ${key}`), headerValue, headerValue.map((v) => `Bearer ${v}`)),
        fc.record({ 'x-request-id': headerValue, 'x-application-name': headerValue, referer: headerValue, 'x-title': headerValue }, { requiredKeys: [] }),
        async (authorization, extra) => {
          const before = await generationCount();
          const res = await api(stack.url, '/v1/responses', { method: 'POST', headers: { authorization, ...extra }, json: validResponses });
          expectWellFormed(res);
          if (res.status !== 200) expect(await generationCount()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('paths and methods anywhere under the API', async () => {
    const segment = fc.oneof(
      fc.constantFrom('v1', 'responses', 'chat', 'completions', 'usage', 'engines', 'media', 'gen_000000000000000000000000', '..', '%2e%2e', '%00', '%ff', ''),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (method, segments, withKey) => {
          const res = await api(stack.url, `/${segments.join('/')}`, { method, key: withKey ? key : undefined });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400 && method !== 'HEAD') errorBody.parse(res.body);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
