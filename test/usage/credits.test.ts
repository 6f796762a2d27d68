// Money: the charging step charges once however often it runs; failed and cancelled generations pay
// for the tokens they used; creation is refused (402) once the balance is at or below zero, which
// bounds the overdraw by the generations already in flight; a top-up restores service. No worker
// runs here: the test plays the workflow's charging step (finishGeneration) itself.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.js';
import { finishGeneration, getGeneration } from '../../src/db/generations.js';
import { MICROS_PER_CENT } from '../../src/db/organizations.js';
import { api, createOrgWithKey, startApi, testEnv, type TestApi } from '../support/stack.js';
import { addGeneration, expectedCostMicros, outcome } from './support.js';

const catalog = Catalog.load();
let stack: TestApi;
beforeAll(async () => {
  // The limiter is tested on its own (test/ratelimit); here it would only get in the way of bursts.
  stack = await startApi({ RATE_LIMIT_ENABLED: 'false' });
});
afterAll(() => stack?.close());

const createBody = { model: 'gpt-4o-mini', input: 'A tiny clip', engine: 'lottie', width: 160, height: 284 };
const create = (key: string) => api(stack.url, '/v1/responses', { method: 'POST', key, json: createBody });

async function balanceMicros(orgId: string): Promise<number> {
  const { rows } = await stack.db.query('SELECT credit_balance_micros FROM organizations WHERE id = $1', [orgId]);
  return rows[0].credit_balance_micros;
}

async function ledger(orgId: string) {
  const { rows } = await stack.db.query('SELECT kind, amount_micros, generation_id FROM credit_ledger WHERE organization_id = $1 ORDER BY id', [orgId]);
  return rows as Array<{ kind: string; amount_micros: number; generation_id: string | null }>;
}

/** The ledger explains the balance: every movement is a row. */
async function expectLedgerMatchesBalance(orgId: string) {
  const rows = await ledger(orgId);
  expect(rows.reduce((sum, r) => sum + r.amount_micros, 0)).toBe(await balanceMicros(orgId));
}

async function countGenerations(orgId: string): Promise<number> {
  const { rows } = await stack.db.query('SELECT count(*) AS n FROM generations WHERE organization_id = $1', [orgId]);
  return rows[0].n;
}

describe('charging', () => {
  it('charges a generation once, however often (and however concurrently) the charging step runs', async () => {
    const { org, keyId } = await createOrgWithKey(stack.db, 100);
    const owner = { orgId: org.id, keyId };
    const id = await addGeneration(stack.db, catalog, owner, { engine: 'hyperframes', model: 'gpt-4.1', status: 'queued', createdAt: new Date() });
    const usage = { input_tokens: 1234, output_tokens: 5678 };
    const done = outcome(id, 'completed', usage, 3);

    await finishGeneration(stack.db, catalog, done);
    const first = await getGeneration(stack.db, org.id, id);
    // Activity retries: again, then ten at once, then a different (late) outcome.
    await finishGeneration(stack.db, catalog, done);
    await Promise.all(Array.from({ length: 10 }, () => finishGeneration(stack.db, catalog, done)));
    await finishGeneration(stack.db, catalog, outcome(id, 'failed', { input_tokens: 9, output_tokens: 9 }));

    const cost = expectedCostMicros('hyperframes', 'gpt-4.1', usage);
    expect(first!.cost_micros).toBe(cost);
    expect(await getGeneration(stack.db, org.id, id)).toEqual(first);
    const charges = (await ledger(org.id)).filter((r) => r.kind === 'generation_charge');
    expect(charges).toEqual([{ kind: 'generation_charge', amount_micros: -cost, generation_id: id }]);
    expect(await balanceMicros(org.id)).toBe(100 * MICROS_PER_CENT - cost);
    await expectLedgerMatchesBalance(org.id);
  });

  it('charges failed and cancelled generations for the tokens they consumed, nothing when none', async () => {
    const { org, keyId } = await createOrgWithKey(stack.db, 100);
    const owner = { orgId: org.id, keyId };
    const now = new Date();
    const failedUsage = { input_tokens: 800, output_tokens: 40 };
    const cancelledUsage = { input_tokens: 500, output_tokens: 120 };
    const failed = await addGeneration(stack.db, catalog, owner, { engine: 'lottie', model: 'claude-sonnet-4-5', status: 'failed', usage: failedUsage, createdAt: now });
    const cancelled = await addGeneration(stack.db, catalog, owner, { engine: 'hyperframes', model: 'gpt-4o-mini', status: 'cancelled', usage: cancelledUsage, createdAt: now });
    const early = await addGeneration(stack.db, catalog, owner, { engine: 'lottie', model: 'gpt-4o-mini', status: 'cancelled', usage: null, createdAt: now });

    const charges = (await ledger(org.id)).filter((r) => r.kind === 'generation_charge');
    expect(charges).toEqual([
      { kind: 'generation_charge', amount_micros: -expectedCostMicros('lottie', 'claude-sonnet-4-5', failedUsage), generation_id: failed },
      { kind: 'generation_charge', amount_micros: -expectedCostMicros('hyperframes', 'gpt-4o-mini', cancelledUsage), generation_id: cancelled },
    ]);
    expect((await getGeneration(stack.db, org.id, early))!.cost_micros).toBeNull();
    await expectLedgerMatchesBalance(org.id);
  });
});

describe('credit policy', () => {
  it('refuses creation with 402 when the balance is empty; add-credits (admin CLI) restores service', async () => {
    const { org, key } = await createOrgWithKey(stack.db, 0);
    const refused = await create(key);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: { code: 'insufficient_credits', message: expect.any(String) } });
    expect(await countGenerations(org.id)).toBe(0);

    const topUp = await runAdmin(['add-credits', '--org', org.id, '--cents', '25']);
    expect(topUp).toMatchObject({ id: org.id, credit_balance_cents: 25 });
    const accepted = await create(key);
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('queued');
    expect(await ledger(org.id)).toEqual([{ kind: 'top_up', amount_micros: 25 * MICROS_PER_CENT, generation_id: null }]);
  });

  it('50 concurrent creates on a nearly empty balance: overdraw bounded by the generations in flight when it hit zero', async () => {
    const initial = 1 * MICROS_PER_CENT;
    const { org, key } = await createOrgWithKey(stack.db, 1);

    // The balance is positive throughout the burst (nothing is charged before completion): all admitted.
    const burst = await Promise.all(Array.from({ length: 50 }, () => create(key)));
    expect(burst.map((r) => r.status)).toEqual(Array(50).fill(200));
    const inFlight = burst.map((r) => r.body.id as string);

    // They complete; each costs more than the whole balance, so the first charge takes it below zero.
    const usage = { input_tokens: 2000, output_tokens: 20_000 };
    const cost = expectedCostMicros('lottie', 'gpt-4o-mini', usage);
    expect(cost).toBeGreaterThan(initial);
    await Promise.all(inFlight.map((id) => finishGeneration(stack.db, catalog, outcome(id, 'completed', usage, 3))));

    // The bound: the overdraw is at most the cost of the generations in flight when the balance hit zero.
    const balance = await balanceMicros(org.id);
    expect(balance).toBe(initial - inFlight.length * cost);
    expect(-balance).toBeLessThanOrEqual(inFlight.length * cost);
    await expectLedgerMatchesBalance(org.id);

    // From then on nothing is admitted, however many try at once: the overdraw cannot grow.
    const after = await Promise.all(Array.from({ length: 50 }, () => create(key)));
    expect(after.every((r) => r.status === 402 && r.body.error.code === 'insufficient_credits')).toBe(true);
    expect(await countGenerations(org.id)).toBe(50);
    expect(await balanceMicros(org.id)).toBe(balance);
  });

  it('mid-burst: no create sent after the charge that crossed zero is admitted', async () => {
    const { org, key, keyId } = await createOrgWithKey(stack.db, 1);
    const owner = { orgId: org.id, keyId };
    const g0 = await addGeneration(stack.db, catalog, owner, { engine: 'lottie', model: 'gpt-4.1', status: 'queued', createdAt: new Date() });
    const usage = { input_tokens: 1000, output_tokens: 2000 }; // > 1 cent on gpt-4.1

    // 50 creates spread over ~1 s, with the charge that crosses zero fired early among them.
    let chargedAt = Infinity;
    const charge = (async () => {
      await new Promise((r) => setTimeout(r, 150));
      await finishGeneration(stack.db, catalog, outcome(g0, 'completed', usage, 3));
      chargedAt = performance.now();
    })();
    const creates = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 20));
        const sentAt = performance.now();
        const res = await create(key);
        return { sentAt, status: res.status, id: res.body.id as string | undefined };
      }),
    );
    await charge;

    const sentAfter = creates.filter((c) => c.sentAt > chargedAt);
    expect(sentAfter.length).toBeGreaterThan(0);
    expect(sentAfter.every((c) => c.status === 402)).toBe(true);
    const admitted = creates.filter((c) => c.status === 200).map((c) => c.id!);
    expect(admitted.length + creates.filter((c) => c.status === 402).length).toBe(50);
    expect(await countGenerations(org.id)).toBe(1 + admitted.length);
    expect(await balanceMicros(org.id)).toBe(1 * MICROS_PER_CENT - expectedCostMicros('lottie', 'gpt-4.1', usage));
  });
});

/** Runs the admin CLI (`npm run admin -- …`) against the test database; returns its JSON output. */
function runAdmin(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], { env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`admin ${args[0]} exited ${code}: ${err}`))));
  });
}
