// Local storage and its signed media URLs, over real HTTP through the API's media route.
import crypto from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaRoutes } from '../../src/api/media/routes.js';
import { errorMiddleware } from '../../src/http/errors.js';
import type { AppState } from '../../src/http/context.js';
import { loadConfig } from '../../src/config.js';
import { createStorage, LocalStorage, type Storage } from '../../src/storage/index.js';
import { mediaUrlSecret, signMedia, SECRET_FILE } from '../../src/storage/signing.js';
import { freePort } from '../../src/tooling/ports.js';

let dataDir: string;
let server: ReturnType<Koa['listen']>;
let storage: Storage;
let secret: string;
const video = crypto.randomBytes(100_000);
const key = 'generations/gen_test/video.mp4';

/** The API's error middleware and the media route, as createApp mounts them. */
async function startApp(s: Storage, port: number) {
  const app = new Koa<AppState>();
  app.use(errorMiddleware());
  const router = mediaRoutes({ storage: s });
  app.use(router.routes()).use(router.allowedMethods());
  const srv = app.listen(port, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  return srv;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
  const port = await freePort();
  const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
  storage = createStorage(config);
  secret = mediaUrlSecret(config.storage, config.dataDir);
  server = await startApp(storage, port);
  const file = path.join(dataDir, 'upload.mp4');
  fs.writeFileSync(file, video);
  await storage.put(key, file, 'video/mp4');
});

afterAll(() => {
  server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('local storage', () => {
  it('is the default driver and keeps files under DATA_DIR/media', () => {
    expect(storage).toBeInstanceOf(LocalStorage);
    expect(fs.readFileSync(path.join(dataDir, 'media', key))).toEqual(video);
  });

  it('generates the URL secret once into DATA_DIR/media-url-secret, mode 0600', () => {
    const file = path.join(dataDir, SECRET_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(secret);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // Another process (another config) sharing DATA_DIR gets the same secret.
    expect(mediaUrlSecret({}, dataDir)).toBe(secret);
    expect(mediaUrlSecret({ mediaUrlSecret: 'x'.repeat(32) }, dataDir)).toBe('x'.repeat(32));
  });

  it('rejects unsafe keys', async () => {
    for (const bad of ['../etc/passwd', '/abs', 'a//b', '.meta/x', 'a b', '']) {
      await expect(storage.put(bad, path.join(dataDir, 'upload.mp4'), 'video/mp4')).rejects.toThrow(
        /Invalid storage key/,
      );
    }
  });
});

describe('signed media URLs over HTTP', () => {
  it('round-trips: the signed URL serves the bytes with their content type', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { url, expires_at } = await storage.url(key);
    expect(expires_at).toBeGreaterThanOrEqual(before + 24 * 3600);
    expect(url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/media\/generations\/gen_test\/video\.mp4\?expires=\d+&sig=[\w-]+$/,
    );
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(video);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await fetch((await storage.url(key)).url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves byte ranges: 206 with Content-Range and exactly those bytes', async () => {
    const { url } = await storage.url(key);
    const res = await fetch(url, { headers: { Range: 'bytes=1000-1999' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 1000-1999/${video.length}`);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(video.subarray(1000, 2000));

    const suffix = await fetch(url, { headers: { Range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(video.subarray(video.length - 10));

    const open = await fetch(url, { headers: { Range: `bytes=${video.length - 3}-` } });
    expect(open.headers.get('content-range')).toBe(`bytes ${video.length - 3}-${video.length - 1}/${video.length}`);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(video.subarray(video.length - 3));
  });

  it('honours If-Range (RFC 9110): a matching validator gets the range, any other the whole file', async () => {
    // A Last-Modified counts as a strong validator only once a second old: the file is dated a minute back.
    const file = (await (storage as LocalStorage).stat(key))!.path;
    const minuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(file, minuteAgo, minuteAgo);
    const { url } = await storage.url(key);
    const head = await fetch(url, { method: 'HEAD' });
    const etag = head.headers.get('etag')!;
    const lastModified = head.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const get = (ifRange: string) => fetch(url, { headers: { Range: 'bytes=0-99', 'If-Range': ifRange } });

    for (const matching of [etag, lastModified]) {
      const res = await get(matching);
      expect(res.status, matching).toBe(206);
      expect((await res.arrayBuffer()).byteLength).toBe(100);
    }
    const stale = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    for (const other of ['"0-0"', `W/${etag}`, stale, 'not a validator']) {
      const res = await get(other);
      expect(res.status, other).toBe(200);
      expect(res.headers.get('content-range')).toBeNull();
      expect(Buffer.from(await res.arrayBuffer())).toEqual(video);
    }
  });

  it('answers 416 to a range past the end', async () => {
    const res = await fetch((await storage.url(key)).url, { headers: { Range: `bytes=${video.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('range_not_satisfiable');
  });

  it('refuses a tampered URL with 403 in the API error shape', async () => {
    const { url } = await storage.url(key);
    const u = new URL(url);
    const tampered = [
      url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`),
      url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
      url.replace('video.mp4', 'other.mp4'),
      `${u.origin}${u.pathname}`,
    ];
    for (const bad of tampered) {
      const res = await fetch(bad);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ error: { code: 'invalid_signature', message: expect.any(String) } });
    }
  });

  it('refuses an expired URL with 403', async () => {
    const expired = Math.floor(Date.now() / 1000) - 1;
    const { url } = await storage.url(key);
    const u = new URL(url);
    const res = await fetch(`${u.origin}${u.pathname}?expires=${expired}&sig=${signMedia(secret, key, expired)}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('url_expired');
  });

  it('keeps each object’s content type, and 404s a validly signed URL to nothing', async () => {
    const artifact = path.join(dataDir, 'composition.json');
    fs.writeFileSync(artifact, '{"v":"5.7.4"}');
    await storage.put('generations/gen_test/composition.json', artifact, 'application/json');
    const res = await fetch((await storage.url('generations/gen_test/composition.json')).url);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"v":"5.7.4"}');

    const gone = await fetch((await storage.url('generations/gen_test/never-stored.json')).url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('stores and reads back texts (compositions) with their content type', async () => {
    const html = '<!doctype html><html><body>日本語 ✓</body></html>';
    await storage.putText('generations/gen_text/compositions/1.html', html, 'text/html');
    expect(await storage.getText('generations/gen_text/compositions/1.html')).toBe(html);
    const res = await fetch((await storage.url('generations/gen_text/compositions/1.html')).url);
    expect(res.headers.get('content-type')).toBe('text/html');
    await expect(storage.getText('generations/gen_text/compositions/2.html')).rejects.toThrow();
  });

  it('deletes an object (a rendered chunk once joined); deleting nothing is no error', async () => {
    await storage.putText('generations/gen_del/chunks/0.mp4', 'chunk', 'video/mp4');
    await storage.delete('generations/gen_del/chunks/0.mp4');
    await expect(storage.getText('generations/gen_del/chunks/0.mp4')).rejects.toThrow();
    expect((await fetch((await storage.url('generations/gen_del/chunks/0.mp4')).url)).status).toBe(404);
    await storage.delete('generations/gen_del/chunks/0.mp4');
    await expect(storage.delete('../outside')).rejects.toThrow();
  });
});

// Artifacts are attacker-steerable HTML: no media response may run as the API's origin.
describe('media responses are sandboxed', () => {
  const html = '<!doctype html><html><body><h1>Title</h1><script>fetch("/dashboard")</script></body></html>';

  it('serves an HTML artifact with the sandbox CSP, nosniff, and as a download unless ?inline=1', async () => {
    await storage.putText('generations/gen_test/compositions/1.html', html, 'text/html; charset=utf-8');
    const { url } = await storage.url('generations/gen_test/compositions/1.html');
    for (const [query, disposition] of [
      ['', 'attachment'],
      ['&inline=1', 'inline'],
    ] as const) {
      const res = await fetch(url + query);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(html);
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/allow-scripts|allow-same-origin|script-src/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBe(`${disposition}; filename="gen_test-1.html"`);
    }
  });

  it('serves video and pictures inline, SVG and unknown types as downloads, all sandboxed and unsniffed', async () => {
    const cases = [
      ['generations/gen_test/video.mp4', null, 'inline; filename="gen_test-video.mp4"'],
      ['generations/gen_test/poster.jpg', 'image/jpeg', 'inline; filename="gen_test-poster.jpg"'],
      ['generations/gen_test/assets/logo.svg', 'image/svg+xml', 'attachment; filename="gen_test-logo.svg"'],
      [
        'generations/gen_test/assets/notes.bin',
        'application/octet-stream',
        'attachment; filename="gen_test-notes.bin"',
      ],
    ] as const;
    for (const [k, type, disposition] of cases) {
      if (type)
        await storage.putText(k, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type);
      const res = await fetch((await storage.url(k)).url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(disposition);
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await res.arrayBuffer();
    }
  });

  it('with MEDIA_BASE_URL, answers only on the media host (404 on the API host)', async () => {
    const app = new Koa<AppState>();
    app.use(errorMiddleware());
    const port = await freePort();
    const router = mediaRoutes({ storage, mediaBaseUrl: `http://media.localhost:${port}` });
    app.use(router.routes());
    const srv = app.listen(port, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    try {
      const { pathname, search } = new URL((await storage.url(key)).url);
      const get = (host: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: pathname + search, headers: { host } }, (res) =>
              resolve(res.resume().statusCode!),
            )
            .on('error', reject);
        });
      expect(await get(`media.localhost:${port}`)).toBe(200);
      expect(await get(`127.0.0.1:${port}`)).toBe(404);
    } finally {
      srv.close();
    }
  });
});
