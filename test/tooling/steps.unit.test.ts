// The installer's parallel steps (src/tooling/steps.mjs) with real child processes: all run at once and
// each is reported; when one fails, the others are stopped (their processes gone, not left running) and
// the failure names the step and shows the end of its log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSteps } from '../../src/tooling/steps.mjs';

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steps-'));
afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

const node = (code: string) => [process.execPath, '-e', code];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('install steps', () => {
  it('run at the same time, each reported when it starts and ends', async () => {
    const lines: string[] = [];
    // Each step waits until the other has started (a file each writes): they can only finish together.
    const a = path.join(logDir, 'a.started');
    const b = path.join(logDir, 'b.started');
    const waitFor = (mine: string, other: string) =>
      node(
        `require('fs').writeFileSync(${JSON.stringify(mine)}, '');` +
          `const t = setInterval(() => {` +
          `  if (require('fs').existsSync(${JSON.stringify(other)})) clearInterval(t);` +
          `}, 20);`,
      );
    const results = await runSteps(
      [
        { name: 'a', title: 'step A', command: waitFor(a, b) },
        { name: 'b', title: 'step B', command: waitFor(b, a) },
      ],
      { logDir, say: (l: string) => lines.push(l) },
    );
    expect(results.map((r: { name: string }) => r.name)).toEqual(['a', 'b']);
    expect(lines.filter((l) => l.startsWith('▶'))).toEqual(['▶ step A', '▶ step B']);
    expect(lines.filter((l) => l.startsWith('✔')).length).toBe(2);
  });

  it('a failing step stops the others and is named, with its log', async () => {
    const lines: string[] = [];
    const pidFile = path.join(logDir, 'slow.pid');
    // The slow step records its pid, then runs far longer than any test; the failing one waits for that record.
    const slow = node(
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const failing = node(
      `const t = setInterval(() => { if (require('fs').existsSync(${JSON.stringify(pidFile)})) ` +
        `{ console.log('E: Unable to locate package no-such-package'); process.exit(100); } }, 20);`,
    );
    const run = runSteps(
      [
        { name: 'slow', title: 'Go build of the Temporal CLI', command: slow },
        { name: 'apt', title: 'Debian packages', command: failing },
      ],
      { logDir, say: (l: string) => lines.push(l) },
    );
    const err = (await run.catch((e: unknown) => e)) as Error & { step?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.step).toBe('apt');
    expect(err.message).toMatch(/^Debian packages failed \(exit code 100\)/);
    expect(err.message).toContain('E: Unable to locate package no-such-package');
    expect(lines).toContain('✖ Debian packages failed; stopping slow');
    expect(lines).toContain('■ Go build of the Temporal CLI stopped');
    // The run ended only once the stopped step's process had gone.
    expect(alive(Number(fs.readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});
