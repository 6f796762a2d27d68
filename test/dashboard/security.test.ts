// Dashboard security over plain HTTP (no browser): sessions, cookie flags, CSRF on every state change,
// isolation between organizations, the sign-in rate limit, sign-out, headers, escaping, and the
// admin CLI command that creates the first member.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.js';
import { listApiKeys } from '../../src/db/apiKeys.js';
import { getWebhookSettings } from '../../src/db/webhooks.js';
import { recordLoginFailure } from '../../src/db/members.js';
import { LOGIN_LIMIT, pairDelaySeconds } from '../../src/dashboard/loginLimit.js';
import { api, createOrgWithKey, startApi, testEnv, type TestApi } from '../support/stack.js';
import { addGeneration } from '../usage/support.js';
import { createTestMember, csrfOf, DashboardClient } from './support.js';
import { videoKey } from '../../src/storage/keys.js';

type Org = Awaited<ReturnType<typeof setUpOrg>>;

let app: TestApi;
let a: Org;
let b: Org;

async function setUpOrg() {
  const { org, key, keyId } = await createOrgWithKey(app.db);
  const member = await createTestMember(app.db, org.id);
  const generationId = await addGeneration(
    app.db,
    Catalog.load(),
    { orgId: org.id, keyId },
    {
      engine: 'lottie',
      model: 'gpt-4o-mini',
      status: 'completed',
      usage: { input_tokens: 100, output_tokens: 50 },
      createdAt: new Date(),
    },
  );
  return { org, key, keyId, member, generationId, secret: (await getWebhookSettings(app.db, org.id))!.signing_secret };
}

async function signedIn(org: Org) {
  const client = new DashboardClient(app.url);
  const res = await client.signIn(org.member.email, org.member.password);
  expect(res.status, res.body).toBe(303);
  return client;
}

beforeAll(async () => {
  // As deployed behind a reverse proxy: X-Forwarded-Proto and -For are trusted.
  app = await startApi({ TRUST_PROXY: 'true' });
  [a, b] = await Promise.all([setUpOrg(), setUpOrg()]);
});

afterAll(async () => {
  await app?.close();
});

describe('sessions', () => {
  it('pages redirect to sign-in without a session, and POSTs are refused with 401', async () => {
    const client = new DashboardClient(app.url);
    const page = await client.get('/dashboard/keys');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/dashboard/login?next=%2Fdashboard%2Fkeys');
    const before = (await listApiKeys(app.db, a.org.id)).length;
    expect((await client.post('/dashboard/keys', { name: 'x' }, 'made-up')).status).toBe(401);
    expect(await listApiKeys(app.db, a.org.id)).toHaveLength(before);
    // A forged cookie opens nothing either.
    client.cookies.set('dashboard_session', 'A'.repeat(43));
    expect((await client.get('/dashboard/usage')).status).toBe(303);
  });

  it('signs in with the right password only, with the same answer for unknown emails', async () => {
    const wrong = await new DashboardClient(app.url).signIn(a.member.email, 'not the password');
    const unknown = await new DashboardClient(app.url).signIn('nobody@example.test', 'not the password');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toContain('Wrong email or password.');
      expect(res.setCookies.some((c) => c.startsWith('dashboard_session='))).toBe(false);
    }
    const client = await signedIn(a);
    expect(client.lastPage!.location).toBe('/dashboard');
    const usage = await client.get('/dashboard/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toContain(a.member.email);
  });

  it(
    'session cookie flags: HttpOnly, SameSite=Strict, Path=/dashboard; ' + 'Secure over HTTPS or when configured',
    async () => {
      const cookieOf = (page: { setCookies: string[] }) =>
        page.setCookies.find((c) => c.startsWith('dashboard_session='))!;
      const plain = cookieOf((await signedIn(a)).lastPage!);
      expect(plain).toMatch(/^dashboard_session=[\w-]{43}; /);
      expect(plain).toContain('; Path=/dashboard;');
      expect(plain).toContain('; HttpOnly');
      expect(plain).toContain('; SameSite=Strict');
      expect(plain).not.toContain('Secure');

      // Behind a TLS-terminating proxy (X-Forwarded-Proto: https), `auto` sets Secure.
      const viaProxy = new DashboardClient(app.url);
      await viaProxy.get('/dashboard/login', { 'x-forwarded-proto': 'https' });
      expect(viaProxy.lastPage!.setCookies[0]).toMatch(
        /^dashboard_login_csrf=.*; Path=\/dashboard\/login; .*HttpOnly; SameSite=Strict; Secure$/,
      );
      const res = await viaProxy.request(
        'POST',
        '/dashboard/login',
        { _csrf: csrfOf(viaProxy.lastPage!.body)!, email: a.member.email, password: a.member.password },
        { 'x-forwarded-proto': 'https' },
      );
      expect(cookieOf(res)).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);

      const forced = await startApi({ DASHBOARD_COOKIE_SECURE: 'true' });
      try {
        const client = new DashboardClient(forced.url);
        expect(cookieOf(await client.signIn(a.member.email, a.member.password))).toContain('; Secure');
      } finally {
        await forced.close();
      }
    },
  );

  it('sign-out deletes the session server-side: the old cookie opens nothing', async () => {
    const client = await signedIn(a);
    await client.get('/dashboard/keys');
    const token = client.cookies.get('dashboard_session')!;
    const out = await client.post('/dashboard/logout');
    expect(out.status).toBe(303);
    expect(out.location).toBe('/dashboard/login?signed_out');
    expect(out.setCookies.find((c) => c.startsWith('dashboard_session='))).toContain('Max-Age=0');
    const replay = new DashboardClient(app.url);
    replay.cookies.set('dashboard_session', token);
    expect((await replay.get('/dashboard/keys')).status).toBe(303);
    const { rows } = await app.db.query(
      `SELECT count(*)::int AS n FROM dashboard_sessions WHERE token_hash = sha256(convert_to($1, 'UTF8'))`,
      [token],
    );
    expect(rows[0].n).toBe(0);
  });

  it('an expired session opens nothing (idle and absolute limits are enforced server-side)', async () => {
    const client = await signedIn(a);
    expect((await client.get('/dashboard/keys')).status).toBe(200);
    const { rows } = await app.db.query(
      `SELECT created_at, expires_at FROM dashboard_sessions WHERE token_hash = sha256(convert_to($1, 'UTF8'))`,
      [client.cookies.get('dashboard_session')],
    );
    // Sliding idle expiry, capped by the absolute lifetime (defaults: 2 h idle, 12 h at most).
    expect(rows[0].expires_at.getTime() - Date.now()).toBeGreaterThan(119 * 60_000);
    expect(rows[0].expires_at.getTime() - Date.now()).toBeLessThanOrEqual(120 * 60_000);
    await app.db.query(
      `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'
       WHERE token_hash = sha256(convert_to($1, 'UTF8'))`,
      [client.cookies.get('dashboard_session')],
    );
    expect((await client.get('/dashboard/keys')).status).toBe(303);
  });

  it('follows only dashboard paths after sign-in (no open redirect)', async () => {
    for (const [next, expected] of [
      ['/dashboard/webhooks', '/dashboard/webhooks'],
      ['//evil.example/x', '/dashboard'],
      ['https://evil.example/', '/dashboard'],
      ['/dashboard/../v1/usage', '/dashboard'],
    ]) {
      const client = new DashboardClient(app.url);
      await client.get('/dashboard/login');
      const res = await client.post('/dashboard/login', { email: a.member.email, password: a.member.password, next });
      expect(res.location, next).toBe(expected);
    }
  });
});

describe('CSRF', () => {
  it('no state change without the session’s CSRF token', async () => {
    const client = await signedIn(a);
    const other = await signedIn(b);
    await other.get('/dashboard/keys');
    const othersToken = csrfOf(other.lastPage!.body)!;
    await client.get('/dashboard/keys');
    const ownToken = csrfOf(client.lastPage!.body)!;
    expect(ownToken).not.toBe(othersToken);

    const keysBefore = await listApiKeys(app.db, a.org.id);
    const settingsBefore = await getWebhookSettings(app.db, a.org.id);
    const attempts: Array<[string, Record<string, string | string[]>]> = [
      ['/dashboard/keys', { name: 'csrf' }],
      [`/dashboard/keys/${a.keyId}/revoke`, { confirm: 'yes' }],
      [`/dashboard/keys/${a.keyId}/delete`, { confirm: 'yes' }],
      ['/dashboard/webhooks/events', { events: ['video.generation.queued'] }],
      ['/dashboard/webhooks/rotate', { confirm: 'yes' }],
      ['/dashboard/logout', {}],
    ];
    for (const [path, fields] of attempts) {
      for (const token of [null, '', 'forged-token', othersToken]) {
        const res = await client.post(path, fields, token);
        expect(res.status, `${path} with ${token}`).toBe(403);
        expect(res.body).toContain('Reload the page and try again');
      }
    }
    // A JSON body does not get past the token check either.
    const json = await client.request('POST', '/dashboard/keys', undefined, { 'content-type': 'application/json' });
    expect([403, 415]).toContain(json.status);

    expect(await listApiKeys(app.db, a.org.id)).toEqual(keysBefore);
    expect(await getWebhookSettings(app.db, a.org.id)).toEqual(settingsBefore);
    expect((await client.get('/dashboard/keys')).status).toBe(200); // still signed in
  });

  it('the sign-in form has its own token (no login CSRF)', async () => {
    const client = new DashboardClient(app.url);
    const res = await client.post('/dashboard/login', { email: a.member.email, password: a.member.password }, null);
    expect(res.status).toBe(403);
    expect(res.setCookies.some((c) => c.startsWith('dashboard_session='))).toBe(false);
  });
});

describe('organizations are isolated', () => {
  it("another organization's keys, generations, secret and usage are invisible and untouchable (404)", async () => {
    const client = await signedIn(a);
    const bKey = (await listApiKeys(app.db, b.org.id)).find((k) => k.id === b.keyId)!;

    const keysPage = await client.get('/dashboard/keys');
    expect(keysPage.body).toContain(a.keyId);
    expect(keysPage.body).not.toContain(b.keyId);
    expect(keysPage.body).not.toContain(bKey.prefix);
    for (const action of ['revoke', 'delete']) {
      const res = await client.post(`/dashboard/keys/${b.keyId}/${action}`, { confirm: 'yes' });
      expect(res.status, action).toBe(404);
      await client.get('/dashboard/keys'); // a fresh page for the next token
    }
    expect((await listApiKeys(app.db, b.org.id)).find((k) => k.id === b.keyId)?.active).toBe(true);
    expect((await api(app.url, '/v1/usage', { key: b.key })).status).toBe(200);

    expect((await client.get(`/dashboard/generations/${b.generationId}`)).status).toBe(404);
    expect((await client.get(`/dashboard/generations/${a.generationId}`)).status).toBe(200);

    const webhooks = await client.get('/dashboard/webhooks?reveal=1');
    expect(webhooks.body).toContain(a.secret);
    expect(webhooks.body).not.toContain(b.secret);

    const usage = await client.get('/dashboard/usage');
    expect(usage.body).toContain(a.generationId);
    expect(usage.body).not.toContain(b.generationId);
  });

  it(
    "a generation's live events: the organization's own only (404 otherwise, before any event), " +
      '401 when signed out',
    async () => {
      const events = (id: string) => `/dashboard/generations/${id}/events`;
      const signedOut = await new DashboardClient(app.url).get(events(a.generationId));
      expect(signedOut.status).toBe(401);
      expect(signedOut.headers.get('content-type')).toContain('text/html');

      const client = await signedIn(a);
      for (const id of [b.generationId, 'gen_000000000000000000000000', 'x'.repeat(100)]) {
        const res = await client.get(events(id));
        expect(res.status, id).toBe(404);
        expect(res.headers.get('content-type'), id).toContain('text/html');
      }
      // The org's own, already completed: one last event with the video (this fixture has no poster), then the end.
      const own = await client.get(events(a.generationId));
      expect(own.status).toBe(200);
      expect(own.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(own.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(own.headers.get('content-security-policy')).toContain("connect-src 'self'");
      const sent = own.body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)));
      expect(sent).toEqual([
        {
          status: 'completed',
          progress: null,
          label: 'Done',
          percent: 100,
          done: true,
          video_url: expect.stringContaining(`/media/${videoKey(a.generationId)}?`),
          poster_url: null,
        },
      ]);

      // Without a poster (generations from before posters), the list shows the prompt and a link to the player.
      const usage = (await client.get('/dashboard/usage')).body;
      const from = usage.indexOf(`<tr data-generation-id="${a.generationId}">`);
      const row = usage.slice(from, usage.indexOf('</tr>', from));
      expect(row).toContain(`<a class="thumb-none" href="/dashboard/generations/${a.generationId}"`);
      expect(row).not.toMatch(/<img|<video/);
      expect(row).toContain('>usage fixture</a>');
    },
  );
});

describe('sign-in rate limit', () => {
  it('failures from another address never lock a member out of their own address', async () => {
    const { org } = await createOrgWithKey(app.db);
    const member = await createTestMember(app.db, org.id);
    // An attacker guessing from one address, and from many.
    const attacker = new DashboardClient(app.url);
    for (let i = 0; i < 12; i++) await recordLoginFailure(app.db, member.email, attacker.ip, LOGIN_LIMIT.windowSeconds);
    for (let i = 0; i < 12; i++)
      expect((await new DashboardClient(app.url).signIn(member.email, `spray ${i}`)).status).toBe(401);
    expect((await attacker.signIn(member.email, member.password)).status).toBe(429); // throttled: not even checked
    // The member, at their own address, signs in at once.
    const own = await new DashboardClient(app.url).signIn(member.email, member.password);
    expect(own.status).toBe(303);
    expect(own.setCookies.some((c) => c.startsWith('dashboard_session='))).toBe(true);
  });

  it(
    `per email and address: ${LOGIN_LIMIT.freeFailures} free failures, ` + 'then delays that double after each failure',
    async () => {
      const { org } = await createOrgWithKey(app.db);
      const member = await createTestMember(app.db, org.id);
      const client = new DashboardClient(app.url);
      let lastFailureSent = 0;
      for (let i = 0; i < LOGIN_LIMIT.freeFailures; i++) {
        lastFailureSent = Date.now();
        expect((await client.signIn(member.email, `wrong ${i}`)).status).toBe(401);
      }
      // Time is moved, not waited for: the pair's failures are dated forward by a margin before each
      // throttled attempt (so a slow machine cannot let a 1 s delay pass before the attempt arrives),
      // then back past the delay.
      const MARGIN_S = 30;
      const shift = (seconds: number) =>
        app.db.query(
          `UPDATE login_failures SET failed_at = failed_at + make_interval(secs => $3) WHERE email = $1 AND ip = $2`,
          [member.email, client.ip, seconds],
        );
      for (let failures = LOGIN_LIMIT.freeFailures; failures < LOGIN_LIMIT.freeFailures + 4; failures++) {
        await shift(MARGIN_S);
        const throttled = await client.signIn(member.email, member.password);
        const sinceLastFailure = Math.ceil((Date.now() - lastFailureSent) / 1000);
        expect(throttled.status).toBe(429);
        expect(throttled.body).toContain('Too many failed sign-ins');
        // The wait runs from the pair's previous failure: its delay (plus the margin), less the time since.
        const wait = Number(throttled.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(pairDelaySeconds(failures) + MARGIN_S);
        expect(wait).toBeGreaterThanOrEqual(pairDelaySeconds(failures) + MARGIN_S - sinceLastFailure);
        await shift(-(pairDelaySeconds(failures) + MARGIN_S));
        lastFailureSent = Date.now();
        expect((await client.signIn(member.email, `wrong again ${failures}`)).status).toBe(401);
      }
      expect(pairDelaySeconds(LOGIN_LIMIT.freeFailures + 3)).toBe(8);
      expect(pairDelaySeconds(1000)).toBe(LOGIN_LIMIT.maxDelaySeconds);
      // Once the delay has passed, the right password works and forgives the pair's failures.
      await shift(-LOGIN_LIMIT.maxDelaySeconds);
      expect((await client.signIn(member.email, member.password)).status).toBe(303);
      expect(
        (await app.db.query('SELECT 1 FROM login_failures WHERE email = $1 AND ip = $2', [member.email, client.ip]))
          .rowCount,
      ).toBe(0);
    },
  );

  it('a burst of parallel guesses from one address gets no more than the free failures checked', async () => {
    const { org } = await createOrgWithKey(app.db);
    const member = await createTestMember(app.db, org.id);
    const ip = new DashboardClient(app.url).ip;
    const clients = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const c = new DashboardClient(app.url, ip);
        await c.get('/dashboard/login');
        return c;
      }),
    );
    const statuses = await Promise.all(
      clients.map((c, i) =>
        c.post('/dashboard/login', { email: member.email, password: `guess ${i}` }).then((r) => r.status),
      ),
    );
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_LIMIT.freeFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - checked);
  });

  it('guesses rotated through an IPv6 /64 count as one address: per account and across accounts', async () => {
    const { org } = await createOrgWithKey(app.db);
    const member = await createTestMember(app.db, org.id);
    // A fresh /64 per run (the table is shared by the file's tests); each guess from a new address in it.
    const prefix = `2001:db8:${crypto.randomInt(1, 0xffff).toString(16)}:${crypto.randomInt(1, 0xffff).toString(16)}`;
    let host = 0;
    const rotating = () => new DashboardClient(app.url, `${prefix}:${(++host).toString(16)}:0:0:1`);
    // Each guess from a new address of the /64 is counted against the same (email, /64) pair.
    for (let i = 0; i < LOGIN_LIMIT.freeFailures; i++)
      expect((await rotating().signIn(member.email, `guess ${i}`)).status).toBe(401);
    const { rows } = await app.db.query('SELECT DISTINCT ip FROM login_failures WHERE email = $1', [member.email]);
    expect(rows).toEqual([{ ip: `${prefix}::/64` }]);
    // Past the free failures the pair waits (more failures seeded: a slow machine's sign-ins outlast short delays),
    // and the right password from yet another address of that /64 is not even checked.
    for (let i = 0; i < 6; i++)
      await recordLoginFailure(app.db, member.email, `${prefix}::/64`, LOGIN_LIMIT.windowSeconds);
    for (let i = 0; i < 3; i++) expect((await rotating().signIn(member.email, member.password)).status).toBe(429);
    // Across accounts: the /64 is locked after perIp failures, whatever the address in it.
    for (let i = 0; i < LOGIN_LIMIT.perIp; i++)
      await recordLoginFailure(app.db, `spray${i}@example.test`, `${prefix}::/64`, LOGIN_LIMIT.windowSeconds);
    expect((await rotating().signIn(a.member.email, a.member.password)).status).toBe(429);
    // Another /64 is not affected.
    expect(
      (await new DashboardClient(app.url, '2001:db8:ffff:1::1').signIn(member.email, member.password)).status,
    ).toBe(303);
  });

  it(`per account: after ${LOGIN_LIMIT.perAccount} failures from any addresses, every address waits`, async () => {
    const { org } = await createOrgWithKey(app.db);
    const member = await createTestMember(app.db, org.id);
    // A botnet: one guess from each of many addresses.
    for (let i = 0; i < LOGIN_LIMIT.perAccount; i++)
      await recordLoginFailure(app.db, member.email, `10.77.${i}.1`, LOGIN_LIMIT.windowSeconds);
    const fresh = await new DashboardClient(app.url).signIn(member.email, member.password);
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other accounts are not affected.
    expect((await new DashboardClient(app.url).signIn(a.member.email, a.member.password)).status).toBe(303);
  });

  it(`locks an IP after ${LOGIN_LIMIT.perIp} failures, whatever the email`, async () => {
    const client = new DashboardClient(app.url);
    for (let i = 0; i < LOGIN_LIMIT.perIp - 1; i++)
      await recordLoginFailure(app.db, `guess${i}@example.test`, client.ip, LOGIN_LIMIT.windowSeconds);
    expect((await client.signIn('one-more@example.test', 'guess')).status).toBe(401);
    const locked = await client.signIn(a.member.email, a.member.password);
    expect(locked.status).toBe(429);
    // Addresses the client prepends to X-Forwarded-For do not count: only the proxy's (last) entry.
    const spoofing = new DashboardClient(app.url, `203.0.113.9, ${client.ip}`);
    expect((await spoofing.signIn(a.member.email, a.member.password)).status).toBe(429);
    // Another address is not affected.
    expect((await new DashboardClient(app.url).signIn(a.member.email, a.member.password)).status).toBe(303);
  });
});

describe('pages', () => {
  it('security headers, no inline script or style, no caching', async () => {
    const client = await signedIn(a);
    for (const path of [
      '/dashboard/login',
      '/dashboard/usage',
      '/dashboard/keys',
      '/dashboard/webhooks',
      `/dashboard/generations/${a.generationId}`,
      '/dashboard/nope',
    ]) {
      const page = path === '/dashboard/login' ? await new DashboardClient(app.url).get(path) : await client.get(path);
      expect(page.status, path).toBe(path === '/dashboard/nope' ? 404 : 200);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
    const css = await client.get(
      /href="(\/dashboard\/assets\/dashboard\.css\?v=\w+)"/.exec(client.lastPage!.body)![1]!,
    );
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.headers.get('cache-control')).toContain('immutable');
  });

  it('escapes what members type', async () => {
    const client = await signedIn(a);
    await client.get('/dashboard/keys');
    const res = await client.post('/dashboard/keys', { name: '<img src=x onerror=alert(1)>"\'' });
    expect(res.status).toBe(201);
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;');
  });

  it('without JavaScript, revoking asks for confirmation on a page of its own', async () => {
    const client = await signedIn(a);
    await client.get('/dashboard/keys');
    const created = await client.post('/dashboard/keys', { name: 'to revoke' });
    const key = /<code id="new-key">(vg_[0-9a-f]{64})<\/code>/.exec(created.body)![1]!;
    const keyId = (await listApiKeys(app.db, a.org.id)).find((k) => k.name === 'to revoke')!.id;
    const confirmPage = await client.post(`/dashboard/keys/${keyId}/revoke`);
    expect(confirmPage.status).toBe(200);
    expect(confirmPage.body).toContain('Revoke the key “to revoke”');
    expect((await api(app.url, '/v1/usage', { key })).status).toBe(200);
    const done = await client.post(`/dashboard/keys/${keyId}/revoke`, { confirm: 'yes' });
    expect(done.status).toBe(303);
    expect((await api(app.url, '/v1/usage', { key })).status).toBe(401);
  });
});

describe('webhook secret rotation', () => {
  it('rotates with a grace period: both secrets shown, the previous one until it expires', async () => {
    const { org } = await createOrgWithKey(app.db);
    const member = await createTestMember(app.db, org.id);
    const client = new DashboardClient(app.url);
    await client.signIn(member.email, member.password);
    const before = (await getWebhookSettings(app.db, org.id))!.signing_secret;
    await client.get('/dashboard/webhooks');
    expect(client.lastPage!.body).not.toContain(before); // hidden until revealed
    const res = await client.post('/dashboard/webhooks/rotate', { confirm: 'yes' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/webhooks?reveal=1&notice=rotated');
    const after = await getWebhookSettings(app.db, org.id);
    expect(after!.signing_secret).not.toBe(before);
    expect(after!.previous_signing_secret).toBe(before);
    const page = await client.get(res.location!);
    expect(page.body).toContain(`<code id="signing-secret">${after!.signing_secret}</code>`);
    expect(page.body).toContain(`<code id="previous-signing-secret">${before}</code>`);
    expect(page.body).toContain('24 hours');
  });
});

describe('admin CLI', () => {
  it('create-member makes the first member of an organization; the password comes from stdin', async () => {
    const { org } = await createOrgWithKey(app.db);
    const email = `first-${org.id}@example.test`;
    const password = 'a long enough password';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/admin/cli.ts', 'create-member', '--org', org.id, '--email', email, '--password-stdin'],
      {
        env: testEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin.end(`${password}\n`);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ organization_id: org.id, email });
    expect(out).not.toContain(password);
    const { rows } = await app.db.query('SELECT password_hash FROM members WHERE email = $1', [email]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$16\$8\$2\$[\w+/=]{24}\$[\w+/=]{44}$/);
    expect((await new DashboardClient(app.url).signIn(email, password)).status).toBe(303);
  });
});
