// The Brand page in a real browser (Chromium headless shell via playwright-core) on the real stack: a
// member sets the kit (colours, type style, a logo upload) and sees the contrast check (a warning below
// WCAG AA 4.5:1, live as colours are typed and on the saved kit), bad input is refused naming the field, a key created
// with the brand right may PUT it; then a prompt generation's frames take the kit's background and its closing scene
// shows the uploaded logo, while `brand: false` does neither. Screenshots go to test-results/brand/.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchTestBrowser } from '../support/browser.js';
import { imageColourShares, twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { createTestMember } from '../dashboard/support.js';
import { distance, dominantColour, frameRgb, withVideo } from './support.js';

const SCREENSHOTS = path.resolve('test-results/brand');
const RENDER_WAIT_MS = 240_000;
const SECONDS = 4;

let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [stack, browser] = await Promise.all([startStack(), launchTestBrowser()]);
  page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function fillKit(kit: { background: string; text: string; accent: string; font: string }) {
  await page.fill('#colour-background', kit.background);
  await page.fill('#colour-text', kit.text);
  await page.fill('#colour-accent', kit.accent);
  await page.selectOption('#font', kit.font);
}
const save = () => page.click('#brand-form button[type=submit]');

async function generate(key: string, brand?: false): Promise<string> {
  const json = {
    model: 'gpt-4o-mini',
    engine: 'lottie',
    width: 320,
    height: 180,
    duration_seconds: SECONDS,
    provider: { order: ['local'] },
    input: 'Minimal launch video for Nimbus. Try it free at nimbus.app',
    ...(brand === false && { brand }),
  };
  const created = await api(stack.url, '/v1/responses', { method: 'POST', key, json });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = await waitForTerminal(stack.url, key, created.body.id, RENDER_WAIT_MS);
  expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
  return done.body.output_video_url;
}

it(
  'a member sets the brand kit in the browser; the next video uses it, brand:false does not',
  { timeout: 3 * RENDER_WAIT_MS },
  async () => {
    const { org, key } = await createOrgWithKey(stack.db, 5_000);
    const member = await createTestMember(stack.db, org.id);
    await page.goto(`${stack.url}/dashboard/brand`);
    await page.fill('#email', member.email);
    await page.fill('#password', member.password);
    await page.click('button[type=submit]');
    expect(new URL(page.url()).pathname).toBe('/dashboard/brand');
    expect(await page.textContent('nav [aria-current="page"]')).toBe('Brand');
    expect(await page.textContent('#contrast')).toContain('Set a background and a text colour');

    // A pair below 4.5:1 is saved, with a visible warning.
    await fillKit({ background: '#ffffff', text: '#aaaaaa', accent: '#1f4fd8', font: 'sans' });
    // Checked as the colours are typed, before saving (the page's script)…
    expect(await page.textContent('#contrast-live')).toContain(
      'Low contrast: text on background is 2.32:1, below WCAG AA 4.5:1',
    );
    await save();
    // …and by the server once saved.
    await expect.poll(() => page.textContent('.notice.ok')).toContain('Brand kit saved');
    const warning = page.locator('#contrast-warning');
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.textContent()).toMatch(/2\.3\d:1.*below WCAG AA 4\.5:1/);
    await shot('01-low-contrast-warning');

    // Bad input is refused naming the field (the browser's own pattern check taken away first).
    await page.$eval('#colour-background', (el: any) => el.removeAttribute('pattern'));
    await page.fill('#colour-background', 'navy');
    await save();
    expect(await page.textContent('.notice.error')).toContain('Background: write the colour as #rrggbb');
    expect(await page.inputValue('#colour-background')).toBe('navy'); // what was typed stays in the form
    await page.fill('#colour-background', '#ffffff');
    await page.setInputFiles('#logo', {
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await save();
    expect(await page.textContent('.notice.error')).toContain(
      'Logo: the file does not hold a PNG, JPEG, GIF or WebP image',
    );

    // The kit: colours, serif, the logo uploaded, shown on the closing scene.
    const kit = { background: '#f2c230', text: '#1a1a1a', accent: '#1f4fd8', font: 'serif' };
    await fillKit(kit);
    await page.setInputFiles('#logo', { name: 'logo.png', mimeType: 'image/png', buffer: twoColourImage(160, 80) });
    await page.check('#logo-on-closing');
    await save();
    await expect.poll(() => page.textContent('.notice.ok')).toContain('Brand kit saved');
    expect(await page.locator('#contrast-warning').count()).toBe(0);
    expect(await page.textContent('#contrast')).toMatch(/10\.\d\d:1, meets WCAG AA/);
    // The stored logo loads on the page (its signed URL's origin is allowed by the page's CSP).
    await expect.poll(() => page.$eval('#current-logo', (img: any) => img.naturalWidth)).toBe(160);
    await shot('02-brand-kit-saved');

    // The API shows what the page set; a key created with the brand right may change it, others not.
    const read = await api(stack.url, '/v1/brand', { key });
    expect(read.body).toMatchObject({
      colors: { background: kit.background, text: kit.text, accent: kit.accent },
      font: 'serif',
      logo: { width: 160, height: 80 },
      logo_on_closing: true,
      contrast: { meets_wcag_aa: true },
    });
    expect((await api(stack.url, '/v1/brand', { method: 'PUT', key, json: { font: 'mono' } })).status).toBe(403);
    await page.click('nav >> text=API keys');
    await page.fill('#key-name', 'brand pipeline');
    await page.check('#key-manage-brand');
    await page.click('form[action="/dashboard/keys"] button[type=submit]');
    const manager = (await page.textContent('#new-key'))!.trim();
    expect(await page.textContent('table')).toContain('videos, brand kit');
    const kept = { colors: read.body.colors, font: 'serif', logo_on_closing: true }; // logo absent: kept
    expect((await api(stack.url, '/v1/brand', { method: 'PUT', key: manager, json: kept })).status).toBe(200);

    // The next prompt generation uses the kit: its background, the logo on the closing scene only.
    const [branded, plain] = await Promise.all([generate(key), generate(key, false)]);
    await withVideo(branded, async (file) => {
      const middle = dominantColour(await frameRgb(file, 1));
      expect(distance(middle.colour, kit.background), JSON.stringify(middle)).toBeLessThanOrEqual(12);
      const closing = await imageColourShares(file, SECONDS - 0.1);
      expect(closing.magenta, JSON.stringify(closing)).toBeGreaterThan(0.004);
      expect(closing.green, JSON.stringify(closing)).toBeGreaterThan(0.004);
      const opening = await imageColourShares(file, 0.5);
      expect(opening.magenta + opening.green).toBeLessThan(0.001);
    });
    await withVideo(plain, async (file) => {
      const middle = dominantColour(await frameRgb(file, 1));
      expect(distance(middle.colour, kit.background), JSON.stringify(middle)).toBeGreaterThan(40);
      const closing = await imageColourShares(file, SECONDS - 0.1);
      expect(closing.magenta + closing.green, JSON.stringify(closing)).toBeLessThan(0.001);
    });
  },
);
