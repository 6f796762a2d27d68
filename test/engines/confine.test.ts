// Untrusted media parsed in the render sandbox (issue 42): what a program confined for a user's file
// sees (the render user, no credentials in its environment, no network, none of the worker's files,
// only a copy of its input), and ffprobe confined so reading real and broken media as before.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { decodeTrack } from '../../src/audio/track.js';
import { renderSandboxConfinement } from '../../src/engines/isolation/confine.js';
import { probeAudio, probeMediaVideo } from '../../src/video/index.js';

const config = loadConfig();
const confine = renderSandboxConfinement(config.render.sandbox);
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'confine-test-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs argv confined with `inputs`; what it printed. */
async function confined(argv: string[], inputs: string[]): Promise<string> {
  const run = await confine(argv, inputs);
  try {
    return await new Promise<string>((resolve, reject) => {
      const child = spawn(run.command, run.args, { env: run.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.once('error', reject);
      child.once('close', () => resolve(out));
    });
  } finally {
    await run.release();
  }
}

describe('a program confined for a user file', () => {
  it('runs as the render user, without credentials, network or the worker’s files; reads only its input', async () => {
    const input = path.join(dir, 'clip.mp4');
    fs.writeFileSync(input, 'the user bytes');
    const secret = path.join(config.dataDir, 'confine-secret.txt');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(secret, 'not for renders');
    process.env.DATABASE_URL ??= 'postgres://should-not-leak';
    const probe = [
      'echo "user:$(id -un)"',
      'echo "env:$(env | grep -c -E "DATABASE_URL|S3_|SECRET|API_KEY")"',
      `cat "${secret}" >/dev/null 2>&1 && echo "secret:read" || echo "secret:hidden"`,
      'echo "input:$(cat "$1")"',
      'echo "path:$1"',
      'echo "pwd:$(pwd)"',
      `${process.execPath} -e "require('net').connect(5432,'127.0.0.1')` +
        `.on('connect',()=>{console.log('net:open');process.exit()}).on('error',e=>console.log('net:'+e.code))"`,
    ].join('; ');
    const out = await confined(['/bin/sh', '-c', probe, 'sh', input], [input]);
    try {
      if (process.getuid?.() === 0) expect(out).toContain(`user:${config.render.sandbox.user}`);
      expect(out).toContain('env:0');
      expect(out).toContain('secret:hidden');
      expect(out).toContain('input:the user bytes');
      expect(out).not.toContain(`path:${input}`); // a copy in its own work directory
      expect(out).toMatch(/net:(ECONNREFUSED|ENETUNREACH)/); // a loopback of its own: PostgreSQL is not there
    } finally {
      fs.rmSync(secret, { force: true });
    }
    // Its work directory is gone afterwards.
    const workDir = /pwd:(\S+)/.exec(out)?.[1];
    expect(workDir).toMatch(/media-probe-/);
    expect(fs.existsSync(workDir!)).toBe(false);
  });

  it('ffmpeg confined decodes a track to a WAV taken back as a file; a link left in its place is refused', async () => {
    const track = path.join(dir, 'in.mp3');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=2', '-y', track]);
    const wav = path.join(dir, 'out.wav');
    await decodeTrack(track, wav, { ffmpegPath: config.render.ffmpegPath, confine });
    expect(await probeAudio(config.render.ffmpegPath, wav)).toMatchObject({ codec: 'pcm_s16le', sampleRate: 48_000 });
    // A program that leaves a link to a secret where its output goes: nothing is taken back.
    const secret = path.join(dir, 'secret.txt');
    fs.writeFileSync(secret, 'worker secret');
    const out = path.join(dir, 'taken.txt');
    const run = await confine(['/bin/ln', '-s', secret, out], [], [out]);
    try {
      await new Promise((resolve) => spawn(run.command, run.args, { env: run.env }).once('close', resolve));
      await expect(run.collect()).rejects.toThrow();
    } finally {
      await run.release();
    }
    expect(fs.existsSync(out)).toBe(false);
  });

  it('ffprobe confined reads a real video and a real track, and refuses bytes that are neither', async () => {
    const video = path.join(dir, 'v.mp4');
    const track = path.join(dir, 't.wav');
    const run = promisify(execFile);
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=64x48:d=1',
      '-pix_fmt',
      'yuv420p',
      '-y',
      video,
    ]);
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=1.5', '-y', track]);
    expect(await probeMediaVideo(config.render.ffmpegPath, video, confine)).toMatchObject({ width: 64, height: 48 });
    const audio = await probeAudio(config.render.ffmpegPath, track, undefined, confine);
    expect(audio?.durationSeconds).toBeCloseTo(1.5, 1);
    const junk = path.join(dir, 'junk.mp4');
    fs.writeFileSync(junk, Buffer.alloc(4096, 7));
    const refused = await probeMediaVideo(config.render.ffmpegPath, junk, confine);
    expect(refused).toHaveProperty('problem');
    expect((refused as { problem: string }).problem).toMatch(/^ffprobe cannot read it as a video/);
  });
});
