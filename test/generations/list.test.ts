// Listing (extension): GET /v1/responses and GET /v1/chat/completions page through the organization's
// generations newest first, by keyset cursors that stay exact while generations are being created;
// filters in each shape's status vocabulary; another organization's rows never show, its ids are bad
// cursors; bad parameters are a 400 naming them; the official openai client's cursor pages read it.
// Accepted creates start workflows in a namespace of their own that no worker serves (they stay queued).
import crypto from 'node:crypto';
import OpenAI from 'openai';
import { CursorPage } from 'openai/pagination';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { chatList, errorBody, responsesList } from '../../src/api/openapi/schemas.js';
import { Catalog } from '../../src/catalog/index.js';
import { admitGeneration, finishGeneration, markGenerationStarted } from '../../src/db/generations.js';
import { newId } from '../../src/ids.js';
import type { EngineId, GenerationStatus } from '../../src/shared.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { generationRequest } from '../support/fixtures.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';
import { outcome } from '../usage/support.js';

const catalog = Catalog.load();
let stack: TestApi;
beforeAll(async () => {
  const namespace = `list-${crypto.randomBytes(4).toString('hex')}`;
  await createNamespace(inject('temporalAddress'), namespace);
  stack = await startApi({ TEMPORAL_NAMESPACE: namespace });
});
afterAll(() => stack?.close());

const createBody = { model: 'gpt-4o-mini', input: 'A tiny clip', engine: 'lottie', width: 160, height: 284 };
const create = async (key: string): Promise<string> => {
  const res = await api(stack.url, '/v1/responses', { method: 'POST', key, json: createBody });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

/** Runs `count` creates, `concurrency` at a time; the ids in the order they were answered. */
async function createMany(key: string, count: number, concurrency = 16): Promise<string[]> {
  const ids: string[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started++;
        ids.push(await create(key));
      }
    }),
  );
  return ids;
}

const list = (key: string, query = '', path = '/v1/responses') =>
  api(stack.url, `${path}${query ? `?${query}` : ''}`, { key });

/** The organization's ids as the database orders them (newest first, ties by id). */
async function idsInDb(orgId: string): Promise<string[]> {
  const { rows } = await stack.db.query(
    'SELECT id FROM generations WHERE organization_id = $1 ORDER BY created_at DESC, id DESC',
    [orgId],
  );
  return rows.map((r) => r.id as string);
}

function expectBadParam(res: { status: number; body: unknown }, param: string) {
  expect(res.status).toBe(400);
  const body = errorBody.parse(res.body);
  expect(body.error).toMatchObject({ code: 'invalid_request', param });
}

describe('paging', () => {
  it('pages through 250 generations in three pages of ≤100, no gap or duplicate, while more are created', async () => {
    const { org, key } = await createOrgWithKey(stack.db);
    const existing = await createMany(key, 250);
    const expected = await idsInDb(org.id);
    expect(new Set(expected)).toEqual(new Set(existing));

    const first = await list(key, 'limit=100');
    expect(first.status).toBe(200);
    // New generations are created all the while the next pages are read.
    let creating = true;
    const created: string[] = [];
    const creator = (async () => {
      while (creating) created.push(await create(key));
    })();
    const waitForMore = async (n: number) => {
      const target = created.length + n;
      while (created.length < target) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      await waitForMore(3);
      const second = await list(key, `limit=100&after=${first.body.last_id}`);
      await waitForMore(3);
      const third = await list(key, `limit=100&after=${second.body.last_id}`);
      await waitForMore(1);

      const pages = [first.body, second.body, third.body].map((b) => responsesList.parse(b));
      expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
      expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
      for (const p of pages) {
        expect(p.object).toBe('list');
        expect(p.first_id).toBe(p.data[0]!.id);
        expect(p.last_id).toBe(p.data.at(-1)!.id);
      }
      const seen = pages.flatMap((p) => p.data.map((g) => g.id));
      expect(seen).toEqual(expected); // every one, once, newest first
      const createdAt = pages.flatMap((p) => p.data.map((g) => g.created_at));
      expect(createdAt.every((t, i) => i === 0 || t <= createdAt[i - 1]!)).toBe(true);
      // Items are the Responses view, from the record: queued, with the queued progress.
      expect(pages[0]!.data[0]).toMatchObject({
        object: 'response',
        status: 'queued',
        engine: 'lottie',
        model: 'gpt-4o-mini',
        progress: { stage: 'queued' },
      });
    } finally {
      creating = false;
      await creator;
    }
    expect(created.length).toBeGreaterThanOrEqual(7);

    // The generations created meanwhile are at the top of a fresh listing, before the 250.
    const everything: string[] = [];
    let after = '';
    for (;;) {
      const page = responsesList.parse((await list(key, `limit=100${after}`)).body);
      everything.push(...page.data.map((g) => g.id));
      if (!page.has_more) break;
      after = `&after=${page.last_id}`;
    }
    expect(everything).toEqual(await idsInDb(org.id));
    expect(new Set(everything.slice(0, created.length))).toEqual(new Set(created));
    expect(everything.slice(created.length)).toEqual(expected);
  });

  it(
    '`before`: the items just newer than the cursor, newest first; ' + 'walking up with first_id reaches the top',
    async () => {
      const { org, key } = await createOrgWithKey(stack.db);
      await createMany(key, 23);
      const all = await idsInDb(org.id);

      const page = responsesList.parse((await list(key, `limit=5&before=${all[10]}`)).body);
      expect(page.data.map((g) => g.id)).toEqual(all.slice(5, 10));
      expect(page.has_more).toBe(true);
      const top = responsesList.parse((await list(key, `limit=5&before=${all[3]}`)).body);
      expect(top.data.map((g) => g.id)).toEqual(all.slice(0, 3));
      expect(top.has_more).toBe(false);
      const none = responsesList.parse((await list(key, `before=${all[0]}`)).body);
      expect(none).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });

      // From the oldest upwards, 4 at a time, through the Chat listing.
      const walked: string[][] = [];
      let cursor = all.at(-1)!;
      for (;;) {
        const p = chatList.parse((await list(key, `limit=4&before=${cursor}`, '/v1/chat/completions')).body);
        walked.push(p.data.map((g) => g.id));
        if (!p.has_more) break;
        cursor = p.first_id!;
      }
      expect(walked.reverse().flat()).toEqual(all.slice(0, -1));
    },
  );

  it('defaults to 20 items', async () => {
    const { key } = await createOrgWithKey(stack.db);
    await createMany(key, 21);
    const page = responsesList.parse((await list(key)).body);
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    const rest = responsesList.parse((await list(key, `after=${page.last_id}`)).body);
    expect(rest.data).toHaveLength(1);
    expect(rest.has_more).toBe(false);
  });
});

describe('filters', () => {
  const T0 = Date.UTC(2024, 0, 1) / 1000;
  type Fixture = { engine: EngineId; model: string; status: GenerationStatus; at: number };
  // Ten seconds apart, oldest first; seconds after T0.
  const fixtures: Fixture[] = [
    { engine: 'lottie', model: 'gpt-4o-mini', status: 'queued', at: 0 },
    { engine: 'lottie', model: 'gpt-4.1', status: 'in_progress', at: 10 },
    { engine: 'hyperframes', model: 'gpt-4o-mini', status: 'completed', at: 20 },
    { engine: 'hyperframes', model: 'gpt-4.1', status: 'failed', at: 30 },
    { engine: 'lottie', model: 'gpt-4o-mini', status: 'cancelled', at: 40 },
    { engine: 'hyperframes', model: 'gpt-4o-mini', status: 'incomplete', at: 50 },
    { engine: 'lottie', model: 'gpt-4.1', status: 'completed', at: 60 },
    { engine: 'hyperframes', model: 'gpt-4o-mini', status: 'queued', at: 70 },
  ];
  let key: string;
  let ids: string[]; // as fixtures

  beforeAll(async () => {
    const owner = await createOrgWithKey(stack.db);
    key = owner.key;
    ids = [];
    for (const f of fixtures) {
      const id = newId('gen');
      const app = { name: null, referer: null, title: null };
      await admitGeneration(stack.db, {
        id,
        organizationId: owner.org.id,
        apiKeyId: owner.keyId,
        request: generationRequest(f.engine, f.model),
        app,
        holdMicros: 0,
      });
      if (f.status !== 'queued') await markGenerationStarted(stack.db, id);
      if (f.status === 'completed' || f.status === 'failed' || f.status === 'cancelled') {
        await finishGeneration(stack.db, catalog, outcome(id, f.status, { input_tokens: 100, output_tokens: 200 }));
      }
      if (f.status === 'incomplete')
        await stack.db.query(`UPDATE generations SET status = 'incomplete', completed_at = now() WHERE id = $1`, [id]);
      await stack.db.query('UPDATE generations SET created_at = to_timestamp($2) WHERE id = $1', [id, T0 + f.at]);
      ids.push(id);
    }
  });

  /** Ids of the fixtures matching, newest first. */
  const where = (keep: (f: Fixture) => boolean) => fixtures.flatMap((f, i) => (keep(f) ? [ids[i]!] : [])).reverse();
  const responsesIds = async (query: string) =>
    responsesList.parse((await list(key, query)).body).data.map((g) => g.id);
  const chatIds = async (query: string) =>
    chatList.parse((await list(key, query, '/v1/chat/completions')).body).data.map((g) => g.id);

  it('lists every fixture, each in its view', async () => {
    expect(await responsesIds('')).toEqual(where(() => true));
    const page = responsesList.parse((await list(key)).body);
    const completed = page.data.find((g) => g.id === ids[6])!;
    expect(completed).toMatchObject({
      status: 'completed',
      output_video_url: expect.any(String),
      usage: { input_tokens: 100, output_tokens: 200, total_tokens: 300 },
    });
    expect(completed.created_at).toBe(T0 + 60);
    const chat = chatList.parse((await list(key, '', '/v1/chat/completions')).body);
    expect(chat.data.map((g) => g.status)).toEqual([
      'pending',
      'completed',
      'failed',
      'cancelled',
      'failed',
      'completed',
      'processing',
      'pending',
    ]);
  });

  it('status, in each shape’s vocabulary', async () => {
    for (const status of ['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete'] as const) {
      expect(await responsesIds(`status=${status}`)).toEqual(where((f) => f.status === status));
    }
    expect(await chatIds('status=pending')).toEqual(where((f) => f.status === 'queued'));
    expect(await chatIds('status=processing')).toEqual(where((f) => f.status === 'in_progress'));
    expect(await chatIds('status=completed')).toEqual(where((f) => f.status === 'completed'));
    // Chat shows an incomplete generation as failed: the filter keeps both.
    expect(await chatIds('status=failed')).toEqual(where((f) => f.status === 'failed' || f.status === 'incomplete'));
    expect(await chatIds('status=cancelled')).toEqual(where((f) => f.status === 'cancelled'));

    expectBadParam(await list(key, 'status=pending'), 'status');
    expectBadParam(await list(key, 'status=incomplete', '/v1/chat/completions'), 'status');
    expectBadParam(await list(key, 'status=done'), 'status');
  });

  it('engine, model, created_after (inclusive) and created_before (exclusive), combined and paged', async () => {
    expect(await responsesIds('engine=lottie')).toEqual(where((f) => f.engine === 'lottie'));
    expect(await chatIds('engine=hyperframes')).toEqual(where((f) => f.engine === 'hyperframes'));
    expect(await responsesIds('model=gpt-4.1')).toEqual(where((f) => f.model === 'gpt-4.1'));
    expect(await responsesIds('engine=no-such-engine')).toEqual([]);
    expect(await responsesIds(`created_after=${T0 + 20}`)).toEqual(where((f) => f.at >= 20));
    expect(await responsesIds(`created_before=${T0 + 20}`)).toEqual(where((f) => f.at < 20));
    expect(await responsesIds(`created_after=${T0 + 20}&created_before=${T0 + 60}`)).toEqual(
      where((f) => f.at >= 20 && f.at < 60),
    );
    expect(await responsesIds(`created_after=${T0 + 21}&created_before=${T0 + 29}`)).toEqual([]);

    const query = `engine=hyperframes&model=gpt-4o-mini&created_after=${T0 + 10}`;
    const expected = where((f) => f.engine === 'hyperframes' && f.model === 'gpt-4o-mini' && f.at >= 10);
    expect(expected).toHaveLength(3);
    const first = responsesList.parse((await list(key, `${query}&limit=2`)).body);
    expect(first.data.map((g) => g.id)).toEqual(expected.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = responsesList.parse((await list(key, `${query}&limit=2&after=${first.last_id}`)).body);
    expect(second.data.map((g) => g.id)).toEqual(expected.slice(2));
    expect(second.has_more).toBe(false);
    // A cursor need not match the filters: it is a position.
    expect(await responsesIds(`status=completed&after=${ids[5]}`)).toEqual([ids[2]]);
  });
});

describe('isolation and bad parameters', () => {
  it('never lists another organization’s rows; its ids are bad cursors (400), like unknown ids', async () => {
    const a = await createOrgWithKey(stack.db);
    const b = await createOrgWithKey(stack.db);
    const aIds = await createMany(a.key, 5);
    const bIds = await createMany(b.key, 3);

    const bList = responsesList.parse((await list(b.key, 'limit=100')).body);
    expect(new Set(bList.data.map((g) => g.id))).toEqual(new Set(bIds));
    const bChat = chatList.parse((await list(b.key, 'limit=100', '/v1/chat/completions')).body);
    expect(new Set(bChat.data.map((g) => g.id))).toEqual(new Set(bIds));

    for (const path of ['/v1/responses', '/v1/chat/completions']) {
      for (const param of ['after', 'before']) {
        const res = await list(b.key, `${param}=${aIds[2]}`, path);
        expectBadParam(res, param);
        expect(JSON.stringify(res.body)).not.toContain(aIds[0]);
        expectBadParam(await list(b.key, `${param}=gen_${'0'.repeat(24)}`, path), param);
      }
    }
    // The same id is a fine cursor for its own organization.
    expect(
      responsesList.parse((await list(a.key, `after=${aIds[2]}`)).body).data.every((g) => aIds.includes(g.id)),
    ).toBe(true);
    expect((await api(stack.url, '/v1/responses')).status).toBe(401);
  });

  it(
    'limit 0, 101, or not an integer; unknown parameters; ' + 'bad times; both cursors: 400 naming the parameter',
    async () => {
      const { key } = await createOrgWithKey(stack.db);
      const [id] = await createMany(key, 1);
      for (const path of ['/v1/responses', '/v1/chat/completions']) {
        for (const limit of ['0', '101', '-1', '2.5', 'ten', ''])
          expectBadParam(await list(key, `limit=${limit}`, path), 'limit');
        expectBadParam(await list(key, 'limit=1&limit=2', path), 'limit');
        expectBadParam(await list(key, 'after=', path), 'after');
        expectBadParam(await list(key, `after=${'x'.repeat(65)}`, path), 'after');
        expectBadParam(await list(key, 'order=asc', path), 'order');
        expectBadParam(await list(key, 'created_after=-1', path), 'created_after');
        expectBadParam(await list(key, 'created_before=soon', path), 'created_before');
        expectBadParam(await list(key, 'created_before=1e20', path), 'created_before');
        expectBadParam(await list(key, `after=${id}&before=${id}`, path), 'before');
      }
      expect((await list(key, 'limit=1')).status).toBe(200);
      expect((await list(key, 'limit=100')).status).toBe(200);
    },
  );
});

describe('the official openai client', () => {
  it('auto-paginates chat.completions.list, and the Responses listing through its cursor pages', async () => {
    const { org, key } = await createOrgWithKey(stack.db);
    await createMany(key, 25);
    const expected = await idsInDb(org.id);
    const client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });

    const chat: string[] = [];
    for await (const completion of client.chat.completions.list({ limit: 10 })) {
      expect(completion.object).toBe('chat.completion');
      chat.push(completion.id);
    }
    expect(chat).toEqual(expected);

    // This client version has no responses.list(): its generic cursor pages over the same path.
    type Item = { id: string; object: string };
    const listResponses = () =>
      client.getAPIList<Item, CursorPage<Item>>('/responses', CursorPage<Item>, { query: { limit: 7 } });
    const page = await listResponses();
    expect(page.data).toHaveLength(7);
    expect(page.hasNextPage()).toBe(true);
    const responses: string[] = [];
    for await (const item of listResponses()) {
      expect(item.object).toBe('response');
      responses.push(item.id);
    }
    expect(responses).toEqual(expected);

    // A bad parameter surfaces as the client's BadRequestError carrying our error.
    const bad = await client.chat.completions.list({ limit: 101 }).catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_request', param: 'limit' });
  });
});
