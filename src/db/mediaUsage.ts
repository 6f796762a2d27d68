// Bytes of media each organization stored (migration 0015), against MEDIA_QUOTA_MB_PER_ORGANIZATION.
import { DomainError } from '../errors.js';
import type { Db } from './pool.js';

/** The error of a store that would take the organization past its quota. */
export const mediaQuotaExceeded = (usedBytes: number, quotaBytes: number, param?: string) =>
  new DomainError(
    'conflict',
    'media_quota_exceeded',
    `This organization's media storage is full: ${mib(usedBytes)} of its ${mib(quotaBytes)} are used; ` +
      'the operator can raise MEDIA_QUOTA_MB_PER_ORGANIZATION',
    param,
  );

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * Counts `bytes` more against the organization's quota in one statement (parallel stores cannot
 * both pass), or throws media_quota_exceeded and counts nothing.
 */
export async function reserveMediaBytes(
  db: Pick<Db, 'query'>,
  organizationId: string,
  bytes: number,
  quotaBytes: number,
  param?: string,
): Promise<void> {
  if (bytes <= 0) return;
  await db.query(
    'INSERT INTO organization_media_usage (organization_id, bytes) VALUES ($1, 0) ON CONFLICT DO NOTHING',
    [organizationId],
  );
  const { rows } = await db.query(
    `UPDATE organization_media_usage SET bytes = bytes + $2
     WHERE organization_id = $1 AND bytes + $2 <= $3 RETURNING bytes`,
    [organizationId, bytes, quotaBytes],
  );
  if (rows.length === 1) return;
  throw mediaQuotaExceeded(await mediaBytesUsed(db, organizationId), quotaBytes, param);
}

/** Gives back bytes whose media was deleted (or never stored). */
export async function releaseMediaBytes(db: Pick<Db, 'query'>, organizationId: string, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await db.query('UPDATE organization_media_usage SET bytes = GREATEST(0, bytes - $2) WHERE organization_id = $1', [
    organizationId,
    bytes,
  ]);
}

export async function mediaBytesUsed(db: Pick<Db, 'query'>, organizationId: string): Promise<number> {
  const { rows } = await db.query('SELECT bytes FROM organization_media_usage WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows[0] ? Number(rows[0].bytes) : 0;
}
