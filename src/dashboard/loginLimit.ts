// Sign-in throttle, kept in PostgreSQL so every API process shares it (README, "Dashboard"). Per
// (email, address): LOGIN_LIMIT.freeFailures failures in a rolling window cost nothing, then each
// further attempt must wait twice as long after the previous failure as the last one did (1 s, 2 s,
// 4 s … up to maxDelaySeconds). Per address, whatever the email: at most perIp failures in the window.
// Nothing counts per email alone, so failures from an attacker's address never lock the member out
// of their own. While throttled, even the right password is refused and not checked.
import { countRecentLoginFailures, deleteLoginFailure, recordLoginFailure } from '../db/members.js';
import type { Db } from '../db/pool.js';

export const LOGIN_LIMIT = { freeFailures: 3, maxDelaySeconds: 15 * 60, perIp: 20, windowSeconds: 15 * 60 };

/** Seconds the (email, address) pair must wait after its previous failure, given its failures so far. */
export function pairDelaySeconds(previousFailures: number): number {
  const over = previousFailures - LOGIN_LIMIT.freeFailures;
  return over < 0 ? 0 : Math.min(2 ** over, LOGIN_LIMIT.maxDelaySeconds);
}

/**
 * Starts a sign-in attempt: it is recorded as a failure up front, so a burst of parallel guesses
 * cannot all pass a count taken before any of them failed; a successful sign-in clears the pair's
 * failures (clearLoginFailures), this one included. Returns the seconds until this email may be tried
 * from this address again (the attempt is then withdrawn, so waiting is enough), or 0 to go ahead.
 */
export async function beginLoginAttempt(db: Db, email: string, ip: string): Promise<number> {
  const attemptId = await recordLoginFailure(db, email, ip, LOGIN_LIMIT.windowSeconds);
  const f = await countRecentLoginFailures(db, email, ip, LOGIN_LIMIT.windowSeconds);
  const now = Date.now();
  // The counts include this attempt.
  const pairWaitMs = f.previousByPair ? f.previousByPair.getTime() + pairDelaySeconds(f.byPair - 1) * 1000 - now : 0;
  const ipWaitMs =
    f.byIp > LOGIN_LIMIT.perIp && f.oldestByIp ? f.oldestByIp.getTime() + LOGIN_LIMIT.windowSeconds * 1000 - now : 0;
  const waitMs = Math.max(pairWaitMs, ipWaitMs);
  if (waitMs <= 0) return 0;
  await deleteLoginFailure(db, attemptId);
  return Math.max(1, Math.ceil(waitMs / 1000));
}
