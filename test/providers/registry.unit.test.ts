// The provider registry: the built-in file agrees with the catalog, invalid files are refused with a
// message, routing plans follow the documented order and skip rules, request-time order checks, and
// each registered protocol is reached through its own module.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DomainError } from '../../src/errors.js';
import { adapterFor } from '../../src/providers/index.js';
import { PROTOCOLS } from '../../src/providers/protocols.js';
import {
  assertProviderOrder,
  DEFAULT_PROVIDERS_FILE,
  loadProviderRegistry,
  ProviderRegistry,
} from '../../src/providers/registry.js';
import { FakeLlm } from './support/fakeLlm.js';

const catalog = Catalog.load();
const builtIn = loadProviderRegistry();

const registry = ProviderRegistry.parse({
  providers: {
    local: { protocol: 'local' },
    alpha: {
      protocol: 'openai',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'ALPHA_KEY',
      models: { 'gpt-4o-mini': 'a-mini' },
    },
    beta: {
      protocol: 'anthropic',
      base_url: 'http://127.0.0.1:2/v1',
      api_key_env: 'BETA_KEY',
      timeout_seconds: 7.5,
      models: { 'claude-sonnet-4-5': { id: 'b-sonnet', input: ['image'] } },
    },
    keyless: { protocol: 'openai', base_url: 'http://127.0.0.1:3/v1', models: { 'gpt-4o-mini': 'k-mini' } },
  },
});
const secrets = (env: Record<string, string>) => (name: string) => env[name];

describe('built-in registry (src/providers/providers.json)', () => {
  it('serves every catalog model with a real provider, and names only catalog models', () => {
    const real = builtIn.slugs().filter((s) => builtIn.get(s)!.protocol !== 'local');
    for (const model of catalog.modelIds()) {
      expect(
        real.filter((s) => builtIn.servedModel(s, model)),
        `providers of ${model}`,
      ).not.toEqual([]);
    }
    for (const slug of real) {
      for (const model of Object.keys(builtIn.get(slug)!.models))
        expect(catalog.modelIds(), `${slug} serves ${model}`).toContain(model);
    }
  });

  it('has the offline `local` provider serving every catalog model, last in the default order', () => {
    expect(builtIn.get('local')?.protocol).toBe('local');
    for (const model of catalog.modelIds())
      expect(builtIn.servedModel('local', model)).toEqual({ id: model, input: [] });
    expect(builtIn.defaultOrder().at(-1)).toBe('local');
    expect(builtIn.defaultOrder()).toEqual(['openai', 'anthropic', 'openrouter', 'ollama', 'local']);
  });

  it('without any API key set, only `local` is usable: every other provider is skipped with the variable named', () => {
    const plan = builtIn.plan(null, 'gpt-4o-mini', secrets({}));
    expect(plan.filter((a) => !a.skipped).map((a) => a.provider)).toEqual(['local']);
    expect(plan.find((a) => a.provider === 'openai')!.skipped).toBe('no API key is configured for it');
    expect(plan.find((a) => a.provider === 'ollama')!.skipped).toBe('does not serve model gpt-4o-mini');
  });

  it('is what loadProviderRegistry reads by default, once per process', () => {
    expect(loadProviderRegistry(DEFAULT_PROVIDERS_FILE)).toBe(builtIn);
  });
});

describe('registry file validation', () => {
  const bad: [string, unknown, RegExp][] = [
    [
      'unknown protocol',
      { providers: { x: { protocol: 'grpc', base_url: 'http://h/v1', models: { m: 'm' } } } },
      /unknown protocol "grpc" \(known: openai, anthropic, local\)\n.*providers\.x\.protocol/,
    ],
    [
      'a field of another protocol',
      {
        providers: {
          x: { protocol: 'anthropic', base_url: 'http://h/v1', max_tokens_field: 'max_tokens', models: { m: 'm' } },
        },
      },
      /max_tokens_field/,
    ],
    [
      'bad base_url',
      { providers: { x: { protocol: 'openai', base_url: 'not a url', models: { m: 'm' } } } },
      /base_url/,
    ],
    ['no models', { providers: { x: { protocol: 'openai', base_url: 'http://h/v1', models: {} } } }, /serves no model/],
    ['bad slug', { providers: { 'Not OK': { protocol: 'local' } } }, /slug/],
    ['unknown key', { providers: { x: { protocol: 'local', apikey: 'oops' } } }, /apikey/],
    [
      'unknown slug in default_order',
      { default_order: ['y'], providers: { x: { protocol: 'local' } } },
      /unknown provider "y"/,
    ],
    ['no provider', { providers: {} }, /no provider configured/],
    [
      'negative timeout',
      { providers: { x: { protocol: 'openai', base_url: 'http://h/v1', timeout_seconds: -1, models: { m: 'm' } } } },
      /timeout_seconds/,
    ],
  ];
  it.each(bad)('refuses %s with a message naming the problem', (_name, raw, message) => {
    expect(() => ProviderRegistry.parse(raw)).toThrow(message);
  });

  it('refuses an unknown protocol when the file is loaded, naming it and the known ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'providers-'));
    const file = path.join(dir, 'p.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ providers: { ok: { protocol: 'local' }, foo: { protocol: 'grpc', base_url: 'http://h/v1' } } }),
    );
    expect(() => loadProviderRegistry(file)).toThrow(`invalid providers file ${file}`);
    expect(() => loadProviderRegistry(file)).toThrow(
      /unknown protocol "grpc" \(known: openai, anthropic, local\)\n.*providers\.foo\.protocol/,
    );
    fs.rmSync(dir, { recursive: true });
  });

  it('names the file when it cannot be read or parsed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'providers-'));
    const file = path.join(dir, 'p.json');
    fs.writeFileSync(file, '{ not json');
    expect(() => loadProviderRegistry(file)).toThrow(file);
    expect(() => loadProviderRegistry(path.join(dir, 'missing.json'))).toThrow(/cannot read providers file/);
    fs.rmSync(dir, { recursive: true });
  });

  it('applies defaults: 120 s timeout, 8192 output tokens sent as max_tokens, text-only models', () => {
    expect(registry.get('alpha')).toMatchObject({
      timeout_seconds: 120,
      max_output_tokens: 8192,
      max_tokens_field: 'max_tokens',
    });
    expect(registry.servedModel('alpha', 'gpt-4o-mini')).toEqual({ id: 'a-mini', input: [] });
    expect(registry.servedModel('beta', 'claude-sonnet-4-5')).toEqual({ id: 'b-sonnet', input: ['image'] });
  });
});

describe('routing plan', () => {
  it('default order: the file order with local providers last; timeouts in ms', () => {
    expect(registry.defaultOrder()).toEqual(['alpha', 'beta', 'keyless', 'local']);
    const plan = registry.plan(null, 'gpt-4o-mini', secrets({ ALPHA_KEY: 'k' }));
    expect(plan).toEqual([
      { provider: 'alpha', skipped: null, timeoutMs: 120_000 },
      { provider: 'beta', skipped: 'does not serve model gpt-4o-mini', timeoutMs: 7_500 },
      { provider: 'keyless', skipped: null, timeoutMs: 120_000 },
      { provider: 'local', skipped: null, timeoutMs: 120_000 },
    ]);
  });

  it('an explicit default_order wins', () => {
    const r = ProviderRegistry.parse({ ...registry.file, default_order: ['local', 'alpha'] });
    expect(r.defaultOrder()).toEqual(['local', 'alpha']);
  });

  it(
    'follows provider.order exactly (duplicates once), ' + 'skipping an unset key or an unserved model with the reason',
    () => {
      const plan = registry.plan(['beta', 'alpha', 'beta', 'local'], 'claude-sonnet-4-5', secrets({}));
      expect(plan.map((a) => [a.provider, a.skipped])).toEqual([
        ['beta', 'no API key is configured for it'],
        ['alpha', 'does not serve model claude-sonnet-4-5'],
        ['local', null],
      ]);
      expect(registry.plan(['beta'], 'claude-sonnet-4-5', secrets({ BETA_KEY: 'x' }))[0]!.skipped).toBeNull();
      expect(registry.plan(['gone'], 'gpt-4o-mini', secrets({}))[0]!.skipped).toBe('not configured');
    },
  );

  it('names the provider tried first (queued events): the first usable one of the plan, else its head', () => {
    expect(registry.firstProvider(['beta', 'alpha', 'local'], 'claude-sonnet-4-5', secrets({}))).toBe('local');
    expect(registry.firstProvider(['beta', 'alpha', 'local'], 'claude-sonnet-4-5', secrets({ BETA_KEY: 'x' }))).toBe(
      'beta',
    );
    expect(registry.firstProvider(null, 'gpt-4o-mini', secrets({ ALPHA_KEY: 'x' }))).toBe('alpha');
    expect(registry.firstProvider(['beta'], 'gpt-4o-mini', secrets({}))).toBe('beta'); // none usable: the head
  });

  it('connects with the provider model id and the key; refuses an unusable provider', () => {
    const conn = registry.connect('alpha', 'gpt-4o-mini', secrets({ ALPHA_KEY: 'sk-1' }));
    expect([conn.model.id, conn.apiKey]).toEqual(['a-mini', 'sk-1']);
    expect(registry.connect('keyless', 'gpt-4o-mini', secrets({})).apiKey).toBeNull();
    expect(() => registry.connect('alpha', 'gpt-4o-mini', secrets({}))).toThrow(/ALPHA_KEY is not set/);
  });
});

describe('request-time check of provider.order', () => {
  const check = (order: string[], model = 'gpt-4o-mini') => {
    try {
      assertProviderOrder(registry, order, model);
      return null;
    } catch (err) {
      return err as DomainError;
    }
  };

  it('accepts known providers, even one whose key is unset (the workers hold the secrets)', () => {
    expect(check(['alpha', 'local'])).toBeNull();
  });

  it('refuses an unknown slug as invalid input with param provider.order, listing the configured ones', () => {
    const err = check(['alpha', 'nope'])!;
    expect(err).toBeInstanceOf(DomainError);
    expect([err.kind, err.code, err.param]).toEqual(['invalid_input', 'invalid_request', 'provider.order']);
    expect(err.message).toMatch(/unknown provider "nope".*configured providers: local, alpha, beta, keyless/);
  });

  it('refuses an order in which no provider serves the model', () => {
    const err = check(['beta'], 'gpt-4o-mini')!;
    expect([err.kind, err.param]).toEqual(['invalid_input', 'provider.order']);
    expect(err.message).toMatch(/none of beta serves model gpt-4o-mini/);
  });
});

describe('protocols (src/providers/protocols.ts)', () => {
  it('adapterFor reaches each registered protocol through its own module', async () => {
    const openai = await new FakeLlm('openai', 'sk-o').start();
    const anthropic = await new FakeLlm('anthropic', 'sk-a').start();
    try {
      // One provider per protocol: a protocol added to the list must be added here.
      const providers = {
        openai: {
          protocol: 'openai',
          base_url: openai.baseUrl,
          api_key_env: 'O_KEY',
          models: { 'gpt-4o-mini': 'o-mini' },
        },
        anthropic: {
          protocol: 'anthropic',
          base_url: anthropic.baseUrl,
          api_key_env: 'A_KEY',
          models: { 'gpt-4o-mini': 'a-mini' },
        },
        local: { protocol: 'local' },
      };
      expect(PROTOCOLS.map((p) => p.id)).toEqual(Object.keys(providers));
      const r = ProviderRegistry.parse({ providers });
      const expand = (slug: string) =>
        adapterFor(
          r.connect(slug, 'gpt-4o-mini', secrets({ O_KEY: 'sk-o', A_KEY: 'sk-a' })),
          new AbortController().signal,
        ).expand({
          engine: 'lottie',
          durationSeconds: null,
          width: 160,
          height: 284,
          brief: { text: 'a ball', media: [], instructions: null },
        });
      openai.script({ reply: 'by openai', usage: { input: 1, output: 2 } });
      anthropic.script({ reply: 'by anthropic', usage: { input: 3, output: 4 } });

      expect(await expand('openai')).toEqual({ text: 'by openai', usage: { input_tokens: 1, output_tokens: 2 } });
      expect(await expand('anthropic')).toEqual({ text: 'by anthropic', usage: { input_tokens: 3, output_tokens: 4 } });
      expect(await expand('local')).toEqual({ text: 'a ball', usage: { input_tokens: 0, output_tokens: 0 } });
      expect(openai.requests.map((q) => [q.path, q.body.model])).toEqual([['/v1/chat/completions', 'o-mini']]);
      expect(anthropic.requests.map((q) => [q.path, q.body.model])).toEqual([['/v1/messages', 'a-mini']]);
    } finally {
      await Promise.all([openai.close(), anthropic.close()]);
    }
  });
});

describe('config', () => {
  it('reads PROVIDERS_FILE (resolved), PROVIDER_REPAIR_ROUNDS (default 2) and secrets by name', () => {
    const c = loadConfig({ PROVIDERS_FILE: 'x/p.json', MY_KEY: 'sk-9', EMPTY_KEY: '' });
    expect(c.providers.file).toBe(path.resolve('x/p.json'));
    expect(c.providers.repairRounds).toBe(2);
    expect(c.providers.secret('MY_KEY')).toBe('sk-9');
    expect(c.providers.secret('EMPTY_KEY')).toBeUndefined();
    expect(loadConfig({}).providers.file).toBeUndefined();
    expect(loadConfig({ PROVIDER_REPAIR_ROUNDS: '0' }).providers.repairRounds).toBe(0);
  });

  it.each(['-1', '6', 'two'])('refuses PROVIDER_REPAIR_ROUNDS=%s', (v) => {
    expect(() => loadConfig({ PROVIDER_REPAIR_ROUNDS: v })).toThrow(ConfigError);
  });
});
