// The usage resource (interface 2.4) of the caller's organization, built from one database snapshot.
// Money is summed in integer micro-dollars and converted to cents once, here: a cent figure is the
// exact micro-dollar amount / 10 000, so it has at most 4 decimals and is never rounded.
import { MICROS_PER_CENT } from '../../db/organizations.js';
import { readUsageSnapshot, type RecentGeneration, type RouteDayUsage } from '../../db/usage.js';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';

/** Days in `daily_usage` and `daily_usage_by_route`: today (UTC) and the 29 before, oldest first. */
export const USAGE_DAYS = 30;
/** Generations in `recent_requests`, newest first. */
export const RECENT_REQUESTS = 20;
/** Route `provider` of generations with no provider recorded (in flight, or ended before one answered). */
export const NO_PROVIDER = 'none';

const DAY_MS = 24 * 3600 * 1000;

const toCents = (micros: number) => micros / MICROS_PER_CENT;
/** Video seconds are floating point: summed, then rounded to the millisecond. */
const toMillisecondPrecision = (seconds: number) => Math.round(seconds * 1000) / 1000;

export async function readUsage({ db }: AppDeps, organizationId: string) {
  const snapshot = await readUsageSnapshot(db, organizationId, { days: USAGE_DAYS, recent: RECENT_REQUESTS });
  if (!snapshot) throw notFound(`No organization ${organizationId}`);
  const days = lastDays(snapshot.today, USAGE_DAYS);
  const routesByDay = groupByDay(snapshot.routeDays);
  const { totals } = snapshot;
  return {
    credit_balance: toCents(snapshot.balanceMicros),
    // Extension: reserved by generations in flight; creates are admitted while balance − held covers their hold.
    credit_held: toCents(snapshot.heldMicros),
    totals: {
      total_requests: totals.requests,
      completed_requests: totals.completed,
      failed_requests: totals.failed,
      total_cost_cents: toCents(totals.costMicros),
    },
    daily_usage: days.map((date) => dayView(date, routesByDay.get(date) ?? [])),
    daily_usage_by_route: days.map((date) => ({ date, routes: (routesByDay.get(date) ?? []).map(routeView) })),
    recent_requests: snapshot.recent.map(recentView),
  };
}

/** The `count` UTC dates ending with `today`, oldest first. */
function lastDays(today: string, count: number): string[] {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(todayMs - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

function groupByDay(routeDays: RouteDayUsage[]): Map<string, RouteDayUsage[]> {
  const byDay = new Map<string, RouteDayUsage[]>();
  for (const r of routeDays) byDay.set(r.day, [...(byDay.get(r.day) ?? []), r]);
  return byDay;
}

function dayView(date: string, routes: RouteDayUsage[]) {
  const sum = (pick: (r: RouteDayUsage) => number) => routes.reduce((acc, r) => acc + pick(r), 0);
  return {
    date,
    request_count: sum((r) => r.requests),
    completed_count: sum((r) => r.completed),
    failed_count: sum((r) => r.failed),
    total_cost_cents: toCents(sum((r) => r.costMicros)),
    total_duration_seconds: toMillisecondPrecision(sum((r) => r.durationSeconds)),
  };
}

function routeView(r: RouteDayUsage) {
  return {
    engine: r.engine,
    model: r.model,
    provider: r.provider ?? NO_PROVIDER,
    request_count: r.requests,
    completed_count: r.completed,
    failed_count: r.failed,
    total_cost_cents: toCents(r.costMicros),
    total_prompt_tokens: r.promptTokens,
    total_completion_tokens: r.completionTokens,
    // Mean end-to-end latency of the route's completed generations, whole ms; 0 when none completed.
    avg_latency_ms: r.completed > 0 ? Math.round(r.completedLatencyMs / r.completed) : 0,
  };
}

function recentView(g: RecentGeneration) {
  return {
    id: g.id,
    status: g.status,
    model_name: g.model,
    engine: g.engine,
    cost_cents: toCents(g.costMicros ?? 0),
    // Null while the generation is in flight.
    latency_ms: g.latencyMs,
    created_at: g.createdAt.getTime(),
    completed_at: g.completedAt?.getTime() ?? null,
  };
}
