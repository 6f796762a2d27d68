// The retry schedule and its exceptions (pure; the delivery workflow applies them).
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, loadConfig, parseRetrySchedule } from '../../src/config.js';
import {
  delayBeforeNextAttempt,
  isDelivered,
  isGone,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
} from '../../src/webhooks/retryPolicy.js';

const verdict = (statusCode: number | null, retryAfterMs: number | null = null) => ({ statusCode, retryAfterMs });

describe('webhook retry policy', () => {
  it('the default schedule is the reference one: 8 attempts over a day and a bit', () => {
    const ms = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(ms).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const hours = ms.reduce((a, b) => a + b, 0) / 3600_000;
    expect(hours).toBeGreaterThan(24);
    expect(hours).toBeLessThan(28);
    expect(loadConfig({}).webhooks.retryScheduleMs).toEqual(ms);
  });

  it('the schedule is shortenable by configuration, and a bad one stops start-up', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 250ms, 1s, 2' }).webhooks.retryScheduleMs).toEqual([
      0, 250, 1000, 2000,
    ]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('2xx delivers, 410 stops, anything else retries', () => {
    expect([200, 201, 204, 299].every((s) => isDelivered(verdict(s)))).toBe(true);
    expect([null, 199, 300, 302, 400, 404, 500].some((s) => isDelivered(verdict(s)))).toBe(false);
    expect(isGone(verdict(410))).toBe(true);
    expect(isGone(verdict(404))).toBe(false);
  });

  it('Retry-After lengthens the wait on 429 and 503 only, capped', () => {
    expect(delayBeforeNextAttempt(1000, verdict(429, 5000))).toBe(5000);
    expect(delayBeforeNextAttempt(1000, verdict(503, 5000))).toBe(5000);
    expect(delayBeforeNextAttempt(9000, verdict(429, 5000))).toBe(9000);
    expect(delayBeforeNextAttempt(1000, verdict(500, 5000))).toBe(1000);
    expect(delayBeforeNextAttempt(1000, verdict(429, 10 ** 12))).toBe(RETRY_AFTER_CAP_MS);
  });

  it('parses Retry-After seconds and dates', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
