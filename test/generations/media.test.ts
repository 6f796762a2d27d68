// User media on the real stack (API over HTTP, Temporal, worker process, PostgreSQL, real renders):
// an image served by a local HTTPS server (loopback and its self-signed certificate allowed only by
// the unsafe local-testing settings) and a data: URL image appear on the title scene of the video the
// local provider composes; unusable media fail the generation with media_unavailable; non-public media
// URLs are refused at request time by an API without those settings.
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  imageColourShares,
  startMediaServer,
  testVideo,
  twoColourImage,
  type MediaServer,
} from '../support/mediaServer.js';
import {
  api,
  createOrgWithKey,
  startApi,
  startStack,
  waitForTerminal,
  type TestApi,
  type TestStack,
} from '../support/stack.js';
import { makeSelfSignedCert, type TlsFiles } from '../webhooks/support/receiver.js';

let cert: TlsFiles;
let server: MediaServer;
let stack: TestStack;
let strict: TestApi;
let key: string;
let png: Buffer;

const RENDER_WAIT_MS = 240_000;

beforeAll(async () => {
  cert = makeSelfSignedCert();
  server = await startMediaServer(cert);
  png = twoColourImage(160, 180);
  server.route('/photo.png', { body: png, type: 'image/png' });
  server.route('/clip.mp4', { body: testVideo(2), type: 'video/mp4' });
  server.route('/long.mp4', { body: testVideo(61), type: 'video/mp4' });
  // A PNG signature, then padding past 10 MiB, sent without Content-Length: only counting stops it.
  server.route('/huge.png', {
    body: Buffer.concat([png.subarray(0, 64), Buffer.alloc(10 * 2 ** 20)]),
    type: 'image/png',
    chunked: true,
  });
  server.route('/page.png', { body: '<!doctype html><p>not an image</p>', type: 'image/png' });
  server.route('/to-private.png', { redirect: 'https://10.0.0.1/photo.png' });
  stack = await startStack({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true', OUTBOUND_UNSAFE_CA_FILE: cert.certFile });
  // The same database and namespace, without the unsafe settings: what production answers.
  strict = await startApi({ TEMPORAL_NAMESPACE: stack.namespace });
  ({ key } = await createOrgWithKey(stack.db));
});

afterAll(async () => {
  await strict?.close();
  await stack?.close();
  await server?.close();
  if (cert) fs.rmSync(cert.dir, { recursive: true, force: true });
});

const text = (t: string) => ({ type: 'input_text', text: t });
const imagePart = (url: string) => ({ type: 'input_image', image_url: url });
const videoPart = (url: string) => ({ type: 'input_video', video_url: { url } });
const dataUrl = (bytes: Buffer, declared = 'image/png') => `data:${declared};base64,${bytes.toString('base64')}`;

async function create(engine: string, content: object[], base = stack.url) {
  return api(base, '/v1/responses', {
    method: 'POST',
    key,
    json: {
      model: 'gpt-4o-mini',
      engine,
      width: 160,
      height: 284,
      provider: { order: ['local'] },
      input: [{ role: 'user', content }],
    },
  });
}

const storedFile = (id: string, name: string) =>
  path.join(inject('dataDir'), 'media', 'generations', id, 'assets', name);

/** Share of the pixels of one frame of the generation's video (at `seconds`) in the test image's colours. */
async function imageColoursAt(videoUrl: string, seconds: number): ReturnType<typeof imageColourShares> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-frame-'));
  try {
    const file = path.join(dir, 'v.mp4');
    fs.writeFileSync(file, Buffer.from(await (await fetch(videoUrl)).arrayBuffer()));
    return await imageColourShares(file, seconds);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The title scene shows the image: its colours cover a real part of the frame, and both halves are
 * on screen (the Lottie composer crops it more tightly than HyperFrames, so one half may be small, and
 * sets the title over its lower part under a scrim: that half counts by its tint).
 */
async function expectImageShown(videoUrl: string) {
  const share = await imageColoursAt(videoUrl, 0.6);
  expect(share.magenta + share.green, JSON.stringify(share)).toBeGreaterThan(0.1);
  expect(share.magenta, JSON.stringify(share)).toBeGreaterThan(0.002);
  expect(share.greenTint, JSON.stringify(share)).toBeGreaterThan(0.002);
}

describe('user media in the video', () => {
  it(
    'an https image appears on the title scene (hyperframes); a video part is fetched and stored beside it',
    { timeout: RENDER_WAIT_MS + 30_000 },
    async () => {
      const created = await create('hyperframes', [
        text('A bold product launch teaser'),
        imagePart(server.url('/photo.png')),
        videoPart(server.url('/clip.mp4')),
      ]);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { id } = created.body;
      const done = await waitForTerminal(stack.url, key, id, RENDER_WAIT_MS);
      expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
      expect(fs.readFileSync(storedFile(id, 'image-1.png'))).toEqual(png);
      expect(fs.statSync(storedFile(id, 'video-1.mp4')).size).toBeGreaterThan(0);
      const artifact = await (await fetch(done.body.artifact_url.url)).text();
      expect(artifact).toContain('assets/image-1.png');
      await expectImageShown(done.body.output_video_url);
    },
  );

  it(
    'a data: URL image (Chat shape) is stored at request time, never carried by the request, and appears too',
    { timeout: RENDER_WAIT_MS + 30_000 },
    async () => {
      const created = await api(stack.url, '/v1/chat/completions', {
        method: 'POST',
        key,
        json: {
          model: 'gpt-4o-mini',
          engine: 'hyperframes',
          width: 160,
          height: 284,
          provider: { order: ['local'] },
          // Declared as JPEG: the type comes from the bytes.
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'A bold product launch teaser' },
                { type: 'image_url', image_url: { url: dataUrl(png, 'image/jpeg') } },
              ],
            },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { id } = created.body;
      const { rows } = await stack.db.query('SELECT request FROM generations WHERE id = $1', [id]);
      expect(rows[0].request.messages[0].content[1]).toEqual({ type: 'image', url: 'asset:image-1.png' });
      expect(fs.readFileSync(storedFile(id, 'image-1.png'))).toEqual(png);
      const done = await waitForTerminal(stack.url, key, id, RENDER_WAIT_MS, '/v1/chat/completions');
      expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
      await expectImageShown(done.body.choices[0].message.video_url.url);
    },
  );

  it('an https image appears on the title scene (lottie)', { timeout: RENDER_WAIT_MS + 30_000 }, async () => {
    const created = await create('lottie', [text('A bold product launch teaser'), imagePart(server.url('/photo.png'))]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const done = await waitForTerminal(stack.url, key, created.body.id, RENDER_WAIT_MS);
    expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
    await expectImageShown(done.body.output_video_url);
  });
});

describe('media that cannot be used: the generation fails with media_unavailable, naming the URL and why', () => {
  it(
    '404, over 10 MiB, not an image, a redirect into private space, a video over 60 s, an unreachable server',
    { timeout: 120_000 },
    async () => {
      const cases: [object, string, string][] = [
        [imagePart(server.url('/missing.png')), server.url('/missing.png'), 'HTTP 404 Not Found'],
        [imagePart(server.url('/huge.png')), server.url('/huge.png'), 'over the limit of 10 MiB'],
        [
          imagePart(server.url('/page.png')),
          server.url('/page.png'),
          'its bytes are not a PNG, JPEG, GIF or WebP image',
        ],
        [
          imagePart(server.url('/to-private.png')),
          server.url('/to-private.png'),
          'it redirects to https://10.0.0.1/photo.png, which is refused',
        ],
        [videoPart(server.url('/long.mp4')), server.url('/long.mp4'), 'the video lasts 61.0 s, over the limit of 60 s'],
        // Connection refused: network trouble, tried 3 times (about 6 s) before the generation fails.
        [imagePart('https://127.0.0.1:1/photo.png'), 'https://127.0.0.1:1/photo.png', 'ECONNREFUSED'],
      ];
      const ids = await Promise.all(
        cases.map(async ([part]) => {
          const created = await create('hyperframes', [text('A teaser'), part]);
          expect(created.status, JSON.stringify(created.body)).toBe(200);
          return created.body.id as string;
        }),
      );
      const results = await Promise.all(ids.map((id) => waitForTerminal(stack.url, key, id, 90_000)));
      results.forEach((done, i) => {
        const [, url, reason] = cases[i]!;
        expect(done.body.status).toBe('failed');
        expect(done.body.error.code).toBe('media_unavailable');
        expect(done.body.error.message).toContain(url);
        expect(done.body.error.message).toContain(reason);
        expect(done.body.usage).toBeNull(); // no provider was called: nothing billed
      });
      // Final failures are not retried: one request for the 404.
      expect(server.hits.get('/missing.png')).toBe(1);
    },
  );
});

/** Loopback, private-use and link-local ranges (RFC 1122, 1918, 3927, 4193, 4291): never public addresses. */
const NEVER_PUBLIC = new net.BlockList();
NEVER_PUBLIC.addSubnet('127.0.0.0', 8, 'ipv4');
NEVER_PUBLIC.addSubnet('10.0.0.0', 8, 'ipv4');
NEVER_PUBLIC.addSubnet('172.16.0.0', 12, 'ipv4');
NEVER_PUBLIC.addSubnet('192.168.0.0', 16, 'ipv4');
NEVER_PUBLIC.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER_PUBLIC.addAddress('::1', 'ipv6');
NEVER_PUBLIC.addSubnet('fc00::', 7, 'ipv6');
NEVER_PUBLIC.addSubnet('fe80::', 10, 'ipv6');

describe('media URLs that are not public HTTPS: 400 invalid_media_url at request time, nothing created', () => {
  it('http://, loopback, private, link-local, metadata, local names; data: URLs that are not images', async () => {
    const { key: strictKey, org } = await createOrgWithKey(strict.db);
    const cases: [object[], string, string][] = [
      [[imagePart('http://example.com/a.png')], 'input.0.content.1.image_url', 'scheme http is not https'],
      [[imagePart(server.url('/photo.png'))], 'input.0.content.1.image_url', 'loopback address'],
      [[imagePart('https://localhost/a.png')], 'input.0.content.1.image_url', 'loopback name'],
      [[imagePart('https://[::1]/a.png')], 'input.0.content.1.image_url', 'loopback address'],
      [[imagePart('https://10.0.0.1/a.png')], 'input.0.content.1.image_url', 'private address'],
      [[imagePart('https://169.254.169.254/latest/meta-data/')], 'input.0.content.1.image_url', 'link-local address'],
      [[imagePart('https://0xa9fea9fe/')], 'input.0.content.1.image_url', 'link-local address'],
      [[imagePart('https://metadata.google.internal/')], 'input.0.content.1.image_url', 'private-use name'],
      [[text('and'), videoPart('https://192.168.1.10/v.mp4')], 'input.0.content.2.video_url', 'private address'],
      [
        [imagePart(dataUrl(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')))],
        'input.0.content.1.image_url',
        'does not hold a PNG, JPEG, GIF or WebP image',
      ],
      [
        [videoPart(dataUrl(testVideo(1), 'video/mp4'))],
        'input.0.content.1.video_url',
        'data: URLs are accepted for images only',
      ],
    ];
    for (const [parts, param, reason] of cases) {
      const res = await api(strict.url, '/v1/responses', {
        method: 'POST',
        key: strictKey,
        json: {
          model: 'gpt-4o-mini',
          engine: 'lottie',
          width: 160,
          height: 284,
          input: [{ role: 'user', content: [text('x'), ...parts] }],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_media_url', param });
      expect(res.body.error.message).toContain(reason);
    }
    // The Chat shape names its own field; system messages do not shift the index.
    const chat = await api(strict.url, '/v1/chat/completions', {
      method: 'POST',
      key: strictKey,
      json: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be bold' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'image_url', image_url: { url: 'https://10.1.1.1/a.png' } },
            ],
          },
        ],
      },
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ code: 'invalid_media_url', param: 'messages.1.content.1.image_url' });
    const { rows } = await strict.db.query('SELECT count(*)::int AS n FROM generations WHERE organization_id = $1', [
      org.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('a name that resolves to a non-public address (this machine’s host name) is refused', async (ctx) => {
    const host = os.hostname();
    const addresses = await dns.lookup(host, { all: true }).catch(() => []);
    // Whether the name is non-public is decided here from the fixed address ranges, not by the policy
    // under test. A host whose name is public or does not resolve leaves nothing to test here (the
    // unit tests cover names with a controlled resolver).
    if (
      addresses.length === 0 ||
      !addresses.every((a) => NEVER_PUBLIC.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'))
    )
      ctx.skip();
    const res = await create('lottie', [text('x'), imagePart(`https://${host}/a.png`)], strict.url);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_media_url', param: 'input.0.content.1.image_url' });
    expect(res.body.error.message).toContain(`host ${host.toLowerCase()} resolves to an address that is not public`);
    // The tenant is not told the address: internal names cannot be mapped by trying them.
    for (const { address } of addresses) expect(res.body.error.message).not.toContain(address);
  });
});
