// An LLM provider gets the organization's brand kit (real stack: API, Temporal, a worker process, a
// fake OpenAI-protocol server, a real render): the kit's colours, type style and logo by its assets/
// path are constraints in the system prompts of the expansion and composition calls, the logo is
// listed with the media, and a composition that uses assets/brand-logo.png validates and renders it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../../src/db/apiKeys.js';
import { getEngine } from '../../src/engines/index.js';
import type { BrandSnapshot, MediaAsset } from '../../src/shared.js';
import { imageColourShares, twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { FakeLlm, fenced, messageTexts, systemPrompt } from '../providers/support/fakeLlm.js';
import { withVideo } from './support.js';

const llm = new FakeLlm('openai', 'sk-brand');
let stack: TestStack;
let dir: string;
let key: string;
const logoPng = twoColourImage(160, 80);

beforeAll(async () => {
  await llm.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brand-llm-'));
  const file = path.join(dir, 'providers.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      providers: {
        fake: {
          protocol: 'openai',
          base_url: llm.baseUrl,
          api_key_env: 'FAKE_BRAND_KEY',
          timeout_seconds: 20,
          models: { 'gpt-4o-mini': 'fake-mini' },
        },
      },
    }),
  );
  stack = await startStack({ PROVIDERS_FILE: file, FAKE_BRAND_KEY: llm.apiKey });
  const created = await createOrgWithKey(stack.db);
  key = created.key;
  const manager = (await createApiKey(stack.db, created.org.id, 'brand', { manageBrand: true })).key;
  const kit = {
    colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
    font: 'mono',
    logo: `data:image/png;base64,${logoPng.toString('base64')}`,
    logo_on_closing: true,
  };
  expect((await api(stack.url, '/v1/brand', { method: 'PUT', key: manager, json: kit })).status).toBe(200);
});

afterAll(async () => {
  await stack?.close();
  await llm.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('the provider is told the kit and may use the logo; the video shows it', { timeout: 300_000 }, async () => {
  // What a model following the guide writes: here the offline composer's own composition with the kit.
  const logo: MediaAsset = {
    name: 'brand-logo.png',
    kind: 'image',
    mediaType: 'image/png',
    bytes: logoPng.length,
    width: 160,
    height: 80,
    durationSeconds: null,
  };
  const brand: BrandSnapshot = {
    colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
    font: 'mono',
    logo,
    logo_on_closing: true,
  };
  const prompt = 'Nimbus ships offline sync. Try it free at nimbus.app';
  const composition = getEngine('lottie').composeOffline({
    prompt,
    instructions: null,
    durationSeconds: 4,
    assets: [logo],
    brand,
    width: 320,
    height: 180,
  });
  expect(composition).toContain('"p":"brand-logo.png"');
  llm.script(
    { reply: 'A launch teaser in the brand colours, logo on the closing scene.', usage: { input: 900, output: 40 } },
    { reply: fenced(composition, 'json'), usage: { input: 5_000, output: 9_000 } },
  );

  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: {
      model: 'gpt-4o-mini',
      engine: 'lottie',
      width: 320,
      height: 180,
      duration_seconds: 4,
      expand_prompt: true,
      provider: { order: ['fake'] },
      input: prompt,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = await waitForTerminal(stack.url, key, created.body.id, 240_000);
  expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
  expect(done.body.provider).toBe('fake');

  expect(llm.requests).toHaveLength(2);
  for (const request of llm.requests) {
    const system = systemPrompt(request.body);
    expect(system).toContain("## Brand (the organization's brand kit: follow it unless the request says otherwise)");
    expect(system).toContain('- Background colour: #0b1f3a (fill the whole canvas with it).');
    expect(system).toContain('- Text colour: #ffffff.');
    expect(system).toContain('- Accent colour: #ff7a1a (highlights, shapes, buttons).');
    expect(system).toContain('- Type: a monospace face (mono) for all text.');
    expect(system).toContain(
      '- Logo: assets/brand-logo.png (160×80); show it, whole and undistorted, on the closing scene.',
    );
    expect(messageTexts(request.body).join('\n')).toContain('- assets/brand-logo.png — image/png, 160×80');
  }
  await withVideo(done.body.output_video_url, async (file) => {
    const closing = await imageColourShares(file, 3.9);
    expect(closing.magenta, JSON.stringify(closing)).toBeGreaterThan(0.004);
    expect(closing.green, JSON.stringify(closing)).toBeGreaterThan(0.004);
  });
});
