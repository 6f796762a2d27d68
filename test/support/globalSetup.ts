// Once per `npm test`: a real Temporal dev server (in memory, headless) on free ports and a fresh
// PostgreSQL database (on DATABASE_URL's server, else on an embedded one), migrated; both torn
// down afterwards. Test files read the addresses with inject().
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { findTemporalCli } from '../../src/tooling/install.mjs';
import { startDevServer, type DevServer } from '../../src/tooling/temporalDevServer.js';
import { contractReportDir } from './contract.js';
import { freePort } from '../../src/tooling/ports.js';
import { missingTools, underCi } from './tools.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    temporalCliPath: string;
    dataDir: string;
  }
}

let temporal: DevServer | undefined;
let embedded: EmbeddedPg | undefined;
let embeddedDir: string | undefined;
let adminUrl: string | undefined;
let dbName: string | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  // CI runs every test: a tool that is missing fails the run here, named, instead of skipping tests.
  const missing = underCi() ? missingTools() : null;
  if (missing) throw new Error(`CI=true: ${missing}`);
  const cliPath = findTemporalCli();
  if (!cliPath) throw new Error('Temporal CLI not installed: run `npm test` (its pretest step installs it)');
  const [temporalPort, pgPort] = await Promise.all([freePort(), freePort()]);

  const startPg = async () => {
    if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
    // The embedded server runs as the `postgres` user when we are root: give it a reachable directory.
    embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-test-pg-'));
    fs.chmodSync(embeddedDir, 0o755);
    embedded = await startEmbeddedPostgres({ dir: path.join(embeddedDir, 'data'), port: pgPort, persistent: false });
    return embedded.url;
  };
  const [pgUrl, server] = await Promise.all([startPg(), startDevServer({ cliPath, port: temporalPort, uiPort: null })]);
  temporal = server;

  adminUrl = pgUrl;
  dbName = `video_test_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const pool = createPool(databaseUrl, 1);
  await migrate(pool);
  await pool.end();

  project.provide('databaseUrl', databaseUrl);
  project.provide('temporalAddress', temporal.address);
  project.provide('temporalCliPath', cliPath);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-api-test-data-'));
  project.provide('dataDir', dataDir);
}

export async function teardown() {
  if (dataDir) reportContract(contractReportDir(dataDir));
  if (adminUrl && dbName && !embedded) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  await temporal?.stop();
  await embedded?.stop();
  for (const dir of [embeddedDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** The OpenAPI contract's totals over the run (test/support/contract.ts): answers checked per operation and status. */
function reportContract(dir: string) {
  const totals = new Map<string, number>();
  for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    for (const [key, n] of Object.entries(
      JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, number>,
    ))
      totals.set(key, (totals.get(key) ?? 0) + n);
  }
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  const operations = new Set([...totals.keys()].map((k) => k.split(' ')[0]));
  console.log(
    `OpenAPI contract: ${all} answers and webhook deliveries checked against the document, ` +
      `${operations.size} operations, ${totals.size} operation/status pairs`,
  );
  console.log(
    [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `  ${k}: ${n}`)
      .join('\n'),
  );
}
