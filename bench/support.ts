// What every benchmark needs: a temporary directory, a fresh PostgreSQL database (DATABASE_URL's
// server or an embedded one), optionally a Temporal dev server, service processes, and one cleanup.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { createApiKey } from '../src/db/apiKeys.js';
import { migrate } from '../src/db/migrate.js';
import { createOrganization } from '../src/db/organizations.js';
import { createPool, type Db } from '../src/db/pool.js';
import { ensureTemporalCli } from '../src/tooling/install.mjs';
import { startDevServer, stopChild } from '../src/tooling/temporalDevServer.js';
import { freePort } from '../src/tooling/ports.js';

export type BenchContext = {
  tmp: string;
  /** Runs at cleanup, last registered first. */
  defer(fn: () => Promise<unknown>): void;
  cleanup(): Promise<void>;
};

export function benchContext(name: string): BenchContext {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  fs.chmodSync(tmp, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  const cleanups: Array<() => Promise<unknown>> = [];
  return {
    tmp,
    defer: (fn) => cleanups.push(fn),
    async cleanup() {
      for (const c of cleanups.reverse()) await c().catch(() => {});
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

let databases = 0;

/** A fresh, migrated database; dropped at cleanup. */
export async function benchDatabase(ctx: BenchContext): Promise<{ url: string; db: Db }> {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({
      dir: path.join(ctx.tmp, 'pg'),
      port: await freePort(),
      persistent: false,
    });
    ctx.defer(() => embedded.stop());
    adminUrl = embedded.url;
  }
  const name = `bench_${process.pid}_${databases++}`; // unique: a bench may build two stacks
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  ctx.defer(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const db = createPool(url, 4);
  ctx.defer(() => db.end());
  await migrate(db);
  return { url, db };
}

/** An in-memory Temporal dev server on a free port; its address. */
export async function benchTemporal(ctx: BenchContext): Promise<string> {
  const server = await startDevServer({ cliPath: await ensureTemporalCli(), port: await freePort(), uiPort: null });
  ctx.defer(() => server.stop());
  return server.address;
}

export type BenchServices = {
  base: string;
  key: string;
  organizationId: string;
  db: Db;
  temporalAddress: string;
  env: NodeJS.ProcessEnv;
};

/**
 * A Temporal dev server, a fresh database, an organization with `creditsCents` and a key, and the
 * environment the API and worker processes of a bench run with (`extra` added); nothing started yet.
 */
export async function benchServices(
  ctx: BenchContext,
  creditsCents: number,
  extra: NodeJS.ProcessEnv = {},
): Promise<BenchServices> {
  const [temporalAddress, { url: dbUrl, db }, apiPort] = await Promise.all([
    benchTemporal(ctx),
    benchDatabase(ctx),
    freePort(),
  ]);
  const org = await createOrganization(db, 'bench', creditsCents);
  const { key } = await createApiKey(db, org.id, 'bench');
  const base = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...process.env,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    DATA_DIR: ctx.tmp,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    LOG_LEVEL: 'warn',
    WORKER_METRICS_PORT: '0',
    ...extra,
  };
  return { base, key, organizationId: org.id, db, temporalAddress, env };
}

/** Entry points by name, in this layout and in the one before src/app/ and src/tooling/. */
const ENTRY_POINTS = {
  api: ['src/app/api.ts', 'src/api/main.ts'],
  worker: ['src/app/worker.ts', 'src/worker/main.ts'],
  start: ['src/tooling/start.ts', 'src/dev/start.ts'],
  cluster: ['src/tooling/cluster.ts', 'src/dev/cluster.ts'],
  lts: ['src/tooling/lts.mjs', 'src/dev/lts.mjs'],
} as const;

/**
 * The path (relative to `checkout`) of one of its entry points, so benches that run another checkout
 * (--before, --root) also run commits older than the current layout.
 */
export function entryPoint(checkout: string, name: keyof typeof ENTRY_POINTS): string {
  const found = ENTRY_POINTS[name].find((p) => fs.existsSync(path.join(checkout, p)));
  if (!found) throw new Error(`${checkout} has no ${name} entry point (${ENTRY_POINTS[name].join(', ')})`);
  return found;
}

/**
 * Runs a service entry point (src/app/api.ts, src/app/worker.ts) as a child process; `cwd`: the
 * checkout to run it from (default this one: another, e.g. an older commit's worktree, runs that
 * commit's code). With BENCH_CPU_PROF=<dir>, each service writes a V8 CPU profile there when it stops.
 */
export function spawnService(ctx: BenchContext, entry: string, env: NodeJS.ProcessEnv, cwd?: string): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  ctx.defer(() => stopChild(child));
  return child;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const today = () => new Date().toISOString().slice(0, 10);

/**
 * `n` generations created with the JSON `body` and left in flight (run with no render worker): resolves
 * with their ids once every composition is written (provider known), so only the render, which nobody
 * picks up, is left and composing no longer competes for the cores.
 */
export async function inFlightGenerations(
  base: string,
  headers: Record<string, string>,
  body: string,
  n: number,
): Promise<string[]> {
  const ids = await Promise.all(
    Array.from(
      { length: n },
      async () =>
        ((await (await fetch(`${base}/v1/responses`, { method: 'POST', headers, body })).json()) as { id: string }).id,
    ),
  );
  await waitFor(async () => {
    const views = await Promise.all(
      ids.map(
        async (id) =>
          (await (await fetch(`${base}/v1/responses/${id}`, { headers })).json()) as { provider: string | null },
      ),
    );
    return views.every((v) => v.provider !== null);
  }, 300_000);
  return ids;
}

/** A GET that must answer 2xx (body read and dropped). */
export async function getOk(url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}

/**
 * Calls `call(i)` `rate` times a second for `seconds`, evenly spaced (open loop: a slow answer never
 * delays the next call, as with many independent clients): the latencies (ms) of the calls that
 * succeeded, the failures, and the seconds until the last call settled.
 */
export async function openLoop(
  rate: number,
  seconds: number,
  call: (i: number) => Promise<unknown>,
): Promise<{ latencies: number[]; errors: number; elapsedS: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const started = Date.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < seconds * rate; i++) {
    await new Promise((r) => setTimeout(r, started + (i * 1000) / rate - Date.now()));
    const t = performance.now();
    calls.push(
      call(i).then(
        () => void latencies.push(performance.now() - t),
        () => void errors++,
      ),
    );
  }
  await Promise.all(calls);
  return { latencies, errors, elapsedS: (Date.now() - started) / 1000 };
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; times in 1/100 s). */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The 1, 5 and 15 minute load averages, for the record of a run on a shared machine. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The p-th percentile (nearest rank, rounded down) of values sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
