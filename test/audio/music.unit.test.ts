// The generated bed (src/audio/music.ts), listened to by measuring: the same storyboard gives the same
// samples (and the same encoded mix, byte for byte); every scene cut lands on an onset (the new chord and its
// accent), found by an onset detector over ffmpeg's astats levels; bouncy beats more often than smooth, smooth
// more than calm; the bed fades in and out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixTimeline } from '../../src/audio/mix.js';
import { synthesizeBed, wavFile, type Motion, type StereoPcm } from '../../src/audio/music.js';
import { onsets, rmsFrames } from './sound.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
const SECONDS = 16;
const CUTS = [4, 7.5, 12];
const MOTIONS: Motion[] = ['calm', 'smooth', 'bouncy'];
const onsetsOf: Partial<Record<Motion, number[]>> = {};
const levelsOf: Partial<Record<Motion, number[]>> = {};
const pcmOf: Partial<Record<Motion, StereoPcm>> = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'music-unit-'));
  for (const motion of MOTIONS) {
    const wav = file(`${motion}.wav`);
    pcmOf[motion] = synthesizeBed({ durationSeconds: SECONDS, motion, cutsSeconds: CUTS, seed: 'sb-1' });
    fs.writeFileSync(wav, wavFile(pcmOf[motion]));
    levelsOf[motion] = await rmsFrames(wav);
    onsetsOf[motion] = onsets(levelsOf[motion]);
  }
}, 600_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('generated music bed', () => {
  it('is the same for the same storyboard, different for another seed or other cuts', () => {
    const request = { durationSeconds: 6, motion: 'smooth', cutsSeconds: [2.5], seed: 'storyboard-7' } as const;
    const a = wavFile(synthesizeBed(request));
    expect(a.equals(wavFile(synthesizeBed({ ...request })))).toBe(true);
    expect(a.equals(wavFile(synthesizeBed({ ...request, seed: 'storyboard-8' })))).toBe(false);
    expect(a.equals(wavFile(synthesizeBed({ ...request, cutsSeconds: [3] })))).toBe(false);
    expect(a.length).toBe(44 + 6 * 48_000 * 2 * 4);
  }, 300_000);

  it('encodes to the same bytes twice (the whole mix is deterministic)', async () => {
    const music = { kind: 'generated', motion: 'calm', cutsSeconds: [2], seed: 'same' } as const;
    await mixTimeline({ durationSeconds: 4, speech: [], music, outFile: file('a.m4a') });
    await mixTimeline({ durationSeconds: 4, speech: [], music, outFile: file('b.m4a') });
    expect(fs.readFileSync(file('a.m4a')).equals(fs.readFileSync(file('b.m4a')))).toBe(true);
  }, 300_000);

  it.each(MOTIONS)('%s: every scene cut lands on an onset (a new chord and its accent)', (motion) => {
    const found = onsetsOf[motion]!;
    for (const cut of CUTS) expect(found.some((t) => Math.abs(t - cut) <= 0.06)).toBe(true);
  });

  it('bouncy has a beat, smooth a gentler pulse, calm only its cuts', () => {
    const perSecond = (m: Motion) => onsetsOf[m]!.length / SECONDS;
    expect(perSecond('bouncy')).toBeGreaterThan(1.5);
    expect(perSecond('bouncy')).toBeGreaterThan(perSecond('smooth'));
    expect(perSecond('smooth')).toBeGreaterThan(perSecond('calm'));
    // Calm's onsets are its start and its cuts, nothing else.
    expect(onsetsOf.calm!.filter((t) => t > 1 && !CUTS.some((c) => Math.abs(t - c) <= 0.3))).toEqual([]);
  });

  it.each(MOTIONS)('%s fades in and out, and is far from clipping', (motion) => {
    const levels = levelsOf[motion]!;
    const middle = levels.slice(levels.length / 2 - 25, levels.length / 2 + 25);
    const average = middle.reduce((a, b) => a + b, 0) / middle.length;
    expect(levels[0]).toBeLessThan(average - 10);
    expect(levels[levels.length - 1]).toBeLessThan(average - 20);
    const pcm = pcmOf[motion]!;
    let peak = 0;
    for (const side of [pcm.left, pcm.right]) for (const v of side) peak = Math.max(peak, Math.abs(v));
    // The soft saturation that guards the sum barely works: tanh(x) < 0.9 means x < 1.47.
    expect(peak).toBeLessThan(0.9);
  });
});
