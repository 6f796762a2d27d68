// Media URLs, outside the stack: the request-time checks (public HTTPS only, every resolved address;
// data: URL images sniffed and renamed to assets), the pinned download (redirects re-checked, size and
// time bounded, errors classified retryable or not) and the fetch step's images against a real HTTPS
// server with a self-signed certificate, stored in a local storage directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DomainError } from '../../src/errors.js';
import { downloadToFile, DownloadError, type DownloadOptions } from '../../src/media/download.js';
import { fetchMediaAssets, MediaUnavailableError, type FetchMediaDeps } from '../../src/media/fetch.js';
import { prepareRequestMedia } from '../../src/media/requestMedia.js';
import type { ContentPart, GenerationRequest } from '../../src/shared.js';
import type { MediaFetchCall } from '../../src/temporal/contract.js';
import { generationRequest } from '../support/fixtures.js';
import { LocalStorage } from '../../src/storage/index.js';
import { mediaAssetKey } from '../../src/storage/keys.js';
import type { HostResolver } from '../../src/outbound/urlPolicy.js';
import { startMediaServer, twoColourImage, type MediaServer } from '../support/mediaServer.js';
import { makeSelfSignedCert, type TlsFiles } from '../webhooks/support/receiver.js';

let cert: TlsFiles;
let server: MediaServer;
let png: Buffer;
let tmp: string;

beforeAll(async () => {
  cert = makeSelfSignedCert();
  server = await startMediaServer(cert);
  png = twoColourImage(40, 20);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'media-unit-'));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(cert.dir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** receiver.test is the certificate's name: resolved to loopback by the test resolver. */
const resolve: HostResolver = async (host) => {
  if (host === 'receiver.test') return ['127.0.0.1'];
  if (host === 'private.example') return ['93.184.216.34', '10.1.2.3'];
  if (host === 'public.example') return ['93.184.216.34', '2606:2800:220:1::248'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const named = (pathname: string) => `https://receiver.test:${server.port}${pathname}`;
const local = (extra: Partial<DownloadOptions> = {}): DownloadOptions => ({
  allowLoopback: true,
  resolve,
  ca: [...tls.rootCertificates, cert.cert],
  maxBytes: 1024 * 1024,
  timeoutMs: 3000,
  maxRedirects: 2,
  ...extra,
});
let n = 0;
const dest = () => path.join(tmp, `download-${++n}`);

async function downloadError(url: string, opts = local()): Promise<DownloadError> {
  const err = await downloadToFile(url, dest(), opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DownloadError);
  return err as DownloadError;
}

describe('downloadToFile', () => {
  it('downloads over the pinned address with SNI and the certificate checked against the name', async () => {
    server.route('/a.png', { body: png, type: 'image/png' });
    const file = dest();
    const got = await downloadToFile(named('/a.png'), file, local());
    expect(got).toEqual({ bytes: png.length, contentType: 'image/png', finalUrl: named('/a.png') });
    expect(fs.readFileSync(file)).toEqual(png);
  });

  it('follows redirects whose targets pass the checks, at most maxRedirects', async () => {
    server.route('/hop1', { redirect: '/hop2' });
    server.route('/hop2', { redirect: named('/a.png'), status: 307 });
    expect((await downloadToFile(named('/hop1'), dest(), local())).finalUrl).toBe(named('/a.png'));
    server.route('/loop', { redirect: '/loop' });
    expect((await downloadError(named('/loop'))).message).toBe('more than 2 redirects');
  });

  it('never follows a redirect into private space or to http: refused, not retryable', async () => {
    server.route('/to-private', { redirect: 'https://10.0.0.1/secret' });
    server.route('/to-metadata', { redirect: 'https://169.254.169.254/latest/meta-data/' });
    server.route('/to-http', { redirect: 'http://receiver.test/a.png' });
    server.route('/to-name', { redirect: 'https://private.example/a.png' });
    const cases: [string, string][] = [
      [
        '/to-private',
        'it redirects to https://10.0.0.1/secret, which is refused: host 10.0.0.1 is not public (private address)',
      ],
      ['/to-metadata', 'link-local address'],
      ['/to-http', 'scheme http is not https'],
      ['/to-name', 'host private.example resolves to an address that is not public'],
    ];
    for (const [pathname, reason] of cases) {
      const err = await downloadError(named(pathname));
      expect(err.message).toContain(reason);
      expect(err.retryable).toBe(false);
    }
  });

  it('HTTP errors: 4xx final, 5xx and 429 retryable', async () => {
    server.route('/gone', { status: 410, body: 'gone' });
    server.route('/busy', { status: 503, body: 'busy' });
    server.route('/slow-down', { status: 429, body: 'later' });
    expect(await downloadError(named('/missing'))).toMatchObject({ message: 'HTTP 404 Not Found', retryable: false });
    expect(await downloadError(named('/gone'))).toMatchObject({ message: 'HTTP 410 Gone', retryable: false });
    expect(await downloadError(named('/busy'))).toMatchObject({
      message: 'HTTP 503 Service Unavailable',
      retryable: true,
    });
    expect(await downloadError(named('/slow-down'))).toMatchObject({ retryable: true });
  });

  it(
    'too large: refused from Content-Length before reading, ' + 'or while counting a chunked body; nothing left behind',
    async () => {
      const big = Buffer.alloc(1024 * 1024 + 1, 7);
      server.route('/big', { body: big });
      server.route('/big-chunked', { body: big, chunked: true });
      for (const pathname of ['/big', '/big-chunked']) {
        const file = dest();
        const err = await downloadToFile(named(pathname), file, local()).catch((e: unknown) => e as DownloadError);
        expect(err).toMatchObject({ retryable: false, message: expect.stringContaining('over the limit of 1 MiB') });
        expect(fs.existsSync(file)).toBe(false);
      }
    },
  );

  it('network trouble is retryable: no answer in time, connection refused, unknown name', async () => {
    server.route('/hang', { hang: true });
    const started = Date.now();
    expect(await downloadError(named('/hang'), local({ timeoutMs: 500 }))).toMatchObject({
      message: 'no complete answer within 1 s',
      retryable: true,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await downloadError('https://127.0.0.1:1/a.png')).toMatchObject({
      message: expect.stringContaining('ECONNREFUSED'),
      retryable: true,
    });
    expect(await downloadError('https://nowhere.example/a.png')).toMatchObject({
      message: 'refused: host nowhere.example could not be resolved (ENOTFOUND)',
      retryable: true,
    });
  });

  it('an untrusted certificate is final (retrying cannot fix it)', async () => {
    const err = await downloadError(named('/a.png'), local({ ca: undefined }));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/certificate/i);
  });

  it('the caller’s cancellation surfaces as itself, not as a download error', async () => {
    const controller = new AbortController();
    const pending = downloadToFile(named('/hang'), dest(), local({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('cancelled by test')), 100);
    await expect(pending).rejects.toThrow('cancelled by test');
  });
});

describe('fetchMediaAssets (images)', () => {
  const storage = () =>
    new LocalStorage({
      root: path.join(tmp, 'media'),
      secret: 'x'.repeat(32),
      publicBaseUrl: 'http://localhost',
      ttlSeconds: 60,
    });
  const deps = (): FetchMediaDeps => ({
    storage: storage(),
    policy: { allowLoopback: true, resolve },
    ca: [...tls.rootCertificates, cert.cert],
    ffmpegPath: 'ffmpeg',
  });

  it(
    'stores each part as generations/<id>/assets/<kind>-<n>.<ext> and describes it; ' +
      'one URL twice is downloaded once',
    async () => {
      server.route('/photo', { body: png, type: 'application/octet-stream' }); // the type comes from the bytes
      const call: MediaFetchCall = {
        generationId: 'gen_unit1',
        parts: [
          { kind: 'image', number: 1, url: named('/photo') },
          { kind: 'image', number: 2, url: named('/photo') },
        ],
      };
      const before = server.hits.get('/photo') ?? 0;
      const assets = await fetchMediaAssets(call, deps());
      expect(server.hits.get('/photo')! - before).toBe(1);
      expect(assets).toEqual(
        [1, 2].map((i) => ({
          name: `image-${i}.png`,
          kind: 'image',
          mediaType: 'image/png',
          bytes: png.length,
          width: 40,
          height: 20,
          durationSeconds: null,
        })),
      );
      const stored = await storage().stat(mediaAssetKey('gen_unit1', 'image-2.png'));
      expect(stored).toMatchObject({ size: png.length, contentType: 'image/png' });
    },
  );

  it('an asset: part (a data: URL image the API stored) is read back and described, not stored again', async () => {
    const file = path.join(tmp, 'media', mediaAssetKey('gen_unit2', 'image-1.png'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, png);
    const assets = await fetchMediaAssets(
      { generationId: 'gen_unit2', parts: [{ kind: 'image', number: 1, url: 'asset:image-1.png' }] },
      deps(),
    );
    expect(assets).toEqual([
      {
        name: 'image-1.png',
        kind: 'image',
        mediaType: 'image/png',
        bytes: png.length,
        width: 40,
        height: 20,
        durationSeconds: null,
      },
    ]);
  });

  it(
    'wrong type: HTML behind an image URL, an image where a video was asked; ' + 'the first failing part is named',
    async () => {
      server.route('/page', { body: '<!doctype html><p>hello</p>', type: 'image/png' });
      const fail = async (parts: MediaFetchCall['parts']) => {
        const err = await fetchMediaAssets({ generationId: 'gen_unit3', parts }, deps()).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(MediaUnavailableError);
        return err as MediaUnavailableError;
      };
      const html = await fail([
        { kind: 'image', number: 1, url: named('/photo') },
        { kind: 'image', number: 2, url: named('/page') },
      ]);
      expect(html.message).toBe(
        `The image ${named('/page')} (image 2 of the request) cannot be used: its bytes are not a PNG, JPEG, ` +
          `GIF or WebP image, nor an MP4, MOV or WebM video`,
      );
      expect(html.retryable).toBe(false);
      expect((await fail([{ kind: 'video', number: 1, url: named('/photo') }])).message).toContain(
        'it is an image (image/png), not a video',
      );
    },
  );
});

describe('prepareRequestMedia (request time)', () => {
  const config = loadConfig({});
  const request = (...media: ContentPart[]): GenerationRequest =>
    generationRequest('e', 'm', { content: [{ type: 'text', text: 'x' }, ...media] });
  /** Where each media part of `req` came from, as the translation of a request body gives them. */
  const paramsOf = (req: GenerationRequest) =>
    req.messages[0]!.content.flatMap((p, i) => (p.type === 'text' ? [] : [`input.0.content.${i}.${p.type}_url`]));
  const refusal = async (req: GenerationRequest) => {
    const err = await prepareRequestMedia(req, config, paramsOf(req), resolve).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  };

  it('public HTTPS URLs pass unchanged (names resolved, every address checked); nothing to store', async () => {
    const req = request(
      { type: 'image', url: 'https://public.example/a.png' },
      { type: 'video', url: 'https://93.184.216.34/v.mp4' },
    );
    expect(await prepareRequestMedia(req, config, paramsOf(req), resolve)).toEqual({ request: req, uploads: [] });
  });

  it.each([
    ['http://public.example/a.png', 'scheme http is not https'],
    ['https://127.0.0.1/a.png', 'loopback address'],
    ['https://localhost/a.png', 'loopback name'],
    ['https://10.0.0.1/a.png', 'private address'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local address'],
    ['https://[::ffff:a9fe:a9fe]/', 'link-local address'],
    ['https://private.example/a.png', 'host private.example resolves to an address that is not public'],
    ['https://nowhere.example/a.png', 'could not be resolved (ENOTFOUND)'],
    ['https://metadata.internal/a.png', 'private-use name'],
  ])('%s → 400 invalid_media_url (%s), naming the part', async (url, reason) => {
    const err = await refusal(request({ type: 'image', url: 'https://public.example/ok.png' }, { type: 'image', url }));
    expect(err).toMatchObject({
      kind: 'invalid_input',
      code: 'invalid_media_url',
      param: 'input.0.content.2.image_url',
    });
    expect(err.message).toContain(reason);
  });

  it(
    'data: URL images are sniffed, numbered among the images, and become asset: ' +
      'references with their bytes to store',
    async () => {
      const dataUrl = `data:image/jpeg;base64,${png.toString('base64')}`; // declared JPEG, really PNG
      const req = request(
        { type: 'image', url: 'https://public.example/a.png' },
        { type: 'video', url: 'https://public.example/v.mp4' },
        { type: 'image', url: dataUrl },
      );
      const prepared = await prepareRequestMedia(req, config, paramsOf(req), resolve);
      expect(prepared.request.messages[0]!.content.slice(1)).toEqual([
        { type: 'image', url: 'https://public.example/a.png' },
        { type: 'video', url: 'https://public.example/v.mp4' },
        { type: 'image', url: 'asset:image-2.png' },
      ]);
      expect(prepared.uploads).toEqual([{ name: 'image-2.png', bytes: png, mediaType: 'image/png' }]);
    },
  );

  it('data: URLs that are not images, or of videos, or malformed: 400 invalid_media_url', async () => {
    const html = `data:image/png;base64,${Buffer.from('<html>hi</html>').toString('base64')}`;
    expect((await refusal(request({ type: 'image', url: html }))).message).toContain(
      'does not hold a PNG, JPEG, GIF or WebP image (judged by its bytes)',
    );
    expect((await refusal(request({ type: 'video', url: `data:video/mp4;base64,AAAA` }))).message).toContain(
      'data: URLs are accepted for images only',
    );
    expect((await refusal(request({ type: 'image', url: 'data:image/png;base64,@@@' }))).code).toBe(
      'invalid_media_url',
    );
    expect(
      (
        await refusal(
          request({ type: 'image', url: `data:image/png;base64,${png.subarray(0, 20).toString('base64')}` }),
        )
      ).message,
    ).toContain('header is unreadable');
  });

  it('the unsafe local-testing setting lets loopback through, and nothing else', async () => {
    const unsafe = loadConfig({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true' });
    await expect(
      prepareRequestMedia(
        request({ type: 'image', url: 'https://127.0.0.1:8443/a.png' }),
        unsafe,
        ['input.0.content.1.image_url'],
        resolve,
      ),
    ).resolves.toBeDefined();
    await expect(
      prepareRequestMedia(
        request({ type: 'image', url: 'https://10.0.0.1/a.png' }),
        unsafe,
        ['input.0.content.1.image_url'],
        resolve,
      ),
    ).rejects.toThrow('private address');
  });
});
