// Sign-in rate limit, kept in PostgreSQL so every API process shares it: at most 5 failed sign-ins
// per email and 20 per client IP in a rolling 15 minutes (the IP allowance is larger because
// offices share addresses). While locked, even the right password is refused and not checked.
import type { Context } from 'koa';
import { countRecentLoginFailures, deleteLoginFailure, recordLoginFailure } from '../db/members.js';
import type { Db } from '../db/pool.js';

export const LOGIN_LIMIT = { perEmail: 5, perIp: 20, windowSeconds: 15 * 60 };

/**
 * Starts a sign-in attempt: it is recorded as a failure up front, so a burst of parallel guesses
 * cannot all pass a count taken before any of them failed; a successful sign-in clears the email's
 * failures (clearLoginFailures), this one included. Returns the seconds until this email and IP may
 * try again (the attempt is then withdrawn, so waiting out the lock is enough), or 0 to go ahead.
 */
export async function beginLoginAttempt(db: Db, email: string, ip: string): Promise<number> {
  const attemptId = await recordLoginFailure(db, email, ip, LOGIN_LIMIT.windowSeconds);
  const f = await countRecentLoginFailures(db, email, ip, LOGIN_LIMIT.windowSeconds);
  // The counts include this attempt. The lock lifts when the oldest counted failure leaves the window.
  const until = (oldest: Date | null) => (oldest ? oldest.getTime() + LOGIN_LIMIT.windowSeconds * 1000 - Date.now() : 0);
  const waitMs = Math.max(
    f.byEmail > LOGIN_LIMIT.perEmail ? until(f.oldestByEmail) : 0,
    f.byIp > LOGIN_LIMIT.perIp ? until(f.oldestByIp) : 0,
  );
  if (waitMs <= 0) return 0;
  await deleteLoginFailure(db, attemptId);
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/**
 * The address the limit counts: the socket's, or behind a trusted proxy (TRUST_PROXY) the last
 * X-Forwarded-For entry — the one that proxy wrote; earlier ones are whatever the client sent, so
 * Koa's ctx.ip (the first entry) would let a client pick a fresh address per attempt.
 */
export function clientIp(ctx: Pick<Context, 'ips' | 'socket'>): string {
  return ctx.ips.at(-1) ?? ctx.socket.remoteAddress ?? 'unknown';
}
