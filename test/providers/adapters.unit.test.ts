// One provider call at a time (what each activity does), against local servers speaking the
// OpenAI-compatible and Anthropic protocols: wire format, usage, and how failures are classified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { PROVIDER_CAUSES, PROVIDER_FAILURE, ProviderError } from '../../src/providers/errors.js';
import { expandPrompt, writeComposition, type CallEnv } from '../../src/providers/index.js';
import { ANTHROPIC_VERSION } from '../../src/providers/anthropic/adapter.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { countTokens } from '../../src/text/tokens.js';
import type { GenerationRequest } from '../../src/shared.js';
import { closedPortUrl, FakeLlm, fenced, messageTexts, type Step } from './support/fakeLlm.js';
import { generationRequest } from '../support/fixtures.js';

const openai = new FakeLlm('openai', 'sk-openai-test');
const anthropic = new FakeLlm('anthropic', 'sk-ant-test');
let env: CallEnv;
const { llm, composeOffline } = getEngine('lottie');
const lottie = composeOffline({
  prompt: 'a ball',
  instructions: null,
  durationSeconds: null,
  assets: [],
  width: 160,
  height: 284,
});

beforeAll(async () => {
  await Promise.all([openai.start(), anthropic.start()]);
  const registry = ProviderRegistry.parse({
    providers: {
      oai: {
        protocol: 'openai',
        base_url: openai.baseUrl,
        api_key_env: 'OAI_KEY',
        timeout_seconds: 20,
        max_output_tokens: 4000,
        models: { 'gpt-4o-mini': { id: 'gpt-4o-mini-2024-07-18', input: ['image'] }, 'llama-3.1-8b': 'llama3.1:8b' },
      },
      ant: {
        protocol: 'anthropic',
        base_url: anthropic.baseUrl,
        api_key_env: 'ANT_KEY',
        timeout_seconds: 20,
        models: { 'claude-sonnet-4-5': { id: 'claude-sonnet-4-5-20250929', input: ['image'] } },
      },
      // OpenAI's reasoning models take the output limit only as max_completion_tokens.
      reasoning: {
        protocol: 'openai',
        base_url: openai.baseUrl,
        api_key_env: 'OAI_KEY',
        max_tokens_field: 'max_completion_tokens',
        max_output_tokens: 3000,
        models: { 'gpt-4o-mini': 'o4-mini' },
      },
      'reasoning-max-tokens': {
        protocol: 'openai',
        base_url: openai.baseUrl,
        api_key_env: 'OAI_KEY',
        models: { 'gpt-4o-mini': 'o4-mini' },
      },
      // The same server with a short timeout, for the calls it never answers.
      impatient: {
        protocol: 'openai',
        base_url: openai.baseUrl,
        api_key_env: 'OAI_KEY',
        timeout_seconds: 0.5,
        models: { 'gpt-4o-mini': 'x' },
      },
      down: { protocol: 'openai', base_url: await closedPortUrl(), models: { 'gpt-4o-mini': 'x' } },
      local: { protocol: 'local' },
    },
  });
  const secrets: Record<string, string> = { OAI_KEY: openai.apiKey, ANT_KEY: anthropic.apiKey };
  env = { registry, secret: (n) => secrets[n], signal: new AbortController().signal };
});
afterAll(() => Promise.all([openai.close(), anthropic.close()]));

/** The adapters' request: a prompt with an image, on the lottie engine. */
const request = (model: string, overrides: Partial<GenerationRequest> = {}) =>
  generationRequest('lottie', model, {
    content: [
      { type: 'text', text: 'A red ball bouncing' },
      { type: 'image', url: 'https://example.com/ref.png' },
    ],
    ...overrides,
  });
const compose = (provider: string, model: string, e = env) =>
  writeComposition(e, { provider, request: request(model), expandedPrompt: null, repair: null });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('OpenAI-compatible protocol', () => {
  it(
    'sends the system prompt, the prompt and the image as Chat Completions parts with the bearer key; ' +
      'returns the extracted composition and reported usage',
    async () => {
      openai.script({ reply: fenced(lottie, 'json'), usage: { input: 1234, output: 567 } });
      const draft = await compose('oai', 'gpt-4o-mini');
      expect(draft).toEqual({ source: lottie, usage: { input_tokens: 1234, output_tokens: 567 } });

      const [req] = openai.requests;
      expect(req!.path).toBe('/v1/chat/completions');
      expect(req!.headers.authorization).toBe('Bearer sk-openai-test');
      expect(req!.headers['content-type']).toBe('application/json');
      expect(req!.body.model).toBe('gpt-4o-mini-2024-07-18');
      expect(req!.body.max_tokens).toBe(4000);
      expect(req!.body.messages[0].role).toBe('system');
      expect(req!.body.messages[0].content).toContain(llm.contract());
      expect(req!.body.messages[0].content).toContain('Canvas: 160x284 pixels');
      expect(req!.body.messages[1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'A red ball bouncing' },
          { type: 'image_url', image_url: { url: 'https://example.com/ref.png' } },
        ],
      });
    },
  );

  it(
    'sends the output limit as max_completion_tokens when the provider says so (what OpenAI reasoning ' +
      'models require)',
    async () => {
      openai.script({ reply: fenced(lottie, 'json'), usage: { input: 10, output: 20 } });
      expect(await compose('reasoning', 'gpt-4o-mini')).toEqual({
        source: lottie,
        usage: { input_tokens: 10, output_tokens: 20 },
      });
      const req = openai.requests.at(-1)!;
      expect([req.body.model, req.body.max_completion_tokens, req.body.max_tokens]).toEqual([
        'o4-mini',
        3000,
        undefined,
      ]);

      // The default field, max_tokens, is refused by such a model: a rejection that ends the generation.
      const err = await failure(compose('reasoning-max-tokens', 'gpt-4o-mini'));
      expect(err.type).toBe(PROVIDER_FAILURE.rejected);
      expect(err.detail).toContain("Use 'max_completion_tokens' instead");
    },
  );

  it('sends plain-string content to a text-only model and describes the image as a URL', async () => {
    openai.script({ reply: lottie, usage: { input: 10, output: 20 } });
    await compose('oai', 'llama-3.1-8b');
    const body = openai.requests[0]!.body;
    expect(body.model).toBe('llama3.1:8b');
    expect(typeof body.messages[1].content).toBe('string');
    expect(body.messages[1].content).toMatch(/^A red ball bouncing\n\nReference image https:\/\/example.com\/ref.png/);
  });

  it('estimates usage with the tokenizer when the server reports none', async () => {
    openai.script({ reply: lottie, usage: null });
    const { usage } = await compose('oai', 'gpt-4o-mini');
    expect(usage.output_tokens).toBe(countTokens(lottie));
    expect(usage.input_tokens).toBeGreaterThan(countTokens(llm.contract()));
  });

  it(
    'a refusal (message.refusal or finish_reason content_filter) ' + 'is content_refused and keeps the billed tokens',
    async () => {
      openai.script({ refuse: 'I can’t help with that.', usage: { input: 300, output: 9 } });
      const a = await failure(compose('oai', 'gpt-4o-mini'));
      expect([a.type, a.message, a.detail, a.usage]).toEqual([
        PROVIDER_FAILURE.refused,
        PROVIDER_CAUSES.refused,
        'refused the content: I can’t help with that.',
        { input_tokens: 300, output_tokens: 9 },
      ]);
      openai.script({ reply: '', usage: { input: 200, output: 0 }, finish: 'content_filter' });
      const b = await failure(compose('oai', 'gpt-4o-mini'));
      expect([b.type, b.usage]).toEqual([PROVIDER_FAILURE.refused, { input_tokens: 200, output_tokens: 0 }]);
    },
  );
});

describe('Anthropic protocol', () => {
  it(
    'sends x-api-key, anthropic-version, top-level system, ' + 'image source url block and max_tokens; returns usage',
    async () => {
      anthropic.script({ reply: fenced(lottie, 'json'), usage: { input: 2000, output: 700 } });
      const draft = await compose('ant', 'claude-sonnet-4-5');
      expect(draft).toEqual({ source: lottie, usage: { input_tokens: 2000, output_tokens: 700 } });

      const [req] = anthropic.requests;
      expect(req!.path).toBe('/v1/messages');
      expect(req!.headers['x-api-key']).toBe('sk-ant-test');
      expect(req!.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
      expect(req!.headers.authorization).toBeUndefined();
      expect(req!.body.model).toBe('claude-sonnet-4-5-20250929');
      expect(req!.body.max_tokens).toBe(8192);
      expect(req!.body.system).toContain(llm.contract());
      expect(req!.body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A red ball bouncing' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/ref.png' } },
          ],
        },
      ]);
    },
  );

  it('stop_reason "refusal" is content_refused with its usage', async () => {
    anthropic.script({ refuse: 'x', usage: { input: 50, output: 1 } });
    const err = await failure(compose('ant', 'claude-sonnet-4-5'));
    expect([err.type, err.usage]).toEqual([PROVIDER_FAILURE.refused, { input_tokens: 50, output_tokens: 1 }]);
  });
});

describe('failure classification', () => {
  const cases: [string, 'oai' | 'ant', Step, string, RegExp][] = [
    [
      'OpenAI 500',
      'oai',
      { status: 500, message: 'The server had an error' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 500: The server had an error$/,
    ],
    ['OpenAI 503', 'oai', { status: 503, message: 'Service unavailable' }, PROVIDER_FAILURE.unavailable, /^HTTP 503/],
    [
      'OpenAI 429',
      'oai',
      { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 429: Rate limit reached/,
    ],
    [
      'OpenAI 401 (our key: another provider may work)',
      'oai',
      { status: 401, message: 'Incorrect API key' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 401/,
    ],
    [
      'OpenAI 404 (model not deployed there)',
      'oai',
      { status: 404, message: 'model not found' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 404/,
    ],
    [
      'OpenAI 400',
      'oai',
      { status: 400, message: "Invalid 'messages[1].content'" },
      PROVIDER_FAILURE.rejected,
      /^HTTP 400: Invalid 'messages\[1\]\.content'$/,
    ],
    [
      'OpenAI 400 content policy',
      'oai',
      { status: 400, message: 'Your request was rejected by our safety system', code: 'content_policy_violation' },
      PROVIDER_FAILURE.refused,
      /safety system/,
    ],
    [
      'Anthropic 529 overloaded',
      'ant',
      { status: 529, message: 'Overloaded' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 529: Overloaded$/,
    ],
    [
      'Anthropic 429',
      'ant',
      { status: 429, message: 'Number of request tokens has exceeded your rate limit' },
      PROVIDER_FAILURE.unavailable,
      /^HTTP 429/,
    ],
    [
      'Anthropic 400',
      'ant',
      { status: 400, message: 'messages.0.content.1.image.source: invalid url' },
      PROVIDER_FAILURE.rejected,
      /^HTTP 400: messages/,
    ],
    [
      'Anthropic 413',
      'ant',
      { status: 413, message: 'Request exceeds the maximum allowed number of bytes' },
      PROVIDER_FAILURE.rejected,
      /^HTTP 413/,
    ],
    [
      'Anthropic content filter',
      'ant',
      { status: 400, message: 'Output blocked by content filtering policy' },
      PROVIDER_FAILURE.refused,
      /content filtering policy/,
    ],
  ];
  /** What the tenant reads: fixed words per cause class; the provider's own text is only in `detail` (the log). */
  const tenantText: Record<string, string> = {
    'OpenAI 500': PROVIDER_CAUSES.serverError,
    'OpenAI 503': PROVIDER_CAUSES.serverError,
    'OpenAI 429': PROVIDER_CAUSES.rateLimited,
    'OpenAI 401 (our key: another provider may work)': PROVIDER_CAUSES.key,
    'OpenAI 404 (model not deployed there)': PROVIDER_CAUSES.other,
    'OpenAI 400': PROVIDER_CAUSES.rejected,
    'OpenAI 400 content policy': PROVIDER_CAUSES.refused,
    'Anthropic 529 overloaded': PROVIDER_CAUSES.serverError,
    'Anthropic 429': PROVIDER_CAUSES.rateLimited,
    'Anthropic 400': PROVIDER_CAUSES.rejected,
    'Anthropic 413': PROVIDER_CAUSES.rejected,
    'Anthropic content filter': PROVIDER_CAUSES.refused,
  };
  it.each(cases)('%s', async (name, provider, step, type, detail) => {
    const fake = provider === 'oai' ? openai : anthropic;
    fake.script(step);
    const err = await failure(compose(provider, provider === 'oai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5'));
    expect(err.type).toBe(type);
    expect(err.detail).toMatch(detail);
    expect(err.message).toBe(tenantText[name]);
    expect(err.usage).toBeNull();
  });

  it('a 401 whose body names an upstream organization and a masked key: the tenant reads fixed words', async () => {
    const upstream =
      'Incorrect API key provided: sk-proj-****************************************abcd. ' +
      'You can find your API key at https://platform.openai.com/account/api-keys. (organization org-Qx81internal)';
    openai.script({ status: 401, message: upstream, code: 'invalid_api_key' });
    const err = await failure(compose('oai', 'gpt-4o-mini'));
    expect(err.message).toBe('the provider refused the key');
    expect(err.message).not.toMatch(/org-|sk-|HTTP/);
    expect(err.detail).toContain('org-Qx81internal');
  });

  it('a provider that does not answer within timeout_seconds is unavailable, and is given up on time', async () => {
    openai.script({ hang: true });
    const started = Date.now();
    const err = await failure(compose('impatient', 'gpt-4o-mini'));
    expect([err.type, err.message, err.detail]).toEqual([
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.timeout,
      'no answer within 0.5 s',
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a refused connection is unavailable', async () => {
    const err = await failure(compose('down', 'gpt-4o-mini'));
    expect([err.type, err.message, err.detail]).toEqual([
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.unreachable,
      'connection failed (ECONNREFUSED)',
    ]);
  });

  it('a cancelled call rejects with the cancellation, not a provider failure', async () => {
    openai.script({ hang: true });
    const controller = new AbortController();
    const call = compose('oai', 'gpt-4o-mini', { ...env, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the workflow')), 50);
    await expect(call).rejects.toThrow('cancelled by the workflow');
  });
});

describe('expand_prompt call', () => {
  it('carries the engine guide; returns the rewritten prompt and its usage', async () => {
    anthropic.script({ reply: '  A glossy red ball drops from the top...  ', usage: { input: 900, output: 80 } });
    const reply = await expandPrompt(env, { provider: 'ant', request: request('claude-sonnet-4-5') });
    expect(reply).toEqual({
      text: 'A glossy red ball drops from the top...',
      usage: { input_tokens: 900, output_tokens: 80 },
    });
    const body = anthropic.requests[0]!.body;
    expect(body.system).toContain(llm.guide());
    expect(messageTexts(body)[0]).toContain('Request:\nA red ball bouncing');
  });

  it('keeps the original prompt when the model answers nothing', async () => {
    openai.script({ reply: '', usage: { input: 5, output: 0 } });
    expect((await expandPrompt(env, { provider: 'oai', request: request('gpt-4o-mini') })).text).toBe(
      'A red ball bouncing',
    );
  });

  it('the composition call uses the expanded prompt instead of the original', async () => {
    openai.script({ reply: lottie, usage: { input: 1, output: 1 } });
    await writeComposition(env, {
      provider: 'oai',
      request: request('gpt-4o-mini'),
      expandedPrompt: 'EXPANDED brief',
      repair: null,
    });
    expect(messageTexts(openai.requests[0]!.body)[1]).toBe('EXPANDED brief');
  });
});

describe('local protocol', () => {
  it(
    'composes offline with the embedded composer, tokens counted with the tokenizer; ' +
      'expansion leaves the prompt as is',
    async () => {
      const draft = await compose('local', 'claude-sonnet-4-5');
      expect(draft.source).toBe(
        composeOffline({
          prompt: 'A red ball bouncing',
          instructions: null,
          durationSeconds: null,
          assets: [],
          width: 160,
          height: 284,
        }),
      );
      expect(draft.usage).toEqual({
        input_tokens: countTokens('A red ball bouncing'),
        output_tokens: countTokens(draft.source),
      });
      expect(await expandPrompt(env, { provider: 'local', request: request('gpt-4o-mini') })).toEqual({
        text: 'A red ball bouncing',
        usage: { input_tokens: 0, output_tokens: 0 },
      });
    },
  );
});
