// Money: the charging step charges once however often it runs; failed and cancelled generations pay
// for the tokens they used; a create is admitted only while the balance covers the holds (worst-case
// costs) of the generations in flight plus its own, else 402; an end releases the hold and charges
// the exact cost; a top-up restores service. No worker runs here: the test plays the workflow's
// charging step (finishGeneration) itself.
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
  const { rows } = await stack.db.query(
    'SELECT kind, amount_micros, generation_id FROM credit_ledger WHERE organization_id = $1 ORDER BY id',
    [orgId],
  );
  return rows as Array<{ kind: string; amount_micros: number; generation_id: string | null }>;
}

/** The ledger explains the balance: every movement is a row. */
async function expectLedgerMatchesBalance(orgId: string) {
  const rows = await ledger(orgId);
  expect(rows.reduce((sum, r) => sum + r.amount_micros, 0)).toBe(await balanceMicros(orgId));
}

async function usage(key: string) {
  const res = await api(stack.url, '/v1/usage', { key });
  expect(res.status).toBe(200);
  return res.body as { credit_balance: number; credit_held: number };
}

async function countGenerations(orgId: string): Promise<number> {
  const { rows } = await stack.db.query('SELECT count(*) AS n FROM generations WHERE organization_id = $1', [orgId]);
  return rows[0].n;
}

describe('charging', () => {
  it('charges a generation once, however often (and however concurrently) the charging step runs', async () => {
    const { org, keyId } = await createOrgWithKey(stack.db, 100);
    const owner = { orgId: org.id, keyId };
    const id = await addGeneration(stack.db, catalog, owner, {
      engine: 'hyperframes',
      model: 'gpt-4.1',
      status: 'queued',
      createdAt: new Date(),
    });
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
    const failed = await addGeneration(stack.db, catalog, owner, {
      engine: 'lottie',
      model: 'claude-sonnet-4-5',
      status: 'failed',
      usage: failedUsage,
      createdAt: now,
    });
    const cancelled = await addGeneration(stack.db, catalog, owner, {
      engine: 'hyperframes',
      model: 'gpt-4o-mini',
      status: 'cancelled',
      usage: cancelledUsage,
      createdAt: now,
    });
    const early = await addGeneration(stack.db, catalog, owner, {
      engine: 'lottie',
      model: 'gpt-4o-mini',
      status: 'cancelled',
      usage: null,
      createdAt: now,
    });

    const charges = (await ledger(org.id)).filter((r) => r.kind === 'generation_charge');
    expect(charges).toEqual([
      {
        kind: 'generation_charge',
        amount_micros: -expectedCostMicros('lottie', 'claude-sonnet-4-5', failedUsage),
        generation_id: failed,
      },
      {
        kind: 'generation_charge',
        amount_micros: -expectedCostMicros('hyperframes', 'gpt-4o-mini', cancelledUsage),
        generation_id: cancelled,
      },
    ]);
    expect((await getGeneration(stack.db, org.id, early))!.cost_micros).toBeNull();
    await expectLedgerMatchesBalance(org.id);
  });
});

describe('credit policy', () => {
  it(
    'refuses creation with 402 when the balance does not cover the hold; ' + 'add-credits (admin CLI) restores service',
    async () => {
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
      expect(await ledger(org.id)).toEqual([
        { kind: 'top_up', amount_micros: 25 * MICROS_PER_CENT, generation_id: null },
      ]);
    },
  );

  it(
    '30 concurrent creates are admitted exactly as far as the balance covers their holds; ' +
      'ends release the holds and charge exact costs',
    async () => {
      // The hold of this request, as the API reports it while one such generation is open.
      const probe = await createOrgWithKey(stack.db, 10_000);
      const first = await create(probe.key);
      expect(first.status).toBe(200);
      const probeUsage = await usage(probe.key);
      const holdMicros = Math.round(probeUsage.credit_held * MICROS_PER_CENT);
      expect(holdMicros).toBeGreaterThan(MICROS_PER_CENT); // more than a cent: a 1-cent organization gets nothing
      expect((await getGeneration(stack.db, probe.org.id, first.body.id))!.hold_micros).toBe(holdMicros);
      expect(probeUsage.credit_balance).toBe(10_000); // held, not charged

      // Just under one hold: none of 30; just over one hold (but under two): exactly one of 30.
      for (const [cents, admitted] of [
        [Math.floor(holdMicros / MICROS_PER_CENT), 0],
        [Math.ceil(holdMicros / MICROS_PER_CENT), 1],
      ] as const) {
        expect(
          cents * MICROS_PER_CENT < 2 * holdMicros && cents * MICROS_PER_CENT < holdMicros === (admitted === 0),
        ).toBe(true);
        const org = await createOrgWithKey(stack.db, cents);
        const burst = await Promise.all(Array.from({ length: 30 }, () => create(org.key)));
        expect(
          burst.filter((r) => r.status === 200),
          `${cents} cents`,
        ).toHaveLength(admitted);
        expect(
          burst.every((r) => r.status === 200 || (r.status === 402 && r.body.error.code === 'insufficient_credits')),
        ).toBe(true);
      }

      // Three and a half holds: exactly three of 30.
      const cents = Math.ceil((3.5 * holdMicros) / MICROS_PER_CENT);
      const initial = cents * MICROS_PER_CENT;
      const { org, key } = await createOrgWithKey(stack.db, cents);
      const burst = await Promise.all(Array.from({ length: 30 }, () => create(key)));
      const admitted = burst.filter((r) => r.status === 200).map((r) => r.body.id as string);
      expect(admitted).toHaveLength(3);
      expect(burst.filter((r) => r.status === 402)).toHaveLength(27);
      expect(await countGenerations(org.id)).toBe(3);
      expect((await usage(key)).credit_held).toBe((3 * holdMicros) / MICROS_PER_CENT);

      // Each outcome releases its hold and charges its exact cost once (repeats change nothing).
      const outcomes = [
        outcome(admitted[0]!, 'completed', { input_tokens: 1234, output_tokens: 5678 }, 3),
        outcome(admitted[1]!, 'failed', { input_tokens: 800, output_tokens: 40 }),
        outcome(admitted[2]!, 'cancelled', null),
      ];
      for (const o of outcomes) await finishGeneration(stack.db, catalog, o);
      await Promise.all(outcomes.map((o) => finishGeneration(stack.db, catalog, o)));
      const exact = outcomes.reduce((sum, o) => sum + expectedCostMicros('lottie', 'gpt-4o-mini', o.usage), 0);
      const after = await usage(key);
      expect(after.credit_held).toBe(0);
      expect(await balanceMicros(org.id)).toBe(initial - exact);
      expect(after.credit_balance).toBe((initial - exact) / MICROS_PER_CENT);
      await expectLedgerMatchesBalance(org.id);

      // Released holds admit again, as far as the balance (now lower by the exact costs) covers.
      const again = await Promise.all(Array.from({ length: 10 }, () => create(key)));
      expect(again.filter((r) => r.status === 200)).toHaveLength(Math.floor((initial - exact) / holdMicros));
    },
  );
});

/** Runs the admin CLI (`npm run admin -- …`) against the test database; returns its JSON output. */
function runAdmin(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      env: testEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`admin ${args[0]} exited ${code}: ${err}`)),
    );
  });
}
