// PUT /v1/brand within limits (README "Security"): under the per-key rate limit like the generation
// endpoints, a replaced logo deleted from storage, and a new logo counted against the organization's
// media quota (a clear 409 when it would not fit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/db/apiKeys.js';
import { mediaBytesUsed } from '../../src/db/mediaUsage.js';
import { createStorage, LocalStorage } from '../../src/storage/index.js';
import { twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startApi, type TestApi } from '../support/stack.js';

const PER_WINDOW = 6;
let stack: TestApi;

beforeAll(async () => {
  stack = await startApi({
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PER_WINDOW: String(PER_WINDOW),
    RATE_LIMIT_WINDOW_SECONDS: '3600',
    MEDIA_QUOTA_MB_PER_ORGANIZATION: '1',
  });
});
afterAll(() => stack?.close());

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

async function brandManager() {
  const { org } = await createOrgWithKey(stack.db);
  return { orgId: org.id, key: (await createApiKey(stack.db, org.id, 'brand', { manageBrand: true })).key };
}

/** The test stack stores under DATA_DIR (the local driver), where objects can be looked for directly. */
const localStorage = () => createStorage(stack.config) as LocalStorage;

const logoKey = async (orgId: string): Promise<string | null> =>
  (await stack.db.query('SELECT logo_key FROM brand_kits WHERE organization_id = $1', [orgId])).rows[0]?.logo_key ??
  null;

describe('PUT /v1/brand limits', () => {
  it('a logo upload loop is stopped by the per-key rate limit; each replaced logo is gone from storage', async () => {
    const { orgId, key } = await brandManager();
    const storage = localStorage();
    const statuses: number[] = [];
    const replaced: string[] = [];
    for (let i = 0; i < PER_WINDOW + 3; i++) {
      const before = await logoKey(orgId);
      const logo = twoColourImage(100 + 2 * i, 60);
      const res = await api(stack.url, '/v1/brand', { method: 'PUT', key, json: { logo: dataUrl(logo) } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        continue;
      }
      expect(res.status).toBe(200);
      if (before) replaced.push(before);
      // The organization's media counts the current logo only.
      expect(await mediaBytesUsed(stack.db, orgId)).toBe(logo.length);
    }
    expect(statuses).toEqual([...Array(PER_WINDOW).fill(200), 429, 429, 429]);
    expect(replaced).toHaveLength(PER_WINDOW - 1);
    for (const key of replaced) expect(await storage.stat(key)).toBeUndefined();
    expect(await storage.stat((await logoKey(orgId))!)).toBeDefined();
    // Reads are counted too: the key is over its window.
    expect((await api(stack.url, '/v1/brand', { key })).status).toBe(429);
  });

  it('a logo that would take the organization past its media quota is refused with media_quota_exceeded', async () => {
    const { orgId, key } = await brandManager();
    const first = twoColourImage(120, 60);
    expect((await api(stack.url, '/v1/brand', { method: 'PUT', key, json: { logo: dataUrl(first) } })).status).toBe(
      200,
    );
    const kept = await logoKey(orgId);
    // The organization's other media (request images) has filled the quota but for a few bytes.
    await stack.db.query('UPDATE organization_media_usage SET bytes = $2 WHERE organization_id = $1', [
      orgId,
      2 ** 20 - 100,
    ]);
    const res = await api(stack.url, '/v1/brand', {
      method: 'PUT',
      key,
      json: { logo: dataUrl(twoColourImage(140, 60)) },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'media_quota_exceeded', param: 'logo' });
    expect(res.body.error.message).toMatch(/media storage is full: 1\.0 MiB of its 1\.0 MiB are used/);
    // Nothing changed: the kit keeps its logo, the count is as it was.
    expect(await logoKey(orgId)).toBe(kept);
    expect(await mediaBytesUsed(stack.db, orgId)).toBe(2 ** 20 - 100);
    // Removing the logo gives its bytes back.
    expect((await api(stack.url, '/v1/brand', { method: 'PUT', key, json: { logo: null } })).status).toBe(200);
    expect(await mediaBytesUsed(stack.db, orgId)).toBe(2 ** 20 - 100 - first.length);
    expect(await localStorage().stat(kept!)).toBeUndefined();
  });
});
