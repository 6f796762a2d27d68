// muxAudio (src/video/audio.ts): the mix goes beside the rendered video's picture, which is copied
// untouched (same packets), as one AAC-LC 48 kHz stereo stream, the index at the front.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixTimeline } from '../../src/audio/mix.js';
import { muxAudio } from '../../src/video/index.js';
import { testVideo } from '../support/mediaServer.js';
import { CHORD_SOURCE, synthesize } from './sound.js';

let dir: string;
const file = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mux-unit-'));
  fs.writeFileSync(file('video.mp4'), testVideo(4));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const streams = (f: string) =>
  (
    JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,profile,sample_rate,channels',
        '-of',
        'json',
        f,
      ]).toString(),
    ) as { streams: Record<string, string | number>[] }
  ).streams;
/** MD5 of the video stream's packets, copied out: equal when the picture was not re-encoded. */
const videoPackets = (f: string) =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', f, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']).toString().trim();
/** Where the top-level atoms are: faststart puts moov before mdat. */
const atomOrder = (f: string) => {
  const bytes = fs.readFileSync(f);
  const names: string[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at);
    names.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return names;
};

describe('muxAudio', () => {
  it('puts the mix beside the untouched picture: one AAC stream, 48 kHz, 2 channels, index first', async () => {
    const mix = file('mix.m4a');
    const music = { kind: 'generated', motion: 'calm', cutsSeconds: [2], seed: 'mux' } as const;
    await mixTimeline({ durationSeconds: 4, speech: [], music, outFile: mix });
    await muxAudio(file('video.mp4'), mix, file('out.mp4'));
    expect(streams(file('out.mp4'))).toEqual([
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264' }),
      expect.objectContaining({
        codec_type: 'audio',
        codec_name: 'aac',
        profile: 'LC',
        sample_rate: '48000',
        channels: 2,
      }),
    ]);
    expect(videoPackets(file('out.mp4'))).toBe(videoPackets(file('video.mp4')));
    const atoms = atomOrder(file('out.mp4'));
    expect(atoms.indexOf('moov')).toBeLessThan(atoms.indexOf('mdat'));
  }, 300_000);

  it('encodes sound that is not yet AAC-LC 48 kHz stereo (a 44.1 kHz mono WAV)', async () => {
    const wav = synthesize(file('mono.wav'), CHORD_SOURCE, 4, ['-ac', '1', '-c:a', 'pcm_s16le']);
    await muxAudio(file('video.mp4'), wav, file('out-wav.mp4'));
    expect(streams(file('out-wav.mp4'))).toEqual([
      expect.objectContaining({ codec_type: 'video' }),
      expect.objectContaining({
        codec_type: 'audio',
        codec_name: 'aac',
        profile: 'LC',
        sample_rate: '48000',
        channels: 2,
      }),
    ]);
    expect(videoPackets(file('out-wav.mp4'))).toBe(videoPackets(file('video.mp4')));
  }, 300_000);
});
