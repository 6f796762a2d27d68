// Sign-in throttle, kept in PostgreSQL so every API process shares it (README, "Dashboard"). An
// "address" is an IPv4 address or an IPv6 /64 (one subscriber's network: rotating addresses inside
// it buys nothing). Per (email, address): LOGIN_LIMIT.freeFailures failures in a rolling window cost
// nothing, then each further attempt must wait twice as long after the previous failure as the last
// one did (1 s, 2 s, 4 s … up to maxDelaySeconds). Per address, whatever the email: at most perIp
// failures in the window. Per account, whatever the address: at most perAccount failures in the window
// (many addresses guessing one password), set well above what one member's mistakes reach, so
// failures from an attacker's single address never lock the member out of their own. While
// throttled, even the right password is refused and not checked.
import net from 'node:net';
import { countRecentLoginFailures, deleteLoginFailure, recordLoginFailure } from '../db/members.js';
import type { Db } from '../db/pool.js';

export const LOGIN_LIMIT = {
  freeFailures: 3,
  maxDelaySeconds: 15 * 60,
  perIp: 20,
  perAccount: 50,
  windowSeconds: 15 * 60,
};

/**
 * What the throttle counts as one address: an IPv4 address (also written IPv4-mapped), or the /64
 * an IPv6 address is in, as `2001:db8:1:2::/64`. Anything else (no socket address) as given.
 */
export function throttledAddress(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (!net.isIPv6(v4)) return v4;
  const groups = expandIpv6(v4.split('%')[0]!).slice(0, 4);
  return `${groups.map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, each as four hex digits. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than the mapped one) as two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -tail.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => g.padStart(4, '0'));
}

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
export async function beginLoginAttempt(db: Db, email: string, clientAddress: string): Promise<number> {
  const ip = throttledAddress(clientAddress);
  const attemptId = await recordLoginFailure(db, email, ip, LOGIN_LIMIT.windowSeconds);
  const f = await countRecentLoginFailures(db, email, ip, LOGIN_LIMIT.windowSeconds);
  const now = Date.now();
  // The counts include this attempt.
  const pairWaitMs = f.previousByPair ? f.previousByPair.getTime() + pairDelaySeconds(f.byPair - 1) * 1000 - now : 0;
  const ipWaitMs =
    f.byIp > LOGIN_LIMIT.perIp && f.oldestByIp ? f.oldestByIp.getTime() + LOGIN_LIMIT.windowSeconds * 1000 - now : 0;
  const accountWaitMs =
    f.byAccount > LOGIN_LIMIT.perAccount && f.oldestByAccount
      ? f.oldestByAccount.getTime() + LOGIN_LIMIT.windowSeconds * 1000 - now
      : 0;
  const waitMs = Math.max(pairWaitMs, ipWaitMs, accountWaitMs);
  if (waitMs <= 0) return 0;
  await deleteLoginFailure(db, attemptId);
  return Math.max(1, Math.ceil(waitMs / 1000));
}
