// `npm start`: the whole service on one machine with embedded defaults.
//   PostgreSQL (DATABASE_URL, else embedded under DATA_DIR/postgres), a Temporal dev server
//   (TEMPORAL_ADDRESS, else started here with its SQLite file under DATA_DIR and the Web UI),
//   migrations, then the API and one worker as child processes. Ctrl-C stops everything it started.
// package.json runs it with `exec node --import tsx`: no /bin/sh (which re-raises Ctrl-C's SIGINT on
// itself whatever its child does: exit 130) and no tsx CLI (which SIGKILLs a child slow to confirm a
// signal) between npm and this process, so a stop ends in this process's own exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EMBEDDED_DB_NAME, loadConfigOrExit } from '../config.js';
import { startEmbeddedPostgres, type EmbeddedPg } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { logger } from '../logger.js';
import { startDevServer, stopChild, type DevServer } from '../temporal/devServer.js';
import { ensureTemporalCli } from './install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = loadConfigOrExit();
const started = Date.now();
const stoppers: Array<() => Promise<void>> = [];
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  logger.info('stopping everything');
  for (const stop of stoppers.reverse()) await stop().catch((err) => logger.error({ err }, 'stop failed'));
  logger.info('everything stopped');
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

fs.mkdirSync(config.dataDir, { recursive: true });

// PostgreSQL
let embedded: EmbeddedPg | undefined;
if (config.embeddedDatabase) {
  embedded = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    persistent: true,
  }).catch((err) => {
    logger.fatal(
      { err: String(err) },
      'embedded PostgreSQL failed to start; set DATABASE_URL to use another server, or DATA_DIR to a directory the postgres user can reach',
    );
    process.exit(1);
  });
  stoppers.push(() => embedded!.stop());
  const admin = new pg.Client({ connectionString: embedded.url });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DB_NAME}`);
  await admin.end();
}
const db = createPool(config.databaseUrl, 1);
const applied = await migrate(db);
await db.end();

// Temporal
let temporal: DevServer | undefined;
if (config.embeddedTemporal) {
  const [, port] = config.temporal.address.split(':');
  temporal = await startDevServer({
    cliPath: await ensureTemporalCli(),
    port: Number(port),
    uiPort: config.temporal.uiPort,
    dbFile: path.join(config.dataDir, 'temporal.db'),
    namespace: config.temporal.namespace,
    ownProcessGroup: true,
  });
  stoppers.push(() => temporal!.stop());
}

// API and worker
const childEnv = {
  TEMPORAL_METRICS_BIND: '127.0.0.1:9465',
  ...process.env,
  DATABASE_URL: config.databaseUrl,
  TEMPORAL_ADDRESS: config.temporal.address,
  // The dashboard links each generation to its workflow in the Web UI of the server started here.
  ...(temporal?.uiUrl && !process.env.TEMPORAL_UI_URL && { TEMPORAL_UI_URL: `http://localhost:${config.temporal.uiPort}` }),
};
function startChild(name: string, entry: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...childEnv, SERVICE_NAME: `video-${name}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    logger.error({ process: name, code, signal }, 'child process exited; stopping');
    void stopAll(1);
  });
  // API and worker drain for up to SHUTDOWN_GRACE_SECONDS; killed only if they overrun it.
  stoppers.push(() => stopChild(child, config.shutdownGraceMs + 5_000));
  return child;
}
startChild('worker', 'src/worker/main.ts');
startChild('api', 'src/api/main.ts');

const apiUrl = `http://localhost:${config.port}`;
await waitForHttp(`${apiUrl}/healthz`);

const lines = [
  '',
  `  Video generation API   ${apiUrl}   (try: curl ${apiUrl}/v1/engines)`,
  temporal?.uiUrl ? `  Temporal Web UI        ${temporal.uiUrl}` : `  Temporal               ${config.temporal.address} (external)`,
  `  PostgreSQL             ${embedded ? `embedded, data in ${path.join(config.dataDir, 'postgres')} (set DATABASE_URL to use your own)` : 'DATABASE_URL'}`,
  `  Migrations applied     ${applied.length ? applied.join(', ') : 'none (schema up to date)'}`,
  '',
  '  Get an API key:',
  '    npm run admin -- create-org --name "My org" --credits 1000',
  '    npm run admin -- create-key --org <org id from above> --name dev',
  '',
  `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`,
  '',
];
process.stderr.write(lines.join('\n') + '\n');

async function waitForHttp(url: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  logger.fatal({ url }, 'API did not come up');
  await stopAll(1);
}
