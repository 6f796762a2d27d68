// `npm run cluster`: the production topology on one machine (src/tooling/topology.ts). A Temporal cluster
// on PostgreSQL (its four services as separate processes, the server's default dynamic config), two
// API processes on PORT and PORT+1, one I/O worker and two render workers (one render slot each), S3
// storage on a local S3-compatible server (gofakes3, in memory), one shared PostgreSQL (DATABASE_URL,
// else embedded). Ctrl-C stops everything it started.
import './serviceName.js';
import path from 'node:path';
import { loadConfigOrExit } from '../config.js';
import { logger } from '../logger.js';
import { ensurePostgres, supervise } from './supervisor.js';
import { PRODUCTION_TOPOLOGY, startTopology, topologyUnavailable } from './topology.js';

const config = loadConfigOrExit();
const started = Date.now();
const unavailable = topologyUnavailable();
if (unavailable) {
  process.stderr.write(`npm run cluster needs ${unavailable}\n`);
  process.exit(1);
}
const supervisor = supervise();
const postgres = await ensurePostgres(config, supervisor);
const dir = path.join(config.dataDir, 'cluster');
const topology = await startTopology({
  databaseUrl: config.databaseUrl,
  temporalDatabase: 'temporal',
  dir,
  frontendPort: Number(config.temporal.address.split(':')[1]),
  apiPorts: Array.from({ length: PRODUCTION_TOPOLOGY.apis }, (_, i) => config.port + i),
  renderWorkers: PRODUCTION_TOPOLOGY.renderWorkers,
  namespace: config.temporal.namespace,
  env: process.env,
  output: 'inherit',
  ownProcessGroup: true,
  onUnexpectedExit(name, code, signal) {
    logger.error({ process: name, code, signal }, 'process exited; stopping');
    void supervisor.stopAll(1);
  },
});
supervisor.onStop(() => topology.stop());

process.stderr.write(
  [
    '',
    `  Video generation API   ${topology.apis.map((a) => a.url).join('  and  ')}`,
    `  Temporal cluster       ${topology.temporal.address}: frontend, history, ` +
      `matching and worker services (logs: ${path.join(dir, 'temporal', 'logs')})`,
    `  S3 (gofakes3)          ${topology.s3.endpoint}, bucket videos (in memory: media is lost on stop)`,
    `  Workers                1 I/O, ${topology.renderWorkers.length} render ` +
      `(RENDER_CONCURRENCY=${PRODUCTION_TOPOLOGY.renderConcurrency} each)`,
    `  PostgreSQL             ${postgres.description}`,
    '',
    `  Find generations:  temporal workflow list --address ${topology.temporal.address} ` +
      `--query 'GenerationStatus="completed"'`,
    '',
    `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`,
    '',
  ].join('\n'),
);
