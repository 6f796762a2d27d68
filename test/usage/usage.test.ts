// GET /v1/usage: every figure equals the one computed here, independently, from the generations the
// test made — two real end-to-end generations (worker, Lottie, tiny canvas) and rows written through
// the data-access functions (completed, failed, cancelled, in flight; two engines, several models,
// spread over days, one just inside and one just outside the 30-day window) — and the catalog prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PROVIDER, RECENT_REQUESTS, USAGE_DAYS } from '../../src/api/usage/service.js';
import { Catalog } from '../../src/catalog/index.js';
import { MICROS_PER_CENT } from '../../src/db/organizations.js';
import type { TokenUsage } from '../../src/shared.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { addGeneration, expectedCostMicros, type Fixture } from './support.js';

const DAY_MS = 24 * 3600 * 1000;
const INITIAL_CENTS = 5000;

/** What the test knows about one generation of an organization. */
type Known = {
  id: string;
  status: string;
  engine: string;
  model: string;
  provider: string | null;
  usage: TokenUsage | null;
  costMicros: number;
  latencyMs: number | null;
  durationSeconds: number;
  createdAt: number;
  completedAt: number | null;
};

const catalog = Catalog.load();
let stack: TestStack;
const orgA: Known[] = [];
const orgB: Known[] = [];
let keyA: string;
let keyB: string;
let orgIdA: string;

const utcMidnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const today = utcMidnight(Date.now());
/** Noon UTC `daysAgo` days back, or 10 minutes ago for today (never in the future). */
const dayTime = (daysAgo: number) =>
  new Date(daysAgo === 0 ? Math.max(today, Date.now() - 10 * 60_000) : today - daysAgo * DAY_MS + 12 * 3600_000);

async function remember(list: Known[], owner: { orgId: string; keyId: string }, f: Fixture) {
  const id = await addGeneration(stack.db, catalog, owner, f);
  const terminal = f.status !== 'queued';
  list.push({
    id,
    status: f.status,
    engine: f.engine,
    model: f.model,
    provider: f.usage ? 'local' : null,
    usage: f.usage ?? null,
    costMicros: expectedCostMicros(f.engine, f.model, f.usage ?? null),
    latencyMs: terminal ? (f.latencyMs ?? 1000) : null,
    durationSeconds: f.status === 'completed' ? (f.durationSeconds ?? 0) : 0,
    createdAt: f.createdAt.getTime(),
    completedAt: terminal ? f.createdAt.getTime() + (f.latencyMs ?? 1000) : null,
  });
}

beforeAll(async () => {
  // Polling the real generations would eat into the key's rate limit, tested on its own (test/ratelimit).
  stack = await startStack({ RATE_LIMIT_ENABLED: 'false' });
  const a = await createOrgWithKey(stack.db, INITIAL_CENTS);
  const b = await createOrgWithKey(stack.db, INITIAL_CENTS);
  [keyA, keyB, orgIdA] = [a.key, b.key, a.org.id];

  // Two real generations, end to end.
  const real = await Promise.all(
    ['gpt-4o-mini', 'llama-3.1-8b'].map(async (model) => {
      const created = await api(stack.url, '/v1/responses', {
        method: 'POST',
        key: keyA,
        json: { model, engine: 'lottie', input: `Usage check ${model}`, width: 160, height: 284 },
      });
      expect(created.status).toBe(200);
      return (await waitForTerminal(stack.url, keyA, created.body.id)).body;
    }),
  );
  for (const g of real) {
    expect(g.status).toBe('completed');
    const { rows } = await stack.db.query(
      'SELECT provider, created_at, completed_at, duration_seconds FROM generations WHERE id = $1',
      [g.id],
    );
    const row = rows[0];
    const usage = { input_tokens: g.usage.input_tokens, output_tokens: g.usage.output_tokens };
    orgA.push({
      id: g.id,
      status: 'completed',
      engine: 'lottie',
      model: g.model,
      provider: row.provider,
      usage,
      costMicros: expectedCostMicros('lottie', g.model, usage),
      latencyMs: g.latency_ms,
      durationSeconds: row.duration_seconds,
      createdAt: row.created_at.getTime(),
      completedAt: row.completed_at.getTime(),
    });
  }

  const ownerA = { orgId: a.org.id, keyId: a.keyId };
  const ownerB = { orgId: b.org.id, keyId: b.keyId };
  const fixtures: Fixture[] = [
    {
      engine: 'hyperframes',
      model: 'gpt-4.1',
      status: 'completed',
      usage: { input_tokens: 1234, output_tokens: 5678 },
      durationSeconds: 3.5,
      latencyMs: 4200,
      createdAt: dayTime(2),
    },
    {
      engine: 'hyperframes',
      model: 'gpt-4.1',
      status: 'completed',
      usage: { input_tokens: 99, output_tokens: 4321 },
      durationSeconds: 2.25,
      latencyMs: 3001,
      createdAt: dayTime(2),
    },
    {
      engine: 'hyperframes',
      model: 'gpt-4.1',
      status: 'failed',
      usage: { input_tokens: 800, output_tokens: 7 },
      latencyMs: 900,
      createdAt: dayTime(2),
    },
    {
      engine: 'hyperframes',
      model: 'claude-sonnet-4-5',
      status: 'cancelled',
      usage: { input_tokens: 500, output_tokens: 120 },
      latencyMs: 1500,
      createdAt: dayTime(2),
    },
    { engine: 'lottie', model: 'gpt-4o-mini', status: 'cancelled', usage: null, latencyMs: 40, createdAt: dayTime(0) },
    { engine: 'lottie', model: 'gpt-4o-mini', status: 'failed', usage: null, latencyMs: 70, createdAt: dayTime(5) },
    { engine: 'hyperframes', model: 'gpt-4.1', status: 'queued', createdAt: dayTime(0) },
    {
      engine: 'lottie',
      model: 'claude-sonnet-4-5',
      status: 'completed',
      usage: { input_tokens: 3000, output_tokens: 9000 },
      durationSeconds: 4,
      createdAt: dayTime(31),
    },
    // The first instant of the window, and the last instant before it.
    {
      engine: 'lottie',
      model: 'gpt-4o-mini',
      status: 'completed',
      usage: { input_tokens: 11, output_tokens: 13 },
      durationSeconds: 1.1,
      latencyMs: 777,
      createdAt: new Date(today - (USAGE_DAYS - 1) * DAY_MS),
    },
    {
      engine: 'lottie',
      model: 'gpt-4o-mini',
      status: 'completed',
      usage: { input_tokens: 17, output_tokens: 19 },
      durationSeconds: 1.3,
      createdAt: new Date(today - (USAGE_DAYS - 1) * DAY_MS - 1),
    },
    // More than RECENT_REQUESTS generations in all.
    ...Array.from({ length: 14 }, (_, i): Fixture => ({
      engine: i % 2 ? 'lottie' : 'hyperframes',
      model: i % 3 ? 'gpt-4o-mini' : 'llama-3.1-8b',
      status: 'completed',
      usage: { input_tokens: 100 + i, output_tokens: 1000 + 37 * i },
      durationSeconds: 3 + i / 10,
      latencyMs: 2000 + 10 * i,
      createdAt: dayTime(i % 7),
    })),
  ];
  for (const f of fixtures) await remember(orgA, ownerA, f);

  // Another organization, same days and routes: none of it may show in A's usage.
  for (const f of fixtures.slice(0, 5))
    await remember(orgB, ownerB, { ...f, createdAt: new Date(f.createdAt.getTime() + 1) });
}, 240_000);

afterAll(() => stack?.close());

// ---- The expected usage, computed here from what the test knows --------------------------------

const cents = (micros: number) => micros / MICROS_PER_CENT;
const sum = (xs: Known[], f: (g: Known) => number) => xs.reduce((acc, g) => acc + f(g), 0);
const isFailed = (g: Known) => g.status === 'failed';
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function expectedUsage(known: Known[]) {
  const dates = Array.from({ length: USAGE_DAYS }, (_, i) => dateOf(today - (USAGE_DAYS - 1 - i) * DAY_MS));
  const onDay = (date: string) => known.filter((g) => dateOf(g.createdAt) === date);
  return {
    credit_balance: cents(INITIAL_CENTS * MICROS_PER_CENT - sum(known, (g) => g.costMicros)),
    totals: {
      total_requests: known.length,
      completed_requests: known.filter((g) => g.status === 'completed').length,
      failed_requests: known.filter(isFailed).length,
      total_cost_cents: cents(sum(known, (g) => g.costMicros)),
    },
    daily_usage: dates.map((date) => {
      const day = onDay(date);
      return {
        date,
        request_count: day.length,
        completed_count: day.filter((g) => g.status === 'completed').length,
        failed_count: day.filter(isFailed).length,
        total_cost_cents: cents(sum(day, (g) => g.costMicros)),
        total_duration_seconds: Math.round(sum(day, (g) => g.durationSeconds) * 1000) / 1000,
      };
    }),
    daily_usage_by_route: dates.map((date) => {
      const routes = new Map<string, Known[]>();
      for (const g of onDay(date)) {
        const key = [g.engine, g.model, g.provider ?? NO_PROVIDER].join('|');
        routes.set(key, [...(routes.get(key) ?? []), g]);
      }
      return {
        date,
        routes: [...routes.entries()].map(([key, gs]) => {
          const [engine, model, provider] = key.split('|');
          const completed = gs.filter((g) => g.status === 'completed');
          return {
            engine,
            model,
            provider,
            request_count: gs.length,
            completed_count: completed.length,
            failed_count: gs.filter(isFailed).length,
            total_cost_cents: cents(sum(gs, (g) => g.costMicros)),
            total_prompt_tokens: sum(gs, (g) => g.usage?.input_tokens ?? 0),
            total_completion_tokens: sum(gs, (g) => g.usage?.output_tokens ?? 0),
            avg_latency_ms: completed.length ? Math.round(sum(completed, (g) => g.latencyMs!) / completed.length) : 0,
          };
        }),
      };
    }),
    recent_requests: [...known]
      .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : 1))
      .slice(0, RECENT_REQUESTS)
      .map((g) => ({
        id: g.id,
        status: g.status,
        model_name: g.model,
        engine: g.engine,
        cost_cents: cents(g.costMicros),
        latency_ms: g.latencyMs,
        created_at: g.createdAt,
        completed_at: g.completedAt,
      })),
  };
}

/** Routes are compared as sets: the interface gives them no order. */
function byRouteKey<T extends { routes: Array<{ engine: string; model: string; provider: string }> }>(days: T[]): T[] {
  const key = (r: { engine: string; model: string; provider: string }) => `${r.engine}|${r.model}|${r.provider}`;
  return days.map((d) => ({ ...d, routes: [...d.routes].sort((x, y) => key(x).localeCompare(key(y))) }));
}

// ---- The tests ---------------------------------------------------------------------------------

describe('GET /v1/usage', () => {
  it('reports every figure exactly as computed from the generations made', async () => {
    const res = await api(stack.url, '/v1/usage', { key: keyA });
    expect(res.status).toBe(200);
    const expected = expectedUsage(orgA);
    expect(res.body.credit_balance).toBe(expected.credit_balance);
    expect(res.body.totals).toEqual(expected.totals);
    expect(res.body.daily_usage).toEqual(expected.daily_usage);
    expect(byRouteKey(res.body.daily_usage_by_route)).toEqual(byRouteKey(expected.daily_usage_by_route));
    expect(res.body.recent_requests).toEqual(expected.recent_requests);
    // Fixture generations hold nothing (test/usage/credits.test.ts covers holds).
    expect(res.body.credit_held).toBe(0);
    expect(Object.keys(res.body).sort()).toEqual([
      'credit_balance',
      'credit_held',
      'daily_usage',
      'daily_usage_by_route',
      'recent_requests',
      'totals',
    ]);
  });

  it('matches the database: the balance is the ledger, the costs are the charges', async () => {
    const res = await api(stack.url, '/v1/usage', { key: keyA });
    const { rows } = await stack.db.query(
      `SELECT (SELECT credit_balance_micros FROM organizations WHERE id = $1) AS balance,
              (SELECT sum(amount_micros)::bigint FROM credit_ledger WHERE organization_id = $1) AS ledger,
              (SELECT -sum(amount_micros)::bigint FROM credit_ledger
               WHERE organization_id = $1 AND kind = 'generation_charge') AS charged`,
      [orgIdA],
    );
    expect(res.body.credit_balance).toBe(cents(rows[0].balance));
    expect(rows[0].ledger).toBe(rows[0].balance);
    expect(res.body.totals.total_cost_cents).toBe(cents(rows[0].charged));
    // Money is exact: cents carry at most 4 decimals (whole micro-dollars), nothing is lost to rounding.
    // (× 10 000 in floating point can land a hair off the integer: 0.1301 × 10 000 = 1300.9999999999998.)
    const micros = res.body.totals.total_cost_cents * MICROS_PER_CENT;
    expect(Math.abs(micros - Math.round(micros))).toBeLessThan(1e-6);
    expect(res.body.totals.total_cost_cents).not.toBe(Math.round(res.body.totals.total_cost_cents));
  });

  it("shows another organization's usage only to that organization", async () => {
    const a = (await api(stack.url, '/v1/usage', { key: keyA })).body;
    const b = (await api(stack.url, '/v1/usage', { key: keyB })).body;
    const expectedB = expectedUsage(orgB);
    expect(b.totals).toEqual(expectedB.totals);
    expect(b.credit_balance).toBe(expectedB.credit_balance);
    expect(b.daily_usage).toEqual(expectedB.daily_usage);
    expect(byRouteKey(b.daily_usage_by_route)).toEqual(byRouteKey(expectedB.daily_usage_by_route));
    expect(b.recent_requests).toEqual(expectedB.recent_requests);
    const idsOfB = new Set(orgB.map((g) => g.id));
    expect(a.recent_requests.some((g: { id: string }) => idsOfB.has(g.id))).toBe(false);
  });

  it('lists the last 30 UTC days, oldest first, days without traffic as zeros', async () => {
    const { daily_usage, daily_usage_by_route } = (await api(stack.url, '/v1/usage', { key: keyA })).body;
    expect(daily_usage).toHaveLength(USAGE_DAYS);
    expect(daily_usage.at(-1).date).toBe(dateOf(Date.now()));
    for (let i = 1; i < USAGE_DAYS; i++)
      expect(Date.parse(daily_usage[i].date) - Date.parse(daily_usage[i - 1].date)).toBe(DAY_MS);
    const quiet = daily_usage.filter((d: { request_count: number }) => d.request_count === 0);
    expect(quiet.length).toBeGreaterThan(15);
    for (const d of quiet)
      expect(d).toEqual({
        date: d.date,
        request_count: 0,
        completed_count: 0,
        failed_count: 0,
        total_cost_cents: 0,
        total_duration_seconds: 0,
      });
    expect(daily_usage_by_route.map((d: { date: string }) => d.date)).toEqual(
      daily_usage.map((d: { date: string }) => d.date),
    );
    // The window's first day holds the generation made at its first instant, not the one just before.
    expect(daily_usage[0].request_count).toBe(1);
  });

  it('lists the 20 latest generations, newest first, in flight ones with null latency', async () => {
    const { recent_requests } = (await api(stack.url, '/v1/usage', { key: keyA })).body;
    expect(orgA.length).toBeGreaterThan(RECENT_REQUESTS);
    expect(recent_requests).toHaveLength(RECENT_REQUESTS);
    const created = recent_requests.map((g: { created_at: number }) => g.created_at);
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const inFlight = recent_requests.find((g: { status: string }) => g.status === 'queued');
    expect(inFlight).toMatchObject({ cost_cents: 0, latency_ms: null, completed_at: null });
  });

  it('needs a key and is scoped to it', async () => {
    expect((await api(stack.url, '/v1/usage')).status).toBe(401);
  });
});
