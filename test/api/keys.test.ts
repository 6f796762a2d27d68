// API key lifecycle through the admin CLI (a real process) and the API (real HTTP).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys } from '../../src/db/apiKeys.js';
import { createOrgWithKey, startApi, testEnv, api, type TestApi } from '../support/stack.js';
import { createTestMember, DashboardClient } from '../dashboard/support.js';

const KEYS = 50;

const run = promisify(execFile);

async function admin(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      env: testEnv(),
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (err: any) {
    return { code: err.code as number, json: JSON.parse(err.stderr) };
  }
}

let stack: TestApi;
beforeAll(async () => {
  // Behind a proxy, as the dashboard runs: sign-in counts the forwarded address.
  stack = await startApi({ TRUST_PROXY: 'true' });
});
afterAll(() => stack.close());

describe('admin CLI and key lifecycle', () => {
  it('creates, uses, revokes and deletes a key', async () => {
    const org = await admin('create-org', '--name', 'Acme', '--credits', '250');
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({ name: 'Acme', credit_balance_cents: 250 });
    expect(org.json.id).toMatch(/^org_[0-9a-f]{24}$/);

    const created = await admin('create-key', '--org', org.json.id, '--name', 'ci');
    expect(created.code).toBe(0);
    const key: string = created.json.key;
    expect(key).toMatch(/^vg_[0-9a-f]{64}$/); // fixed prefix + 32 random bytes in hex
    expect(created.json).toMatchObject({
      name: 'ci',
      organization_id: org.json.id,
      active: true,
      prefix: key.slice(0, 11),
    });

    // The full key is shown once: listings carry only its prefix.
    const listed = await admin('list-keys', '--org', org.json.id);
    expect(listed.json).toHaveLength(1);
    expect(JSON.stringify(listed.json)).not.toContain(key);
    expect(listed.json[0]).toMatchObject({ id: created.json.id, prefix: key.slice(0, 11), active: true });

    // The key works.
    const ok = await api(stack.url, '/v1/responses/gen_000000000000000000000000', { key });
    expect(ok.status).toBe(404);

    // Revoked: still listed, inactive, and 401 on the very next request.
    const revoked = await admin('revoke-key', created.json.id);
    expect(revoked.json).toMatchObject({ id: created.json.id, active: false });
    expect((await api(stack.url, '/v1/responses/gen_000000000000000000000000', { key })).status).toBe(401);
    const afterRevoke = await admin('list-keys', '--org', org.json.id);
    expect(afterRevoke.json).toHaveLength(1);
    expect(afterRevoke.json[0].active).toBe(false);
    expect(afterRevoke.json[0].revoked_at).toEqual(expect.any(String));

    // Deleted: gone from the list, 401.
    const deleted = await admin('delete-key', created.json.id);
    expect(deleted.json).toEqual({ id: created.json.id, deleted: true });
    expect((await admin('list-keys', '--org', org.json.id)).json).toEqual([]);
    const gone = await api(stack.url, '/v1/responses/gen_000000000000000000000000', { key });
    expect(gone.status).toBe(401);
    expect(gone.body.error.code).toBe('unauthorized');
  });

  it('adds credits through the ledger', async () => {
    const org = await admin('create-org', '--name', 'Topped');
    expect(org.json.credit_balance_cents).toBe(0);
    const topped = await admin('add-credits', '--org', org.json.id, '--cents', '1234');
    expect(topped.json.credit_balance_cents).toBe(1234);
    const { rows } = await stack.db.query('SELECT kind, amount_micros FROM credit_ledger WHERE organization_id = $1', [
      org.json.id,
    ]);
    expect(rows).toEqual([{ kind: 'top_up', amount_micros: 1234 * 10_000 }]);
  });

  it('answers bad invocations with a JSON error and a non-zero exit', async () => {
    const unknownCommand = await admin('make-coffee');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.json.error.code).toBe('usage');
    const missingName = await admin('create-org');
    expect(missingName.code).toBe(2);
    expect(missingName.json.error.message).toMatch(/invalid argument/);
    const badCredits = await admin('create-org', '--name', 'x', '--credits', '-5');
    expect(badCredits.code).toBe(2);
    const unknownOrg = await admin('create-key', '--org', 'org_nope', '--name', 'k');
    expect(unknownOrg.code).toBe(2);
    expect(unknownOrg.json.error.message).toMatch(/unknown organization/);
    const unknownKey = await admin('revoke-key', 'key_nope');
    expect(unknownKey.json.error.message).toMatch(/unknown key/);
  });

  it(`refuses the 51st key of an organization (KEYS_PER_ORGANIZATION ${KEYS} by default), however made`, async () => {
    const { org } = await createOrgWithKey(stack.db);
    expect(stack.config.keysPerOrganization).toBe(KEYS);
    // Created in parallel: the organization's row lock lets exactly the cap through.
    const made = await Promise.allSettled(
      Array.from({ length: KEYS + 5 }, (_, i) => createApiKey(stack.db, org.id, `k${i}`, {}, KEYS)),
    );
    expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(KEYS - 1); // createOrgWithKey made one
    const refused = made.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: 'conflict', code: 'key_limit_reached' });
    expect((await listApiKeys(stack.db, org.id)).length).toBe(KEYS);

    // The admin CLI (a real process, the default cap) says why.
    const cli = await admin('create-key', '--org', org.id, '--name', 'one too many');
    expect(cli.code).toBe(1);
    expect(cli.json.error.message).toMatch(/50 API keys, the most it may have \(50\)/);

    // The dashboard answers 409 with the reason on the keys page.
    const member = await createTestMember(stack.db, org.id);
    const client = new DashboardClient(stack.url);
    expect((await client.signIn(member.email, member.password)).status).toBe(303);
    await client.get('/dashboard/keys');
    const page = await client.post('/dashboard/keys', { name: 'fifty-first' });
    expect(page.status).toBe(409);
    expect(page.body).toContain('the most it may have (50)');
    expect((await listApiKeys(stack.db, org.id)).length).toBe(KEYS);

    // Deleting one makes room.
    const [oldest] = await listApiKeys(stack.db, org.id);
    await admin('delete-key', oldest!.id);
    expect((await admin('create-key', '--org', org.id, '--name', 'replacement')).code).toBe(0);
  });
});
