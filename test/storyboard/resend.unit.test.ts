// The edit loop's promise, on both engines: a storyboard the embedded composer planned, sent back
// unchanged, is drawn into the byte-identical composition. Each side is what its activity stores: the
// planned composition as the `local` provider's call returns it (writeComposition), the storyboard
// request's as the worker threads draw it (drawStoryboardOffThread), in the same brand.
import { afterAll, describe, expect, it } from 'vitest';
import { writeComposition, type CallEnv } from '../../src/providers/index.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import type { BrandSnapshot, MediaAsset } from '../../src/shared.js';
import { closeThreads, drawStoryboardOffThread } from '../../src/threads/pool.js';
import { generationRequest } from '../support/fixtures.js';

const env: CallEnv = {
  registry: ProviderRegistry.parse({ providers: { local: { protocol: 'local' } } }),
  secret: () => undefined,
  signal: new AbortController().signal,
};
const logo: MediaAsset = {
  name: 'brand-logo.png',
  kind: 'image',
  mediaType: 'image/png',
  bytes: 1200,
  width: 160,
  height: 80,
  durationSeconds: null,
};
const brand: BrandSnapshot = {
  colors: { background: '#101820', text: '#f2f2f2', accent: '#f2aa4c' },
  font: null,
  logo,
  logo_on_closing: true,
};
const prompt =
  'Nimbus, the calm calendar. Over 12,000 teams use it every day. 1. Sign up 2. Invite your team 3. Relax. ' +
  'Sign up at nimbus.app';

afterAll(() => closeThreads());

describe('a planned storyboard sent back unchanged', () => {
  for (const engine of ['hyperframes', 'lottie']) {
    it(`draws the byte-identical composition on ${engine}`, async () => {
      const request = generationRequest(engine, 'gpt-4o-mini', {
        content: [{ type: 'text', text: prompt }],
        width: 180,
        height: 320,
        brand,
      });
      const planned = await writeComposition(env, {
        provider: 'local',
        request,
        expandedPrompt: null,
        repair: null,
        assets: [logo],
      });
      expect(planned.storyboard).toBeTruthy();
      // As a client sends it back: the JSON it downloaded, parsed and written again.
      const resent = JSON.stringify(JSON.parse(planned.storyboard!));
      const drawn = await drawStoryboardOffThread(engine, resent, { width: 180, height: 320, assets: [logo] }, brand);
      expect(
        Buffer.from(drawn.source).equals(Buffer.from(planned.source)),
        `${engine}: ${JSON.stringify(drawn.source.slice(-20))} vs ${JSON.stringify(planned.source.slice(-20))}`,
      ).toBe(true);
    });
  }
});
