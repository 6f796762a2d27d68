// The dashboard in a real browser (Chromium headless shell via playwright-core) on the real stack:
// sign in, create a key and use it over HTTP, choose webhook event types and see the next
// generation's deliveries follow them (HTTPS receiver of the webhook tests), watch the generation's
// video, revoke the key and see the API refuse it. Screenshots go to test-results/dashboard/.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getWebhookSettings } from '../../src/db/webhooks.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';
import { launchTestBrowser } from '../support/browser.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import {
  makeSelfSignedCert,
  startReceiver,
  verifyDelivery,
  type Receiver,
  type TlsFiles,
} from '../webhooks/support/receiver.js';
import { createTestMember } from './support.js';

const SCREENSHOTS = path.resolve('test-results/dashboard');
const TEMPORAL_UI = 'http://temporal-ui.test:8233';

let cert: TlsFiles;
let receiver: Receiver;
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  [stack, browser] = await Promise.all([
    startStack({
      OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
      OUTBOUND_UNSAFE_CA_FILE: cert.certFile,
      TEMPORAL_UI_URL: TEMPORAL_UI,
    }),
    launchTestBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept()); // the confirmations of revoke and delete
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await receiver?.close();
  if (cert) fs.rmSync(cert.dir, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

it('a member manages keys and webhooks, and watches a generation, in the browser', async () => {
  const { org } = await createOrgWithKey(stack.db, 5_000);
  const member = await createTestMember(stack.db, org.id);

  // Sign in: the dashboard sends us to the sign-in page first, then back.
  await page.goto(`${stack.url}/dashboard/keys`);
  expect(new URL(page.url()).pathname).toBe('/dashboard/login');
  await page.fill('#email', member.email);
  await page.fill('#password', member.password);
  await shot('01-sign-in');
  await page.click('button[type=submit]');
  expect(new URL(page.url()).pathname).toBe('/dashboard/keys');

  // Create a key: shown once, copyable, and it works against the API.
  await page.fill('#key-name', 'browser test key');
  await page.click('form[action="/dashboard/keys"] button[type=submit]');
  const key = (await page.textContent('#new-key'))!.trim();
  expect(key).toMatch(/^vg_[0-9a-f]{64}$/);
  await page.click('button[data-copy="new-key"]');
  // (Page functions run in the browser; this project compiles without DOM types, hence `any`.)
  expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(key);
  await shot('02-keys-new-key');
  expect((await api(stack.url, '/v1/usage', { key })).status).toBe(200);
  await page.goto(`${stack.url}/dashboard/keys`);
  expect(await page.content()).not.toContain(key); // never shown again

  // Webhooks: deliver `started` only, and reveal the secret.
  await page.click('nav >> text=Webhooks');
  await page.check('input[value="video.generation.started"]');
  await page.uncheck('input[value="video.generation.completed"]');
  await page.click('form[action="/dashboard/webhooks/events"] button[type=submit]');
  await expect.poll(() => page.textContent('.notice')).toContain('Event types saved');
  expect((await getWebhookSettings(stack.db, org.id))!.enabled_events).toEqual(['video.generation.started']);
  await page.click('#reveal-secret');
  const secret = (await page.textContent('#signing-secret'))!.trim();
  expect(secret).toBe((await getWebhookSettings(stack.db, org.id))!.signing_secret);
  await shot('03-webhooks-settings');

  // The next generation's deliveries follow the toggles: one `started` event, nothing else.
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: {
      model: 'gpt-4o-mini',
      engine: 'lottie',
      input: 'A small bouncing ball',
      width: 160,
      height: 284,
      webhook_url: receiver.url('/dashboard-e2e'),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const generationId: string = created.body.id;
  expect((await waitForTerminal(stack.url, key, generationId, 120_000)).body.status).toBe('completed');
  const [delivery] = await receiver.waitFor(1, '/dashboard-e2e');
  expect((verifyDelivery(secret, delivery!) as WebhookEvent).type).toBe('video.generation.started');
  await new Promise((r) => setTimeout(r, 1500));
  expect(receiver.requests.filter((r) => r.path === '/dashboard-e2e')).toHaveLength(1);

  // …and the deliveries table shows it with its attempt.
  const row = page.locator('#deliveries tr[data-event-type="video.generation.started"]');
  await expect
    .poll(async () => {
      await page.goto(`${stack.url}/dashboard/webhooks`);
      return row.locator('li[data-status-code="200"]').count();
    })
    .toBe(1);
  expect(await page.locator('#deliveries tbody tr').count()).toBe(1);
  await shot('04-webhooks-deliveries');

  // Usage: balance, chart, routes and the recent generation with its video.
  await page.click('nav >> text=Usage');
  expect(await page.textContent('#credit-balance')).toMatch(/^\$\d/);
  expect(await page.locator('svg.chart rect.bar').count()).toBe(30);
  expect(await page.textContent('#routes tbody')).toContain('lottie');
  const recent = page.locator(`#recent tr[data-generation-id="${generationId}"]`);
  expect(await recent.locator('.badge').textContent()).toBe('completed');
  expect(await recent.locator('a.prompt').textContent()).toBe('A small bouncing ball');
  expect(await recent.locator('img').count()).toBe(1); // its poster
  await shot('05-usage');

  // The generation's page: Temporal UI link for operators, and the video plays.
  await recent.locator('a.prompt').click();
  expect(await page.getAttribute('#temporal-link', 'href')).toBe(
    `${TEMPORAL_UI}/namespaces/${stack.namespace}/workflows/${generationId}`,
  );
  const played = await page.locator('#generation-video').evaluate(async (video: any) => {
    await video.play();
    const deadline = Date.now() + 10_000;
    while ((video.readyState < 2 || video.currentTime === 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    video.pause();
    return { readyState: video.readyState, currentTime: video.currentTime, error: video.error?.message ?? null };
  });
  expect(played.error).toBeNull();
  expect(played.readyState).toBeGreaterThanOrEqual(2);
  expect(played.currentTime).toBeGreaterThan(0);
  await shot('06-generation');

  // Revoke the key (confirmed in a dialog): the API answers 401. Then delete it: gone from the list.
  await page.click('nav >> text=API keys');
  const keyRow = page.locator('tr', { hasText: 'browser test key' });
  await keyRow.locator('button', { hasText: 'Revoke' }).click();
  await expect.poll(() => page.textContent('.notice')).toContain('The key was revoked.');
  expect(await keyRow.locator('.badge').textContent()).toBe('revoked');
  expect((await api(stack.url, '/v1/usage', { key })).status).toBe(401);
  await shot('07-keys-revoked');
  await keyRow.locator('button', { hasText: 'Delete' }).click();
  await expect.poll(() => page.textContent('.notice')).toContain('The key was deleted.');
  expect(await keyRow.count()).toBe(0);

  // Sign out.
  await page.click('.who button');
  expect(new URL(page.url()).pathname).toBe('/dashboard/login');
  expect(await page.textContent('.notice')).toContain('You are signed out.');
  await page.goto(`${stack.url}/dashboard/usage`);
  expect(new URL(page.url()).pathname).toBe('/dashboard/login');
}, 170_000);

it(
  'a generation in flight shows its stage and a rising progress bar live, then the player with a poster; ' +
    'the list shows its prompt and thumbnail',
  async () => {
    const { org, key } = await createOrgWithKey(stack.db, 5_000);
    const member = await createTestMember(stack.db, org.id);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    const shoot = (name: string) => tab.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    try {
      await tab.goto(`${stack.url}/dashboard/login`);
      await tab.fill('#email', member.email);
      await tab.fill('#password', member.password);
      await tab.click('button[type=submit]');
      expect(new URL(tab.url()).pathname).toBe('/dashboard/usage');

      // A HyperFrames render of a few seconds: long enough to show progress.
      const created = await api(stack.url, '/v1/responses', {
        method: 'POST',
        key,
        json: {
          model: 'gpt-4o-mini',
          engine: 'hyperframes',
          input: 'A rocket launch countdown\nthe crowd cheers at liftoff',
          width: 270,
          height: 480,
          duration_seconds: 4,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id: string = created.body.id;
      await tab.goto(`${stack.url}/dashboard/generations/${id}`);
      expect(await tab.locator('#generation-live').count()).toBe(1);
      expect(await tab.locator('#generation-video').count()).toBe(0);
      expect(await tab.textContent('#generation-prompt')).toBe('A rocket launch countdown');

      // In the page: record every value of the bar and every stage shown, until the page is left (it must not be).
      await tab.evaluate(() => {
        const w = globalThis as any;
        w.seen = { values: [] as Array<number | null>, stages: [] as string[] };
        const record = () => {
          const bar = w.document.getElementById('generation-progress');
          const stage = w.document.getElementById('generation-stage');
          if (!bar || !stage) return;
          const value = bar.position < 0 ? null : bar.value; // position -1: indeterminate
          if (w.seen.values.at(-1) !== value) w.seen.values.push(value);
          if (w.seen.stages.at(-1) !== stage.textContent) w.seen.stages.push(stage.textContent);
        };
        record();
        w.setInterval(record, 20);
      });
      await tab.waitForFunction(
        () => {
          const values = ((globalThis as any).seen.values as Array<number | null>).filter(
            (v) => v !== null,
          ) as number[];
          return values.some((v, i) => i > 0 && v > values[i - 1]!);
        },
        undefined,
        { polling: 50, timeout: 120_000 },
      );
      await tab.waitForFunction(
        () =>
          /^Rendering frame/.test((globalThis as any).document.getElementById('generation-stage')?.textContent ?? ''),
        undefined,
        {
          polling: 50,
          timeout: 120_000,
        },
      );
      await shoot('08-generation-in-flight');

      // The end: the player with its poster replaces the progress, on the same page (no navigation).
      await tab.waitForSelector('#generation-video[poster]', { timeout: 120_000 });
      const seen = await tab.evaluate(
        () => (globalThis as any).seen as { values: Array<number | null>; stages: string[] },
      );
      expect(
        seen.stages.some((s) => /^Rendering frame \d+ of 120(, (about \d+ s left|almost done))?$/.test(s)),
        seen.stages.join(' | '),
      ).toBe(true);
      const values = seen.values.filter((v): v is number => v !== null);
      expect(
        values.every((v, i) => i === 0 || v >= values[i - 1]!),
        values.join(' '),
      ).toBe(true);
      expect(await tab.locator('#generation-live').count()).toBe(0);
      expect(await tab.textContent('#generation-status')).toBe('completed');
      const poster = (await tab.getAttribute('#generation-video', 'poster'))!;
      const image = await tab.evaluate(async (src) => {
        const img = new (globalThis as any).Image();
        img.src = src;
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight };
      }, poster);
      expect(image).toEqual({ width: 270, height: 480 });
      const posterRes = await fetch(poster);
      expect(posterRes.headers.get('content-type')).toBe('image/jpeg');
      const meta = await tab.locator('#generation-video').evaluate(async (video: any) => {
        const deadline = Date.now() + 10_000;
        while (video.readyState < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        return { readyState: video.readyState, duration: video.duration, error: video.error?.message ?? null };
      });
      expect(meta.error).toBeNull();
      expect(meta.duration).toBeCloseTo(4, 0);
      // The details were refreshed in place too.
      await expect.poll(() => tab.textContent('#generation-details')).toMatch(/Finished\d{4}-\d\d-\d\d/);
      expect(await tab.evaluate(() => (globalThis as any).seen !== undefined)).toBe(true); // still the same document
      await shoot('09-generation-done');

      // The list: the prompt's first line and the poster as a lazy thumbnail in the video's proportions.
      await tab.click('nav >> text=Usage');
      const row = tab.locator(`#recent tr[data-generation-id="${id}"]`);
      expect(await row.locator('a.prompt').textContent()).toBe('A rocket launch countdown');
      const thumb = row.locator('img');
      expect(await thumb.getAttribute('loading')).toBe('lazy');
      expect([await thumb.getAttribute('width'), await thumb.getAttribute('height')]).toEqual(['54', '96']);
      await thumb.scrollIntoViewIfNeeded();
      await expect.poll(() => thumb.evaluate((img: any) => (img.complete ? img.naturalWidth : 0))).toBe(270);
      await shoot('10-usage-thumbnails');
    } finally {
      await context.close();
    }
  },
  170_000,
);
