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
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new EmailTakenError(`a member with email ${m.email} exists`);
    throw err;
  }
}

export async function findMemberByEmail(db: Queryable, email: string): Promise<MemberWithHash | null> {
  const { rows } = await db.query('SELECT * FROM members WHERE email = $1', [normalizeEmail(email)]);
  return rows[0] ? { ...toMember(rows[0]), password_hash: rows[0].password_hash } : null;
}

/** Replaces a member's password hash. Null for an unknown email. */
export async function setMemberPasswordHash(db: Queryable, email: string, passwordHash: string): Promise<Member | null> {
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
  byEmail: number;
  byIp: number;
  /** When the oldest counted failure of the email / of the IP leaves the window (null: none). */
  oldestByEmail: Date | null;
  oldestByIp: Date | null;
};

export async function countRecentLoginFailures(
  db: Queryable,
  email: string,
  ip: string,
  windowSeconds: number,
): Promise<RecentLoginFailures> {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email, count(*) FILTER (WHERE ip = $2)::int AS by_ip,
            min(failed_at) FILTER (WHERE email = $1) AS oldest_by_email, min(failed_at) FILTER (WHERE ip = $2) AS oldest_by_ip
     FROM login_failures
     WHERE (email = $1 OR ip = $2) AND failed_at > now() - make_interval(secs => $3)`,
    [normalizeEmail(email), ip, windowSeconds],
  );
  const r = rows[0];
  return { byEmail: r.by_email, byIp: r.by_ip, oldestByEmail: r.oldest_by_email, oldestByIp: r.oldest_by_ip };
}

/** Records a failure (returns its id) and sweeps the rows that left the window (keeps the table small). */
export async function recordLoginFailure(db: Queryable, email: string, ip: string, windowSeconds: number): Promise<number> {
  const { rows } = await db.query('INSERT INTO login_failures (email, ip) VALUES ($1, $2) RETURNING id', [normalizeEmail(email), ip]);
  await db.query('DELETE FROM login_failures WHERE failed_at < now() - make_interval(secs => $1)', [windowSeconds]);
  return rows[0].id;
}

export async function deleteLoginFailure(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE id = $1', [id]);
}

/** A successful sign-in forgives the email's earlier failures (not the IP's). */
export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE email = $1', [normalizeEmail(email)]);
}
