// API process entry point: `npm run api` (or spawned by `npm start`).
import http from 'node:http';
import { Catalog } from '../catalog/index.js';
import { warmHoldTokens } from '../credits/hold.js';
import { loadConfigOrExit } from '../config.js';
import { listenForProcessStates, tellSupervisorReady } from '../supervision/protocol.js';
import { createPool } from '../db/pool.js';
import { registerEnginePlugins } from '../engines/index.js';
import { migrate } from '../db/migrate.js';
import { createApp } from './httpApp.js';
import { answerClientError } from '../http/errors.js';
import { logger } from '../logger.js';
import { registryOf } from '../providers/index.js';
import { createStorage } from '../storage/index.js';
import { createTemporalClient } from '../temporal/client.js';

const config = loadConfigOrExit();
for (const deprecation of config.deprecations) logger.warn(deprecation);
await registerEnginePlugins(config.enginePlugins);
// Read now: a broken providers file stops the API at start-up, not at the first request naming provider.order.
registryOf(config);
const db = createPool(config.databaseUrl, config.databasePoolSize);
await migrate(db);
const temporal = createTemporalClient(config);
// What the first request would otherwise wait for: the tokenizer (credit holds) and the connection to
// Temporal (its workflow start), begun now but not awaited: the API starts while Temporal is down.
warmHoldTokens();
void temporal.connection.ensureConnected().catch(() => {});
const app = createApp({ config, db, temporal, catalog: Catalog.load(), storage: createStorage(config), logger });
// Koa settles each request itself (errors included): nothing to await here.
const handle = app.callback();
const server = http.createServer((req, res) => void handle(req, res));
server.on('clientError', answerClientError);
// Under `npm start`: GET /readyz reports the state of every process it runs.
listenForProcessStates();
server.listen(config.port, config.host, () => {
  logger.info({ port: config.port }, 'API listening');
  tellSupervisorReady();
});

// SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (at most
// SHUTDOWN_GRACE_SECONDS), then close the pools. Once: Ctrl-C on `npm start` sends two signals.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'API shutting down');
  const drained = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
  await drained;
  clearTimeout(grace);
  await db.end().catch(() => {});
  await temporal.connection.close().catch(() => {});
  logger.info('API stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
