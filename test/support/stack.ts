// Test helpers over the real stack started by globalSetup: an in-process API on a loopback port
// (real HTTP), direct database access, and organizations with keys.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { createApp } from '../../src/app/httpApp.js';
import { answerClientError } from '../../src/http/errors.js';
import { Catalog } from '../../src/catalog/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createApiKey } from '../../src/db/apiKeys.js';
import { createOrganization } from '../../src/db/organizations.js';
import { createPool, type Db } from '../../src/db/pool.js';
import { logger } from '../../src/logger.js';
import { createStorage } from '../../src/storage/index.js';
import { createTemporalClient } from '../../src/temporal/client.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { watchResponse } from './contract.js';

/** The environment every process of the test stack (API, worker, CLI) runs with. */
export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DATA_DIR: inject('dataDir'),
    LOG_LEVEL: 'silent',
    WORKER_METRICS_PORT: '0',
    // Tests poll far faster than clients should; the limiter has its own tests, which turn it on.
    RATE_LIMIT_ENABLED: 'false',
    // Workers start without warming the engines (seconds of renders per start): test/ops/warmUp.test.ts turns it on.
    WORKER_WARM_UP: 'false',
    ...overrides,
  };
}

export type TestApi = { url: string; db: Db; config: Config; close(): Promise<void> };

export async function startApi(envOverrides: Record<string, string> = {}): Promise<TestApi> {
  // Listen first: the port goes into PUBLIC_BASE_URL, which signed media URLs are built on.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig(testEnv({ PUBLIC_BASE_URL: url, ...envOverrides }));
  const db = createPool(config.databaseUrl, 5);
  const temporal = createTemporalClient(config);
  const app = createApp({ config, db, temporal, catalog: Catalog.load(), storage: createStorage(config), logger });
  // Koa settles each request itself (errors included): nothing to await here.
  const handle = app.callback();
  server.on('request', (req, res) => {
    watchResponse(req, res);
    void handle(req, res);
  });
  server.on('clientError', answerClientError);
  return {
    url,
    db,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await temporal.connection.close().catch(() => {});
      await db.end();
    },
  };
}

export async function createOrgWithKey(db: Db, creditsCents = 10_000) {
  const org = await createOrganization(db, `org-${Math.random().toString(36).slice(2, 8)}`, creditsCents);
  const key = await createApiKey(db, org.id, 'test key');
  return { org, key: key.key, keyId: key.id };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export async function api(base: string, path: string, init: RequestInit & { key?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(base + path, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

// ---- A whole isolated stack: own namespace, a real worker process, an in-process API ----------

export type TestStack = TestApi & {
  namespace: string;
  env: NodeJS.ProcessEnv;
  worker: WorkerProcess;
  /** Kills the worker (SIGKILL) and starts a fresh one with the same environment. */
  restartWorker(signal?: NodeJS.Signals): Promise<void>;
};

export type WorkerProcess = {
  child: ChildProcess;
  ready: Promise<void>;
  metricsPort(): number;
  /** What it printed (its info log and anything on stderr), the last 20,000 characters. */
  output(): string;
  stop(): Promise<void>;
};

/** Starts `src/app/worker.ts` as a child process; `ready` resolves when it polls its task queues. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/worker.ts'], {
    env: { ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a kill reaches its render children too
  });
  let log = '';
  let metricsPort = 0;
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log = (log + d).slice(-20_000);
      const running = /"metrics_port":(\d+).*"msg":"worker running"/.exec(log);
      if (running) {
        metricsPort = Number(running[1]);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before ready:\n${log}`)));
  });
  ready.catch(() => {});
  return {
    child,
    ready,
    metricsPort: () => metricsPort,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function startStack(envOverrides: Record<string, string> = {}): Promise<TestStack> {
  const namespace = `test-${crypto.randomBytes(4).toString('hex')}`;
  await createNamespace(envOverrides.TEMPORAL_ADDRESS ?? inject('temporalAddress'), namespace);
  const overrides = { TEMPORAL_NAMESPACE: namespace, ...envOverrides };
  const apiPart = await startApi(overrides);
  const env = testEnv({ PUBLIC_BASE_URL: apiPart.url, ...overrides });
  const stack: TestStack = {
    ...apiPart,
    namespace,
    env,
    worker: startWorkerProcess(env),
    async restartWorker(signal: NodeJS.Signals = 'SIGKILL') {
      try {
        process.kill(-stack.worker.child.pid!, signal);
      } catch {
        // already gone
      }
      await new Promise((r) => (stack.worker.child.exitCode !== null ? r(null) : stack.worker.child.once('exit', r)));
      stack.worker = startWorkerProcess(env);
      await stack.worker.ready;
    },
    async close() {
      await stack.worker.stop();
      await apiPart.close();
    },
  };
  await stack.worker.ready;
  return stack;
}

/** Polls a generation until it reaches a terminal status (both views share the id). */
export async function waitForTerminal(
  base: string,
  key: string,
  id: string,
  timeoutMs = 90_000,
  path = '/v1/responses',
) {
  const deadline = Date.now() + timeoutMs;
  // Polls as a polite client does: quickly at first, then backing off, and waiting Retry-After when rate-limited,
  // so a slow render does not spend the key's rate limit that the test's next request needs.
  for (let waitMs = 250; ; waitMs = Math.min(waitMs * 1.5, 2000)) {
    const res = await api(base, `${path}/${id}`, { key });
    if (['completed', 'failed', 'cancelled', 'incomplete'].includes(res.body?.status)) return res;
    if (Date.now() > deadline)
      throw new Error(`generation ${id} not terminal after ${timeoutMs} ms: ${JSON.stringify(res.body)}`);
    const retryAfterMs = res.status === 429 ? Number(res.headers.get('retry-after') ?? 1) * 1000 : 0;
    await new Promise((r) => setTimeout(r, Math.max(waitMs, retryAfterMs)));
  }
}
