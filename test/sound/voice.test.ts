// Videos with sound through the API (issue 41), real generations and real renders on small canvases:
// a prompt with a voice and the generated music gives one AAC-LC stream (48 kHz, stereo) at -14 LUFS
// ±1 LU with true peak ≤ -1 dBTP on both engines, narration in the storyboard, captions linked on both
// views and played with the sound on the dashboard's page; voice only: every caption cue starts within
// 200 ms of the speech onset silencedetect finds; burned captions are drawn low on the picture while each
// cue is said; `voice: none, music: none` keeps the video silent; bad `audio` values are 400s naming the
// field.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { DashboardClient, createTestMember } from '../dashboard/support.js';
import { audioStreams, changedRows, download, frameAt, loudness, speechOnsets, vttCues } from './support.js';

let stack: TestStack;
let key: string;
let organizationId: string;

beforeAll(async () => {
  stack = await startStack();
  ({
    key,
    org: { id: organizationId },
  } = await createOrgWithKey(stack.db));
});
afterAll(() => stack?.close());

const canvas = { width: 180, height: 320 };
const PROMPT = 'Fresh bread every morning. Our bakery opens on Monday.';

const dashboardCookie = (client: DashboardClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function completed(json: Record<string, unknown>, path = '/v1/responses') {
  const created = await api(stack.url, path, {
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', ...canvas, ...json },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = (
    await waitForTerminal(stack.url, key, created.body.id, 300_000, path).catch((err: Error) => {
      throw new Error(`${err.message}\nworker:\n${stack.worker.output().slice(-4000)}`);
    })
  ).body;
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  return done;
}

describe('videos with sound', () => {
  for (const engine of ['lottie', 'hyperframes'] as const) {
    it(
      `${engine}: voice and music give one AAC stream at -14 LUFS, narration in the storyboard, captions linked`,
      { timeout: 600_000 },
      async () => {
        const done = await completed({
          engine,
          input: PROMPT,
          audio: { voice: 'auto', music: 'auto', captions: 'sidecar' },
        });
        const video = await download(done.output_video_url, 'v.mp4');
        const streams = await audioStreams(video);
        expect(streams).toHaveLength(1);
        expect(streams[0]).toMatchObject({ codec: 'aac', profile: 'LC', sampleRate: 48_000, channels: 2 });
        const measured = await loudness(video);
        expect(Math.abs(measured.lufs + 14), JSON.stringify(measured)).toBeLessThanOrEqual(1);
        expect(measured.truePeak).toBeLessThanOrEqual(-1);
        // The planner wrote each scene's narration from the user's words.
        const storyboard = (await (await fetch(done.storyboard_url.url)).json()) as {
          scenes: { narration?: string }[];
        };
        const narration = storyboard.scenes.map((s: { narration?: string }) => s.narration ?? '').join(' ');
        expect(narration).toContain('Fresh bread every morning');
        expect(narration).toContain('Our bakery opens on Monday');
        // Captions on both views, signed like the video.
        expect(done.captions_url.url).toMatch(/captions\.vtt/);
        const chat = await api(stack.url, `/v1/chat/completions/${done.id}`, { key });
        expect(chat.body.captions_url.url).toMatch(/captions\.vtt/);
        const cues = vttCues(await (await fetch(done.captions_url.url)).text());
        expect(cues.map((c) => c.text).join(' ')).toContain('Fresh bread every morning.');
        // Speech is billed: one output token per character said, inside the hold.
        expect(done.usage.output_tokens).toBeGreaterThan(narration.length);
        // The dashboard's page plays it with its sound (not muted) and shows the captions as the player's track.
        const member = await createTestMember(stack.db, organizationId);
        const dashboard = new DashboardClient(stack.url);
        await dashboard.signIn(member.email, member.password);
        const page = await dashboard.get(`/dashboard/generations/${done.id}`);
        expect(page.status).toBe(200);
        const player = /<video id="generation-video"[^>]*>/.exec(page.body)?.[0] ?? '';
        expect(player).toContain(' controls');
        expect(player).not.toContain(' muted');
        const track = /<track kind="captions" default src="([^"]+)"/.exec(page.body)?.[1];
        expect(track, page.body).toBeTruthy();
        const trackUrl = new URL(track!.replace(/&amp;/g, '&'), stack.url);
        expect(await (await fetch(trackUrl, { headers: { cookie: dashboardCookie(dashboard) } })).text()).toMatch(
          /^WEBVTT/,
        );
      },
    );
  }

  it('voice only: each caption cue starts within 200 ms of the speech onset', { timeout: 600_000 }, async () => {
    const done = await completed({
      engine: 'lottie',
      input: PROMPT,
      audio: { voice: 'auto', music: 'none', captions: 'sidecar' },
    });
    const video = await download(done.output_video_url, 'v.mp4');
    const cues = vttCues(await (await fetch(done.captions_url.url)).text());
    expect(cues.length).toBeGreaterThanOrEqual(2);
    const onsets = await speechOnsets(video);
    for (const cue of cues) {
      const nearest = Math.min(...onsets.map((o) => Math.abs(o - cue.start)));
      expect(nearest, `cue "${cue.text}" at ${cue.start}; onsets ${onsets.join(', ')}`).toBeLessThanOrEqual(0.2);
    }
  });

  it(
    'burned captions: each cue is drawn low on the picture while it is said, nothing between them, and linked',
    { timeout: 600_000 },
    async () => {
      const size = { width: 360, height: 640 };
      const done = await completed({
        engine: 'hyperframes',
        input: PROMPT,
        ...size,
        audio: { voice: 'auto', music: 'none', captions: 'burned' },
      });
      const cues = vttCues(await (await fetch(done.captions_url.url)).text());
      expect(cues.length).toBeGreaterThanOrEqual(2);
      const video = await download(done.output_video_url, 'v.mp4');
      expect(await audioStreams(video)).toHaveLength(1);
      // The picture as rendered is kept beside it: the frames differ only where and when a cue is drawn.
      const rendered = path.join(inject('dataDir'), 'media', 'generations', done.id, 'speech', 'uncaptioned.mp4');
      for (const cue of cues) {
        const at = (cue.start + cue.end) / 2;
        const rows = changedRows(await frameAt(video, at, size), await frameAt(rendered, at, size), size.width);
        expect(rows.length, `cue "${cue.text}" at ${at}s`).toBeGreaterThan(size.height * 0.03);
        expect(rows[0]!).toBeGreaterThan(size.height / 2);
        expect(rows.at(-1)!).toBeLessThan(size.height * 0.8); // clear of the apps' buttons on a tall video
      }
      const after = cues.at(-1)!.end + 0.3;
      if (after < (await audioStreams(video))[0]!.duration - 0.1)
        expect(
          changedRows(await frameAt(video, after, size), await frameAt(rendered, after, size), size.width),
        ).toEqual([]);
    },
  );

  it('voice none and music none: the video stays silent', { timeout: 600_000 }, async () => {
    const done = await completed({ engine: 'lottie', input: PROMPT, audio: { voice: 'none', music: 'none' } });
    const video = await download(done.output_video_url, 'v.mp4');
    expect(await audioStreams(video)).toHaveLength(0);
    expect(done.captions_url).toBeNull();
  });

  it('bad audio values are 400s naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ voice: 'x y' }, 'audio.voice'],
      [{ music: 'http://example.com/a.mp3' }, 'audio.music'],
      [{ music: 'audio-1' }, 'audio.music'],
      [{ captions: 'subtitles' }, 'audio.captions'],
      [{ voice: 'none', captions: 'sidecar' }, 'audio.captions'],
      [{ volume: 3 }, 'audio'],
    ];
    for (const [audio, param] of cases) {
      const res = await api(stack.url, '/v1/responses', {
        method: 'POST',
        key,
        json: { model: 'gpt-4o-mini', input: PROMPT, audio },
      });
      expect(res.status, JSON.stringify(audio)).toBe(400);
      expect(res.body.error.param, JSON.stringify(res.body)).toContain(param);
    }
    // A storyboard's narration that cannot be said in its scene's seconds, even at 1.2×.
    const res = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        audio: { voice: 'auto' },
        storyboard: {
          scenes: [{ kind: 'statement', text: 'Hello', seconds: 1, narration: 'A very long sentence '.repeat(10) }],
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('storyboard.scenes.0.narration');
    expect(res.body.error.message).toMatch(/narration/);
  });
});
