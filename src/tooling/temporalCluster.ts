// A production-like Temporal cluster on one machine: the Temporal server binary with PostgreSQL
// persistence and visibility (schemas applied with the server's own SQL tool), its four services
// (frontend, history, matching, worker) as separate processes, the service's dynamic config
// (src/temporal/dynamicConfig.ts) plus what `dynamicConfig` adds, and the namespace and search attributes registered
// with the CLI as an operator would. Used by `npm run cluster` (src/tooling/cluster.ts), the cluster test suite and the
// cluster benches.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { SEARCH_ATTRIBUTES } from '../temporal/contract.js';
import { serviceDynamicConfig } from '../temporal/dynamicConfig.js';
import { stopChild, waitForFrontend } from './temporalDevServer.js';

const run = promisify(execFile);

export const CLUSTER_SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type ClusterService = (typeof CLUSTER_SERVICES)[number];
/** The server's embedded PostgreSQL schemas, for the database and its `_visibility` companion. */
export const TEMPORAL_SCHEMAS = {
  default: 'postgresql/v12/temporal',
  visibility: 'postgresql/v12/visibility',
} as const;
export const NUM_HISTORY_SHARDS = 4;

export type ClusterOptions = {
  /** The `server` and `sql` binaries (src/tooling/install.mjs ensureTemporalServer) and the CLI. */
  serverPath: string;
  sqlToolPath: string;
  cliPath: string;
  /** A PostgreSQL server URL with the right to create databases; the cluster's two go on it. */
  postgresUrl: string;
  /** Database names: `<database>` and `<database>_visibility`. */
  database: string;
  /** Config files and service logs. */
  dir: string;
  /** Frontend gRPC port; every other port is taken from `ports`. */
  frontendPort: number;
  /** Free ports for the services' gRPC, HTTP and metrics listeners (8 are needed). */
  ports: number[];
  /** Free ports below 32768 for the services' membership (4 are needed; stored as a smallint). */
  membershipPorts: number[];
  namespace: string;
  /** Dynamic config values on top of the server's defaults, `{key: value}` or constrained lists. */
  dynamicConfig?: Record<string, unknown>;
  /** Its own process groups (`npm run cluster`): a terminal's Ctrl-C reaches the workers first. */
  ownProcessGroup?: boolean;
};

export type TemporalCluster = {
  address: string;
  namespace: string;
  /** The last lines a service wrote to its log file. */
  log(service: ClusterService): string;
  /** SIGKILLs one service and starts it again with the same config (a crash drill). */
  restart(service: ClusterService): Promise<void>;
  stop(): Promise<void>;
};

export async function startTemporalCluster(opts: ClusterOptions): Promise<TemporalCluster> {
  const url = new URL(opts.postgresUrl);
  await createDatabases(url, [opts.database, `${opts.database}_visibility`]);
  await applySchemas(opts, url);
  const { configDir, historyPort } = writeConfig(opts, url);

  const children = new Map<ClusterService, ChildProcess>();
  const startService = (service: ClusterService) => {
    const child = spawn(
      opts.serverPath,
      [
        '--root',
        opts.dir,
        '--config',
        path.relative(opts.dir, configDir),
        '--env',
        service,
        '--allow-no-auth',
        'start',
        '--service',
        service,
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore'],
        detached: opts.ownProcessGroup ?? false,
      },
    );
    children.set(service, child);
  };

  const address = `127.0.0.1:${opts.frontendPort}`;
  const cluster: TemporalCluster = {
    address,
    namespace: opts.namespace,
    log: (service) => tail(path.join(opts.dir, 'logs', `${service}.log`)),
    async restart(service) {
      const child = children.get(service)!;
      child.kill('SIGKILL');
      await new Promise((r) =>
        child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r),
      );
      startService(service);
    },
    async stop() {
      // Frontend first (no new requests), then the rest.
      const frontend = children.get('frontend');
      if (frontend) await stopChild(frontend);
      await Promise.all([...children.values()].map((child) => stopChild(child)));
    },
  };
  try {
    // History alone first: on a fresh database, the first service to start writes the cluster
    // metadata, and services that race it fail. Then the rest; the frontend last.
    startService('history');
    await waitForPort(historyPort, children.get('history')!, () => cluster.log('history'));
    for (const service of ['matching', 'worker', 'frontend'] as const) startService(service);
    await waitForFrontend(
      address,
      () => {
        const exited = [...children].find(([, child]) => child.exitCode !== null);
        return exited ? `temporal ${exited[0]} exited (${exited[1].exitCode}): ${cluster.log(exited[0])}` : null;
      },
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; frontend log: ${cluster.log('frontend')}`);
    });
    await registerNamespace(opts, address);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

async function createDatabases(url: URL, names: string[]) {
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    for (const name of names) {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    }
  } finally {
    await admin.end();
  }
}

/** `setup-schema` once (version 0), then `update-schema` to the version this server embeds. */
async function applySchemas(opts: ClusterOptions, url: URL) {
  for (const [database, schema] of [
    [opts.database, TEMPORAL_SCHEMAS.default],
    [`${opts.database}_visibility`, TEMPORAL_SCHEMAS.visibility],
  ] as const) {
    const connection = [
      '--plugin',
      'postgres12',
      '--ep',
      url.hostname,
      '--port',
      url.port || '5432',
      '--user',
      decodeURIComponent(url.username) || 'postgres',
      '--db',
      database,
    ];
    if (url.password) connection.push('--password', decodeURIComponent(url.password));
    const client = new pg.Client({ connectionString: withDatabase(url, database) });
    await client.connect();
    const { rowCount } = await client
      .query("SELECT 1 FROM information_schema.tables WHERE table_name = 'schema_version'")
      .finally(() => client.end());
    if (!rowCount) await run(opts.sqlToolPath, [...connection, 'setup-schema', '-v', '0.0']);
    await run(opts.sqlToolPath, [...connection, 'update-schema', '--schema-name', schema]);
  }
}

const withDatabase = (url: URL, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * base.yaml holds the cluster (persistence, ports, membership); <service>.yaml the service's own log
 * file and metrics port. The server merges the two (`--env <service>`). JSON is YAML.
 */
function writeConfig(opts: ClusterOptions, url: URL): { configDir: string; historyPort: number } {
  const configDir = path.join(opts.dir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  fs.mkdirSync(path.join(opts.dir, 'logs'), { recursive: true });
  const taker = (list: number[]) => {
    const ports = [...list];
    return () => {
      const port = ports.shift();
      if (port === undefined) throw new Error('startTemporalCluster: not enough ports');
      return port;
    };
  };
  const take = taker(opts.ports);
  const takeMembership = taker(opts.membershipPorts);
  const store = (database: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName: database,
      connectAddr: `${url.hostname}:${url.port || '5432'}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(url.username) || 'postgres',
      password: decodeURIComponent(url.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const rpc = (grpcPort: number, extra: object = {}) => ({
    rpc: { grpcPort, membershipPort: takeMembership(), bindOnLocalHost: true, ...extra },
  });
  const dynamicConfigFile = path.join(configDir, 'dynamic.yaml');
  const dynamic = {
    ...serviceDynamicConfig(),
    ...Object.fromEntries(
      Object.entries(opts.dynamicConfig ?? {}).map(([key, value]) => [key, Array.isArray(value) ? value : [{ value }]]),
    ),
  };
  fs.writeFileSync(dynamicConfigFile, JSON.stringify(dynamic, null, 2));
  const base = {
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: NUM_HISTORY_SHARDS,
      datastores: { default: store(opts.database, 20), visibility: store(`${opts.database}_visibility`, 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: rpc(opts.frontendPort, { httpPort: take() }),
      history: rpc(take()),
      matching: rpc(take()),
      worker: rpc(take()),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${opts.frontendPort}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfigFile, pollInterval: '10s' },
  };
  fs.writeFileSync(path.join(configDir, 'base.yaml'), JSON.stringify(base, null, 2));
  const historyPort = base.services.history.rpc.grpcPort;
  for (const service of CLUSTER_SERVICES) {
    const own = {
      log: { stdout: false, level: 'warn', outputFile: path.join(opts.dir, 'logs', `${service}.log`) },
      global: {
        metrics: { prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `127.0.0.1:${take()}` } },
      },
    };
    fs.writeFileSync(path.join(configDir, `${service}.yaml`), JSON.stringify(own, null, 2));
  }
  return { configDir, historyPort };
}

/** Until something listens on the port (the service is up), or the process exits. */
async function waitForPort(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal service exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`temporal service not listening on ${port} after 60 s: ${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const CLI_TYPE: Record<string, string> = { KEYWORD: 'Keyword', TEXT: 'Text', INT: 'Int', BOOL: 'Bool' };

/**
 * The namespace and the generation search attributes, with the CLI as an operator would (each step
 * skipped when already done), then wait until the namespace answers on the frontend.
 */
async function registerNamespace(opts: ClusterOptions, address: string) {
  const cli = (...args: string[]) =>
    run(opts.cliPath, [...args, '--address', address], { env: { ...process.env, TEMPORAL_CLI_SHOW_STACKS: '' } });
  const existing = await cli('operator', 'namespace', 'describe', '--namespace', opts.namespace).then(
    () => true,
    () => false,
  );
  if (!existing) await cli('operator', 'namespace', 'create', '--namespace', opts.namespace, '--retention', '72h');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const { stdout } = await cli(
        'operator',
        'search-attribute',
        'list',
        '--namespace',
        opts.namespace,
        '--output',
        'json',
      );
      const missing = Object.values(SEARCH_ATTRIBUTES).filter((a) => !stdout.includes(`"${a.name}"`));
      if (missing.length === 0) return;
      const args = missing.flatMap((a) => ['--name', a.name, '--type', CLI_TYPE[a.type]!]);
      await cli('operator', 'search-attribute', 'create', '--namespace', opts.namespace, ...args);
    } catch (err) {
      // A namespace just created takes a moment to reach every service.
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '(no log)';
  }
}

/** Drops a cluster's two databases (tests and benches clean up with it). */
export async function dropClusterDatabases(postgresUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    for (const name of [database, `${database}_visibility`])
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The maintenance database of `databaseUrl`'s server: where a cluster's databases are created and dropped. */
export const postgresServerUrl = (databaseUrl: string) =>
  Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString();
