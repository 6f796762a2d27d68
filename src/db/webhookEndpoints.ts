// Organization webhook endpoints (migration 0018): URLs that receive the OpenAI Videos shape's events of
// every video of the organization (README, "OpenAI Videos").
import { newId } from '../ids.js';
import type { Db } from './pool.js';

type Queryable = Pick<Db, 'query'>;

/** An organization has at most this many endpoints (each event is delivered to every one). */
export const MAX_WEBHOOK_ENDPOINTS = 10;

export type WebhookEndpoint = { id: string; url: string; created_at: Date };

export async function listWebhookEndpoints(db: Queryable, organizationId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<WebhookEndpoint>(
    'SELECT id, url, created_at FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id',
    [organizationId],
  );
  return rows;
}

/**
 * Adds an endpoint; the same URL again gives the existing one. `limit_reached` when the organization has
 * MAX_WEBHOOK_ENDPOINTS already (counted in the same statement, so two at once cannot pass it).
 */
export async function addWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  url: string,
): Promise<WebhookEndpoint | 'limit_reached'> {
  const { rows } = await db.query<WebhookEndpoint>(
    `WITH existing AS (
       SELECT id, url, created_at FROM webhook_endpoints WHERE organization_id = $2 AND url = $3
     ), added AS (
       INSERT INTO webhook_endpoints (id, organization_id, url)
       SELECT $1, $2, $3
       WHERE NOT EXISTS (SELECT 1 FROM existing)
         AND (SELECT count(*) FROM webhook_endpoints WHERE organization_id = $2) < $4
       ON CONFLICT (organization_id, url) DO NOTHING
       RETURNING id, url, created_at
     )
     SELECT * FROM existing UNION ALL SELECT * FROM added`,
    [newId('we'), organizationId, url, MAX_WEBHOOK_ENDPOINTS],
  );
  if (rows[0]) return rows[0];
  // The same URL added at the same moment by another request: that one's row.
  const { rows: raced } = await db.query<WebhookEndpoint>(
    'SELECT id, url, created_at FROM webhook_endpoints WHERE organization_id = $1 AND url = $2',
    [organizationId, url],
  );
  return raced[0] ?? 'limit_reached';
}

/** Removes an endpoint of the organization; false when it has none with this id. */
export async function deleteWebhookEndpoint(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ]);
  return (rowCount ?? 0) > 0;
}
