// The one mix (src/audio/mix.ts) on real ffmpeg, measured by ffmpeg's own meters: ebur128 (BS.1770
// loudness and true peak) and silencedetect. Speech is espeak-ng's, tracks are made by ffmpeg here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixStems, mixTimeline, TARGET_LUFS, TRUE_PEAK_LIMIT_DBTP, type SpeechClip } from '../../src/audio/mix.js';
import { measureLoudness } from '../../src/video/index.js';
import { audioStreams, CHORD_SOURCE, silences, speak, synthesize } from './sound.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
const DURATION = 14;
let speech: SpeechClip[];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mix-unit-'));
  speech = [
    {
      file: speak(file('one.wav'), 'Fresh bread every morning, baked by hand since nineteen ninety.'),
      startSeconds: 0.8,
    },
    { file: speak(file('two.wav'), 'Order online and pick it up on your way.'), startSeconds: 8.5 },
  ];
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The file is AAC-LC, 48 kHz, stereo, the video's length; its measured loudness is what mixTimeline returned. */
async function expectMastered(
  out: string,
  returned: { integratedLufs: number; truePeakDbtp: number },
  seconds: number,
) {
  const [stream, ...others] = audioStreams(out);
  expect(others).toEqual([]);
  expect(stream).toMatchObject({ codec_type: 'audio', codec_name: 'aac', profile: 'LC', sample_rate: '48000' });
  expect(Number(stream!.channels)).toBe(2);
  expect(Number(stream!.duration)).toBeCloseTo(seconds, 1);
  const measured = await measureLoudness('ffmpeg', out);
  expect(measured).toEqual(returned);
  expect(Math.abs(measured.integratedLufs - TARGET_LUFS)).toBeLessThanOrEqual(1);
  expect(measured.truePeakDbtp).toBeLessThanOrEqual(TRUE_PEAK_LIMIT_DBTP);
  return measured;
}

describe('mixTimeline', () => {
  it('voice over the generated bed: one AAC-LC 48 kHz stereo track at -14 LUFS ±1, true peak ≤ -1 dBTP', async () => {
    const out = file('voice-music.m4a');
    const music = { kind: 'generated', motion: 'smooth', cutsSeconds: [4, 8.5], seed: 'bakery' } as const;
    const result = await mixTimeline({ durationSeconds: DURATION, speech, music, outFile: out });
    await expectMastered(out, result, DURATION);
    // No silence anywhere but the very end: the bed plays under and between the phrases.
    expect((await silences(out, -50, 0.3)).filter(([start]) => start < DURATION - 0.5)).toEqual([]);
  }, 600_000);

  it('ducks the music under the voice: the voice is at least 10 LU above it while it speaks', async () => {
    const music = { kind: 'generated', motion: 'bouncy', cutsSeconds: [4, 8.5], seed: 'bakery' } as const;
    const stems = await mixStems({ durationSeconds: DURATION, speech, music }, dir);
    // Where the voice speaks, found in the voice stem by silencedetect (its non-silent stretches).
    const quiet = await silences(stems.voice, -45, 0.5);
    const spoken: [number, number][] = [];
    let from = 0;
    for (const [start, end] of quiet) {
      if (start - from > 0.5) spoken.push([from, start]);
      from = end;
    }
    expect(spoken).toHaveLength(2);
    expect(spoken[0]![0]).toBeCloseTo(speech[0]!.startSeconds, 0);
    expect(spoken[1]![0]).toBeCloseTo(speech[1]!.startSeconds, 0);
    for (const [start, end] of spoken) {
      const window = { fromSeconds: start, toSeconds: end };
      const voice = await measureLoudness('ffmpeg', stems.voice, window);
      const under = await measureLoudness('ffmpeg', stems.music, window);
      expect(voice.integratedLufs - under.integratedLufs).toBeGreaterThanOrEqual(10);
    }
    // Between the phrases the music comes back up, clearly (it is a bed, not a whisper).
    const pause = { fromSeconds: spoken[0]![1] + 1, toSeconds: spoken[1]![0] - 0.5 };
    const inPause = await measureLoudness('ffmpeg', stems.music, pause);
    const underFirst = await measureLoudness('ffmpeg', stems.music, {
      fromSeconds: spoken[0]![0],
      toSeconds: spoken[0]![1],
    });
    expect(inPause.integratedLufs - underFirst.integratedLufs).toBeGreaterThanOrEqual(5);
  }, 600_000);

  it('voice only: mastered the same, silent where nobody speaks', async () => {
    const out = file('voice.m4a');
    const result = await mixTimeline({ durationSeconds: DURATION, speech, music: null, outFile: out });
    await expectMastered(out, result, DURATION);
    const [first] = await silences(out, -60, 0.5);
    expect(first![0]).toBe(0);
    expect(first![1]).toBeCloseTo(speech[0]!.startSeconds, 1);
  }, 600_000);

  it("the user's short track loops to the video's end, heard throughout, and fades out", async () => {
    const track = synthesize(file('short.mp3'), CHORD_SOURCE, 2.5, ['-c:a', 'libmp3lame', '-b:a', '128k']);
    const out = file('looped.m4a');
    const seconds = 9;
    const result = await mixTimeline({
      durationSeconds: seconds,
      speech: [],
      music: { kind: 'track', file: track },
      outFile: out,
    });
    await expectMastered(out, result, seconds);
    expect((await silences(out, -40, 0.2)).filter(([start]) => start < seconds - 0.3)).toEqual([]);
    // A loop plays the middle as loud as the track's first second; then the fade: every half second of the
    // last one and a half quieter than the one before, the last quarter second far below the middle.
    const loudness = (from: number, to: number) =>
      measureLoudness('ffmpeg', out, { fromSeconds: from, toSeconds: to }).then((l) => l.integratedLufs);
    const middle = await loudness(5, 6);
    expect(Math.abs(middle - (await loudness(0, 1)))).toBeLessThan(1.5);
    const fading = [await loudness(6.5, 7), await loudness(7.5, 8), await loudness(8.25, 8.75)];
    expect(fading[1]).toBeLessThan(fading[0]!);
    expect(fading[2]).toBeLessThan(fading[1]!);
    expect(middle - (await loudness(seconds - 0.25, seconds))).toBeGreaterThanOrEqual(10);
  }, 600_000);

  it("the user's long track is trimmed to the video, under the voice", async () => {
    const track = synthesize(file('long.flac'), CHORD_SOURCE, 40, ['-c:a', 'flac']);
    const out = file('trimmed.m4a');
    const result = await mixTimeline({
      durationSeconds: DURATION,
      speech,
      music: { kind: 'track', file: track },
      outFile: out,
    });
    await expectMastered(out, result, DURATION);
  }, 600_000);

  it('no voice and no music: a silent track of the video length, loudness -Infinity', async () => {
    const out = file('silent.m4a');
    const result = await mixTimeline({ durationSeconds: 3, speech: [], music: null, outFile: out });
    expect(result).toEqual({ integratedLufs: -Infinity, truePeakDbtp: -Infinity });
    const [stream] = audioStreams(out);
    expect(stream).toMatchObject({ codec_name: 'aac', profile: 'LC', sample_rate: '48000' });
    expect(Number(stream!.duration)).toBeCloseTo(3, 1);
    expect(await silences(out, -90, 0.5)).toEqual([[0, expect.closeTo(3, 1)]]);
  }, 300_000);
});
