// A user's track (src/audio/track.ts, src/sniff.ts): every accepted format, made here by ffmpeg, is
// recognised from its bytes with its length; not-audio bytes, a video, undecodable, too long or too large
// tracks are the API's 400 naming the part.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAudio, TRACK_LIMITS } from '../../src/audio/track.js';
import { DomainError } from '../../src/errors.js';
import { sniffAudio } from '../../src/sniff.js';
import { testVideo, twoColourImage } from '../support/mediaServer.js';
import { CHORD_SOURCE, synthesize } from './sound.js';

let dir: string;
const file = (name: string) => path.join(dir, name);

/** Each format as a user would send it: the ffmpeg encoder that makes such files, and the file's name. */
const SAMPLES = [
  { format: 'mp3', name: 'tune.mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  { format: 'wav', name: 'tune.wav', args: ['-c:a', 'pcm_s16le'] },
  { format: 'aac', name: 'tune.aac', args: ['-c:a', 'aac', '-f', 'adts'] },
  { format: 'm4a', name: 'tune.m4a', args: ['-c:a', 'aac'] },
  { format: 'opus', name: 'tune.opus', args: ['-c:a', 'libopus', '-f', 'ogg'] },
  { format: 'ogg', name: 'tune.ogg', args: ['-c:a', 'libvorbis'] },
  { format: 'flac', name: 'tune.flac', args: ['-c:a', 'flac'] },
] as const;

const SECONDS = 2.5;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'track-unit-'));
  for (const s of SAMPLES) synthesize(file(s.name), CHORD_SOURCE, SECONDS, [...s.args]);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function refusal(bytes: Buffer): Promise<DomainError> {
  const err: unknown = await ingestAudio(bytes, { param: 'input[0].content[1].input_audio' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect(err).toMatchObject({ kind: 'invalid_input', code: 'invalid_audio', param: 'input[0].content[1].input_audio' });
  return err as DomainError;
}

describe('ingestAudio', () => {
  it.each(SAMPLES)('recognises $format from its bytes and reads its length', async ({ format, name }) => {
    const bytes = fs.readFileSync(file(name));
    expect(sniffAudio(bytes)).toBe(format);
    const track = await ingestAudio(bytes);
    expect(track.format).toBe(format);
    // Compressed formats pad their last frame; ADTS AAC's length is estimated from its bit rate.
    expect(Math.abs(track.durationSeconds - SECONDS)).toBeLessThan(0.15);
  });

  it('an MP3 behind an ID3 tag, and an MP4 holding only sound, are tracks', async () => {
    const tagged = synthesize(file('tagged.mp3'), CHORD_SOURCE, 1, [
      '-c:a',
      'libmp3lame',
      '-id3v2_version',
      '3',
      '-metadata',
      'title=Tune',
    ]);
    const taggedBytes = fs.readFileSync(tagged);
    expect(taggedBytes.subarray(0, 3).toString()).toBe('ID3');
    expect(await ingestAudio(taggedBytes)).toMatchObject({ format: 'mp3' });
    const mp4 = synthesize(file('sound.mp4'), CHORD_SOURCE, 1, ['-c:a', 'aac']);
    expect(sniffAudio(fs.readFileSync(mp4))).toBe('mp4');
    expect(await ingestAudio(fs.readFileSync(mp4))).toMatchObject({ format: 'm4a' });
  });

  it('refuses bytes that are not sound: a page, an image, a video, random bytes, nothing', async () => {
    const page = await refusal(Buffer.from('<!doctype html><title>Not found</title>'));
    expect(page.message).toMatch(/^input\[0\]\.content\[1\]\.input_audio: the bytes are not sound .*MP3, WAV/);
    await refusal(twoColourImage(8, 8, 'png'));
    expect((await refusal(testVideo(1))).message).toMatch(/MP4 video/);
    const withSound = file('with-sound.mp4');
    synthesize(withSound, 'testsrc=s=32x32:r=5', 1, ['-f', 'lavfi', '-i', 'sine', '-shortest', '-c:a', 'aac']);
    expect((await refusal(fs.readFileSync(withSound))).message).toMatch(/MP4 video/);
    await refusal(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    expect((await refusal(Buffer.alloc(0))).message).toMatch(/empty/);
  });

  it('refuses a track whose header says MP3 but whose data is not', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2000, 0x55)]);
    expect(sniffAudio(fake)).toBe('mp3');
    expect((await refusal(fake)).message).toMatch(/cannot be decoded|holds no sound|length/);
  });

  it(`refuses a track over ${TRACK_LIMITS.maxSeconds} s and one over the size limit`, async () => {
    // 8-bit 8 kHz mono WAV: over five minutes in 2.4 MB, written without an encoder's work.
    const long = synthesize(file('long.wav'), 'anullsrc=r=8000:cl=mono', TRACK_LIMITS.maxSeconds + 5, [
      '-c:a',
      'pcm_u8',
    ]);
    const tooLong = await refusal(fs.readFileSync(long));
    expect(tooLong.message).toMatch(new RegExp(`lasts 30\\d\\.\\d s, over the limit of ${TRACK_LIMITS.maxSeconds} s`));
    const wav = fs.readFileSync(file('tune.wav'));
    const huge = Buffer.concat([wav, Buffer.alloc(TRACK_LIMITS.maxBytes + 1 - wav.length)]);
    expect((await refusal(huge)).message).toMatch(/over the limit of 20 MiB/);
  }, 300_000);
});
