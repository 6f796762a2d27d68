// When to attempt a delivery again (interface 6.6). Pure: used by the delivery workflow
// (deterministic sandbox). The schedule itself is configuration (WEBHOOK_RETRY_SCHEDULE, src/config.ts).
import type { WebhookEventStatus } from '../shared.js';

/** A receiver's Retry-After is honoured up to this long, so a huge value cannot park an event forever. */
export const RETRY_AFTER_CAP_MS = 10 * 3600_000;

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
