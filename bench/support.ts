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
import { ensureTemporalCli } from '../src/dev/install.mjs';
import { startDevServer, stopChild } from '../src/temporal/devServer.js';
import { freePort } from '../test/support/ports.js';

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

/** A fresh, migrated database; dropped at cleanup. */
export async function benchDatabase(ctx: BenchContext): Promise<{ url: string; db: Db }> {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({ dir: path.join(ctx.tmp, 'pg'), port: await freePort(), persistent: false });
    ctx.defer(() => embedded.stop());
    adminUrl = embedded.url;
  }
  const name = `bench_${process.pid}`;
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

export type BenchServices = { base: string; key: string; organizationId: string; db: Db; temporalAddress: string; env: NodeJS.ProcessEnv };

/**
 * A Temporal dev server, a fresh database, an organization with `creditsCents` and a key, and the
 * environment the API and worker processes of a bench run with (`extra` added); nothing started yet.
 */
export async function benchServices(ctx: BenchContext, creditsCents: number, extra: NodeJS.ProcessEnv = {}): Promise<BenchServices> {
  const [temporalAddress, { url: dbUrl, db }, apiPort] = await Promise.all([benchTemporal(ctx), benchDatabase(ctx), freePort()]);
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

/**
 * Runs a service entry point (src/api/main.ts, src/worker/main.ts) as a child process. With
 * BENCH_CPU_PROF=<dir>, each service writes a V8 CPU profile there when it stops.
 */
export function spawnService(ctx: BenchContext, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], { env, stdio: ['ignore', 'inherit', 'inherit'] });
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

/** The p-th percentile (nearest rank, rounded down) of values sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
