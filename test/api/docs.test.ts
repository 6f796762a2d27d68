// /docs in a real browser (playwright-core + Chromium headless shell) with every request off this
// origin blocked: the reference (Redoc, bundled from npm and served by the API) renders the operation
// list and the examples, so it needs no CDN. Screenshot: test-results/docs/reference.png.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchTestBrowser } from '../support/browser.js';
import { startApi, type TestApi } from '../support/stack.js';

const SCREENSHOTS = path.resolve('test-results/docs');
let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([startApi(), launchTestBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

it(
  'renders the reference with its operations and curl examples, with the network beyond this origin blocked',
  { timeout: 120_000 },
  async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(api.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${api.url}/docs`);
    // The operation list (menu) and an operation's curl sample and request example.
    await page.locator('h2', { hasText: 'Create a generation (Responses shape)' }).first().waitFor({ timeout: 60_000 });
    for (const summary of [
      'Retrieve a generation (poll every 2–5 s until terminal, or stream)',
      'Cancel an in-flight generation',
      'Public catalog of engines and orchestration models with token pricing',
    ]) {
      expect(await page.getByText(summary).count()).toBeGreaterThan(0);
    }
    const text = await page.locator('body').innerText();
    // Request samples: a curl command (the creates show their JSON payload first, curl in the next tab).
    expect(text).toMatch(/curl http:\/\/\S+\/v1\/responses \\\n\s+-H "Authorization: Bearer \$VIDEO_API_KEY"/);
    expect(text).toContain('Idempotency-Key');
    expect(text).toContain('A 6-second launch teaser for Nimbus');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reference.png') });
    // Response samples for the error statuses too (one tab per status), and the webhooks with their headers.
    expect(text).toContain('Response samples');
    const create = page.locator('[id="tag/Responses/operation/createResponse"]');
    for (const status of ['200', '400', '401', '402', '409', '429'])
      await expect.poll(() => create.getByRole('tab', { name: status, exact: true }).count()).toBeGreaterThan(0);
    await create.getByRole('tab', { name: '402', exact: true }).click();
    expect(await create.innerText()).toContain('insufficient_credits');
    await create
      .getByRole('tab', { name: '402', exact: true })
      .screenshot({ path: path.join(SCREENSHOTS, 'response-sample-tab.png') });
    const webhook = page.locator('[id="tag/Webhooks/operation/videoGenerationCompleted"]');
    await webhook.scrollIntoViewIfNeeded();
    const webhookText = await webhook.innerText();
    for (const header of ['service-webhook-id', 'service-webhook-timestamp', 'service-webhook-signature'])
      expect(webhookText).toContain(header);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'webhook.png') });
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  },
);
