// The figures behind GET /v1/usage, read from one snapshot (a repeatable-read transaction), so the
// balance, the totals and the per-day figures agree with each other. Money stays in integer
// micro-dollars here; src/api/usage/ converts it to cents for the response.
import { heldMicros } from './generations.js';
import { transaction, type DbClient, type Db } from './pool.js';

/** Statuses counted as failed: `incomplete` (not written today) is a failure too; `cancelled` is neither. */
const FAILED_SQL = `status IN ('failed', 'incomplete')`;

export type UsageCounts = { requests: number; completed: number; failed: number; costMicros: number };

export type RouteDayUsage = UsageCounts & {
  /** UTC day of creation, YYYY-MM-DD. */
  day: string;
  engine: string;
  model: string;
  provider: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Sum of the latencies of the completed generations (their mean is this / completed). */
  completedLatencyMs: number;
  /** Seconds of video rendered (only completed generations have any). */
  durationSeconds: number;
};

export type RecentGeneration = {
  id: string;
  status: string;
  model: string;
  engine: string;
  costMicros: number | null;
  latencyMs: number | null;
  createdAt: Date;
  completedAt: Date | null;
};

export type UsageSnapshot = {
  balanceMicros: number;
  /** Held by the organization's open generations (src/credits/hold.ts). */
  heldMicros: number;
  /** Today's date in UTC on the database clock (YYYY-MM-DD). */
  today: string;
  totals: UsageCounts;
  /** Only days with traffic, within the last `days` UTC days (today included). */
  routeDays: RouteDayUsage[];
  /** Newest first. */
  recent: RecentGeneration[];
};

export async function readUsageSnapshot(
  db: Db,
  organizationId: string,
  opts: { days: number; recent: number },
): Promise<UsageSnapshot | null> {
  return transaction(db, async (c) => {
    await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const head = await readBalanceAndTotals(c, organizationId);
    if (!head) return null;
    const held = await heldMicros(c, organizationId);
    const routeDays = await readRouteDays(c, organizationId, opts.days);
    const recent = await readRecent(c, organizationId, opts.recent);
    return { ...head, heldMicros: held, routeDays, recent };
  });
}

async function readBalanceAndTotals(c: DbClient, organizationId: string) {
  const { rows } = await c.query(
    `SELECT o.credit_balance_micros, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS today, t.*
     FROM organizations o CROSS JOIN LATERAL (
       SELECT count(*) AS requests,
              count(*) FILTER (WHERE status = 'completed') AS completed,
              count(*) FILTER (WHERE ${FAILED_SQL}) AS failed,
              coalesce(sum(cost_micros), 0)::bigint AS cost_micros
       FROM generations WHERE organization_id = o.id
     ) t
     WHERE o.id = $1`,
    [organizationId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    balanceMicros: r.credit_balance_micros as number,
    today: r.today as string,
    totals: {
      requests: r.requests,
      completed: r.completed,
      failed: r.failed,
      costMicros: r.cost_micros,
    } as UsageCounts,
  };
}

async function readRouteDays(c: DbClient, organizationId: string, days: number): Promise<RouteDayUsage[]> {
  const { rows } = await c.query(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, engine, model, provider,
            count(*) AS requests,
            count(*) FILTER (WHERE status = 'completed') AS completed,
            count(*) FILTER (WHERE ${FAILED_SQL}) AS failed,
            coalesce(sum(cost_micros), 0)::bigint AS cost_micros,
            coalesce(sum(input_tokens), 0) AS prompt_tokens,
            coalesce(sum(output_tokens), 0) AS completion_tokens,
            coalesce(sum(latency_ms) FILTER (WHERE status = 'completed'), 0) AS completed_latency_ms,
            coalesce(sum(duration_seconds), 0) AS duration_seconds
     FROM generations
     WHERE organization_id = $1
       AND created_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $2 - 1))
                         AT TIME ZONE 'UTC'
     GROUP BY 1, 2, 3, 4
     ORDER BY 1, 2, 3, 4 NULLS LAST`,
    [organizationId, days],
  );
  return rows.map((r) => ({
    day: r.day,
    engine: r.engine,
    model: r.model,
    provider: r.provider,
    requests: r.requests,
    completed: r.completed,
    failed: r.failed,
    costMicros: r.cost_micros,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    completedLatencyMs: r.completed_latency_ms,
    durationSeconds: r.duration_seconds,
  }));
}

async function readRecent(c: DbClient, organizationId: string, limit: number): Promise<RecentGeneration[]> {
  const { rows } = await c.query(
    `SELECT id, status, model, engine, cost_micros, latency_ms, created_at, completed_at
     FROM generations WHERE organization_id = $1
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [organizationId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    model: r.model,
    engine: r.engine,
    costMicros: r.cost_micros,
    latencyMs: r.latency_ms,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  }));
}
