// Real generations end to end (API → Temporal workflow → worker process → fake LLM servers → engine
// validation → render) through a registry file pointing at local servers that speak the OpenAI and
// Anthropic protocols: routing order, fallback, recorded provider, repair rounds, expand_prompt,
// failure messages, and token and cost sums checked against catalog.json prices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { countTokens } from '../../src/text/tokens.js';
import { startMediaServer, twoColourImage, type MediaServer } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { makeSelfSignedCert, type TlsFiles } from '../webhooks/support/receiver.js';
import { closedPortUrl, FakeLlm, fenced, messageTexts, systemPrompt } from './support/fakeLlm.js';

const catalogFile = JSON.parse(fs.readFileSync(new URL('../../src/catalog/catalog.json', import.meta.url), 'utf8'));

const alpha = new FakeLlm('openai', 'sk-alpha');
const beta = new FakeLlm('openai', 'sk-beta');
const slow = new FakeLlm('openai', 'sk-slow');
const claude = new FakeLlm('anthropic', 'sk-claude');
const nokey = new FakeLlm('openai', 'sk-never-set');
const fakes = [alpha, beta, slow, claude, nokey];

let stack: TestStack;
let key: string;
let dir: string;
// The input image the worker fetches (loopback HTTPS, allowed by the test-only unsafe settings).
let tls: TlsFiles;
let media: MediaServer;
let sunUrl: string;

beforeAll(async () => {
  await Promise.all(fakes.map((f) => f.start()));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'providers-e2e-'));
  const file = path.join(dir, 'providers.json');
  const openai = (fake: FakeLlm, keyEnv: string, models: object, timeout_seconds = 20) => ({
    protocol: 'openai',
    base_url: fake.baseUrl,
    api_key_env: keyEnv,
    timeout_seconds,
    models,
  });
  fs.writeFileSync(
    file,
    JSON.stringify({
      providers: {
        alpha: openai(alpha, 'FAKE_ALPHA_KEY', {
          'gpt-4o-mini': { id: 'alpha-mini', input: ['image'] },
          'llama-3.1-8b': 'alpha-llama',
        }),
        beta: openai(beta, 'FAKE_BETA_KEY', { 'gpt-4o-mini': 'beta-mini' }),
        slow: openai(slow, 'FAKE_SLOW_KEY', { 'gpt-4o-mini': 'slow-mini' }, 1),
        dead: {
          protocol: 'openai',
          base_url: await closedPortUrl(),
          api_key_env: 'FAKE_DEAD_KEY',
          models: { 'gpt-4o-mini': 'dead-mini' },
        },
        claude: {
          protocol: 'anthropic',
          base_url: claude.baseUrl,
          api_key_env: 'FAKE_CLAUDE_KEY',
          timeout_seconds: 20,
          models: {
            'gpt-4o-mini': { id: 'claude-as-mini', input: ['image'] },
            'claude-sonnet-4-5': 'claude-sonnet-test',
          },
        },
        nokey: openai(nokey, 'FAKE_NOKEY_KEY', { 'gpt-4o-mini': 'n-mini', 'llama-3.1-8b': 'n-llama' }),
        local: { protocol: 'local' },
      },
    }),
  );
  delete process.env.FAKE_NOKEY_KEY;
  tls = makeSelfSignedCert();
  media = await startMediaServer(tls);
  media.route('/sun.png', { body: twoColourImage(), type: 'image/png' });
  sunUrl = media.url('/sun.png');
  stack = await startStack({
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
    OUTBOUND_UNSAFE_CA_FILE: tls.certFile,
    PROVIDERS_FILE: file,
    FAKE_ALPHA_KEY: alpha.apiKey,
    FAKE_BETA_KEY: beta.apiKey,
    FAKE_SLOW_KEY: slow.apiKey,
    FAKE_DEAD_KEY: 'sk-dead',
    FAKE_CLAUDE_KEY: claude.apiKey,
  });
  ({ key } = await createOrgWithKey(stack.db));
});

afterAll(async () => {
  await stack?.close();
  await Promise.all(fakes.map((f) => f.close()));
  await media?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (tls) fs.rmSync(tls.dir, { recursive: true, force: true });
});

// Every test scripts the fakes it expects to be called; the others answer 500 "unscripted" and count requests.
beforeEach(() => fakes.forEach((f) => f.script()));

const canvas = { width: 160, height: 284 };
const lottie = (prompt: string) =>
  getEngine('lottie').composeOffline({ instructions: null, durationSeconds: null, assets: [], prompt, ...canvas });

/** Creates a generation through the Responses shape and waits for its terminal state. */
async function generate(body: Record<string, unknown>) {
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { engine: 'lottie', ...canvas, ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return (await waitForTerminal(stack.url, key, created.body.id)).body;
}

/** Cost in US dollars computed from catalog.json: tokens × price per million × the engine's premium multiplier. */
function expectedCostUsd(engine: string, model: string, input: number, output: number): number {
  const m = catalogFile.models.find((x: any) => x.id === model);
  return (
    ((input * m.input_per_million_usd + output * m.output_per_million_usd) * getEngine(engine).premiumMultiplier) /
    1_000_000
  );
}

function expectUsage(g: any, engine: string, model: string, input: number, output: number) {
  expect(g.usage).toMatchObject({ input_tokens: input, output_tokens: output, total_tokens: input + output });
  const expected = expectedCostUsd(engine, model, input, output);
  expect(Math.round(g.usage.cost_usd * 100)).toBe(Math.round(expected * 100)); // to the cent
  expect(Math.abs(g.usage.cost_usd - expected)).toBeLessThanOrEqual(1e-6); // rounded up to the micro-dollar at most
}

const requestCounts = () =>
  Object.fromEntries(fakes.map((f, i) => [['alpha', 'beta', 'slow', 'claude', 'nokey'][i], f.requests.length]));

describe('routing and fallback', () => {
  it(
    'tries provider.order in order past a 503, a timeout, a 429 and a refused connection; ' +
      'records the provider that answered',
    async () => {
      alpha.script({ status: 503, message: 'The engine is currently overloaded' });
      slow.script({ hang: true });
      beta.script({ status: 429, message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' });
      claude.script({ reply: fenced(lottie('Sunrise'), 'json'), usage: { input: 200_000, output: 50_000 } });

      const g = await generate({
        model: 'gpt-4o-mini',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Sunrise' },
              { type: 'input_image', image_url: { url: sunUrl } },
            ],
          },
        ],
        provider: { order: ['alpha', 'slow', 'beta', 'dead', 'claude'] },
      });
      expect(g.status, JSON.stringify(g.error)).toBe('completed');
      expect(g.provider).toBe('claude');
      expect(g.output_video_url).toEqual(expect.any(String));
      expect(requestCounts()).toEqual({ alpha: 1, beta: 1, slow: 1, claude: 1, nokey: 0 });
      // Failed attempts reported no usage: only the answer is billed.
      expectUsage(g, 'lottie', 'gpt-4o-mini', 200_000, 50_000);

      const req = claude.requests[0]!;
      expect(req.headers['x-api-key']).toBe('sk-claude');
      expect(req.headers['anthropic-version']).toBe('2023-06-01');
      expect(req.body.model).toBe('claude-as-mini');
      expect(req.body.system).toContain('Canvas: 160x284 pixels');
      expect(req.body.messages[0].content).toContainEqual({ type: 'image', source: { type: 'url', url: sunUrl } });
      expect(alpha.requests[0]!.body.messages[1].content).toContainEqual({
        type: 'image_url',
        image_url: { url: sunUrl },
      });
    },
  );

  it('a 400 ends the generation with the fixed cause and the generation id; no other provider is tried', async () => {
    alpha.script({ status: 400, message: "Invalid value for 'max_tokens'" });
    beta.script({ reply: lottie('never'), usage: { input: 1, output: 1 } });
    const g = await generate({ model: 'gpt-4o-mini', input: 'A kite', provider: { order: ['alpha', 'beta'] } });
    expect(g.status).toBe('failed');
    expect(g.provider).toBeNull();
    expect(g.error).toEqual({
      code: 'provider_rejected',
      message: `alpha: the provider rejected the request. The provider's answer is in the service's logs under ${g.id}`,
    });
    expect(beta.requests).toHaveLength(0);
    // No tokens consumed: no usage, nothing charged.
    expect(g.usage).toBeNull();
  });

  it('refused content fails the generation as content_refused, and the refusing call is billed', async () => {
    claude.script({ refuse: 'no', usage: { input: 10_000, output: 2_000 } });
    const g = await generate({
      model: 'claude-sonnet-4-5',
      input: 'Something forbidden',
      provider: { order: ['claude'] },
    });
    expect(g.status).toBe('failed');
    expect(g.error).toEqual({
      code: 'content_refused',
      message: `claude: the provider refused the content. The provider's answer is in the service's logs under ${g.id}`,
    });
    expectUsage(g, 'lottie', 'claude-sonnet-4-5', 10_000, 2_000);
  });

  it(
    'with every provider failing, fails listing each attempt in fixed words (a 401 naming an upstream organization ' +
      'reads "the provider refused the key"); a provider without its key is skipped, not called',
    async () => {
      // A 401 whose body names the upstream organization and a masked key: not the tenant's to read.
      alpha.script({
        status: 401,
        message: 'Incorrect API key provided: sk-proj-****abcd (organization org-Qx81internal)',
        code: 'invalid_api_key',
      });
      beta.script({ status: 503, message: 'Service Unavailable' });
      nokey.script({ reply: lottie('never'), usage: { input: 1, output: 1 } });
      const g = await generate({
        model: 'gpt-4o-mini',
        input: 'A boat',
        provider: { order: ['alpha', 'nokey', 'beta'] },
      });
      expect(g.status).toBe('failed');
      expect(g.error).toEqual({
        code: 'provider_unavailable',
        message:
          'No provider could write the composition: ' +
          'alpha: the provider refused the key; ' +
          'nokey: skipped, no API key is configured for it; beta: the provider failed with a server error. ' +
          `The provider's answer is in the service's logs under ${g.id}`,
      });
      expect(nokey.requests).toHaveLength(0);
    },
  );

  it(
    'without provider.order uses the default order: ' +
      'configured providers in file order (unusable ones skipped), local last',
    async () => {
      alpha.script({ status: 503, message: 'overloaded' });
      const prompt = 'Orbiting dots';
      const g = await generate({ model: 'llama-3.1-8b', input: prompt });
      expect(g.status, JSON.stringify(g.error)).toBe('completed');
      expect(g.provider).toBe('local');
      // alpha serves llama-3.1-8b and failed; beta, slow, dead and claude do not serve it; nokey has no key.
      expect(alpha.requests.map((r) => r.body.model)).toEqual(['alpha-llama']);
      expect(requestCounts()).toEqual({ alpha: 1, beta: 0, slow: 0, claude: 0, nokey: 0 });
      expectUsage(g, 'lottie', 'llama-3.1-8b', countTokens(prompt), countTokens(lottie(prompt)));
    },
  );

  it('answers 400 with param provider.order for a slug the registry does not know', async () => {
    const res = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'x', provider: { order: ['alpha', 'ghost'] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('provider.order');
    expect(res.body.error.message).toContain('"ghost"');
  });
});

describe('repair rounds', () => {
  it(
    'sends the validator findings back and completes with the repaired composition; ' + 'every round is billed',
    async () => {
      const broken = '{"v": "5.7.0", "layers": []}';
      alpha.script(
        { reply: fenced(broken, 'json'), usage: { input: 100_000, output: 20_000 } },
        { reply: fenced(lottie('Repaired'), 'json'), usage: { input: 100_000, output: 30_000 } },
      );
      const g = await generate({ model: 'gpt-4o-mini', input: 'Repaired', provider: { order: ['alpha'] } });
      expect(g.status, JSON.stringify(g.error)).toBe('completed');
      expect(g.provider).toBe('alpha');
      expect(alpha.requests).toHaveLength(2);
      const repair = alpha.requests[1]!.body.messages;
      expect(repair.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(repair[2].content).toContain(broken);
      expect(repair[3].content).toMatch(/schema_violation.*required property 'w'/);
      expectUsage(g, 'lottie', 'gpt-4o-mini', 200_000, 50_000);
    },
  );

  it(
    'still invalid after 2 repair rounds: invalid_composition with the findings; ' +
      'the premium price applies to every round',
    async () => {
      const page = '<html><body><p>no composition here</p></body></html>';
      beta.script(
        { reply: fenced(page, 'html'), usage: { input: 100_000, output: 20_000 } },
        { reply: fenced(page, 'html'), usage: { input: 100_000, output: 25_000 } },
        { reply: page, usage: { input: 50_000, output: 17_500 } },
      );
      const g = await generate({
        model: 'gpt-4o-mini',
        engine: 'hyperframes',
        input: 'A page',
        provider: { order: ['beta', 'alpha'] },
      });
      expect(g.status).toBe('failed');
      expect(g.error.code).toBe('invalid_composition');
      expect(g.error.message).toMatch(
        /^The composition from beta is still invalid after 2 repair round\(s\): .*root_missing_composition_id/,
      );
      expect(beta.requests).toHaveLength(3);
      expect(messageTexts(beta.requests[2]!.body).at(-1)).toContain('missing_timeline_registry');
      // HyperFrames carries a premium multiplier above 1: 250k in, 62.5k out of gpt-4o-mini.
      expectUsage(g, 'hyperframes', 'gpt-4o-mini', 250_000, 62_500);
    },
  );
});

describe('expand_prompt', () => {
  it(
    'calls the provider first with the engine guide, then composes from the expanded prompt; ' +
      'both calls are billed',
    async () => {
      const expanded =
        'A violet square spins once around its center on a dark navy background, easing in and out, over 3 seconds.';
      alpha.script(
        { reply: expanded, usage: { input: 40_000, output: 10_000 } },
        { reply: fenced(lottie(expanded), 'json'), usage: { input: 160_000, output: 40_000 } },
      );
      const g = await generate({
        model: 'gpt-4o-mini',
        input: 'spinning square',
        expand_prompt: true,
        provider: { order: ['alpha'] },
      });
      expect(g.status, JSON.stringify(g.error)).toBe('completed');
      expect(alpha.requests).toHaveLength(2);
      const [expansion, composition] = alpha.requests.map((r) => r.body);
      expect(systemPrompt(expansion)).toContain(getEngine('lottie').llm.guide());
      expect(messageTexts(expansion)[1]).toContain('spinning square');
      expect(systemPrompt(composition)).toContain(getEngine('lottie').llm.contract());
      expect(messageTexts(composition)[1]).toBe(expanded);
      expectUsage(g, 'lottie', 'gpt-4o-mini', 200_000, 50_000);
    },
  );
});
