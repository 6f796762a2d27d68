// Brand kits applied to real renders (API over HTTP, Temporal, a worker process, PostgreSQL, both
// engines, small canvases): a prompt generation's frames take the kit's background colour and its
// closing scene shows the logo; `brand: false` does neither; a request override wins over the kit; a
// generation keeps the kit it was created with; a storyboard request takes the kit too. With
// BRAND_CONTACT_SHEETS=<dir>, each video's contact sheet is written there (the README's pictures of
// one prompt with two kits).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/db/apiKeys.js';
import { imageColourShares, twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { contactSheet, distance, dominantColour, frameRgb, withVideo } from './support.js';

const RENDER_WAIT_MS = 240_000;
const SECONDS = 4;
const PROMPT = 'Minimal launch video for Nimbus. Offline sync is here. Try it free at nimbus.app';
const KITS = {
  amber: { colors: { background: '#f2c230', text: '#1a1a1a', accent: '#1f4fd8' }, font: 'serif' },
  navy: { colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' }, font: 'mono' },
} as const;

let stack: TestStack;
let key: string;
let manager: string;
const logo = twoColourImage(160, 80);
const sheets = process.env.BRAND_CONTACT_SHEETS;

beforeAll(async () => {
  stack = await startStack();
  const created = await createOrgWithKey(stack.db);
  key = created.key;
  manager = (await createApiKey(stack.db, created.org.id, 'brand', { manageBrand: true })).key;
});
afterAll(() => stack?.close());

const setKit = async (kit: (typeof KITS)[keyof typeof KITS]) => {
  const res = await api(stack.url, '/v1/brand', {
    method: 'PUT',
    key: manager,
    json: { ...kit, logo: `data:image/png;base64,${logo.toString('base64')}`, logo_on_closing: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** Creates a prompt generation (Responses or Chat shape) and waits for its video. */
async function render(
  engine: string,
  brand?: unknown,
  shape: 'responses' | 'chat' = 'responses',
): Promise<{ id: string; video: string }> {
  const common = {
    model: 'gpt-4o-mini',
    engine,
    width: 320,
    height: 180,
    duration_seconds: SECONDS,
    provider: { order: ['local'] },
    ...(brand !== undefined && { brand }),
  };
  const path = shape === 'responses' ? '/v1/responses' : '/v1/chat/completions';
  const json =
    shape === 'responses' ? { ...common, input: PROMPT } : { ...common, messages: [{ role: 'user', content: PROMPT }] };
  const created = await api(stack.url, path, { method: 'POST', key, json });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = await waitForTerminal(stack.url, key, created.body.id, RENDER_WAIT_MS, path);
  expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
  return {
    id: created.body.id,
    video: shape === 'responses' ? done.body.output_video_url : done.body.choices[0].message.video_url.url,
  };
}

/** A storyboard request (nothing planned): the kit applies to it as to the embedded composer's plan. */
async function renderStoryboard(engine: string): Promise<string> {
  const storyboard = {
    scenes: [
      { kind: 'title', title: 'Nimbus', seconds: SECONDS / 2 },
      { kind: 'cta', text: 'Try it free', link: 'nimbus.app', seconds: SECONDS / 2 },
    ],
  };
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', engine, width: 320, height: 180, storyboard },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = await waitForTerminal(stack.url, key, created.body.id, RENDER_WAIT_MS);
  expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
  return done.body.output_video_url;
}

/**
 * What the video shows: its dominant colour mid-way and at the end, and the logo's share of the first and last frames.
 */
async function look(video: string, sheet?: string) {
  return withVideo(video, async (file) => {
    if (sheets && sheet) await contactSheet(file, path.join(sheets, `${sheet}.png`), SECONDS);
    return {
      middle: dominantColour(await frameRgb(file, 1)),
      end: dominantColour(await frameRgb(file, SECONDS - 0.1)),
      logoStart: await imageColourShares(file, 0.5),
      logoEnd: await imageColourShares(file, SECONDS - 0.1),
    };
  });
}

const logoShown = (s: { magenta: number; green: number }) => s.magenta > 0.004 && s.green > 0.004;

describe.each(['lottie', 'hyperframes'])('brand kit on %s', (engine) => {
  it(
    'the kit colours the frames and the closing scene shows the logo; brand:false and overrides change that',
    { timeout: 4 * RENDER_WAIT_MS },
    async () => {
      if (sheets) fs.mkdirSync(sheets, { recursive: true });
      await setKit(KITS.amber);
      const branded = await render(engine, undefined, 'responses');
      const optedOut = await render(engine, false, 'chat');
      const overridden = await render(engine, { colors: { background: '#0e6b4f' }, logo_on_closing: false }, 'chat');
      await setKit(KITS.navy);
      const navy = await render(engine);
      const navyStoryboard = await renderStoryboard(engine);

      const a = await look(branded.video, `${engine}-amber`);
      expect(distance(a.middle.colour, KITS.amber.colors.background), JSON.stringify(a)).toBeLessThanOrEqual(12);
      expect(a.middle.share).toBeGreaterThan(0.4);
      expect(distance(a.end.colour, KITS.amber.colors.background)).toBeLessThanOrEqual(12);
      expect(logoShown(a.logoEnd), JSON.stringify(a.logoEnd)).toBe(true);
      expect(a.logoStart.magenta + a.logoStart.green, 'the logo is on the closing scene only').toBeLessThan(0.001);

      const n = await look(navy.video, `${engine}-navy`);
      expect(distance(n.middle.colour, KITS.navy.colors.background), JSON.stringify(n)).toBeLessThanOrEqual(12);
      expect(logoShown(n.logoEnd), JSON.stringify(n.logoEnd)).toBe(true);

      const sb = await look(navyStoryboard);
      expect(distance(sb.middle.colour, KITS.navy.colors.background), JSON.stringify(sb)).toBeLessThanOrEqual(12);
      expect(logoShown(sb.logoEnd), JSON.stringify(sb.logoEnd)).toBe(true);

      const o = await look(optedOut.video);
      expect(distance(o.middle.colour, KITS.amber.colors.background), JSON.stringify(o)).toBeGreaterThan(40);
      expect(o.logoEnd.magenta + o.logoEnd.green, 'brand:false shows no logo').toBeLessThan(0.001);

      const v = await look(overridden.video);
      // Dark colours move most through YUV 4:2:0 and the 8-step bins: a wider margin, still far from the kit's.
      expect(distance(v.middle.colour, '#0e6b4f'), JSON.stringify(v)).toBeLessThanOrEqual(20);
      expect(v.logoEnd.magenta + v.logoEnd.green, 'logo_on_closing: false').toBeLessThan(0.001);

      // Each generation keeps the kit it was created with: stored with its request.
      const { rows } = await stack.db.query('SELECT id, request FROM generations WHERE id = ANY($1)', [
        [branded.id, optedOut.id, navy.id],
      ]);
      const requestOf = (id: string) => rows.find((r) => r.id === id)!.request;
      expect(requestOf(branded.id).brand).toMatchObject({
        colors: KITS.amber.colors,
        font: 'serif',
        logo: { name: 'brand-logo.png', width: 160, height: 80 },
        logo_on_closing: true,
      });
      expect(requestOf(navy.id).brand.colors).toEqual(KITS.navy.colors);
      expect(requestOf(optedOut.id).brand).toBeNull();
    },
  );
});
