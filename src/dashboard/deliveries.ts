import type { Db } from '../db/pool.js';
import { listWebhookAttempts, listWebhookEvents } from '../db/webhooks.js';
import type { Delivery } from './views/webhooks.js';

/** The organization's webhook events (newest first), each with its attempts. */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  opts: { generationId?: string; limit?: number },
): Promise<Delivery[]> {
  const events = await listWebhookEvents(db, organizationId, opts);
  return Promise.all(events.map(async (e) => ({ ...e, attemptRows: await listWebhookAttempts(db, e.id) })));
}
