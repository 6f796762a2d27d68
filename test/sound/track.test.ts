// The user's own track as the music bed (issue 41), real generations: by an `input_audio` part
// (`audio-1`) and by URL (a local HTTPS server, allowed by the unsafe local-testing settings), heard for
// the whole video; not-audio bytes, an over-long track and a private-address URL are 4xx naming the
// field; a body over 1 MiB is admitted only when it carries an audio part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMediaServer, type MediaServer } from '../support/mediaServer.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { makeSelfSignedCert } from '../webhooks/support/receiver.js';
import { audioStreams, download, toneWav } from './support.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
let server: MediaServer;
let stack: TestStack;
let key: string;

beforeAll(async () => {
  const cert = makeSelfSignedCert();
  server = await startMediaServer(cert);
  server.route('/bed.wav', { body: toneWav(1.5), type: 'audio/wav' });
  stack = await startStack({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true', OUTBOUND_UNSAFE_CA_FILE: cert.certFile });
  key = (await createOrgWithKey(stack.db)).key;
});
afterAll(async () => {
  await stack?.close();
  await server?.close();
});

const PROMPT = 'Fresh bread every morning. Our bakery opens on Monday.';
const create = (json: Record<string, unknown>) =>
  api(stack.url, '/v1/responses', {
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', engine: 'lottie', width: 180, height: 320, ...json },
  });
const withTrack = (data: string, audio: Record<string, string>) => ({
  input: [
    {
      role: 'user',
      content: [
        { type: 'input_text', text: PROMPT },
        { type: 'input_audio', input_audio: { data, format: 'wav' } },
      ],
    },
  ],
  audio,
});

/** Silences of at least half a second (silencedetect at -50 dB). */
async function silences(file: string): Promise<number[]> {
  const { stderr } = await run('ffmpeg', [
    '-nostats',
    '-i',
    file,
    '-af',
    'silencedetect=n=-50dB:d=0.5',
    '-f',
    'null',
    '-',
  ]);
  return [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
}

async function heardThroughout(json: Record<string, unknown>) {
  const created = await create(json);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = (await waitForTerminal(stack.url, key, created.body.id, 300_000)).body;
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  const video = await download(done.output_video_url, 'v.mp4');
  const [stream] = await audioStreams(video);
  expect(stream).toMatchObject({ codec: 'aac', sampleRate: 48_000, channels: 2 });
  // The 1.5-second track loops under the whole video: no silence until the fade-out's last moments.
  const quiet = await silences(video);
  expect(
    quiet.filter((t) => t < stream!.duration - 0.6),
    quiet.join(', '),
  ).toEqual([]);
}

describe('the user’s own track', () => {
  it('by input_audio (audio-1) is heard for the whole video', { timeout: 600_000 }, async () => {
    await heardThroughout(withTrack(toneWav(1.5).toString('base64'), { voice: 'none', music: 'audio-1' }));
  });

  it('by URL (local HTTPS) is heard for the whole video', { timeout: 600_000 }, async () => {
    await heardThroughout({ input: PROMPT, audio: { voice: 'none', music: server.url('/bed.wav') } });
    expect(server.hits.get('/bed.wav')).toBeGreaterThanOrEqual(1);
  });

  it('not-audio bytes, an over-long track and a private address are 4xx naming the field', async () => {
    const notAudio = await create(
      withTrack(Buffer.from('hello, not a sound').toString('base64'), { music: 'audio-1' }),
    );
    expect(notAudio.status).toBe(400);
    expect(notAudio.body.error.param).toBe('input.0.content.1.input_audio.data');
    // 301 s of 8 kHz mono: over the five-minute limit, and over 1 MiB of body (admitted: it carries audio).
    const long = await create(withTrack(toneWav(301, 8_000).toString('base64'), { music: 'audio-1' }));
    expect(long.status, JSON.stringify(long.body)).toBe(400);
    expect(long.body.error.param).toBe('input.0.content.1.input_audio.data');
    expect(long.body.error.message).toMatch(/lasts 301.* over the limit/);
    const privateUrl = await create({ input: PROMPT, audio: { music: 'https://10.0.0.1/bed.mp3' } });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.error.param).toBe('audio.music');
    // A body over 1 MiB without an audio part: the usual limit.
    const big = await create({ input: PROMPT, instructions: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
  });
});
