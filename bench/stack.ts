// The stack a latency bench measures from outside: the real `npm start` (or `npm run cluster`) of a
// checkout run as a subprocess on free ports with a fresh DATA_DIR (embedded PostgreSQL), the local-testing
// webhook switches on, and a stock HTTPS webhook receiver on loopback in its own process (so the bench's
// own work never delays an arrival). Shared by bench/webhooks.ts and bench/latency.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { createApiKey } from '../src/db/apiKeys.js';
import { createOrganization } from '../src/db/organizations.js';
import { freePort, freePorts } from '../src/tooling/ports.js';
import { stopChild } from '../src/tooling/temporalDevServer.js';
import { entryPoint } from './support.js';

const say = (line: string) => process.stderr.write(`${line}\n`);

// ---- the receiver: its own process, one JSON line per request ------------------------------------

const RECEIVER = `
import https from 'node:https';
import fs from 'node:fs';
const certs = { cert: fs.readFileSync(process.env.CERT), key: fs.readFileSync(process.env.KEY) };
const server = https.createServer(certs, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(204).end();
    let event = {};
    try { event = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {}
    const arrival = {
      at, path: req.url, id: req.headers['service-webhook-id'], type: event.type, generation: event.data?.object?.id,
    };
    process.stdout.write(JSON.stringify(arrival) + '\\n');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
`;

export type Arrival = { at: number; path: string; id: string; type: string; generation: string };

export async function startReceiver(tls: { certFile: string; keyFile: string }) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RECEIVER], {
    env: { ...process.env, CERT: tls.certFile, KEY: tls.keyFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const arrivals: Arrival[] = [];
  let partial = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const msg = JSON.parse(line) as Arrival & { port?: number };
        if (msg.port) resolve(msg.port);
        else arrivals.push(msg);
      }
    });
  });
  return { url: (p: string) => `https://127.0.0.1:${port}${p}`, arrivals, stop: () => stopChild(child) };
}

// ---- stacks ----------------------------------------------------------------------------------------

const INHERITED_NOT = [
  'DATABASE_URL',
  'TEMPORAL_ADDRESS',
  'WORKER_METRICS_PORT',
  'TEMPORAL_METRICS_BIND',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'LOG_LEVEL',
  'PROVIDERS_FILE',
];

export type Stack = {
  label: string;
  topology: 'npm start' | 'npm run cluster';
  base: string;
  headers: Record<string, string>;
  db: pg.Pool;
  organizationId: string;
  temporal: Client;
  /** The I/O worker's prom-client metrics. */
  workerMetrics: string;
  /** The Temporal SDK's Prometheus exporter of the I/O worker, when it has one. */
  sdkMetrics: string | null;
  /** The command's process (`npm start`'s supervisor): the root of every process the stack runs. */
  pid: number;
  /** Its output (every service's JSON log lines). */
  logFile: string;
  /** Milliseconds from spawning the command to /readyz answering ready. */
  readyMs: number;
  stop(): Promise<void>;
};

/**
 * Runs `entry` (src/tooling/start.ts or src/tooling/cluster.ts) of the checkout `root` as `npm start` /
 * `npm run cluster` run it, on free ports, its output in a log file; resolves once /readyz says ok.
 */
export async function startStack(
  root: string,
  label: string,
  topology: Stack['topology'],
  receiverCa: string,
  extraEnv: NodeJS.ProcessEnv,
): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-stack-${label}-`));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  // Two consecutive ports for the cluster's APIs (PORT and PORT + 1).
  let apiPort = await freePort();
  while (!(await isFree(apiPort + 1))) apiPort = await freePort();
  const [pgPort, temporalPort, uiPort, metricsPort, sdkPort] = await freePorts(5);
  // What would change the stack from what the command runs by default (another database or server,
  // a real provider's key) is left out.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !INHERITED_NOT.includes(k)),
  );
  Object.assign(env, {
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(pgPort),
    EMBEDDED_TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    DATA_DIR: dataDir,
    RATE_LIMIT_ENABLED: 'false',
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
    OUTBOUND_UNSAFE_CA_FILE: receiverCa,
    // npm start's one worker: its metrics where the bench can read them (the cluster's log their port).
    ...(topology === 'npm start' && {
      WORKER_METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_BIND: `127.0.0.1:${sdkPort}`,
    }),
    ...extraEnv,
  });
  const logFile = path.join(dataDir, 'output.log');
  const fd = fs.openSync(logFile, 'a');
  const entry = entryPoint(root, topology === 'npm start' ? 'start' : 'cluster');
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [entryPoint(root, 'lts'), '--import', 'tsx', entry], {
    cwd: root,
    env,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const base = `http://127.0.0.1:${apiPort}`;
  const stopped = async () => {
    await stopChild(child, 90_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await readyOrExit(base, child, logFile);
    const readyMs = Date.now() - spawnedAt;
    const db = new pg.Pool({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/video`, max: 2 });
    const org = await createOrganization(db, `bench ${label}`, 1_000_000_000);
    const { key } = await createApiKey(db, org.id, 'bench');
    const temporal = new Client({
      connection: await Connection.connect({ address: `127.0.0.1:${temporalPort}` }),
      namespace: 'default',
    });
    // The I/O worker's metrics port: fixed under npm start; the cluster's workers pick a free one and log it.
    const ioMetricsPort = topology === 'npm start' ? metricsPort : await loggedMetricsPort(logFile, 'video-worker-io');
    return {
      label,
      topology,
      base,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      db,
      organizationId: org.id,
      temporal,
      workerMetrics: `http://127.0.0.1:${ioMetricsPort}/metrics`,
      sdkMetrics: topology === 'npm start' ? `http://127.0.0.1:${sdkPort}/metrics` : null,
      pid: child.pid!,
      logFile,
      readyMs,
      async stop() {
        await temporal.connection.close().catch(() => {});
        await db.end().catch(() => {});
        await stopped();
      },
    };
  } catch (err) {
    say(`${label}: ${(err as Error).message}; its output: ${logFile}`);
    await stopChild(child, 90_000);
    throw err;
  }
}

async function isFree(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function readyOrExit(base: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`exited with code ${child.exitCode}: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok && ((await res.json()) as { status: string }).status === 'ready') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('not ready after 10 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function loggedMetricsPort(logFile: string, service: string): Promise<number> {
  for (let i = 0; i < 600; i++) {
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes(`"service":"${service}"`) || !line.includes('metrics_port')) continue;
      return (JSON.parse(line) as { metrics_port: number }).metrics_port;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service} never logged its metrics port`);
}

export type HistoryEvent = NonNullable<
  Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>['events']
>[number];
export const ms = (e: HistoryEvent | undefined) =>
  e?.eventTime ? Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6) : NaN;
