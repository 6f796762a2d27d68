import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from '../src/config.js';
import { engineVariables, getEngine, renderTools } from '../src/engines/index.js';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.embeddedDatabase).toBe(true);
    expect(c.databaseUrl).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:5488\/video$/);
    expect(c.temporal.address).toBe('127.0.0.1:7233');
    expect(c.embeddedTemporal).toBe(true);
  });

  it('runs the embedded Temporal dev server on EMBEDDED_TEMPORAL_PORT unless TEMPORAL_ADDRESS is set', () => {
    expect(loadConfig({ EMBEDDED_TEMPORAL_PORT: '48233' })).toMatchObject({
      temporal: { address: '127.0.0.1:48233' },
      embeddedTemporal: true,
    });
    expect(loadConfig({ EMBEDDED_TEMPORAL_PORT: '48233', TEMPORAL_ADDRESS: 'temporal:7233' })).toMatchObject({
      temporal: { address: 'temporal:7233' },
      embeddedTemporal: false,
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['EMBEDDED_TEMPORAL_PORT', '70000'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['STORAGE_DRIVER', 'ftp'],
    ['WORKER_QUEUES', 'io,gpu'],
    ['RENDER_TIMEOUT_SECONDS', '-1'],
    ['RENDER_CRF', '52'],
    ['RENDER_CHUNK_THRESHOLD_SECONDS', '0'],
    ['RENDER_CHUNK_MIN_SECONDS', 'four'],
    ['RENDER_CHUNKS_MAX', '0'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}`));
  });

  it(
    "reads the settings renders run with: the CRF of every engine, and each engine's own (declared in its module, " +
      'read by the registry)',
    () => {
      const set = {
        RENDER_CRF: '30',
        LOTTIE_X264_PRESET: 'fast',
        LOTTIE_SKIP_HELD_FRAMES: 'off',
        HYPERFRAMES_QUALITY: 'high',
        HYPERFRAMES_WORKERS: '2',
        CHROME_PATH: '/opt/chrome/chrome',
        RENDER_PAGE_NETWORK_GUARD: 'off',
        HYPERFRAMES_SKIP_HELD_FRAMES: 'off',
      };
      const tools = renderTools(loadConfig(set));
      expect(tools.crf).toBe(30);
      expect(tools.engineSettings(getEngine('lottie'))).toEqual({ x264Preset: 'fast', skipHeldFrames: false });
      expect(tools.engineSettings(getEngine('hyperframes'))).toEqual({
        chromePath: '/opt/chrome/chrome',
        quality: 'high',
        workers: 2,
        pageNetworkGuard: false,
        skipHeldFrames: false,
      });
      // Defaults, as README "Configuration" lists them.
      expect(renderTools(loadConfig({})).engineSettings(getEngine('lottie'))).toEqual({
        x264Preset: 'veryfast',
        skipHeldFrames: true,
      });
      expect(renderTools(loadConfig({})).engineSettings(getEngine('hyperframes'))).toEqual({
        chromePath: '/usr/lib/chromium/chromium-headless-shell',
        quality: 'draft',
        workers: 1,
        pageNetworkGuard: true,
        skipHeldFrames: true,
      });
    },
  );

  it.each([
    ['lottie', 'LOTTIE_X264_PRESET', 'placebo'],
    ['lottie', 'LOTTIE_SKIP_HELD_FRAMES', 'yes'],
    ['hyperframes', 'HYPERFRAMES_QUALITY', 'best'],
    ['hyperframes', 'HYPERFRAMES_WORKERS', '1.5'],
    ['hyperframes', 'RENDER_PAGE_NETWORK_GUARD', 'maybe'],
  ])('the %s engine refuses %s=%s naming the variable', (engine, name, value) => {
    const tools = renderTools(loadConfig({ [name]: value }));
    expect(() => tools.engineSettings(getEngine(engine))).toThrow(ConfigError);
    expect(() => tools.engineSettings(getEngine(engine))).toThrow(new RegExp(name));
  });

  it("lists every variable the service reads, the engines' own included", () => {
    const names = [...configVariables(), ...engineVariables()];
    expect(names).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'RENDER_CRF',
        'LOTTIE_X264_PRESET',
        'HYPERFRAMES_QUALITY',
        'HYPERFRAMES_WORKERS',
        'CHROME_PATH',
        'RENDER_PAGE_NETWORK_GUARD',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads when videos render as chunks: longer than 8 s, chunks of at least 4 s, at most 16', () => {
    expect(loadConfig({}).renderChunks).toEqual({ thresholdSeconds: 8, minChunkSeconds: 4, maxChunks: 16 });
    const set = { RENDER_CHUNK_THRESHOLD_SECONDS: '20', RENDER_CHUNK_MIN_SECONDS: '2.5', RENDER_CHUNKS_MAX: '1' };
    expect(loadConfig(set).renderChunks).toEqual({ thresholdSeconds: 20, minChunkSeconds: 2.5, maxChunks: 1 });
  });

  it(
    'reads OUTBOUND_UNSAFE_* (off by default), and their deprecated WEBHOOK_UNSAFE_* names with a warning ' +
      'naming the new one',
    () => {
      expect(loadConfig({}).outbound).toEqual({ unsafeAllowLoopback: false, unsafeCaFile: undefined });
      expect(loadConfig({}).deprecations).toEqual([]);
      const current = loadConfig({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true', OUTBOUND_UNSAFE_CA_FILE: '/tmp/ca.pem' });
      expect(current.outbound).toEqual({ unsafeAllowLoopback: true, unsafeCaFile: '/tmp/ca.pem' });
      expect(current.deprecations).toEqual([]);
      const old = loadConfig({ WEBHOOK_UNSAFE_ALLOW_LOOPBACK: 'true', WEBHOOK_UNSAFE_CA_FILE: '/tmp/ca.pem' });
      expect(old.outbound).toEqual({ unsafeAllowLoopback: true, unsafeCaFile: '/tmp/ca.pem' });
      expect(old.deprecations).toEqual([
        expect.stringMatching(/^WEBHOOK_UNSAFE_ALLOW_LOOPBACK .*OUTBOUND_UNSAFE_ALLOW_LOOPBACK/),
        expect.stringMatching(/^WEBHOOK_UNSAFE_CA_FILE .*OUTBOUND_UNSAFE_CA_FILE/),
      ]);
      // The new name wins over the old one; a bad value is refused under the name that was set.
      expect(
        loadConfig({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'false', WEBHOOK_UNSAFE_ALLOW_LOOPBACK: 'true' }).outbound
          .unsafeAllowLoopback,
      ).toBe(false);
      expect(() => loadConfig({ WEBHOOK_UNSAFE_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_UNSAFE_ALLOW_LOOPBACK/);
      expect(() => loadConfig({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'yes' })).toThrow(/OUTBOUND_UNSAFE_ALLOW_LOOPBACK/);
    },
  );

  it('requires S3_BUCKET when STORAGE_DRIVER=s3', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
  });
});
