// API keys: `vg_` + 64 hex characters (32 random bytes). Only the SHA-256 of a key is stored
// (keys are high-entropy, so a fast hash is safe and keeps the per-request lookup cheap).
import crypto from 'node:crypto';
import { conflict } from '../errors.js';
import { newId } from '../ids.js';
import { transaction, type Db } from './pool.js';

export const API_KEY_PREFIX = 'vg_';
const KEY_PATTERN = /^vg_[0-9a-f]{64}$/;
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export type ApiKeyInfo = {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  active: boolean;
  /** Extension: the key may change the organization's brand kit (PUT /v1/brand). */
  can_manage_brand: boolean;
};

const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest();

/**
 * Creates a key unless the organization already has `maxKeys` (KEYS_PER_ORGANIZATION; revoked keys
 * count until deleted): then a 409 `key_limit_reached`. The organization's row is locked while
 * counting, so parallel creations cannot pass one count.
 */
export async function createApiKey(
  db: Db,
  organizationId: string,
  name: string,
  rights: { manageBrand?: boolean } = {},
  maxKeys = Infinity,
): Promise<ApiKeyInfo & { key: string }> {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString('hex');
  const id = newId('key');
  return transaction(db, async (client) => {
    await client.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
    const { rows: counted } = await client.query('SELECT count(*)::int AS n FROM api_keys WHERE organization_id = $1', [
      organizationId,
    ]);
    if (counted[0].n >= maxKeys)
      throw conflict(
        `This organization has ${counted[0].n} API keys, the most it may have (${maxKeys}): ` +
          'delete one it no longer uses (revoked keys count until deleted)',
        'key_limit_reached',
      );
    const { rows } = await client.query(
      `INSERT INTO api_keys (id, organization_id, name, key_hash, key_prefix, can_manage_brand)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [id, organizationId, name, hashKey(key), key.slice(0, SHOWN_PREFIX_LENGTH), rights.manageBrand ?? false],
    );
    return { ...toInfo(rows[0]), key };
  });
}

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKeyInfo[]> {
  const { rows } = await db.query('SELECT * FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id', [
    organizationId,
  ]);
  return rows.map(toInfo);
}

/** Deactivates a key: it stays listed, requests with it get 401. Null for an unknown key. */
export async function revokeApiKey(db: Db, keyId: string): Promise<ApiKeyInfo | null> {
  const { rows } = await db.query(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING *',
    [keyId],
  );
  return rows[0] ? toInfo(rows[0]) : null;
}

/** Removes a key permanently. False for an unknown key. */
export async function deleteApiKey(db: Db, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM api_keys WHERE id = $1', [keyId]);
  return rowCount === 1;
}

export type KeyPrincipal = { apiKeyId: string; organizationId: string; canManageBrand: boolean };

/** The organization behind an active key, or null (malformed, unknown, revoked or deleted). */
export async function authenticateApiKey(db: Db, key: string): Promise<KeyPrincipal | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const { rows } = await db.query(
    `SELECT id, organization_id, last_used_at, can_manage_brand FROM api_keys
     WHERE key_hash = $1 AND revoked_at IS NULL`,
    [hashKey(key)],
  );
  const row = rows[0];
  if (!row) return null;
  // last_used_at is refreshed at most once a minute per key, off the request's critical path.
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]).catch(() => {});
  }
  return { apiKeyId: row.id, organizationId: row.organization_id, canManageBrand: row.can_manage_brand };
}

/** An api_keys row as pg returns it (timestamps as Date). */
type ApiKeyRow = {
  id: string;
  organization_id: string;
  name: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  can_manage_brand: boolean;
};

function toInfo(r: ApiKeyRow): ApiKeyInfo {
  return {
    id: r.id,
    organization_id: r.organization_id,
    name: r.name,
    prefix: r.key_prefix,
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
    active: r.revoked_at === null,
    can_manage_brand: r.can_manage_brand,
  };
}
