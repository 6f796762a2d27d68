// The OpenAI Videos drop-in (/v1/videos) with the official `openai` Node SDK against the real stack (API over
// loopback HTTP, Temporal, a worker process, PostgreSQL, real Lottie renders): create in JSON and multipart
// (an input_reference image, shown in the video), retrieve until completed, download the video and its
// thumbnail and sprite sheet, list with the SDK's auto-pagination, remix, delete (then 404 in OpenAI's shape).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageColourShares, twoColourImage } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, type TestStack } from '../support/stack.js';

const run = promisify(execFile);
const RENDER_WAIT_MS = 240_000;

let stack: TestStack;
let client: OpenAI;
let key: string;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
  client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videos-test-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// Extension fields ride along in the SDK's body (its multipart form carries them as text fields).
const lottie = { engine: 'lottie' } as Record<string, unknown>;

/** Retrieves with the SDK until the video is terminal, waiting what `openai-poll-after-ms` says. */
async function untilDone(id: string): Promise<OpenAI.Videos.Video> {
  const deadline = Date.now() + RENDER_WAIT_MS;
  for (;;) {
    const { data: video, response } = await client.videos.retrieve(id).withResponse();
    if (video.status === 'completed' || video.status === 'failed') {
      expect(response.headers.get('openai-poll-after-ms')).toBeNull();
      return video;
    }
    const wait = Number(response.headers.get('openai-poll-after-ms'));
    expect(wait).toBeGreaterThan(0);
    if (Date.now() > deadline)
      throw new Error(`video ${id} not done: ${JSON.stringify(video)}\n${stack.worker.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, Math.min(wait, 500)));
  }
}

async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames:format=duration,format_name',
    '-of',
    'json',
    file,
  ]);
  const j = JSON.parse(stdout);
  return { ...j.streams[0], duration: Number(j.format.duration), format: j.format.format_name };
}

async function download(id: string, variant: 'video' | 'thumbnail' | 'spritesheet', ext: string) {
  const res = await client.videos.downloadContent(id, { variant });
  const file = path.join(dir, `${id}-${variant}.${ext}`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, contentType: res.headers.get('content-type') };
}

const VIDEO_KEYS = [
  'completed_at',
  'created_at',
  'error',
  'expires_at',
  'id',
  'model',
  'object',
  'progress',
  'prompt',
  'remixed_from_video_id',
  'seconds',
  'size',
  'status',
];

let multipartId: string;

describe('OpenAI Videos drop-in with the official SDK', () => {
  it(
    'create (multipart, an input_reference image) → retrieve until completed → downloadContent of every variant',
    { timeout: RENDER_WAIT_MS + 60_000 },
    async () => {
      const png = twoColourImage(160, 180);
      const created = await client.videos.create({
        prompt: 'Spring sale at Nimbus. Everything half price this week.',
        model: 'sora-2',
        seconds: '4',
        size: '360x640' as OpenAI.Videos.VideoSize,
        input_reference: await toFile(png, 'reference.png', { type: 'image/png' }),
        ...lottie,
      });
      expect(Object.keys(created)).toEqual(expect.arrayContaining(VIDEO_KEYS));
      expect(created).toMatchObject({
        object: 'video',
        model: 'sora-2',
        status: 'queued',
        progress: 0,
        seconds: '4',
        size: '360x640',
        prompt: 'Spring sale at Nimbus. Everything half price this week.',
        remixed_from_video_id: null,
        completed_at: null,
        error: null,
      });
      multipartId = created.id;
      const done = await untilDone(created.id);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      expect(done.progress).toBe(100);
      expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
      expect(done.completed_at).toBeLessThan(Date.now() / 1000 + 5); // seconds, not milliseconds

      const video = await download(created.id, 'video', 'mp4');
      expect(video.contentType).toBe('video/mp4');
      const facts = await probe(video.file);
      expect(facts).toMatchObject({ codec_name: 'h264', width: 360, height: 640 });
      expect(facts.duration).toBeCloseTo(4, 0);
      // The reference image is on the title scene.
      const shares = await imageColourShares(video.file, 0.6);
      expect(shares.magenta + shares.green, JSON.stringify(shares)).toBeGreaterThan(0.05);

      for (const variant of ['thumbnail', 'spritesheet'] as const) {
        const image = await download(created.id, variant, 'jpg');
        expect(image.contentType).toBe('image/jpeg');
        expect(fs.readFileSync(image.file).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      }
    },
  );

  it('create in JSON with {image_url} (a data: URL); the SDK lists with auto-pagination in both orders', async () => {
    const png = twoColourImage(160, 180);
    const ids: string[] = [];
    for (const prompt of ['First clip. Hello.', 'Second clip. Hello again.', 'Third clip. Goodbye.']) {
      const res = await api(stack.url, '/v1/videos', {
        method: 'POST',
        key,
        json: {
          prompt,
          seconds: '2',
          size: '180x320',
          engine: 'lottie',
          input_reference: { image_url: `data:image/png;base64,${png.toString('base64')}` },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'sora-2', seconds: '2', size: '180x320', prompt });
      ids.push(res.body.id);
    }
    const newestFirst: string[] = [];
    for await (const video of client.videos.list({ limit: 1 })) {
      expect(video.object).toBe('video');
      newestFirst.push(video.id);
    }
    expect(newestFirst.slice(0, 3)).toEqual([...ids].reverse());
    const page = await client.videos.list({ limit: 2, order: 'asc' });
    expect(page.data.length).toBe(2);
    expect(page.has_more).toBe(true);
    const oldestFirst: string[] = [];
    for await (const video of client.videos.list({ limit: 2, order: 'asc' })) oldestFirst.push(video.id);
    expect(oldestFirst).toEqual([...newestFirst].reverse());
  });

  it(
    'remix: a new video of the same canvas and length with remixed_from_video_id',
    { timeout: RENDER_WAIT_MS + 30_000 },
    async () => {
      const remix = await client.videos.remix(multipartId, { prompt: 'Make it a winter sale instead' });
      expect(remix.id).not.toBe(multipartId);
      expect(remix).toMatchObject({
        object: 'video',
        remixed_from_video_id: multipartId,
        size: '360x640',
        seconds: '4',
        model: 'sora-2',
        prompt: 'Make it a winter sale instead',
      });
      const done = await untilDone(remix.id);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      const video = await download(remix.id, 'video', 'mp4');
      expect(await probe(video.file)).toMatchObject({ width: 360, height: 640 });
    },
  );

  it('delete: removes the media, then every read is a 404 in OpenAI’s error shape', async () => {
    const before = await client.videos.retrieve(multipartId);
    const videoUrl = (before as unknown as { video_url: { url: string } }).video_url.url;
    expect((await fetch(videoUrl)).status).toBe(200);
    const deleted = await client.videos.delete(multipartId);
    expect(deleted).toEqual({ id: multipartId, object: 'video.deleted', deleted: true });
    expect((await fetch(videoUrl)).status).toBe(404);
    const err = await client.videos.retrieve(multipartId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'not_found',
      param: null,
      message: expect.stringContaining(multipartId),
    });
    await expect(client.videos.downloadContent(multipartId)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const listed: string[] = [];
    for await (const video of client.videos.list({ limit: 100 })) listed.push(video.id);
    expect(listed).not.toContain(multipartId);
  });

  it('a running video is cancelled, then deleted', async () => {
    const created = await client.videos.create({ prompt: 'A long calm intro. Then more.', seconds: '12', ...lottie });
    const deleted = await client.videos.delete(created.id);
    expect(deleted.deleted).toBe(true);
    const res = await api(stack.url, `/v1/responses/${created.id}`, { key });
    expect(res.status).toBe(404);
  });

  it('bad values are 400s naming the field, in OpenAI’s error shape', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ prompt: 'x', size: 'big' }, 'size'],
      [{ prompt: 'x', size: '99999x10' }, 'size'],
      [{ prompt: 'x', seconds: '0' }, 'seconds'],
      [{ prompt: 'x', seconds: 'four' }, 'seconds'],
      [{ prompt: 'x', model: 'dall-e-3' }, 'model'],
      [{ prompt: '' }, 'prompt'],
      [{ prompt: 'x', colour: 'red' }, 'colour'],
      [{ prompt: 'x', input_reference: { image_url: 'https://127.0.0.1/a.png' } }, 'input_reference'],
    ];
    for (const [body, param] of cases) {
      const err = await client.videos.create(body as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(body)).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).error, JSON.stringify(body)).toMatchObject({
        type: 'invalid_request_error',
        param,
      });
    }
    const bad = new OpenAI({ apiKey: 'vg_nope', baseURL: `${stack.url}/v1`, maxRetries: 0 });
    const unauthorized = await bad.videos.list().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauthorized as InstanceType<typeof OpenAI.AuthenticationError>).error).toMatchObject({
      type: 'authentication_error',
    });
  });
});
