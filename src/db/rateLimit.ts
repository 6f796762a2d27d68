// Storage of the per-key sliding-window rate limit: tables and the `rate_limit_take` function in
// migrations/0003_rate_limit.sql. One round trip per request; the function is atomic per key across
// every API process and costs O(log n) in the requests inside the window.
import type { Db } from './pool.js';

export type RateLimitDecision = {
  allowed: boolean;
  /** Accepted requests in the window, this one included when allowed. */
  used: number;
  /** Whole seconds (rounded up) until the oldest counted request leaves the window. */
  retryAfterSeconds: number;
  /** Unix time, seconds (rounded up), when the oldest counted request leaves the window. */
  resetAtSeconds: number;
};

const TAKE_SQL = `
SELECT allowed, used,
  ceil(extract(epoch FROM oldest + w.length - checked_at))::int AS retry_after,
  ceil(extract(epoch FROM oldest + w.length))::bigint AS reset_at
FROM (SELECT make_interval(secs => $3) AS length) w, rate_limit_take($1, $2, w.length)`;

/** Counts one request of the key against its window, or refuses it when the window is full. */
export async function takeRateLimitSlot(
  db: Db,
  apiKeyId: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitDecision> {
  const { rows } = await db.query(TAKE_SQL, [apiKeyId, limit, windowSeconds]);
  const r = rows[0];
  return { allowed: r.allowed, used: r.used, retryAfterSeconds: r.retry_after, resetAtSeconds: r.reset_at };
}

/** Deletes the rows of keys with no request inside the window (they count nothing); their hits go with them. */
export async function sweepIdleRateLimitKeys(db: Db, windowSeconds: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM rate_limit_counts WHERE updated_at < now() - make_interval(secs => $1)',
    [windowSeconds],
  );
  return rowCount ?? 0;
}
