// Outputs on every shape (extension): `output_format` webm (VP9) and gif, and `transparent: true`, a VP9 WebM
// with an alpha channel on both engines, the background and ornament left out: ffprobe reads the files, and a
// decoded frame of the transparent one is transparent where the background was and opaque where the text is.
// Real stack (API over loopback HTTP, Temporal, a worker process, PostgreSQL, real renders).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';

const run = promisify(execFile);
const RENDER_WAIT_MS = 360_000;

let stack: TestStack;
let key: string;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  ({ key } = await createOrgWithKey(stack.db));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outputs-test-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Its own length (`duration_seconds` inside the storyboard scales its scenes). */
const storyboardOf = (seconds: number) => ({
  duration_seconds: seconds,
  scenes: [
    { kind: 'title', title: 'Overlay title', subtitle: 'A lower third' },
    { kind: 'statement', text: 'Text over your footage' },
  ],
});
const storyboard = storyboardOf(2);

async function save(url: string, name: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, contentType: res.headers.get('content-type') };
}

async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width,height,pix_fmt:stream_tags=alpha_mode:format=duration,format_name',
    '-of',
    'json',
    file,
  ]);
  const j = JSON.parse(stdout);
  const s = j.streams[0];
  return {
    codec: s.codec_name as string,
    width: s.width as number,
    height: s.height as number,
    alphaMode: (s.tags?.alpha_mode ?? s.tags?.ALPHA_MODE ?? null) as string | null,
    duration: Number(j.format.duration),
    format: j.format.format_name as string,
  };
}

/** Shares of fully transparent and fully opaque pixels of the frame at `seconds`, decoded with its alpha. */
async function alphaShares(file: string, seconds: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-c:v',
      'libvpx-vp9',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
    ].concat(['-pix_fmt', 'rgba', '-']),
    { encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  const rgba = stdout as unknown as Buffer;
  let clear = 0;
  let solid = 0;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i]! === 0) clear++;
    else if (rgba[i]! === 255) solid++;
  }
  const pixels = rgba.length / 4;
  return { clear: clear / pixels, solid: solid / pixels };
}

describe('outputs', () => {
  for (const engine of ['lottie', 'hyperframes']) {
    it(
      `transparent: true on ${engine}: a VP9 WebM with alpha, transparent where the background was`,
      { timeout: RENDER_WAIT_MS + 30_000 },
      async () => {
        const created = await api(stack.url, '/v1/responses', {
          method: 'POST',
          key,
          json: {
            model: 'gpt-4o-mini',
            engine,
            width: 180,
            height: 320,
            storyboard: storyboardOf(3),
            transparent: true,
          },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const done = await waitForTerminal(stack.url, key, created.body.id, RENDER_WAIT_MS);
        expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
        const video = await save(done.body.output_video_url, `${engine}-transparent.webm`);
        expect(video.contentType).toBe('video/webm');
        const facts = await probe(video.file);
        expect(facts).toMatchObject({ codec: 'vp9', width: 180, height: 320, alphaMode: '1' });
        expect(facts.format).toContain('webm');
        expect(facts.duration).toBeCloseTo(3, 0);
        // The title is drawn: most of the frame is clear (no background, no ornament), the letters opaque.
        const shares = await alphaShares(video.file, 1.2);
        expect(shares.clear, JSON.stringify(shares)).toBeGreaterThan(0.5);
        expect(shares.solid, JSON.stringify(shares)).toBeGreaterThan(0.005);
      },
    );
  }

  it(
    'output_format gif (Chat shape) and webm (the OpenAI Videos shape): the requested size and length',
    {
      timeout: RENDER_WAIT_MS + 30_000,
    },
    async () => {
      const gif = await api(stack.url, '/v1/chat/completions', {
        method: 'POST',
        key,
        json: {
          model: 'gpt-4o-mini',
          engine: 'lottie',
          width: 180,
          height: 320,
          storyboard,
          output_format: 'gif',
        },
      });
      expect(gif.status, JSON.stringify(gif.body)).toBe(200);
      const client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
      const webm = await client.videos.create({
        prompt: 'Nimbus. The calm calendar.',
        seconds: '2',
        size: '320x180' as OpenAI.Videos.VideoSize,
        engine: 'lottie',
        output_format: 'webm',
      } as unknown as OpenAI.Videos.VideoCreateParams);

      const gifDone = await waitForTerminal(stack.url, key, gif.body.id, RENDER_WAIT_MS, '/v1/chat/completions');
      expect(gifDone.body.status).toBe('completed');
      const gifFile = await save(gifDone.body.choices[0].message.video_url.url, 'out.gif');
      expect(gifFile.contentType).toBe('image/gif');
      const gifFacts = await probe(gifFile.file);
      expect(gifFacts).toMatchObject({ codec: 'gif', width: 180, height: 320 });
      expect(gifFacts.duration).toBeCloseTo(2, 0);

      const webmDone = await waitForTerminal(stack.url, key, webm.id, RENDER_WAIT_MS, '/v1/videos');
      expect(webmDone.body.status).toBe('completed');
      const res = await client.videos.downloadContent(webm.id);
      expect(res.headers.get('content-type')).toBe('video/webm');
      const webmFile = path.join(dir, 'out.webm');
      fs.writeFileSync(webmFile, Buffer.from(await res.arrayBuffer()));
      const webmFacts = await probe(webmFile);
      expect(webmFacts).toMatchObject({ codec: 'vp9', width: 320, height: 180, alphaMode: null });
      expect(webmFacts.duration).toBeCloseTo(2, 0);
    },
  );

  it('bad values are 400s naming the field on every shape', async () => {
    const base = { model: 'gpt-4o-mini', engine: 'lottie', storyboard };
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v1/responses', { ...base, output_format: 'avi' }, 'output_format'],
      ['/v1/chat/completions', { ...base, transparent: 'yes' }, 'transparent'],
      ['/v1/responses', { ...base, transparent: true, output_format: 'mp4' }, 'transparent'],
      ['/v1/chat/completions', { ...base, transparent: true, output_format: 'gif' }, 'transparent'],
      ['/v1/videos', { prompt: 'x', output_format: 'mov' }, 'output_format'],
      ['/v1/videos', { prompt: 'x', transparent: true, output_format: 'mp4' }, 'transparent'],
    ];
    for (const [route, body, param] of cases) {
      const res = await api(stack.url, route, { method: 'POST', key, json: body });
      expect(res.status, `${route} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.param, `${route} ${JSON.stringify(body)}`).toBe(param);
    }
  });
});
