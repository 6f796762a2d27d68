// `npm start` heals itself (README, Operations, "Self-healing `npm start`"): the real src/tooling/start.ts
// topology (embedded PostgreSQL, the Temporal dev server, the API and a worker) on free ports in a
// process group of its own. With generations in flight the worker, the Temporal dev server and
// PostgreSQL are each SIGKILLed: the supervisor restarts it after its first backoff step, the API
// answers every request throughout, /readyz names the process while it is down, and every
// generation completes, charged once, each webhook event under one id. Then Ctrl-C stops it all once
// with exit code 0. A worker that cannot start stops the service after the crash limit, with one
// error naming it and its last log lines, and a non-zero exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePorts } from '../../src/tooling/ports.js';
import { createPool, type Db } from '../../src/db/pool.js';
import { checkResponse } from '../support/contract.js';
import {
  createDrillGeneration,
  expectSettled,
  orgWithWebhooks,
  startDrillReceiver,
  type DrillReceiver,
} from '../support/drills.js';
import { api } from '../support/stack.js';

type LogLine = Record<string, any> & { msg: string };

/** `node src/tooling/start.ts` (what `npm start` runs) with `env`, in its own process group. */
function npmStart(env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/tooling/start.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: LogLine[] = [];
  let stderr = '';
  let partial = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  child.stdout!.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop()!;
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        lines.push({ msg: part }); // not a log line: kept as its text
      }
    }
    changed();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-50_000);
    changed();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      changed();
      resolve({ code, signal });
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  /** Until `found()` returns something, re-checked on every output; fails when the process ends first. */
  const waitFor = <T>(what: string, found: () => T | undefined | false): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const result = found();
        if (result) {
          listeners.delete(check);
          resolve(result);
        } else if (gone()) {
          listeners.delete(check);
          reject(new Error(`npm start exited before ${what}:\n${stderr.slice(-3000)}`));
        }
      };
      listeners.add(check);
      check();
    });
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    ready: () => waitFor('it was ready', () => stderr.includes('Ready in')),
    /** The first log line from index `from` on that matches. */
    line: (from: number, match: (l: LogLine) => boolean, what: string) =>
      waitFor(what, () => lines.slice(from).find(match)),
    /** Every process of the group, and the Temporal dev server (a group of its own): SIGKILL. */
    kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

type Outcome = { request: string; status: number | 'no answer'; code?: string };

/** A client polling `ids` and /readyz at a client's pace until stopped: what each request got. */
function poll(base: string, key: string, ids: string[]) {
  const outcomes: Outcome[] = [];
  const readiness: Array<{ status: number; body: any }> = [];
  const contract: string[] = [];
  let polling = true;
  const attempt = async (request: string, path: string, withKey = true) => {
    try {
      const res = await api(base, path, withKey ? { key } : {});
      outcomes.push({ request, status: res.status, code: res.body?.error?.code });
      return res;
    } catch {
      outcomes.push({ request, status: 'no answer' });
      return null;
    }
  };
  const loop = (async () => {
    while (polling) {
      for (const id of ids) await attempt(`GET ${id}`, `/v1/responses/${id}`);
      const ready = await attempt('GET /readyz', '/readyz', false);
      if (ready) {
        readiness.push({ status: ready.status, body: ready.body });
        // The answers of this API process are not seen by the in-process contract check: checked here.
        const mismatch = checkResponse(
          'GET',
          '/readyz',
          ready.status,
          ready.headers.get('content-type') ?? undefined,
          JSON.stringify(ready.body),
        );
        if (mismatch) contract.push(mismatch);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    outcomes,
    readiness,
    contract,
    async stop() {
      polling = false;
      await loop;
    },
  };
}

const processes = async (base: string) =>
  (await api(base, '/readyz')).body.processes as Record<
    string,
    { state: string; pid: number; restarts: number; last_exit: string | null }
  >;

/** Until /readyz reports `name` in a state `accept` takes: that answer, and the process's entry. */
async function readiness(
  base: string,
  name: string,
  accept: (p: { state: string; pid: number; restarts: number }) => boolean,
) {
  for (;;) {
    const answer = await api(base, '/readyz').catch(() => null);
    const p = answer?.body.processes?.[name];
    if (p && accept(p)) return { answer: answer!, process: p };
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm start restarts what crashes', () => {
  let drill: DrillReceiver;
  let start: ReturnType<typeof npmStart>;
  let base: string;
  let db: Db;
  let key: string;
  let dataDir: string;
  let lastPids: Record<string, number> = {};

  beforeAll(async () => {
    drill = await startDrillReceiver();
    const [port, temporalPort, uiPort, pgPort, metricsPort, sdkMetricsPort] = await freePorts(6);
    // The embedded PostgreSQL runs as the `postgres` user when we are root: a directory it can reach.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-self-healing-'));
    fs.chmodSync(dataDir, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...drill.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      EMBEDDED_PG_PORT: String(pgPort),
      WORKER_METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_BIND: `127.0.0.1:${sdkMetricsPort}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
    };
    delete env.DATABASE_URL; // embedded PostgreSQL and Temporal dev server, as `npm start` on a fresh machine
    delete env.TEMPORAL_ADDRESS;
    start = npmStart(env);
    await start.ready();
    base = `http://127.0.0.1:${port}`;
    db = createPool(`postgres://postgres:postgres@127.0.0.1:${pgPort}/video`, 2);
    ({ key } = await orgWithWebhooks(db));
  }, 240_000);

  afterAll(async () => {
    start?.kill();
    for (const pid of Object.values(lastPids)) {
      try {
        process.kill(pid, 'SIGKILL'); // the Temporal dev server has a process group of its own
      } catch {
        // gone
      }
    }
    await db?.end();
    await drill?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every process is up and /readyz says so', async () => {
    const ready = await api(base, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(Object.keys(ready.body.processes).sort()).toEqual(['api', 'postgres', 'temporal', 'worker']);
    for (const p of Object.values(ready.body.processes) as any[])
      expect(p).toMatchObject({ state: 'up', restarts: 0, last_exit: null });
  });

  /**
   * Generations in flight, `name` SIGKILLed: its crash and restart are logged (first backoff step),
   * /readyz names it while it is down and reports it back, every poll is answered (`allowed` lists
   * the statuses a poll may get meanwhile), every generation settles. Returns the ids.
   */
  async function drillKill(name: string, allowed: number[], duringOutage?: () => Promise<string>) {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createDrillGeneration(base, key, drill.receiver)).id);
    // In flight: the first one has been picked up by the worker.
    for (;;) {
      const res = await api(base, `/v1/responses/${ids[0]}`, { key });
      if (res.body.status !== 'queued') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = (await processes(base))[name]!;
    const client = poll(base, key, ids);
    const from = start.lines.length;
    process.kill(before.pid, 'SIGKILL');

    const crash = await start.line(from, (l) => l.process === name && l.level === 50, `the ${name} crash line`);
    expect(crash).toMatchObject({
      service: 'video-supervisor',
      pid: before.pid,
      signal: 'SIGKILL',
      restart_in_s: 1,
      msg: `${name} exited unexpectedly (signal SIGKILL); restarting in 1 s`,
    });
    const down = await readiness(base, name, (p) => p.state === 'restarting');
    expect(down.process).toMatchObject({ restarts: before.restarts + 1, last_exit: 'signal SIGKILL' });
    if (duringOutage) ids.push(await duringOutage());

    const restarted = await start.line(
      from,
      (l) => l.process === name && l.msg === `${name} restarted`,
      `the ${name} restart line`,
    );
    // A restart that fails (PostgreSQL finding its old shared memory still held) is retried: at least one.
    expect(restarted.level).toBe(40);
    expect(restarted.restarts).toBeGreaterThanOrEqual(before.restarts + 1);
    const back = await readiness(base, name, (p) => p.state === 'up');
    expect(back.process.pid).not.toBe(before.pid);
    lastPids = Object.fromEntries(Object.entries(await processes(base)).map(([n, p]) => [n, p.pid]));

    for (const id of ids) await expectSettled(db, base, key, drill.receiver, id);
    await client.stop();
    const unanswered = client.outcomes.filter((o) => o.status === 'no answer');
    expect(unanswered, 'the API answered every request').toEqual([]);
    const unexpected = client.outcomes.filter(
      (o) => o.request !== 'GET /readyz' && !allowed.includes(o.status as number),
    );
    expect(unexpected).toEqual([]);
    for (const o of client.outcomes.filter((o) => o.status === 503 && o.request !== 'GET /readyz'))
      expect(o.code).toBe('temporarily_unavailable');
    expect(client.contract, 'every /readyz answer matches the OpenAPI document').toEqual([]);
    return { client, down: down.answer };
  }

  it(
    'the worker, SIGKILLed with generations in flight: the API keeps answering and accepting, the worker is back, ' +
      'all complete, charged once',
    async () => {
      const { client, down } = await drillKill('worker', [200], async () => {
        // Created while no worker runs: accepted, queued in Temporal.
        const created = await createDrillGeneration(base, key, drill.receiver);
        expect((await api(base, `/v1/responses/${created.id}`, { key })).body.status).toBe('queued');
        return created.id;
      });
      // A load balancer keeps sending traffic: /readyz stays 200, `degraded` while the worker restarts.
      expect(down).toMatchObject({
        status: 200,
        body: { status: 'degraded', checks: { database: 'ok', temporal: 'ok' } },
      });
      expect(client.readiness.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    },
    300_000,
  );

  it(
    'the Temporal dev server, SIGKILLed with generations in flight: restarted, the API answers from the records ' +
      'meanwhile, all complete, charged once',
    async () => {
      const { down } = await drillKill('temporal', [200]);
      expect(down.status).toBe(503);
      expect(down.body.checks.temporal).toMatch(/^unavailable/);
    },
    300_000,
  );

  it(
    'PostgreSQL, SIGKILLed with generations in flight: restarted, requests needing it get 503 meanwhile, ' +
      'API and worker reconnect, all complete, charged once',
    async () => {
      const { down } = await drillKill('postgres', [200, 503]);
      expect(down.status).toBe(503);
      expect(down.body.checks.database).toMatch(/^unavailable/);
    },
    300_000,
  );

  it('Ctrl-C stops everything once, with exit code 0, restarting nothing', async () => {
    const from = start.lines.length;
    process.kill(-start.child.pid!, 'SIGINT'); // as a terminal's Ctrl-C: the whole foreground group
    expect(await start.exited).toEqual({ code: 0, signal: null });
    const after = start.lines.slice(from);
    expect(after.filter((l) => l.msg === 'stopping everything')).toHaveLength(1);
    expect(after.filter((l) => l.msg === 'everything stopped')).toEqual([expect.objectContaining({ exit_code: 0 })]);
    // (As lines naming their process and message: a failure says which.)
    const warnings = after.filter((l) => l.level >= 40).map((l) => `${l.process ?? l.service}: ${l.msg}`);
    expect(warnings).toEqual([]);
    for (const [name, pid] of Object.entries(lastPids)) expect(() => process.kill(pid, 0), `${name} is gone`).toThrow();
  }, 120_000);
});

describe('npm start with a worker that cannot start', () => {
  it('stops after the crash limit with one error naming the worker and its last log lines, exit code 1', async () => {
    // The worker's metrics port is taken: a setting only the worker uses, wrong.
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '0.0.0.0', r));
    const metricsPort = (taken.address() as net.AddressInfo).port;
    const [port, sdkMetricsPort] = await freePorts(2);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-crash-loop-'));
    const start = npmStart({
      ...process.env,
      // The test stack's PostgreSQL and Temporal: only the API and the worker are started.
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKER_METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_BIND: `127.0.0.1:${sdkMetricsPort}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });
    try {
      expect(await start.exited).toEqual({ code: 1, signal: null });
      const supervisor = start.lines.filter((l) => l.service === 'video-supervisor');
      expect(supervisor.filter((l) => l.level === 50).map((l) => [l.process, l.restart_in_s])).toEqual([
        ['worker', 1],
        ['worker', 2],
        ['worker', 4],
        ['worker', 8],
      ]);
      const fatal = supervisor.filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ process: 'worker', crashes: 5, window_s: 120 });
      expect(fatal[0]!.msg).toMatch(
        new RegExp(
          String.raw`^worker crashed 5 times within 120 s ` +
            String.raw`\(last: failed to start: exit code 1 before it was ready\); stopping everything`,
        ),
      );
      expect(JSON.stringify(fatal[0]!.last_log_lines)).toContain(
        `EADDRINUSE: address already in use 0.0.0.0:${metricsPort}`,
      );
      expect(supervisor.filter((l) => l.msg.endsWith('restarted'))).toEqual([]);
      expect(start.lines.some((l) => l.service === 'video-api' && l.msg === 'API stopped')).toBe(true);
      expect(supervisor.at(-1)).toMatchObject({ msg: 'everything stopped', exit_code: 1 });
    } finally {
      start.kill();
      await new Promise((r) => taken.close(r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
