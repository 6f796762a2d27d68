// Server-side dashboard sessions. The cookie carries a random token; only its SHA-256 is stored, with
// the session's CSRF token. Expiry slides with use (idle limit) but never passes the absolute limit.
import crypto from 'node:crypto';
import type { Db } from './pool.js';

type Queryable = Pick<Db, 'query'>;

export type SessionLimits = { idleSeconds: number; absoluteSeconds: number };

export type DashboardSession = {
  memberId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  csrfToken: string;
  expiresAt: Date;
};

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest();
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Starts a session; returns the cookie token (never stored) and the CSRF token. Sweeps expired sessions. */
export async function createSession(db: Queryable, memberId: string, limits: SessionLimits) {
  const token = randomToken();
  const csrfToken = randomToken();
  await db.query('DELETE FROM dashboard_sessions WHERE expires_at <= now()');
  await db.query(
    `INSERT INTO dashboard_sessions (token_hash, member_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hashToken(token), memberId, csrfToken, Math.min(limits.idleSeconds, limits.absoluteSeconds)],
  );
  return { token, csrfToken };
}

/** The live session of a cookie token, its idle expiry pushed forward. */
export async function findSession(
  db: Queryable,
  token: string,
  limits: SessionLimits,
): Promise<DashboardSession | null> {
  const { rows } = await db.query(
    `UPDATE dashboard_sessions s SET last_seen_at = now(),
       expires_at = LEAST(now() + make_interval(secs => $2), s.created_at + make_interval(secs => $3))
     FROM members m JOIN organizations o ON o.id = m.organization_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND m.id = s.member_id
     RETURNING s.member_id, s.csrf_token, s.expires_at, m.email, o.id AS organization_id, o.name AS organization_name`,
    [hashToken(token), limits.idleSeconds, limits.absoluteSeconds],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    memberId: r.member_id,
    email: r.email,
    organizationId: r.organization_id,
    organizationName: r.organization_name,
    csrfToken: r.csrf_token,
    expiresAt: r.expires_at,
  };
}

export async function deleteSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_hash = $1', [hashToken(token)]);
}

/** Signs a member out everywhere (after a password change). */
export async function deleteMemberSessions(db: Queryable, memberId: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE member_id = $1', [memberId]);
}
