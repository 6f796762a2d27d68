// Webhook data access: organization settings (event toggles, signing secrets), events and delivery
// attempts. Used by the delivery activities, the admin CLI and (later) the dashboard.
import { newWebhookSecret } from '../ids.js';
import { DEFAULT_ENABLED_EVENTS, type WebhookEventStatus, type WebhookEventType } from '../shared.js';
import type { Db } from './pool.js';

type Queryable = Pick<Db, 'query'>;

export type WebhookSettings = {
  organization_id: string;
  enabled_events: WebhookEventType[];
  signing_secret: string;
  /** Still signing until previous_secret_expires_at (a rotation's grace period); else null. */
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  updated_at: Date;
};

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The organization's settings, created with defaults (completed events only, a new secret) on first
 * use. Null for an unknown organization.
 */
export async function getWebhookSettings(db: Queryable, organizationId: string): Promise<WebhookSettings | null> {
  const select = () => db.query('SELECT * FROM webhook_settings WHERE organization_id = $1', [organizationId]);
  const existing = await select();
  if (existing.rows[0]) return existing.rows[0];
  try {
    await db.query(
      `INSERT INTO webhook_settings (organization_id, enabled_events, signing_secret) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO NOTHING`,
      [organizationId, DEFAULT_ENABLED_EVENTS, newWebhookSecret()],
    );
  } catch (err) {
    if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) return null;
    throw err;
  }
  return (await select()).rows[0] ?? null;
}

/** Turns event types on and off; returns the new settings (null for an unknown organization). */
export async function setEnabledWebhookEvents(
  db: Queryable,
  organizationId: string,
  change: { enable?: readonly WebhookEventType[]; disable?: readonly WebhookEventType[] },
): Promise<WebhookSettings | null> {
  if (!(await getWebhookSettings(db, organizationId))) return null;
  const { rows } = await db.query(
    `UPDATE webhook_settings SET updated_at = now(),
       enabled_events = ARRAY(SELECT DISTINCT e FROM unnest(enabled_events || $2::text[]) e
                              WHERE e <> ALL($3::text[]) ORDER BY e)
     WHERE organization_id = $1 RETURNING *`,
    [organizationId, change.enable ?? [], change.disable ?? []],
  );
  return rows[0];
}

/**
 * Replaces the signing secret. The replaced one keeps signing for `graceSeconds`, so receivers can
 * switch without rejecting deliveries; a second rotation within the grace period drops the oldest.
 */
export async function rotateWebhookSecret(
  db: Queryable,
  organizationId: string,
  graceSeconds: number,
): Promise<WebhookSettings | null> {
  if (!(await getWebhookSettings(db, organizationId))) return null;
  const { rows } = await db.query(
    `UPDATE webhook_settings SET updated_at = now(), signing_secret = $2,
       previous_signing_secret = signing_secret,
       previous_secret_expires_at = now() + make_interval(secs => $3)
     WHERE organization_id = $1 RETURNING *`,
    [organizationId, newWebhookSecret(), graceSeconds],
  );
  return rows[0];
}

/** The secrets that sign a delivery now: the current one, then the previous one while in grace. */
export function activeSigningSecrets(s: WebhookSettings, now = new Date()): string[] {
  const previousActive =
    s.previous_signing_secret && s.previous_secret_expires_at && s.previous_secret_expires_at > now;
  return previousActive ? [s.signing_secret, s.previous_signing_secret!] : [s.signing_secret];
}

/** The secrets as shown to the organization (CLI, dashboard): the previous one only while it still signs. */
export function signingSecretsView(s: WebhookSettings, now = new Date()) {
  const [signing_secret, previous_signing_secret = null] = activeSigningSecrets(s, now);
  return {
    organization_id: s.organization_id,
    signing_secret,
    previous_signing_secret,
    previous_secret_expires_at: previous_signing_secret ? s.previous_secret_expires_at : null,
  };
}

// ---- Events and attempts -----------------------------------------------------------------------

export type WebhookEventRow = {
  id: string;
  organization_id: string;
  generation_id: string;
  type: WebhookEventType;
  url: string;
  body: string;
  status: WebhookEventStatus;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
};

export type WebhookAttemptRow = {
  event_id: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
};

/** Inserts the event unless it exists (an activity retry), and returns the stored row. */
export async function insertWebhookEvent(
  db: Queryable,
  e: {
    id: string;
    organizationId: string;
    generationId: string;
    type: WebhookEventType;
    url: string;
    body: string;
    createdAt: Date;
  },
): Promise<WebhookEventRow> {
  await db.query(
    `INSERT INTO webhook_events (id, organization_id, generation_id, type, url, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [e.id, e.organizationId, e.generationId, e.type, e.url, e.body, e.createdAt],
  );
  return (await getWebhookEvent(db, e.id))!;
}

export async function getWebhookEvent(db: Queryable, id: string): Promise<WebhookEventRow | null> {
  const { rows } = await db.query('SELECT * FROM webhook_events WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/**
 * Records one attempt (idempotent per attempt number) and the event's status after it. A no-op when
 * the event is gone (its generation was deleted).
 */
export async function recordWebhookAttempt(
  db: Queryable,
  a: WebhookAttemptRow,
  eventStatus: WebhookEventStatus,
): Promise<void> {
  await db.query(
    `WITH event AS (
       UPDATE webhook_events SET status = $8, attempts = GREATEST(attempts, $2),
         finished_at = CASE WHEN $8 = 'pending' THEN NULL ELSE now() END
       WHERE id = $1 RETURNING id
     )
     INSERT INTO webhook_attempts (event_id, attempt, attempted_at, status_code, duration_ms, error, response_excerpt)
     SELECT id, $2, $3, $4, $5, $6, $7 FROM event
     ON CONFLICT (event_id, attempt) DO NOTHING`,
    [a.event_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error, a.response_excerpt, eventStatus],
  );
}

/** An organization's events, newest first, optionally of one generation (dashboard listing). */
export async function listWebhookEvents(
  db: Queryable,
  organizationId: string,
  opts: { generationId?: string; limit?: number } = {},
): Promise<WebhookEventRow[]> {
  const { rows } = await db.query(
    `SELECT * FROM webhook_events WHERE organization_id = $1 AND ($2::text IS NULL OR generation_id = $2)
     ORDER BY created_at DESC, id LIMIT $3`,
    [organizationId, opts.generationId ?? null, opts.limit ?? 100],
  );
  return rows;
}

export async function listWebhookAttempts(db: Queryable, eventId: string): Promise<WebhookAttemptRow[]> {
  const { rows } = await db.query('SELECT * FROM webhook_attempts WHERE event_id = $1 ORDER BY attempt', [eventId]);
  return rows;
}
