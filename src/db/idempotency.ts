// Idempotency keys of create requests (`Idempotency-Key`): per organization, the hash of the request
// and the generation it started, for 24 hours. Claimed atomically: of any number of concurrent
// requests with one key, on any number of API processes, exactly one claims it.
import type { Db } from './pool.js';

export const IDEMPOTENCY_KEY_HOURS = 24;

export type IdempotencyClaim =
  | { claimed: true }
  /** Another request holds the key: its body's hash and the generation it started (or is starting). */
  | { claimed: false; requestHash: string; generationId: string };

/** Claims `key` for `generationId`, or says who holds it. A key older than 24 h is taken over. */
export async function claimIdempotencyKey(
  db: Db,
  organizationId: string,
  key: string,
  requestHash: string,
  generationId: string,
): Promise<IdempotencyClaim> {
  const { rows } = await db.query<{ generation_id: string }>(
    `INSERT INTO idempotency_keys (organization_id, key, request_hash, generation_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, generation_id = EXCLUDED.generation_id, created_at = now()
       WHERE idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})
     RETURNING generation_id`,
    [organizationId, key, requestHash, generationId],
  );
  if (rows[0]) return { claimed: true };
  const held = await heldIdempotencyKey(db, organizationId, key);
  // Released between the two statements (the holder's request failed): try again.
  return held ?? claimIdempotencyKey(db, organizationId, key, requestHash, generationId);
}

export async function heldIdempotencyKey(
  db: Db,
  organizationId: string,
  key: string,
): Promise<{ claimed: false; requestHash: string; generationId: string } | null> {
  const { rows } = await db.query<{ request_hash: string; generation_id: string }>(
    'SELECT request_hash, generation_id FROM idempotency_keys WHERE organization_id = $1 AND key = $2',
    [organizationId, key],
  );
  return rows[0] ? { claimed: false, requestHash: rows[0].request_hash, generationId: rows[0].generation_id } : null;
}

/** Gives the key up (the request that claimed it failed: a retry may use it). */
export async function releaseIdempotencyKey(
  db: Db,
  organizationId: string,
  key: string,
  generationId: string,
): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND generation_id = $3', [
    organizationId,
    key,
    generationId,
  ]);
}
