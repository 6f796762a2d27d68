// What a create of the OpenAI Videos shape (/v1/videos) named in its own words, kept beside its generation
// (migration 0017), and the deletion mark DELETE /v1/videos/{id} sets on the generation.
import type { Db } from './pool.js';

export type OpenAiVideoRow = {
  generation_id: string;
  /** The model as the client named it (`sora-2`, or one of ours). */
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  remixed_from_video_id: string | null;
};

/** Records the create's own words; a replayed create (same Idempotency-Key) finds them there already. */
export async function recordOpenAiVideo(db: Db, row: OpenAiVideoRow): Promise<void> {
  await db.query(
    `INSERT INTO openai_videos (generation_id, model, prompt, seconds, size, remixed_from_video_id)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (generation_id) DO NOTHING`,
    [row.generation_id, row.model, row.prompt, row.seconds, row.size, row.remixed_from_video_id],
  );
}

/** The rows of these generations that were created in the Videos shape, by generation id. */
export async function openAiVideosOf(db: Db, generationIds: readonly string[]): Promise<Map<string, OpenAiVideoRow>> {
  if (generationIds.length === 0) return new Map();
  const { rows } = await db.query<OpenAiVideoRow>('SELECT * FROM openai_videos WHERE generation_id = ANY($1::text[])', [
    generationIds,
  ]);
  return new Map(rows.map((r) => [r.generation_id, r]));
}

/**
 * Marks the organization's generation deleted: from now on no view or listing finds it (404); its usage and
 * charges stay counted. True when this call marked it.
 */
export async function markGenerationDeleted(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE generations SET deleted_at = now() WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL',
    [id, organizationId],
  );
  return rowCount === 1;
}

/** Whether the generation was created in the OpenAI Videos shape (its webhooks speak OpenAI's events). */
export async function isOpenAiVideo(db: Pick<Db, 'query'>, generationId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM openai_videos WHERE generation_id = $1', [generationId]);
  return rowCount === 1;
}
