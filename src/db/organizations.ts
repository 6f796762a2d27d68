import { newId } from '../ids.js';
import { transaction, type Db } from './pool.js';

export type Organization = { id: string; name: string; credit_balance_cents: number; created_at: string };

/** Micro-dollars (internal unit) per cent (API unit). */
export const MICROS_PER_CENT = 10_000;

export async function createOrganization(db: Db, name: string, credits_cents = 0): Promise<Organization> {
  const id = newId('org');
  return transaction(db, async (c) => {
    await c.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, name]);
    if (credits_cents > 0) await addCreditsIn(c, id, credits_cents);
    return (await getOrganization(c, id))!;
  });
}

type Queryable = Pick<Db, 'query'>;

export async function getOrganization(db: Queryable, id: string): Promise<Organization | null> {
  const { rows } = await db.query(
    `SELECT id, name, credit_balance_micros, created_at FROM organizations WHERE id = $1`,
    [id],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  return {
    id: r.id,
    name: r.name,
    credit_balance_cents: r.credit_balance_micros / MICROS_PER_CENT,
    created_at: r.created_at.toISOString(),
  };
}

async function addCreditsIn(db: Queryable, organizationId: string, cents: number): Promise<void> {
  const micros = cents * MICROS_PER_CENT;
  await db.query(`INSERT INTO credit_ledger (organization_id, kind, amount_micros) VALUES ($1, 'top_up', $2)`, [
    organizationId,
    micros,
  ]);
  await db.query('UPDATE organizations SET credit_balance_micros = credit_balance_micros + $2 WHERE id = $1', [
    organizationId,
    micros,
  ]);
}

/** Top-up: a ledger row and the balance move together. Returns null for an unknown organization. */
export async function addCredits(db: Db, organizationId: string, cents: number): Promise<Organization | null> {
  return transaction(db, async (c) => {
    const org = await c.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
    if (org.rowCount === 0) return null;
    await addCreditsIn(c, organizationId, cents);
    return getOrganization(c, organizationId);
  });
}
