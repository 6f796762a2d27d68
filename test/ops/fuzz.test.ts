// Property-based fuzzing of every endpoint: random and mutated bodies, headers and paths, and every
// operation of the OpenAPI document (so a new endpoint is fuzzed without a line here) over raw HTTP:
// hostile path and query values (percent-encoded control characters, bytes that are not UTF-8,
// overlong forms, 10 000 characters), unknown methods, Content-Encodings that lie. Never a 5xx,
// never a reset connection, every error in the one shape, and nothing written for a rejected request.
// FUZZ_RUNS sets the runs of each property; the request count is printed at the end.
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/document.js';
import { errorBody as apiErrorBody, openAiErrorBody } from '../../src/api/openapi/schemas.js';

// /v1/videos answers in OpenAI's error shape (README, OpenAI Videos drop-in); every other route in the API's own.
const errorBody = apiErrorBody.or(openAiErrorBody);
import { dashboard } from '../../src/dashboard/index.js';
import type { AppDeps } from '../../src/http/context.js';
import { MAX_JSON_DEPTH } from '../../src/http/jsonBody.js';
import { metrics } from '../../src/metrics.js';
import { createTestMember, csrfOf, DashboardClient } from '../dashboard/support.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

let stack: TestApi;
let key: string;
let orgId: string;
beforeAll(async () => {
  stack = await startApi();
  // Every accepted create holds its worst case while no worker runs it: enough credit for any FUZZ_RUNS.
  const created = await createOrgWithKey(stack.db, 100_000_000);
  key = created.key;
  orgId = created.org.id;
});
afterAll(async () => {
  console.log(`fuzz: ${sent} requests, ${resets} connection resets, largest status ${worst}`);
  await stack.close();
});

let sent = 0;
/** The API helper, counted. */
const call: typeof api = (...args) => {
  sent++;
  return api(...args);
};
let resets = 0;
let worst = 0;

type RawAnswer = { status: number; type: string; allow?: string; body: string };

/**
 * One request exactly as given (path bytes unnormalized, any method). A reset connection is counted
 * (the summary line) and rejects: the property fails with the request that caused it.
 */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawAnswer> {
  sent++;
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          worst = Math.max(worst, res.statusCode!);
          resolve({
            status: res.statusCode!,
            type: String(res.headers['content-type'] ?? ''),
            allow: res.headers.allow,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      resets++;
      reject(err);
    });
    req.end(body);
  });
}

function expectRawWellFormed(method: string, res: RawAnswer) {
  expect(res.status, `${method}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400 && method !== 'HEAD') errorBody.parse(JSON.parse(res.body));
}

/**
 * Path and query values an attacker sends: percent-encoded controls, bytes that are not UTF-8, overlong forms, huge
 * ids.
 */
const hostile = fc.oneof(
  fc.constantFrom(
    '%00',
    '%C0%80',
    '%FF',
    '%E0%A4%A',
    '%',
    '%%41',
    '%0A',
    '%0D%0A',
    '%7F',
    '%C2%85',
    '%ED%A0%80',
    '%F4%90%80%80',
    'x'.repeat(10_000),
    'gen_000000000000000000000000',
    '..%2F..%2Fetc%2Fpasswd',
    '',
    '%20',
    '+',
  ),
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc
    .uint8Array({ maxLength: 24 })
    .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
);

type Operation = { method: string; path: string; query: string[]; hasBody: boolean };

/** Every operation of the OpenAPI document, with its query parameter names. */
function documentedOperations(): Operation[] {
  const doc = openApiDocument('http://127.0.0.1') as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: op.requestBody !== undefined,
      })),
  );
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 750);

const validResponses = { model: 'gpt-4o-mini', input: 'A fuzzed clip', engine: 'lottie', width: 160, height: 284 };
const validChat = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'A fuzzed clip' }],
  engine: 'lottie',
  width: 160,
  height: 284,
};

/** Any JSON value, biased towards the strings and numbers that break parsers and validators. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    'null',
    '<script>',
    '../../etc/passwd',
    'gen_',
    'a'.repeat(5000),
    -1,
    0,
    1e308,
    -0,
    3.5,
    NaN,
    true,
    [],
    {},
  ),
);

/** A valid body with some fields replaced, removed or added. */
function mutated(valid: Record<string, unknown>) {
  const keys = [
    ...Object.keys(valid),
    'instructions',
    'aspect_ratio',
    'aspectRatio',
    'provider',
    'webhook_url',
    'expand_prompt',
    '__proto__',
    'constructor',
  ];
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
  const { rows } = await stack.db.query('SELECT count(*)::int AS n FROM generations WHERE organization_id = $1', [
    orgId,
  ]);
  return rows[0].n;
}

function expectWellFormed(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400) errorBody.parse(res.body);
}

describe('fuzzing', () => {
  it(
    'every OpenAPI operation over raw HTTP: ' + 'hostile path and query values, methods, headers, encodings and bodies',
    async () => {
      const operations = documentedOperations();
      expect(operations.length).toBeGreaterThan(10);
      const validJson = Buffer.from(JSON.stringify(validResponses));
      const body = fc.oneof(
        fc.constant(validJson),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
        fc.constant(zlib.gzipSync(validJson)),
        fc
          .integer({ min: MAX_JSON_DEPTH - 2, max: 5000 })
          .map((depth) => Buffer.from('['.repeat(depth) + ']'.repeat(depth))),
        nasty.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...operations),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant(null) },
            fc.constantFrom(
              'GET',
              'HEAD',
              'POST',
              'PUT',
              'PATCH',
              'DELETE',
              'OPTIONS',
              'PROPFIND',
              'TRACE',
              'MKCOL',
              'FOO',
            ),
          ),
          fc.array(hostile, { minLength: 1, maxLength: 2 }),
          fc.array(
            fc.tuple(
              fc.oneof(fc.constantFrom('limit', 'after', 'before', 'status', 'stream', 'expires', 'sig'), hostile),
              hostile,
            ),
            { maxLength: 3 },
          ),
          fc.record(
            {
              authorization: fc.oneof(
                fc.constant(`Bearer ${key}`),
                fc.constant('Bearer vg_nope'),
                fc.constant('Basic x'),
              ),
              'content-type': fc.constantFrom(
                'application/json',
                'application/json; charset=utf-8',
                'text/plain',
                'application/x-www-form-urlencoded',
              ),
              'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip'),
              'idempotency-key': fc.string({ maxLength: 300 }).map((v) => v.replace(/[^\u0020-\u007e]/g, 'x')),
              range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999999-', 'bytes=5-1', 'items=1-2'),
              'if-range': fc.constantFrom('"x"', 'W/"x"', 'Mon, 01 Jan 2024 00:00:00 GMT', 'junk'),
            },
            { requiredKeys: [] },
          ),
          fc.option(body, { nil: undefined }),
          async (op, otherMethod, values, query, headers, payload) => {
            const method = otherMethod ?? op.method;
            let i = 0;
            const path = op.path.replace(/\{[^}]+\}/g, () => values[i++ % values.length]!);
            const names = [...op.query.map((name, n) => [name, values[n % values.length]!] as const), ...query];
            const search = names.length ? `?${names.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
            const res = await raw(method, path + search, headers, op.hasBody || payload ? payload : undefined);
            expectRawWellFormed(method, res);
          },
        ),
        { numRuns: RUNS },
      );
    },
  );

  it('POST bodies (random and mutated) to both create endpoints', async () => {
    const body = fc.oneof(nasty, mutated(validResponses), mutated(validChat));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/responses', '/v1/chat/completions'), body, async (path, json) => {
        const before = await generationCount();
        const res = await call(stack.url, path, { method: 'POST', key, json });
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
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          '',
        ),
        async (path, raw, type) => {
          const before = await generationCount();
          const res = await call(stack.url, path, {
            method: 'POST',
            key,
            headers: type ? { 'content-type': type } : {},
            body: raw,
          });
          expectWellFormed(res);
          if (res.status !== 200) expect(await generationCount()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('headers: authorization, request id and application headers', async () => {
    const headerValue = fc
      .string({ maxLength: 3000 })
      .map((s) => s.replace(/[\r\n\u0000]/g, '').replace(/[^\t\u0020-\u00ff]/g, 'x'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(`Bearer ${key}`),
          headerValue,
          headerValue.map((v) => `Bearer ${v}`),
        ),
        fc.record(
          {
            'x-request-id': headerValue,
            'x-application-name': headerValue,
            referer: headerValue,
            'x-title': headerValue,
          },
          { requiredKeys: [] },
        ),
        async (authorization, extra) => {
          const before = await generationCount();
          const res = await call(stack.url, '/v1/responses', {
            method: 'POST',
            headers: { authorization, ...extra },
            json: validResponses,
          });
          expectWellFormed(res);
          if (res.status !== 200) expect(await generationCount()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('paths and methods anywhere under the API', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'v1',
        'responses',
        'chat',
        'completions',
        'usage',
        'engines',
        'media',
        'gen_000000000000000000000000',
        '..',
        '%2e%2e',
        '%00',
        '%ff',
        '',
      ),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (method, segments, withKey) => {
          const res = await call(stack.url, `/${segments.join('/')}`, { method, key: withKey ? key : undefined });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400 && method !== 'HEAD') errorBody.parse(res.body);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('hostile input, case by case', () => {
  const ids = ['%00', '%C0%80', '%FF', 'x'.repeat(10_000)];

  /**
   * A member of the fuzzed organization, signed in once (scrypt is slow): its cookie header and a CSRF token of its
   * session.
   */
  let session: Promise<{ cookie: string; csrf: string }> | undefined;
  const signedIn = () =>
    (session ??= (async () => {
      const member = await createTestMember(stack.db, orgId);
      const client = new DashboardClient(stack.url);
      expect((await client.signIn(member.email, member.password)).status).toBe(303);
      const csrf = csrfOf((await client.get('/dashboard/keys')).body)!;
      return { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), csrf };
    })());
  const form = (fields: string) => Buffer.from(fields);

  it(
    '%00, %C0%80, %FF and 10 000-character ids: 400 or 404 on every id route of the API (OpenAPI document) and the ' +
      "dashboard (its routers), with each route's own methods",
    async () => {
      const apiRoutes = documentedOperations().filter((op) => op.path.includes('{'));
      expect(apiRoutes.map((op) => `${op.method} ${op.path}`)).toEqual(
        expect.arrayContaining([
          'GET /v1/responses/{id}',
          'DELETE /v1/responses/{id}',
          'GET /v1/chat/completions/{id}',
          'DELETE /v1/chat/completions/{id}',
        ]),
      );
      for (const op of apiRoutes) {
        for (const id of ids) {
          const res = await raw(op.method, op.path.replace(/\{[^}]+\}/g, id), { authorization: `Bearer ${key}` });
          expect([400, 404], `${op.method} ${op.path} ${id.slice(0, 10)}: ${res.body.slice(0, 200)}`).toContain(
            res.status,
          );
          errorBody.parse(JSON.parse(res.body));
        }
      }
      // Every dashboard route with a path parameter, read off its routers (a new one is covered without a line here).
      const routes = dashboard({ config: stack.config, db: stack.db } as AppDeps).routers.flatMap((router) =>
        router.stack
          .filter((layer) => layer.paramNames.length > 0)
          .flatMap((layer) =>
            layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: layer.path as string })),
          ),
      );
      expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
        expect.arrayContaining([
          'GET /dashboard/generations/:id',
          'GET /dashboard/generations/:id/events',
          'POST /dashboard/keys/:id/revoke',
          'POST /dashboard/keys/:id/delete',
        ]),
      );
      const { cookie, csrf } = await signedIn();
      for (const { method, path } of routes) {
        for (const id of ids) {
          const post = method === 'POST';
          const headers = { cookie, ...(post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
          const res = await raw(method, path.replace(/:\w+/g, id), headers, post ? form(`_csrf=${csrf}`) : undefined);
          expect([400, 404], `${method} ${path} ${id.slice(0, 10)}: ${res.body.slice(0, 200)}`).toContain(res.status);
        }
      }
    },
  );

  it('dashboard form fields with NUL are 400s naming the field; compressed forms are 415', async () => {
    const { cookie, csrf } = await signedIn();
    const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
    // Sign-in (the email is looked up in PostgreSQL) and a key name (stored): both were 500s.
    const login = await raw(
      'POST',
      '/dashboard/login',
      { ...headers, 'x-forwarded-for': '198.51.100.250' },
      form(`_csrf=${csrf}&email=a%00b%40example.test&password=x`),
    );
    expect(login.status).toBe(400);
    expect(login.body).toContain('Form field email contains a NUL character');
    expect((await raw('POST', '/dashboard/keys', headers, form(`_csrf=${csrf}&name=k%00`))).status).toBe(400);
    expect(
      (await raw('POST', '/dashboard/keys', { ...headers, 'content-encoding': 'gzip' }, form(`_csrf=${csrf}&name=k`)))
        .status,
    ).toBe(415);
  });

  it('unknown methods are 405 with the Allow of the path (404 where no route is), not 501', async () => {
    const allow = {
      '/v1/responses': 'GET, HEAD, POST',
      '/v1/chat/completions/gen_x': 'GET, HEAD, DELETE',
      '/healthz': 'GET, HEAD',
      '/dashboard/usage': 'GET, HEAD',
    };
    for (const method of ['PROPFIND', 'TRACE', 'MKCOL']) {
      for (const [path, methods] of Object.entries(allow)) {
        const res = await raw(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(JSON.parse(res.body).error.code).toBe('method_not_allowed');
        expect(res.allow, `${method} ${path}`).toBe(methods);
      }
      expect((await raw(method, '/no/such/path')).status).toBe(404);
    }
  });

  it(
    'requests Node refuses before the app (control characters in a header, a head over 16 KiB, a bad chunk) ' +
      'are answered in the one shape',
    async () => {
      const { port } = new URL(stack.url);
      const exchange = (request: string) =>
        new Promise<string>((resolve, reject) => {
          sent++;
          const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
          let answer = '';
          socket.on('data', (chunk) => (answer += chunk));
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
        });
      const cases: Array<[string, number]> = [
        ['GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-Title: a\u0000b\r\n\r\n', 400],
        ['GET /v1/usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u0001\u007f\r\n\r\n', 400],
        [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
        ['POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n', 400],
        ['NOT-HTTP\r\n\r\n', 400],
      ];
      for (const [request, status] of cases) {
        const answer = await exchange(request);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head, JSON.stringify(request.slice(0, 60))).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(head).toMatch(/content-type: application\/json/i);
        errorBody.parse(JSON.parse(body!));
      }
      // HEAD is answered with the head alone: a body would reach the client as a second, stray response.
      const headAnswer = await exchange(`HEAD /healthz?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(headAnswer).toMatch(/^HTTP\/1\.1 431 /);
      expect(headAnswer).toMatch(/content-length: \d+\r\n/i);
      expect(headAnswer.endsWith('\r\n\r\n')).toBe(true);
    },
  );

  it('a body that is not what its Content-Encoding says is a 400; a real gzip body is read', async () => {
    const json = JSON.stringify(validResponses);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const bad = await raw(
        'POST',
        '/v1/responses',
        { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': encoding },
        Buffer.from(json),
      );
      expect(bad.status, encoding).toBe(400);
      expect(JSON.parse(bad.body).error).toMatchObject({ code: 'invalid_request', param: 'Content-Encoding' });
    }
    const unknown = await raw(
      'POST',
      '/v1/responses',
      { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'compress' },
      Buffer.from(json),
    );
    expect(unknown.status).toBe(415);
    // JSON is UTF-8: other bytes are refused, not replaced in the prompt.
    const latin1 = await raw(
      'POST',
      '/v1/responses',
      { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      Buffer.from(json.replace('fuzzed', 'caf\u00e9'), 'latin1'),
    );
    expect(latin1.status).toBe(400);
    expect(JSON.parse(latin1.body).error).toEqual({ code: 'invalid_json', message: 'Request body is not UTF-8 text' });
    const before = await generationCount();
    const good = await raw(
      'POST',
      '/v1/responses',
      { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      zlib.gzipSync(json),
    );
    expect(good.status, good.body).toBe(200);
    expect(await generationCount()).toBe(before + 1);
  });

  it(
    'nesting is bounded; ' +
      'an unauthenticated nested body is refused before it is read (under 25 ms of handler time)',
    async () => {
      const nested = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));
      const deep = await raw(
        'POST',
        '/v1/responses',
        { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        nested(MAX_JSON_DEPTH + 1),
      );
      expect(deep.status).toBe(400);
      expect(JSON.parse(deep.body).error.code).toBe('invalid_json');
      expect(JSON.parse(deep.body).error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);

      // Handler time as the API measures it (its request histogram), for 1 MB of brackets without a key.
      const unauthenticated = async () => {
        const values = (await metrics.httpDuration.get()).values.filter(
          (v) => v.labels.method === 'POST' && v.labels.status === '401' && v.labels.route === 'unmatched',
        );
        const pick = (name: string) =>
          values.find((v) => v.metricName === `http_request_duration_seconds_${name}`)?.value ?? 0;
        return { sum: pick('sum'), count: pick('count') };
      };
      const before = await unauthenticated();
      const megabyte = nested(512 * 1024);
      for (let i = 0; i < 5; i++) {
        const res = await raw('POST', '/v1/responses', { 'content-type': 'application/json' }, megabyte);
        expect(res.status).toBe(401);
      }
      const after = await unauthenticated();
      expect(after.count - before.count).toBe(5);
      // Generous: a loaded machine took 6.6 ms (a full run beside a container test).
      expect((after.sum - before.sum) / 5).toBeLessThan(0.025);
    },
  );
});
