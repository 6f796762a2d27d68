// What `npm start` (src/dev/start.ts) and `npm run cluster` (src/dev/cluster.ts) share: child
// processes stopped in reverse order on Ctrl-C (or when one of them dies), PostgreSQL (DATABASE_URL,
// else an embedded server under DATA_DIR) migrated, and waiting for an HTTP endpoint.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EMBEDDED_DB_NAME, type Config } from '../config.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { logger } from '../logger.js';
import { stopChild } from '../temporal/devServer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Supervisor = {
  /** Runs on stop, last registered first. */
  onStop(stop: () => Promise<void>): void;
  /** A Node entry point of this project as a child process; its unexpected exit stops everything. */
  startNode(name: string, entry: string, env: NodeJS.ProcessEnv, graceMs: number): ChildProcess;
  stopAll(code: number): Promise<void>;
};

export function supervise(): Supervisor {
  const stoppers: Array<() => Promise<void>> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping everything');
    for (const stop of stoppers.reverse()) await stop().catch((err) => logger.error({ err }, 'stop failed'));
    logger.info('everything stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // A failed start (a top-level await that throws lands here too) stops what already runs.
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'start failed');
    void stopAll(1);
  });
  return {
    onStop: (stop) => stoppers.push(stop),
    startNode(name, entry, env, graceMs) {
      const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: root, env: { ...env, SERVICE_NAME: `video-${name}` }, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('exit', (code, signal) => {
        if (stopping) return;
        logger.error({ process: name, code, signal }, 'child process exited; stopping');
        void stopAll(1);
      });
      // APIs and workers drain for up to SHUTDOWN_GRACE_SECONDS; killed only if they overrun it.
      stoppers.push(() => stopChild(child, graceMs));
      return child;
    },
    stopAll,
  };
}

/** DATABASE_URL's server, else the embedded one (started here); migrated. */
export async function ensurePostgres(config: Config, supervisor: Supervisor) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  let embeddedUrl: string | undefined;
  if (config.embeddedDatabase) {
    const embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'postgres'), port: config.embeddedPgPort, persistent: true }).catch((err) => {
      logger.fatal({ err: String(err) }, 'embedded PostgreSQL failed to start; set DATABASE_URL to use another server, or DATA_DIR to a directory the postgres user can reach');
      process.exit(1);
    });
    supervisor.onStop(() => embedded.stop());
    embeddedUrl = embedded.url;
    const admin = new pg.Client({ connectionString: embedded.url });
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB_NAME]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DB_NAME}`);
    await admin.end();
  }
  const db = createPool(config.databaseUrl, 1);
  const applied = await migrate(db);
  await db.end();
  return {
    applied,
    description: embeddedUrl ? `embedded, data in ${path.join(config.dataDir, 'postgres')} (set DATABASE_URL to use your own)` : 'DATABASE_URL',
  };
}

export async function waitForHttp(url: string, supervisor: Supervisor) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  logger.fatal({ url }, 'did not come up');
  await supervisor.stopAll(1);
}
