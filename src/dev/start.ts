// `npm start`: the whole service on one machine with embedded defaults.
//   PostgreSQL (DATABASE_URL, else embedded under DATA_DIR/postgres), a Temporal dev server
//   (TEMPORAL_ADDRESS, else started here with its SQLite file under DATA_DIR and the Web UI),
//   migrations, then the API and one worker as child processes. Ctrl-C stops everything it started.
// package.json runs it with `exec node src/dev/lts.mjs --import tsx` (the Node LTS the image ships):
// no /bin/sh (which re-raises Ctrl-C's SIGINT on itself whatever its child does: exit 130) and no tsx
// CLI (which SIGKILLs a child slow to confirm a signal) between npm and this process, and lts.mjs
// waits for it, so a stop ends in this process's own exit code.
import path from 'node:path';
import { loadConfigOrExit } from '../config.js';
import { startDevServer, type DevServer } from '../temporal/devServer.js';
import { ensureTemporalCli } from './install.mjs';
import { ensurePostgres, supervise, waitForHttp } from './supervisor.js';

const config = loadConfigOrExit();
const started = Date.now();
const supervisor = supervise();

const postgres = await ensurePostgres(config, supervisor);

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
  supervisor.onStop(() => temporal!.stop());
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
const graceMs = config.shutdownGraceMs + 5_000;
supervisor.startNode('worker', 'src/worker/main.ts', childEnv, graceMs);
supervisor.startNode('api', 'src/api/main.ts', childEnv, graceMs);

const apiUrl = `http://localhost:${config.port}`;
await waitForHttp(`${apiUrl}/healthz`, supervisor);

const lines = [
  '',
  `  Video generation API   ${apiUrl}   (try: curl ${apiUrl}/v1/engines)`,
  temporal?.uiUrl ? `  Temporal Web UI        ${temporal.uiUrl}` : `  Temporal               ${config.temporal.address} (external)`,
  `  PostgreSQL             ${postgres.description}`,
  `  Migrations applied     ${postgres.applied.length ? postgres.applied.join(', ') : 'none (schema up to date)'}`,
  '',
  '  Get an API key:',
  '    npm run admin -- create-org --name "My org" --credits 1000',
  '    npm run admin -- create-key --org <org id from above> --name dev',
  '',
  `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`,
  '',
];
process.stderr.write(lines.join('\n') + '\n');
