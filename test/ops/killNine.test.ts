// Nothing left behind (README "Security"): `kill -9` of `npm start`'s supervisor (src/tooling/start.ts,
// real: embedded PostgreSQL, the Temporal dev server in its own process group, the API, a worker)
// leaves no process it started running, and frees every port; src/tooling/watchdog.mjs reaps them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../src/tooling/ports.js';

/** Every process descending from `root` now (from /proc): pid → command line. */
function descendants(root: number): Map<number, string> {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, string>();
  let frontier = [root];
  while (frontier.length) {
    const next: number[] = [];
    for (const [pid, ppid] of parent)
      if (frontier.includes(ppid) && !found.has(pid)) {
        let cmd = '';
        try {
          cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        } catch {
          // gone meanwhile
        }
        found.set(pid, cmd);
        next.push(pid);
      }
    frontier = next;
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    // A zombie is dead but listed until reaped: read its state.
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });

describe.skipIf(!fs.existsSync('/proc/self/stat'))('kill -9 of npm start', () => {
  let dataDir: string | undefined;
  const leftovers: number[] = [];
  afterAll(() => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no process of its own running and frees its ports', { timeout: 600_000 }, async () => {
    const [port, temporalPort, uiPort, pgPort, metricsPort, sdkMetricsPort] = await freePorts(6);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-kill-nine-'));
    fs.chmodSync(dataDir, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      EMBEDDED_PG_PORT: String(pgPort),
      WORKER_METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_BIND: `127.0.0.1:${sdkMetricsPort}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const supervisor = spawn(process.execPath, ['--import', 'tsx', 'src/tooling/start.ts'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    supervisor.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
    // Up: the API answers /readyz with every process up.
    for (;;) {
      if (supervisor.exitCode !== null) throw new Error(`npm start exited early:\n${stderr}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.json() as Promise<{ status?: string }>)
        .catch(() => null);
      if (ready?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const started = descendants(supervisor.pid!);
    leftovers.push(...started.keys());
    const commands = [...started.values()].join('\n');
    // What it runs: PostgreSQL, the Temporal dev server, the API and the worker (and the watchdog).
    expect(commands).toMatch(/postgres/);
    expect(commands).toMatch(/temporal.* server start-dev/);
    expect(commands).toMatch(/src\/app\/api\.ts/);
    expect(commands).toMatch(/src\/app\/worker\.ts/);
    expect(commands).toMatch(/watchdog\.mjs/);

    process.kill(supervisor.pid!, 'SIGKILL');
    // Until every process it had started is gone (the watchdog's grace is 10 s, then SIGKILL).
    const deadline = Date.now() + 120_000;
    let remaining = [...started.keys()].filter(alive);
    while (remaining.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      remaining = remaining.filter(alive);
    }
    expect(remaining.map((pid) => `${pid} ${started.get(pid)}`)).toEqual([]);
    for (const p of [port, temporalPort, uiPort, pgPort]) expect(await listening(p), `port ${p}`).toBe(false);
  });

  it(
    'a start whose port or data another process holds says which, and starts nothing',
    { timeout: 120_000 },
    async () => {
      const [port, temporalPort, uiPort, pgPort] = await freePorts(4);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-taken-'));
      // This test process holds the API's port, and "runs" the PostgreSQL data directory (its postmaster.pid).
      const holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
      fs.mkdirSync(path.join(dir, 'postgres'));
      fs.writeFileSync(path.join(dir, 'postgres', 'postmaster.pid'), `${process.pid}\n${dir}/postgres\n`);
      try {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          EMBEDDED_TEMPORAL_PORT: String(temporalPort),
          TEMPORAL_UI_PORT: String(uiPort),
          EMBEDDED_PG_PORT: String(pgPort),
          DATA_DIR: dir,
        };
        delete env.DATABASE_URL;
        delete env.TEMPORAL_ADDRESS;
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/tooling/start.ts'], {
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        expect(code).toBe(1);
        expect(stderr).toContain(`the API (PORT): port ${port} is taken by pid ${process.pid} (`);
        expect(stderr).toContain(
          `the embedded PostgreSQL data (DATA_DIR): ${dir}/postgres is in use by pid ${process.pid}`,
        );
        // Nothing was started: no PostgreSQL, no Temporal on their ports.
        for (const p of [pgPort, temporalPort]) expect(await listening(p), `port ${p}`).toBe(false);
      } finally {
        holder.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
