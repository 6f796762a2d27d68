// A malicious artifact opened by a signed-in member, in a real browser (playwright-core + Chromium
// headless shell): compositions are written by an LLM from user prompts, and the API serves them
// from the dashboard's own origin. The media CSP sandbox must keep the page's script from running
// and, when script is run in the page anyway (Playwright's evaluate), from reading the dashboard or
// creating a key: the page's origin is opaque.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listApiKeys } from '../../src/db/apiKeys.js';
import { createStorage } from '../../src/storage/index.js';
import { compositionKey } from '../../src/storage/keys.js';
import { launchTestBrowser } from '../support/browser.js';
import { createOrgWithKey, startApi, type TestApi } from '../support/stack.js';
import { createTestMember } from './support.js';

let api: TestApi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [api, browser] = await Promise.all([startApi(), launchTestBrowser()]);
  page = await (await browser.newContext()).newPage();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Reads the keys page and posts the key form with its CSRF token, as a same-origin script could. */
const ATTACK = `
  window.__attack = (async () => {
    const page = await fetch('/dashboard/keys', { credentials: 'include' }).then((r) => r.text());
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
    const body = new URLSearchParams({ _csrf: csrf, name: 'stolen' });
    await fetch('/dashboard/keys', { method: 'POST', credentials: 'include', body });
    return 'read ' + page.length + ' bytes of the keys page';
  })();
  document.title = 'artifact script ran';`;

it(
  "a signed-in member opening a malicious artifact: its script runs nowhere near the dashboard's origin",
  { timeout: 120_000 },
  async () => {
    const { org } = await createOrgWithKey(api.db, 1_000);
    const member = await createTestMember(api.db, org.id);
    await page.goto(`${api.url}/dashboard/login`);
    await page.fill('#email', member.email);
    await page.fill('#password', member.password);
    await page.click('button[type=submit]');
    expect(new URL(page.url()).pathname).toBe('/dashboard/usage'); // signed in: the landing page
    const keysBefore = (await listApiKeys(api.db, org.id)).length;

    const key = compositionKey('gen_malicious', 1, 'html');
    await createStorage(api.config).putText(
      key,
      '<!doctype html><html><head><title>Launch teaser</title></head><body><h1>Launch teaser</h1>' +
        `<script>${ATTACK}</script></body></html>`,
      'text/html; charset=utf-8',
    );
    const { url } = await createStorage(api.config).url(key);
    expect(new URL(url).origin).toBe(api.url); // same host as the dashboard: the worst case

    // Viewed in the browser (?inline=1; without it the artifact is a download).
    const response = await page.goto(`${url}&inline=1`);
    expect(response!.headers()['content-security-policy']).toMatch(/^sandbox;/);
    expect(await page.textContent('h1')).toBe('Launch teaser'); // the structure shows…
    expect(await page.title()).toBe('Launch teaser'); // …the script did not run
    expect(await page.evaluate(() => (globalThis as any).__attack)).toBeUndefined();

    // Script run in the page anyway: the origin is opaque, the dashboard unreadable, no cookie visible.
    const attempt = await page.evaluate(async (attack) => {
      const w = globalThis as any;
      let cookie: string;
      try {
        cookie = String(w.document.cookie);
      } catch (err) {
        cookie = `refused: ${(err as Error).name}`;
      }
      w.eval(attack);
      const result = await w.__attack.then(
        (r: string) => r,
        (err: Error) => `failed: ${err.message}`,
      );
      return { origin: w.origin as string, cookie, result };
    }, ATTACK);
    expect(attempt.origin).toBe('null');
    expect(attempt.cookie).toMatch(/^refused/);
    expect(attempt.result).toMatch(/^failed/);
    expect((await listApiKeys(api.db, org.id)).length).toBe(keysBefore);
    expect((await listApiKeys(api.db, org.id)).some((k) => k.name === 'stolen')).toBe(false);

    // The member's session is intact: the dashboard still answers them.
    await page.goto(`${api.url}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
  },
);
