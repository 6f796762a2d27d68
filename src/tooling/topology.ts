// The production topology on one machine, as `npm run cluster`, the cluster tests and the cluster
// benches start it: a Temporal cluster on PostgreSQL (src/tooling/temporalCluster.ts), S3 storage on
// gofakes3, API processes on their own ports, one I/O worker and render workers with one render slot
// each. Every process can be stopped, killed and started again (the failure drills).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresServerUrl, startTemporalCluster, type TemporalCluster } from './temporalCluster.js';
import { startDevServer, stopChild, type DevServer } from './temporalDevServer.js';
import { ensureTemporalCli, gofakes3, temporalServer } from './install.mjs';
import { freeLowPorts, freePorts } from './ports.js';
import { startS3Server, type S3Server } from './s3Server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The production topology's shape around the Temporal cluster: `npm run cluster` starts it and
 * docker-compose.yml declares it (test/deploy/compose.test.ts holds the two together).
 */
export const PRODUCTION_TOPOLOGY = { apis: 2, ioWorkers: 1, renderWorkers: 2, renderConcurrency: 1 } as const;

export type TopologyOptions = {
  /** The service's database (migrated); the Temporal databases go on the same server. */
  databaseUrl: string;
  /** Name of Temporal's database on that server (its visibility database gets `_visibility`). */
  temporalDatabase: string;
  /** Temporal config and logs, and the services' DATA_DIR. */
  dir: string;
  frontendPort: number;
  apiPorts: number[];
  renderWorkers: number;
  namespace: string;
  /** Environment of the API and worker processes (the topology adds storage, database and Temporal). */
  env: NodeJS.ProcessEnv;
  /** `inherit` (npm run cluster) or a log file per process under `dir/logs`. */
  output: 'inherit' | 'files';
  dynamicConfig?: Record<string, unknown>;
  /** `dev`: the CLI's single-process dev server (SQLite, one partition per queue) instead, for comparison. */
  temporalServer?: 'cluster' | 'dev';
  ownProcessGroup?: boolean;
  /** A process exited without being asked to. */
  onUnexpectedExit?(name: string, code: number | null, signal: NodeJS.Signals | null): void;
};

export type ServiceProcess = {
  name: string;
  /** The API's base URL; undefined for workers. */
  url?: string;
  readonly child: ChildProcess;
  start(): ChildProcess;
  /** SIGTERM (drain), SIGKILL after the grace period. */
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

export type Topology = {
  temporal: TemporalCluster;
  s3: S3Server;
  apis: ServiceProcess[];
  ioWorker: ServiceProcess;
  renderWorkers: ServiceProcess[];
  stop(): Promise<void>;
};

/** Why the topology cannot start here (its Go programs cannot be had), or null. */
export function topologyUnavailable(build = true): string | null {
  for (const tool of [temporalServer({ build }), gofakes3({ build })]) if (tool.reason) return tool.reason;
  return null;
}

export async function startTopology(opts: TopologyOptions): Promise<Topology> {
  const server = temporalServer();
  const s3Tool = gofakes3();
  if (!server.bin || !s3Tool.bin) throw new Error(`the cluster topology needs ${server.reason ?? s3Tool.reason}`);
  const serverUrl = postgresServerUrl(opts.databaseUrl);
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const [ports, membershipPorts, [s3Port]] = await Promise.all([freePorts(8), freeLowPorts(4), freePorts(1)]);
    const temporal =
      opts.temporalServer === 'dev'
        ? devServerAsCluster(
            await startDevServer({
              cliPath: await ensureTemporalCli(),
              port: opts.frontendPort,
              uiPort: null,
              namespace: opts.namespace,
            }),
            opts.namespace,
          )
        : await startTemporalCluster({
            serverPath: server.bin.server,
            sqlToolPath: server.bin.sql,
            cliPath: await ensureTemporalCli(),
            postgresUrl: serverUrl,
            database: opts.temporalDatabase,
            dir: path.join(opts.dir, 'temporal'),
            frontendPort: opts.frontendPort,
            ports,
            membershipPorts,
            namespace: opts.namespace,
            dynamicConfig: opts.dynamicConfig,
            ownProcessGroup: opts.ownProcessGroup,
          });
    started.push(temporal);
    const s3 = await startS3Server(s3Tool.bin.gofakes3, { port: s3Port!, bucket: 'videos' });
    started.push(s3);

    const env = {
      ...opts.env,
      ...s3.env,
      DATABASE_URL: opts.databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: opts.namespace,
      DATA_DIR: opts.dir,
      WORKER_METRICS_PORT: '0',
    };
    const service = (name: string, entry: string, own: NodeJS.ProcessEnv, url?: string) =>
      nodeService(name, entry, { ...env, ...own }, opts, url);
    const ioWorker = service('worker-io', 'src/app/worker.ts', { WORKER_QUEUES: 'io' });
    const renderWorkers = Array.from({ length: opts.renderWorkers }, (_, i) =>
      service(`worker-render-${i + 1}`, 'src/app/worker.ts', {
        WORKER_QUEUES: 'render',
        RENDER_CONCURRENCY: String(PRODUCTION_TOPOLOGY.renderConcurrency),
      }),
    );
    const apis = opts.apiPorts.map((port, i) => {
      const url = `http://127.0.0.1:${port}`;
      return service(
        `api-${i + 1}`,
        'src/app/api.ts',
        { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: url },
        url,
      );
    });
    const processes = [ioWorker, ...renderWorkers, ...apis];
    for (const p of processes) p.start();
    started.push({ stop: () => Promise.all(processes.map((p) => p.stop())).then(() => {}) });
    await Promise.all(apis.map((api) => waitForReady(`${api.url}/readyz`, api)));
    return {
      temporal,
      s3,
      apis,
      ioWorker,
      renderWorkers,
      // Services first (they drain against a running cluster), then storage and Temporal.
      stop: () => stopInReverse(started),
    };
  } catch (err) {
    await stopInReverse(started);
    throw err;
  }
}

function devServerAsCluster(server: DevServer, namespace: string): TemporalCluster {
  return {
    address: server.address,
    namespace,
    log: () => '(the dev server logs errors only, to its stderr)',
    restart: () => Promise.reject(new Error('the dev server is one process: nothing to restart alone')),
    stop: () => server.stop(),
  };
}

async function stopInReverse(started: Array<{ stop(): Promise<void> }>) {
  for (const part of [...started].reverse()) await part.stop().catch(() => {});
}

function nodeService(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  opts: TopologyOptions,
  url?: string,
): ServiceProcess {
  let child: ChildProcess | undefined;
  let expected = false;
  const graceMs = (Number(env.SHUTDOWN_GRACE_SECONDS ?? 30) + 5) * 1000;
  const service: ServiceProcess = {
    name,
    url,
    get child() {
      if (!child) throw new Error(`${name} was never started`);
      return child;
    },
    start() {
      expected = false;
      const logs = path.join(opts.dir, 'logs');
      let stdio: ['ignore', 'inherit' | number, 'inherit' | number] = ['ignore', 'inherit', 'inherit'];
      if (opts.output === 'files') {
        fs.mkdirSync(logs, { recursive: true });
        const fd = fs.openSync(path.join(logs, `${name}.log`), 'a');
        stdio = ['ignore', fd, fd];
      }
      const current = spawn(process.execPath, ['--import', 'tsx', entry], {
        cwd: root,
        env: { ...env, SERVICE_NAME: `video-${name}` },
        stdio,
        detached: opts.ownProcessGroup ?? false,
      });
      if (typeof stdio[1] === 'number') fs.closeSync(stdio[1]);
      current.on('exit', (code, signal) => {
        if (!expected && current === child) opts.onUnexpectedExit?.(name, code, signal);
      });
      child = current;
      return current;
    },
    async stop() {
      expected = true;
      if (child) await stopChild(child, graceMs);
    },
    async kill(signal = 'SIGKILL') {
      expected = true;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
  return service;
}

async function waitForReady(url: string, api: ServiceProcess) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (api.child.exitCode !== null) throw new Error(`${api.name} exited (${api.child.exitCode}) before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${api.name} not ready at ${url} after 120 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
