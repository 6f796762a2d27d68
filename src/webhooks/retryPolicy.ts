// When to attempt a delivery again (interface 6.6). Pure: used by the config loader and by the
// delivery workflow (deterministic sandbox).
import type { WebhookEventStatus } from '../shared.js';

/** Reference schedule (Svix): delays before attempts 1..8, ≈ 24 h in total. */
export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

/** A receiver's Retry-After is honoured up to this long, so a huge value cannot park an event forever. */
export const RETRY_AFTER_CAP_MS = 10 * 3600_000;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3600_000 } as const;

/**
 * Parses `0,5s,5m,2h` (a bare number means seconds) into delays in ms, one per attempt: entry i is
 * the wait before attempt i+1. Throws on a malformed entry.
 */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((e) => e.trim());
  return entries.map((entry) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(entry);
    if (!m) throw new Error(`"${entry}" is not a delay like 0, 500ms, 5s, 5m or 2h`);
    return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS]);
  });
}

/** How one attempt ended, as far as retrying is concerned. */
export type AttemptVerdict = { statusCode: number | null; retryAfterMs: number | null };

export const isDelivered = (a: AttemptVerdict) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;

/** 410 Gone: the receiver says this URL will never accept events again. */
export const isGone = (a: AttemptVerdict) => a.statusCode === 410;

/** An event's status after attempt `attempt` of a schedule of `attempts`. */
export function statusAfterAttempt(result: AttemptVerdict, attempt: number, attempts: number): WebhookEventStatus {
  if (isDelivered(result)) return 'delivered';
  if (isGone(result)) return 'gone';
  return attempt >= attempts ? 'failed' : 'pending';
}

/** The wait before the next attempt: the schedule's, or longer when a 429/503 asked for it (capped). */
export function delayBeforeNextAttempt(scheduledMs: number, previous: AttemptVerdict): number {
  const asked = previous.statusCode === 429 || previous.statusCode === 503 ? (previous.retryAfterMs ?? 0) : 0;
  return Math.max(scheduledMs, Math.min(asked, RETRY_AFTER_CAP_MS));
}

/** Retry-After is either delay-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
