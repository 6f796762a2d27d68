// `npm start`: the whole service on one machine with embedded defaults.
//   PostgreSQL (DATABASE_URL, else embedded under DATA_DIR/postgres), a Temporal dev server
//   (TEMPORAL_ADDRESS, else started here on EMBEDDED_TEMPORAL_PORT with its SQLite file under
//   DATA_DIR and the Web UI), migrations, then the API and one worker as child processes.
//   A process that exits unexpectedly is restarted (src/tooling/supervisor.ts); Ctrl-C stops everything.
// package.json runs it with `exec node src/tooling/lts.mjs --import tsx` (the Node LTS the image ships):
// no /bin/sh (which re-raises Ctrl-C's SIGINT on itself whatever its child does: exit 130) and no tsx
// CLI (which SIGKILLs a child slow to confirm a signal) between npm and this process, and lts.mjs
// waits for it, so a stop ends in this process's own exit code.
import './serviceName.js';
import path from 'node:path';
import { loadConfigOrExit } from '../config.js';
import { startDevServer } from './temporalDevServer.js';
import { ensureTemporalCli } from './install.mjs';
import { ensurePostgres, exitOf, nodeService, supervise } from './supervisor.js';
import { takenClaims } from './preflight.js';

const config = loadConfigOrExit();
const started = Date.now();

// Ports and data another process holds (often a leftover of an earlier run): said now, naming it.
const taken = await takenClaims([
  { what: 'the API (PORT)', port: config.port, host: config.host },
  ...(config.embeddedDatabase
    ? [
        { what: 'the embedded PostgreSQL (EMBEDDED_PG_PORT)', port: config.embeddedPgPort },
        { what: 'the embedded PostgreSQL data (DATA_DIR)', file: path.join(config.dataDir, 'postgres') },
      ]
    : []),
  ...(config.embeddedTemporal
    ? [
        {
          what: 'the Temporal dev server (EMBEDDED_TEMPORAL_PORT)',
          port: Number(config.temporal.address.split(':')[1]),
        },
        { what: 'the Temporal Web UI (TEMPORAL_UI_PORT)', port: config.temporal.uiPort },
        { what: 'the Temporal dev server data (DATA_DIR)', file: path.join(config.dataDir, 'temporal.db') },
      ]
    : []),
]);
if (taken.length) {
  process.stderr.write(
    `npm start cannot start: what it needs is taken.\n  ${taken.join('\n  ')}\n` +
      'Stop that process, or move this one (the variables named above).\n',
  );
  process.exit(1);
}

const supervisor = supervise();

const postgres = await ensurePostgres(config, supervisor);

// Temporal
const uiUrl = config.embeddedTemporal ? `http://localhost:${config.temporal.uiPort}` : null;
if (config.embeddedTemporal) {
  const cliPath = await ensureTemporalCli();
  await supervisor.run({
    name: 'temporal',
    async start(output) {
      const server = await startDevServer({
        cliPath,
        port: Number(config.temporal.address.split(':')[1]),
        uiPort: config.temporal.uiPort,
        dbFile: path.join(config.dataDir, 'temporal.db'),
        namespace: config.temporal.namespace,
        ownProcessGroup: true,
        onOutput: output,
      });
      return { pid: server.process.pid, exited: exitOf(server.process), stop: () => server.stop() };
    },
  });
}

// API and worker: started once what they need is up, and restarted after it.
const after = [postgres.service, config.embeddedTemporal ? 'temporal' : null].filter((name) => name !== null);
const childEnv = {
  TEMPORAL_METRICS_BIND: '127.0.0.1:9465',
  ...process.env,
  DATABASE_URL: config.databaseUrl,
  TEMPORAL_ADDRESS: config.temporal.address,
  // The dashboard links each generation to its workflow in the Web UI of the server started here.
  ...(uiUrl && !process.env.TEMPORAL_UI_URL && { TEMPORAL_UI_URL: uiUrl }),
};
const graceMs = config.shutdownGraceMs + 5_000;
await Promise.all([
  supervisor.run(nodeService('worker', 'src/app/worker.ts', childEnv, { graceMs, after })),
  supervisor.run(nodeService('api', 'src/app/api.ts', childEnv, { graceMs, after, hearsProcessStates: true })),
]);

const apiUrl = `http://localhost:${config.port}`;
const lines = [
  '',
  `  Video generation API   ${apiUrl}   (try: curl ${apiUrl}/v1/engines; readiness of every process: ${apiUrl}/readyz)`,
  uiUrl ? `  Temporal Web UI        ${uiUrl}` : `  Temporal               ${config.temporal.address} (external)`,
  `  PostgreSQL             ${postgres.description}`,
  `  Migrations applied     ${postgres.applied.length ? postgres.applied.join(', ') : 'none (schema up to date)'}`,
  '',
  '  Get an API key:',
  '    npm run admin -- create-org --name "My org" --credits 1000',
  '    npm run admin -- create-key --org <org id from above> --name dev',
  '',
  `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. A process that crashes is restarted; ` +
    `Ctrl-C stops everything.`,
  '',
];
process.stderr.write(lines.join('\n') + '\n');
