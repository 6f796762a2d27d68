// Leases of open event streams (migration 0015): one row per open stream, so the caps per key and per
// organization hold across every API process. A lease lives until its stream closes (released) or
// its process stops refreshing it (expired).
import { transaction, type Db } from './pool.js';

export type StreamCaps = { perHolder: number; perOrganization: number };

/** Which cap refused the lease, or the lease's id. */
export type LeaseOutcome = { id: number } | { refused: 'holder' | 'organization'; open: number };

/**
 * Takes a lease unless the holder or the organization already has its cap of live leases. The
 * organization's leases are counted under a transaction-scoped lock, so parallel opens cannot all
 * pass one count.
 */
export async function takeStreamLease(
  db: Db,
  organizationId: string,
  holder: string,
  caps: StreamCaps,
  ttlSeconds: number,
): Promise<LeaseOutcome> {
  return transaction(db, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('stream_leases:' || $1, 0))`, [organizationId]);
    await client.query('DELETE FROM stream_leases WHERE organization_id = $1 AND expires_at <= now()', [
      organizationId,
    ]);
    const { rows } = await client.query(
      `SELECT count(*)::int AS organization, count(*) FILTER (WHERE holder = $2)::int AS holder
       FROM stream_leases WHERE organization_id = $1`,
      [organizationId, holder],
    );
    const open = rows[0] as { organization: number; holder: number };
    if (open.holder >= caps.perHolder) return { refused: 'holder', open: open.holder };
    if (open.organization >= caps.perOrganization) return { refused: 'organization', open: open.organization };
    const inserted = await client.query(
      `INSERT INTO stream_leases (organization_id, holder, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING id`,
      [organizationId, holder, ttlSeconds],
    );
    return { id: Number(inserted.rows[0].id) };
  });
}

/** Extends the leases of streams still open. */
export async function refreshStreamLeases(db: Db, ids: number[], ttlSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.query('UPDATE stream_leases SET expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1)', [
    ids,
    ttlSeconds,
  ]);
}

export async function releaseStreamLease(db: Db, id: number): Promise<void> {
  await db.query('DELETE FROM stream_leases WHERE id = $1', [id]);
}
