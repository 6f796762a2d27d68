// Starts a Temporal dev server (the `temporal` CLI's `server start-dev`) as a child process and
// waits until its frontend answers. Used by `npm start` and by the test suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { SEARCH_ATTRIBUTES } from '../temporal/contract.js';
import { devServerDynamicConfigArgs } from '../temporal/dynamicConfig.js';

const CLI_TYPE: Record<string, string> = { KEYWORD: 'Keyword', TEXT: 'Text', INT: 'Int', BOOL: 'Bool' };

export type DevServerOptions = {
  cliPath: string;
  port: number;
  /** null: no Web UI. */
  uiPort: number | null;
  /** SQLite file; omitted: in-memory (state lost on exit). */
  dbFile?: string;
  namespace?: string;
  /**
   * Its own process group (`npm start`): a terminal's Ctrl-C reaches the worker, which drains its
   * activities against a server still up, and the server is stopped last by whoever started it.
   * Off (tests, benches): a Ctrl-C ends it with the rest.
   */
  ownProcessGroup?: boolean;
  /** Receives what the server writes to stderr (it logs errors only). */
  onOutput?: (chunk: string) => void;
};

export type DevServer = { address: string; uiUrl: string | null; process: ChildProcess; stop(): Promise<void> };

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error'];
  if (opts.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  for (const key of Object.values(SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${key.name}=${CLI_TYPE[key.type]}`);
  // One partition per task queue instead of four: a single-node server gains nothing from them, and a
  // task left in a partition no poller is on waits (render workers poll only while a render slot is
  // free). bench/load, 100 generations: 1.21–1.25 → 1.36–1.37 generations/s (200: no change).
  for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
    args.push('--dynamic-config-value', `${key}=1`);
  }
  args.push(...devServerDynamicConfigArgs());

  const child = spawn(opts.cliPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: opts.ownProcessGroup ?? false,
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d).slice(-4000);
    opts.onOutput?.(d.toString());
  });
  const address = `127.0.0.1:${opts.port}`;
  const stop = () => stopChild(child);
  try {
    await waitForFrontend(address, () =>
      child.exitCode === null ? null : `temporal dev server exited (${child.exitCode})`,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${stderr}`);
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}`, process: child, stop };
}

/**
 * Until the Temporal frontend at `address` answers; `failure()` names a reason to stop waiting (a
 * process of the server exited), else null.
 */
export async function waitForFrontend(
  address: string,
  failure: () => string | null,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failed = failure();
    if (failed) throw new Error(failed);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await conn.workflowService.getSystemInfo({});
        return;
      } finally {
        await conn.close();
      }
    } catch {
      if (Date.now() > deadline)
        throw new Error(`temporal frontend at ${address} not ready after ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Registers a namespace with the generation search attributes on a running server (tests use one
 * namespace per stack so workers of different stacks never take each other's tasks).
 */
export async function createNamespace(address: string, namespace: string): Promise<void> {
  const conn = await Connection.connect({ address });
  try {
    await conn.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    await conn.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        Object.values(SEARCH_ATTRIBUTES).map((k) => [k.name, INDEXED_VALUE_TYPE[k.type]!]),
      ),
    });
    // Namespace registration propagates asynchronously: wait until it answers.
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await conn.workflowService.describeNamespace({ namespace });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    await conn.close();
  }
}

// temporal.api.enums.v1.IndexedValueType
const INDEXED_VALUE_TYPE: Record<string, number> = { TEXT: 1, KEYWORD: 2, INT: 3, BOOL: 5 };
