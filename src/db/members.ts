// Dashboard members (people who sign in for an organization) and their failed sign-ins, which the
// login rate limit counts. Passwords arrive here already hashed (src/dashboard/password.ts).
import { newId } from '../ids.js';
import type { Db } from './pool.js';

type Queryable = Pick<Db, 'query'>;

export type Member = { id: string; organization_id: string; email: string; created_at: string };
export type MemberWithHash = Member & { password_hash: string };

const UNIQUE_VIOLATION = '23505';

/** Emails are compared lower-cased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export class EmailTakenError extends Error {}

export async function createMember(
  db: Queryable,
  m: { organizationId: string; email: string; passwordHash: string },
): Promise<Member> {
  try {
    const { rows } = await db.query(
      `INSERT INTO members (id, organization_id, email, password_hash) VALUES ($1, $2, $3, $4) RETURNING *`,
      [newId('mem'), m.organizationId, normalizeEmail(m.email), m.passwordHash],
    );
    return toMember(rows[0]);
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION)
      throw new EmailTakenError(`a member with email ${m.email} exists`);
    throw err;
  }
}

export async function findMemberByEmail(db: Queryable, email: string): Promise<MemberWithHash | null> {
  const { rows } = await db.query('SELECT * FROM members WHERE email = $1', [normalizeEmail(email)]);
  return rows[0] ? { ...toMember(rows[0]), password_hash: rows[0].password_hash } : null;
}

/** Replaces a member's password hash. Null for an unknown email. */
export async function setMemberPasswordHash(
  db: Queryable,
  email: string,
  passwordHash: string,
): Promise<Member | null> {
  const { rows } = await db.query('UPDATE members SET password_hash = $2 WHERE email = $1 RETURNING *', [
    normalizeEmail(email),
    passwordHash,
  ]);
  return rows[0] ? toMember(rows[0]) : null;
}

/** A members row as pg returns it (timestamps as Date). */
type MemberRow = { id: string; organization_id: string; email: string; created_at: Date };

function toMember(r: MemberRow): Member {
  return { id: r.id, organization_id: r.organization_id, email: r.email, created_at: r.created_at.toISOString() };
}

// ---- Failed sign-ins -----------------------------------------------------------------------------

export type RecentLoginFailures = {
  /** Failures of this email from this address. */
  byPair: number;
  /** The newest but one of them (the newest is the attempt being made: recorded up front); null: none. */
  previousByPair: Date | null;
  /** Failures from this address, whatever the email. */
  byIp: number;
  /** The oldest of those (its leaving the window lifts the address's lock); null: none. */
  oldestByIp: Date | null;
  /** Failures of this email, whatever the address. */
  byAccount: number;
  /** The oldest of those; null: none. */
  oldestByAccount: Date | null;
};

export async function countRecentLoginFailures(
  db: Queryable,
  email: string,
  ip: string,
  windowSeconds: number,
): Promise<RecentLoginFailures> {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE email = $1)::int AS by_pair, count(*)::int AS by_ip, min(failed_at) AS oldest_by_ip,
            (SELECT failed_at FROM login_failures
             WHERE email = $1 AND ip = $2 AND failed_at > now() - make_interval(secs => $3)
             ORDER BY id DESC OFFSET 1 LIMIT 1) AS previous_by_pair,
            (SELECT count(*)::int FROM login_failures
             WHERE email = $1 AND failed_at > now() - make_interval(secs => $3)) AS by_account,
            (SELECT min(failed_at) FROM login_failures
             WHERE email = $1 AND failed_at > now() - make_interval(secs => $3)) AS oldest_by_account
     FROM login_failures
     WHERE ip = $2 AND failed_at > now() - make_interval(secs => $3)`,
    [normalizeEmail(email), ip, windowSeconds],
  );
  const r = rows[0];
  return {
    byPair: r.by_pair,
    previousByPair: r.previous_by_pair,
    byIp: r.by_ip,
    oldestByIp: r.oldest_by_ip,
    byAccount: r.by_account,
    oldestByAccount: r.oldest_by_account,
  };
}

/** Records a failure (returns its id) and sweeps the rows that left the window (keeps the table small). */
export async function recordLoginFailure(
  db: Queryable,
  email: string,
  ip: string,
  windowSeconds: number,
): Promise<number> {
  const { rows } = await db.query('INSERT INTO login_failures (email, ip) VALUES ($1, $2) RETURNING id', [
    normalizeEmail(email),
    ip,
  ]);
  await db.query('DELETE FROM login_failures WHERE failed_at < now() - make_interval(secs => $1)', [windowSeconds]);
  return rows[0].id;
}

export async function deleteLoginFailure(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE id = $1', [id]);
}

/**
 * A successful sign-in forgives the failures of its email from its address (not other addresses', not the address's
 * with other emails).
 */
export async function clearLoginFailures(db: Queryable, email: string, ip: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE email = $1 AND ip = $2', [normalizeEmail(email), ip]);
}
