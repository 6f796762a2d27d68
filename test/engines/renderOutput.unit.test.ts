// The render's output is taken out of its (sandbox-writable) work directory without following a
// link and only when it is a regular file: a compromised render cannot hand back another file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeRenderOutput } from '../../src/engines/isolation/runIsolated.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const setUp = () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-output-'));
  fs.mkdirSync(path.join(dir, 'work'));
  const secret = path.join(dir, 'worker-secret.txt');
  fs.writeFileSync(secret, 'DATABASE_URL=postgres://…');
  return { output: path.join(dir, 'work', 'output.mp4'), dest: path.join(dir, 'out', 'video.mp4'), secret };
};

describe('takeRenderOutput', () => {
  it('refuses a symlink planted as the output; the file it points to is not copied', async () => {
    const { output, dest, secret } = setUp();
    fs.symlinkSync(secret, output);
    await expect(takeRenderOutput(output, dest)).rejects.toMatchObject({
      code: 'render_failed',
      message: expect.stringMatching(/symbolic link; refused/),
    });
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('refuses an output that is not a regular file (a FIFO, a directory)', async () => {
    const { output, dest } = setUp();
    execFileSync('mkfifo', [output]);
    await expect(takeRenderOutput(output, dest)).rejects.toThrow(/not a regular file/);
    fs.rmSync(output);
    fs.mkdirSync(output);
    await expect(takeRenderOutput(output, dest)).rejects.toThrow(/not a regular file/);
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('takes a regular file: copied whole, removed from the work directory', async () => {
    const { output, dest } = setUp();
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    fs.writeFileSync(output, bytes);
    await takeRenderOutput(output, dest);
    expect(fs.readFileSync(dest).equals(bytes)).toBe(true);
    expect(fs.existsSync(output)).toBe(false);
  });

  it('does not write through a link at the destination either', async () => {
    const { output, dest, secret } = setUp();
    fs.writeFileSync(output, 'video');
    fs.mkdirSync(path.dirname(dest));
    fs.symlinkSync(secret, dest);
    await expect(takeRenderOutput(output, dest)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(fs.readFileSync(secret, 'utf8')).toBe('DATABASE_URL=postgres://…');
  });
});
