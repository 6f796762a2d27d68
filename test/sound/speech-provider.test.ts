// The OpenAI speech protocol over real HTTP (issue 41): a local server speaking `POST /v1/audio/speech`
// stands in for OpenAI. The first provider of the order fails (HTTP 503): every clip falls back to the
// next, which gets the request's voice, the narration as `input` and the key from the environment; the
// generation completes with sound and is billed exactly the characters spoken once (the same storyboard
// without a voice costs that much less). A worker killed mid-narration: the retry says only the clips not
// yet stored, and bills each once. When every provider fails, the generation fails with
// `speech_failed`.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { audioStreams, download, toneWav } from './support.js';

type Call = { path: string; auth: string | undefined; body: Record<string, string> };
const calls: Call[] = [];
let goodFails = false;
/** Set by a test: the good provider's next call for this text is held unanswered, and `held` resolves when it is. */
let holdFor: { input: string; held: (res: http.ServerResponse) => void } | null = null;
let server: http.Server;
let stack: TestStack;
let key: string;
let dir: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(body) as Record<string, string>;
      calls.push({ path: req.url ?? '', auth: req.headers.authorization, body: parsed });
      if (req.method !== 'POST' || !req.url?.endsWith('/v1/audio/speech')) return res.writeHead(404).end();
      if (holdFor && req.url.startsWith('/good') && parsed.input === holdFor.input) {
        const { held } = holdFor;
        holdFor = null;
        return held(res);
      }
      if (req.url.startsWith('/broken') || goodFails) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
      }
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end(toneWav(Math.min(1.2, parsed.input!.length / 14)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-providers-'));
  const file = path.join(dir, 'speech-providers.json');
  const entry = (name: string) => ({
    protocol: 'openai-speech',
    base_url: `http://127.0.0.1:${port}/${name}/v1`,
    api_key_env: 'TEST_SPEECH_KEY',
    model: 'tts-test',
    voice: 'alloy',
    timeout_seconds: 10,
  });
  // No embedded voice: when both fail, the generation has no voice left to fall back to.
  await fs.writeFile(file, JSON.stringify({ providers: { broken: entry('broken'), good: entry('good') } }));
  stack = await startStack({ SPEECH_PROVIDERS_FILE: file, TEST_SPEECH_KEY: 'sk-test-speech' });
  key = (await createOrgWithKey(stack.db)).key;
});
afterAll(async () => {
  await stack?.close();
  server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const storyboard = {
  scenes: [
    { kind: 'title', title: 'Casa Lupa', seconds: 2.2, narration: 'Welcome to Casa Lupa.' },
    { kind: 'statement', text: 'Fresh bread daily', seconds: 2.2, narration: 'Fresh bread, daily.' },
  ],
};
const SPOKEN = 'Welcome to Casa Lupa.'.length + 'Fresh bread, daily.'.length;

async function create(audio: Record<string, string>): Promise<string> {
  const created = await api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', engine: 'lottie', width: 180, height: 320, storyboard, audio },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as string;
}

async function generate(audio: Record<string, string>) {
  return (await waitForTerminal(stack.url, key, await create(audio), 300_000)).body;
}

describe('the OpenAI speech protocol', () => {
  it(
    'falls back from a failing provider to the next and bills the characters spoken once',
    { timeout: 600_000 },
    async () => {
      const done = await generate({ voice: 'nova', music: 'none' });
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      const good = calls.filter((c) => c.path.startsWith('/good'));
      const broken = calls.filter((c) => c.path.startsWith('/broken'));
      // One call per narrated scene on each: the broken one first, then the good one.
      expect(broken).toHaveLength(2);
      expect(good.map((c) => c.body.input)).toEqual(['Welcome to Casa Lupa.', 'Fresh bread, daily.']);
      for (const c of good) {
        expect(c.auth).toBe('Bearer sk-test-speech');
        expect(c.body).toMatchObject({ model: 'tts-test', voice: 'nova', response_format: 'wav' });
      }
      const video = await download(done.output_video_url, 'v.mp4');
      expect(await audioStreams(video)).toHaveLength(1);
      // The same storyboard without a voice draws the same composition: the difference is the speech.
      const silent = await generate({ voice: 'none', music: 'none' });
      expect(silent.status).toBe('completed');
      expect(done.usage.input_tokens).toBe(silent.usage.input_tokens);
      expect(done.usage.output_tokens - silent.usage.output_tokens).toBe(SPOKEN);
    },
  );

  it(
    'a worker lost while the second clip is said: the retry says only that clip, and bills each once',
    { timeout: 600_000 },
    async () => {
      const first = calls.length;
      const held = new Promise<http.ServerResponse>((resolve) => {
        holdFor = { input: 'Fresh bread, daily.', held: resolve };
      });
      const id = await create({ voice: 'nova', music: 'none' });
      const response = await held; // the first clip is said and stored; the second is being said
      await stack.restartWorker(); // SIGKILL: the activity is retried on the new worker after its heartbeat timeout
      response.destroy();
      const done = (await waitForTerminal(stack.url, key, id, 300_000)).body;
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      const good = calls.slice(first).filter((c) => c.path.startsWith('/good'));
      // The stored clip is not said again; the lost one is said again by the retry.
      expect(good.map((c) => c.body.input)).toEqual([
        'Welcome to Casa Lupa.',
        'Fresh bread, daily.',
        'Fresh bread, daily.',
      ]);
      const silent = await generate({ voice: 'none', music: 'none' });
      expect(done.usage.output_tokens - silent.usage.output_tokens).toBe(SPOKEN);
      expect(await audioStreams(await download(done.output_video_url, 'v.mp4'))).toHaveLength(1);
    },
  );

  it('fails the generation with speech_failed when no provider can speak', { timeout: 600_000 }, async () => {
    goodFails = true;
    try {
      const done = await generate({ voice: 'auto', music: 'none' });
      expect(done.status).toBe('failed');
      expect(done.error.code).toBe('speech_failed');
      expect(done.error.message).toMatch(/broken: HTTP 503.*good: HTTP 503/);
    } finally {
      goodFails = false;
    }
  });
});
