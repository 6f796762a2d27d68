// The credit hold's worst case (src/credits/hold.ts): every call the workflow can make, each at its
// largest. Checked against the calls themselves: outputs are the providers' max_output_tokens per
// call, and each input term grows the hold by exactly what it adds to every call that carries it.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.js';
import { holdMicros, holdTokens, MEDIA_PART_TOKENS, REPAIR_FINDINGS_TOKENS } from '../../src/credits/hold.js';
import { brandGuide } from '../../src/providers/prompts.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { countTokens } from '../../src/text/tokens.js';
import { generationRequest } from '../support/fixtures.js';

const registry = ProviderRegistry.parse({
  providers: {
    big: {
      protocol: 'openai',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'BIG_KEY',
      max_output_tokens: 16_000,
      models: { 'gpt-4o-mini': 'm' },
    },
    small: {
      protocol: 'openai',
      base_url: 'http://127.0.0.1:2/v1',
      max_output_tokens: 1_000,
      models: { 'gpt-4o-mini': 'm' },
    },
    other: { protocol: 'openai', base_url: 'http://127.0.0.1:3/v1', models: { 'gpt-4.1': 'm' } },
  },
});
const withKey = (name: string) => (name === 'BIG_KEY' ? 'x' : undefined);
const noKey = () => undefined;
const request = (overrides: Parameters<typeof generationRequest>[2] = {}) =>
  generationRequest('lottie', 'gpt-4o-mini', { provider_order: ['big', 'small', 'other'], ...overrides });

describe('credit hold', () => {
  it('counts each usable provider: a first draft and every repair round, at its max_output_tokens', () => {
    const rounds = 2;
    const { output_tokens } = holdTokens(request(), registry, rounds, withKey);
    expect(output_tokens).toBe((rounds + 1) * (16_000 + 1_000));
    // A provider without its key, or not serving the model, cannot be called: not held.
    expect(holdTokens(request(), registry, rounds, noKey).output_tokens).toBe((rounds + 1) * 1_000);
    expect(holdTokens(request({ provider_order: ['other'] }), registry, rounds, withKey)).toEqual({
      input_tokens: 0,
      output_tokens: 0,
    });
  });

  it('grows by exactly what each input term adds to the calls that carry it', () => {
    const base = holdTokens(request(), registry, 1, noKey);
    // One repair round: the previous draft (≤ the provider's output) and the findings, on one more call.
    const none = holdTokens(request(), registry, 0, noKey);
    expect(base.input_tokens - 2 * none.input_tokens).toBe(1_000 + REPAIR_FINDINGS_TOKENS);
    // Text counts in UTF-8 bytes on each of the two calls.
    const text = holdTokens(
      request({ content: [{ type: 'text', text: 'usage fixture' + 'é'.repeat(10) }] }),
      registry,
      1,
      noKey,
    );
    expect(text.input_tokens - base.input_tokens).toBe(2 * 20);
    // An image part, on each call.
    const image = holdTokens(
      request({
        content: [
          { type: 'text', text: 'usage fixture' },
          { type: 'image', url: 'https://x.example/a.png' },
        ],
      }),
      registry,
      1,
      noKey,
    );
    expect(image.input_tokens - base.input_tokens).toBe(2 * (MEDIA_PART_TOKENS + 'https://x.example/a.png'.length));
    // Expansion: one more call (its output held), and the expanded prompt in every draft.
    const expanded = holdTokens(request({ expand_prompt: true }), registry, 1, noKey);
    expect(expanded.output_tokens - base.output_tokens).toBe(1_000);
    expect(expanded.input_tokens - base.input_tokens).toBe(none.input_tokens + 2 * 1_000);
    // A brand kit: its lines in the system prompt of each call.
    const brand = {
      colors: { background: '#0b1f3a', text: '#ffffff', accent: null },
      font: 'serif' as const,
      logo: null,
      logo_on_closing: true,
    };
    const branded = holdTokens({ ...request(), brand }, registry, 1, noKey);
    expect(branded.input_tokens - base.input_tokens).toBe(2 * countTokens(brandGuide(brand)));
    expect(countTokens(brandGuide(brand))).toBeGreaterThan(10);
  });

  it('prices the tokens at the model’s effective price on the engine', () => {
    const catalog = Catalog.load();
    const tokens = holdTokens(request(), registry, 2, withKey);
    for (const engine of ['lottie', 'hyperframes']) {
      const r = { ...request(), engine };
      const held = holdMicros(r, { catalog, registry, repairRounds: 2, secret: withKey });
      expect(held).toBe(
        catalog.costMicros(
          engine,
          'gpt-4o-mini',
          holdTokens(r, registry, 2, withKey).input_tokens,
          tokens.output_tokens,
        ),
      );
    }
  });
});
