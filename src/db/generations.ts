// Generation records in PostgreSQL: created by the API, started and finished by workflow activities.
// A terminal record is written once and never changed (the WHERE clauses keep transitions one-way).
import type { Catalog } from '../catalog/index.js';
import type { GenerationRequest, GenerationStatus } from '../shared.js';
import type { GenerationOutcome } from '../temporal/contract.js';
import { transaction, type Db } from './pool.js';

export type AppInfo = { name: string | null; referer: string | null; title: string | null };

export type GenerationRow = {
  id: string;
  organization_id: string;
  status: GenerationStatus;
  model: string;
  engine: string;
  provider: string | null;
  request: GenerationRequest;
  app_name: string | null;
  app_referer: string | null;
  app_title: string | null;
  webhook_url: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  video_key: string | null;
  artifact_key: string | null;
  /**
   * Extension: where the composition's storyboard is stored (the embedded composer's or a storyboard request's); null:
   * none.
   */
  storyboard_key: string | null;
  artifact_type: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_micros: number | null;
  latency_ms: number | null;
  /** The finished video's length in seconds (probed); null before. */
  duration_seconds: number | null;
  error_code: string | null;
  error_message: string | null;
  /** Sequence number of the terminal live event (null before the end, and for older records). */
  event_seq: number | null;
  /** Worst-case cost reserved at admission, counted while the generation is open (src/credits/hold.ts). */
  hold_micros: number;
};

/** Statuses of an open generation: its hold counts against the balance (migration 0009). */
const OPEN_SQL = `status IN ('queued', 'in_progress')`;

export type Admission =
  | { admitted: true; row: GenerationRow }
  /** What the balance still covers beyond the open holds (micro-dollars; may be negative). */
  | { admitted: false; availableMicros: number };

/**
 * Admits a generation holding `holdMicros`: inserts it only while the organization's balance stays
 * positive and covers its open holds plus this one. The organization's row is locked for the
 * transaction, so admissions of one organization and the charges of its generations (which update
 * that row) are serialized: concurrent creates cannot all pass a check taken before any inserted.
 */
export async function admitGeneration(
  db: Db,
  g: {
    id: string;
    organizationId: string;
    apiKeyId: string;
    request: GenerationRequest;
    app: AppInfo;
    holdMicros: number;
  },
): Promise<Admission> {
  return transaction(db, async (c) => {
    const { rows: orgs } = await c.query('SELECT credit_balance_micros FROM organizations WHERE id = $1 FOR UPDATE', [
      g.organizationId,
    ]);
    const balance = (orgs[0]?.credit_balance_micros as number | undefined) ?? 0;
    const availableMicros = balance - (await heldMicros(c, g.organizationId));
    if (balance <= 0 || availableMicros < g.holdMicros) return { admitted: false, availableMicros };
    const { rows } = await c.query(
      `INSERT INTO generations (id, organization_id, api_key_id, status, model, engine, request, app_name,
                               app_referer, app_title, webhook_url, hold_micros)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6::jsonb, $7, $8, $9, $10, $11)
       RETURNING *`,
      [
        g.id,
        g.organizationId,
        g.apiKeyId,
        g.request.model,
        g.request.engine,
        g.request,
        g.app.name,
        g.app.referer,
        g.app.title,
        g.request.webhook_url,
        g.holdMicros,
      ],
    );
    return { admitted: true, row: rows[0] as GenerationRow };
  });
}

/** Micro-dollars held by the organization's open generations. */
export async function heldMicros(db: Pick<Db, 'query'>, organizationId: string): Promise<number> {
  const { rows } = await db.query(
    `SELECT coalesce(sum(hold_micros), 0)::bigint AS held FROM generations WHERE organization_id = $1 AND ${OPEN_SQL}`,
    [organizationId],
  );
  return rows[0].held as number;
}

export async function deleteGeneration(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM generations WHERE id = $1', [id]);
}

/** The generation, only if it belongs to the organization and was not deleted (DELETE /v1/videos/{id}). */
export async function getGeneration(db: Db, organizationId: string, id: string): Promise<GenerationRow | null> {
  const { rows } = await db.query(
    'SELECT * FROM generations WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL',
    [id, organizationId],
  );
  return rows[0] ?? null;
}

export async function markGenerationStarted(db: Db, id: string): Promise<void> {
  await db.query(
    `UPDATE generations SET status = 'in_progress', started_at = COALESCE(started_at, now())
     WHERE id = $1 AND status = 'queued'`,
    [id],
  );
}

/**
 * Writes the terminal state and charges the tokens consumed, in one transaction: the generation's
 * hold is released by the same write (it counts only while the status is open). Idempotent: a retry
 * after a lost acknowledgement changes nothing and charges nothing twice. Returns the generation's
 * engine when this call wrote the terminal state, null when it was already written.
 */
export async function finishGeneration(db: Db, catalog: Catalog, outcome: GenerationOutcome): Promise<string | null> {
  return transaction(db, async (c) => {
    const { rows } = await c.query('SELECT * FROM generations WHERE id = $1 FOR UPDATE', [outcome.generationId]);
    const row = rows[0] as GenerationRow | undefined;
    if (!row || ['completed', 'failed', 'cancelled', 'incomplete'].includes(row.status)) return null;
    const usage = outcome.usage;
    const cost = usage ? catalog.costMicros(row.engine, row.model, usage.input_tokens, usage.output_tokens) : null;
    await c.query(
      `UPDATE generations SET status = $2, provider = $3, completed_at = now(),
         latency_ms = (EXTRACT(EPOCH FROM (now() - created_at)) * 1000)::int,
         video_key = $4, artifact_key = $5, artifact_type = $6, duration_seconds = $7,
         input_tokens = $8, output_tokens = $9, cost_micros = $10, error_code = $11, error_message = $12,
         event_seq = $13, storyboard_key = $14
       WHERE id = $1`,
      [
        row.id,
        outcome.status,
        outcome.provider,
        outcome.rendered?.video.key ?? null,
        outcome.rendered?.artifact.key ?? null,
        outcome.rendered?.artifact.content_type ?? null,
        outcome.rendered?.duration_seconds ?? null,
        usage?.input_tokens ?? null,
        usage?.output_tokens ?? null,
        cost,
        outcome.error?.code ?? null,
        outcome.error?.message ?? null,
        outcome.eventSeq ?? null,
        outcome.storyboardKey ?? null,
      ],
    );
    if (cost) {
      const charged = await c.query(
        `INSERT INTO credit_ledger (organization_id, kind, amount_micros, generation_id)
         VALUES ($1, 'generation_charge', $2, $3) ON CONFLICT DO NOTHING`,
        [row.organization_id, -cost, row.id],
      );
      if (charged.rowCount === 1) {
        await c.query('UPDATE organizations SET credit_balance_micros = credit_balance_micros - $2 WHERE id = $1', [
          row.organization_id,
          cost,
        ]);
      }
    }
    return row.engine;
  });
}

/** What a listing keeps (every given condition holds). */
export type GenerationListFilter = {
  /** Stored statuses, any of. */
  statuses?: readonly GenerationStatus[];
  engine?: string;
  model?: string;
  /** Created at or after this instant. */
  createdFrom?: Date;
  /** Created strictly before this instant. */
  createdUntil?: Date;
};

export type GenerationListPage = { rows: GenerationRow[]; hasMore: boolean };

/**
 * One page of the organization's generations, newest first, by keyset on (created_at, id) — index
 * generations_organization_created_id_idx, one range scan per page whatever the depth. `after`: the
 * generations older than that one; `before`: those newer than it (read upwards from it, the nearest
 * first, then put newest first). `hasMore`: there are more beyond the page in the direction read
 * (older, or with `before` newer). The cursor's position is read by the same statement (its created_at
 * may carry microseconds a JS Date would lose), and only among the organization's own generations.
 * Returns null when the cursor is not one of them. At most one of `after` and `before`. `oldestFirst`
 * turns the listing's order around (`after` then means newer; the OpenAI Videos list's `order=asc`).
 */
export async function listGenerations(
  db: Db,
  organizationId: string,
  page: { limit: number; after?: string; before?: string; filter?: GenerationListFilter; oldestFirst?: boolean },
): Promise<GenerationListPage | null> {
  const cursor = page.after ?? page.before;
  if (cursor !== undefined && !(await isOwnGeneration(db, organizationId, cursor))) return null;
  const params: unknown[] = [organizationId];
  const $ = (value: unknown) => `$${params.push(value)}`;
  const where = ['organization_id = $1', 'deleted_at IS NULL'];
  const { statuses, engine, model, createdFrom, createdUntil } = page.filter ?? {};
  if (statuses) where.push(`status = ANY(${$(statuses)}::text[])`);
  if (engine !== undefined) where.push(`engine = ${$(engine)}`);
  if (model !== undefined) where.push(`model = ${$(model)}`);
  if (createdFrom) where.push(`created_at >= ${$(createdFrom)}`);
  if (createdUntil) where.push(`created_at < ${$(createdUntil)}`);
  if (cursor !== undefined) {
    const id = $(cursor);
    // A row of two parameters (the subquery runs once): an index condition, not a filter.
    const position = `((SELECT created_at FROM generations WHERE organization_id = $1 AND id = ${id}), ${id}::text)`;
    // `after`: further along the listing's order; `before`: back against it.
    const further = page.after !== undefined;
    where.push(`(created_at, id) ${further === !page.oldestFirst ? '<' : '>'} ${position}`);
  }
  // Read from the cursor outwards: with `before`, against the listing's order (then turned around).
  const against = page.after === undefined && page.before !== undefined;
  const order = against === !page.oldestFirst ? 'ASC' : 'DESC';
  const { rows } = await db.query<GenerationRow>(
    `SELECT * FROM generations WHERE ${where.join(' AND ')}
     ORDER BY created_at ${order}, id ${order} LIMIT ${$(page.limit + 1)}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  return { rows: against ? kept.reverse() : kept, hasMore };
}

/** Whether the id is one of the organization's generations (a listing cursor). */
async function isOwnGeneration(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM generations WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL',
    [id, organizationId],
  );
  return rowCount === 1;
}
