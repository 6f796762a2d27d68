// What `npm start` (src/tooling/start.ts) and `npm run cluster` (src/tooling/cluster.ts) share: a supervisor
// that starts processes once the ones they need are up, restarts one that exits unexpectedly (with
// exponential backoff; a crash loop stops everything with one error naming the process and its last
// log lines), and on Ctrl-C or SIGTERM stops them all once, in reverse order, without restarting any;
// and PostgreSQL (DATABASE_URL, else an embedded server under DATA_DIR), migrated.
// Hand-written rather than pm2 or concurrently: those restart commands, but neither waits for a
// dependency to be up before (re)starting another, nor runs the embedded PostgreSQL library or the
// Temporal dev server with their own readiness checks, nor reports states to the API's /readyz.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EMBEDDED_DB_NAME, type Config } from '../config.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { logger } from '../logger.js';
import {
  isReadyMessage,
  processStatesMessage,
  type ProcessState,
  type ProcessStates,
} from '../supervision/protocol.js';
import { stopChild } from './temporalDevServer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Restart delays double from `firstDelayMs` with each crash inside the window, up to `maxDelayMs`;
 * the `crashes`-th crash inside `windowMs` stops everything instead.
 */
export type RestartPolicy = { firstDelayMs: number; maxDelayMs: number; crashes: number; windowMs: number };
export const RESTART_POLICY: RestartPolicy = { firstDelayMs: 1000, maxDelayMs: 30_000, crashes: 5, windowMs: 120_000 };

/** Log lines of a process kept for the crash-loop error. */
const LAST_LINES = 20;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A started process of a service. */
export type Running = {
  pid: number | undefined;
  /** Settles when the process ends, however. */
  exited: Promise<Exit>;
  /** Asks it to stop (drain), kills it past its grace period; resolves when it is gone. */
  stop(): Promise<void>;
  /** Hands it the states of every supervised process (the API reports them on /readyz). */
  tell?(states: ProcessStates): void;
};

export type Service = {
  name: string;
  /** Services that must be up before this one starts or restarts. */
  after?: string[];
  /** Said with the crash-loop error: what the operator can change. */
  hint?: string;
  /** Starts a process writing its output to `output`; resolves once it serves, rejects when it cannot. */
  start(output: (chunk: string) => void): Promise<Running>;
};

export type Supervisor = {
  /** Keeps `service` running from now on; resolves once it is up the first time. */
  run(service: Service): Promise<void>;
  /** Runs on stop, last registered (or run) first. */
  onStop(stop: () => Promise<void>): void;
  states(): ProcessStates;
  /** Stops every process once (reverse order); resolves with `code`. */
  stopAll(code: number): Promise<number>;
};

type Supervised = {
  service: Service;
  state: ProcessState;
  running?: Running;
  starting?: Promise<Running>;
  crashes: number[];
  lines: string[];
  partial: string;
  /** Ends a restart's wait early (stop). */
  wake?: () => void;
};

export const describeExit = ({ code, signal }: Exit) => (signal ? `signal ${signal}` : `exit code ${code}`);

/** The exit of a child process, whether or not it has already happened. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** A supervisor; `stopped` runs once everything has stopped (`supervise` exits the process there). */
export function createSupervisor(
  policy: RestartPolicy = RESTART_POLICY,
  stopped: (code: number) => void = () => {},
): Supervisor {
  const services = new Map<string, Supervised>();
  const stoppers: Array<() => Promise<void>> = [];
  const waiters = new Set<() => void>();
  let stopping: Promise<number> | undefined;

  const states = () => Object.fromEntries([...services].map(([name, s]) => [name, { ...s.state }]));
  const setState = (s: Supervised, state: ProcessState['state'], pid: number | null = s.state.pid) => {
    s.state = { ...s.state, state, pid, since: new Date().toISOString() };
    for (const wake of waiters) wake();
    const all = states();
    for (const other of services.values()) other.running?.tell?.(all);
  };
  const isUp = (name: string) => services.get(name)?.state.state === 'up';
  /** Until every service in `names` is up; false when stopping first. */
  const upOrStopping = async (names: string[]) => {
    while (!stopping && !names.every(isUp)) {
      await new Promise<void>((resolve) => {
        const wake = () => (waiters.delete(wake), resolve());
        waiters.add(wake);
      });
    }
    return !stopping;
  };

  const output = (s: Supervised) => (chunk: string) => {
    const lines = (s.partial + chunk).split('\n');
    s.partial = lines.pop()!.slice(-4000);
    s.lines.push(...lines.filter((l) => l.trim()));
    s.lines.splice(0, s.lines.length - LAST_LINES);
  };
  const lastLines = (s: Supervised) =>
    [...s.lines, s.partial]
      .filter((l) => l.trim())
      .slice(-LAST_LINES)
      .map((line) => {
        // JSON log lines nest as objects, so they read as the process wrote them.
        try {
          return line.startsWith('{') ? (JSON.parse(line) as unknown) : line;
        } catch {
          return line;
        }
      });

  /** Records a crash; the delay before the next start, or null when this crash ends everything. */
  const crashed = (s: Supervised, lastExit: string, fields: Record<string, unknown>): number | null => {
    const now = Date.now();
    s.crashes = [...s.crashes.filter((t) => now - t < policy.windowMs), now];
    s.state = { ...s.state, last_exit: lastExit };
    const name = s.service.name;
    if (s.crashes.length >= policy.crashes) {
      logger.fatal(
        {
          process: name,
          ...fields,
          crashes: s.crashes.length,
          window_s: policy.windowMs / 1000,
          last_log_lines: lastLines(s),
        },
        `${name} crashed ${s.crashes.length} times within ${policy.windowMs / 1000} s (last: ${lastExit}); ` +
          `stopping everything.` +
          (s.service.hint ? ` ${s.service.hint}.` : '') +
          ' Its last log lines are in last_log_lines',
      );
      void stopAll(1);
      return null;
    }
    const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (s.crashes.length - 1));
    logger.error(
      { process: name, ...fields, restart_in_s: delay / 1000 },
      `${name} ${lastExit.startsWith('failed') ? lastExit : `exited unexpectedly (${lastExit})`}; ` +
        `restarting in ${delay / 1000} s`,
    );
    s.state = { ...s.state, restarts: s.state.restarts + 1 };
    setState(s, 'restarting', null);
    return delay;
  };

  const pause = (s: Supervised, ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      s.wake = () => (clearTimeout(timer), resolve());
    });

  async function keepRunning(s: Supervised, firstUp: () => void) {
    let everUp = false;
    let downSince: number | null = null;
    while (await upOrStopping(s.service.after ?? [])) {
      let running: Running;
      try {
        s.starting = s.service.start(output(s));
        running = await s.starting;
      } catch (err) {
        if (stopping) return;
        downSince ??= Date.now();
        const delay = crashed(s, `failed to start: ${(err as Error | undefined)?.message ?? 'no reason given'}`, {});
        if (delay === null) return;
        await pause(s, delay);
        continue;
      } finally {
        s.starting = undefined;
      }
      s.running = running;
      if (stopping) return; // stopAll stops it
      setState(s, 'up', running.pid ?? null);
      if (downSince !== null) {
        logger.warn(
          {
            process: s.service.name,
            pid: running.pid,
            restarts: s.state.restarts,
            down_s: (Date.now() - downSince) / 1000,
          },
          `${s.service.name} restarted`,
        );
      }
      if (!everUp) {
        everUp = true;
        firstUp();
      }
      const exit = await running.exited;
      s.running = undefined;
      if (stopping) return;
      downSince = Date.now();
      const delay = crashed(s, describeExit(exit), { pid: running.pid, code: exit.code, signal: exit.signal });
      if (delay === null) return;
      await pause(s, delay);
    }
  }

  function stopAll(code: number): Promise<number> {
    stopping ??= (async () => {
      for (const wake of waiters) wake();
      for (const s of services.values()) s.wake?.();
      logger.info('stopping everything');
      for (const stop of [...stoppers].reverse())
        await stop().catch((err: unknown) => logger.error({ err }, 'stop failed'));
      logger.info({ exit_code: code }, 'everything stopped');
      stopped(code);
      return code;
    })();
    return stopping;
  }

  return {
    run(service) {
      if (services.has(service.name)) throw new Error(`${service.name} is already supervised`);
      const s: Supervised = {
        service,
        state: { state: 'starting', pid: null, restarts: 0, last_exit: null, since: new Date().toISOString() },
        crashes: [],
        lines: [],
        partial: '',
      };
      services.set(service.name, s);
      stoppers.push(async () => {
        s.state = { ...s.state, state: 'stopping' };
        const running = s.running ?? (await s.starting?.catch(() => undefined));
        await running?.stop();
      });
      return new Promise<void>((resolve) => void keepRunning(s, resolve));
    },
    onStop: (stop) => void stoppers.push(stop),
    states,
    stopAll,
  };
}

/**
 * The supervisor of a command-line run: SIGINT and SIGTERM stop everything with exit code 0 (a
 * second signal changes nothing), a crash loop or a failed start with 1.
 */
export function supervise(): Supervisor {
  const supervisor = createSupervisor(RESTART_POLICY, (code) => process.exit(code));
  process.on('SIGINT', () => void supervisor.stopAll(0));
  process.on('SIGTERM', () => void supervisor.stopAll(0));
  startWatchdog();
  // Our own parent (lts.mjs, npm) gone, however: stop like a SIGTERM (the kernel does not tell us).
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void supervisor.stopAll(0);
  }, 500).unref();
  // A failed start (a top-level await that throws lands here too) stops what already runs.
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'start failed');
    void supervisor.stopAll(1);
  });
  return supervisor;
}

/**
 * src/tooling/watchdog.mjs beside this process: whatever this process starts (and what those start)
 * is stopped when this process dies, even by SIGKILL. Its stdin is the pipe whose closing tells it;
 * in a process group of its own, so a terminal's Ctrl-C (which we handle) does not reach it.
 */
function startWatchdog() {
  const watchdog = spawn(process.execPath, [path.join(root, 'src/tooling/watchdog.mjs'), String(process.pid)], {
    stdio: ['pipe', 'ignore', 'inherit'],
    detached: true,
  });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  watchdog.on('error', (err) =>
    logger.warn({ err }, 'watchdog did not start: children may outlive a killed npm start'),
  );
}

/**
 * A Node entry point of this project as a supervised child: its output goes to ours, it is up when it
 * says so over IPC (src/supervision/protocol.ts); stopping lets it drain for `graceMs`.
 */
export function nodeService(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  opts: { graceMs: number; after?: string[]; hearsProcessStates?: boolean },
): Service {
  return {
    name,
    after: opts.after,
    start(output) {
      const child = spawn(process.execPath, ['--import', 'tsx', entry], {
        cwd: root,
        env: { ...env, SERVICE_NAME: `video-${name}` },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      const forward = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
        to.write(chunk);
        output(chunk.toString());
      };
      child.stdout!.on('data', forward(process.stdout));
      child.stderr!.on('data', forward(process.stderr));
      const exited = exitOf(child);
      const running: Running = {
        pid: child.pid,
        exited,
        // APIs and workers drain for up to SHUTDOWN_GRACE_SECONDS; killed only if they overrun it.
        stop: () => stopChild(child, opts.graceMs),
        tell: opts.hearsProcessStates
          ? (states) => {
              if (child.connected) child.send(processStatesMessage(states), () => {}); // errors: it is exiting
            }
          : undefined,
      };
      return new Promise<Running>((resolve, reject) => {
        child.on('message', (message) => {
          if (isReadyMessage(message)) resolve(running);
        });
        void exited.then((exit) => reject(new Error(`${describeExit(exit)} before it was ready`)));
      });
    },
  };
}

/** DATABASE_URL's server, else the embedded one (started and kept running here); migrated. */
export async function ensurePostgres(config: Config, supervisor: Supervisor) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const dir = path.join(config.dataDir, 'postgres');
  let embeddedUrl: string | undefined;
  if (config.embeddedDatabase) {
    embeddedUrl = `postgres://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/postgres`;
    await supervisor.run({
      name: 'postgres',
      hint: 'Set DATABASE_URL to use another server, or DATA_DIR to a directory the postgres user can reach',
      async start(output) {
        const embedded = await startEmbeddedPostgres({
          dir,
          port: config.embeddedPgPort,
          persistent: true,
          onLog: output,
        });
        return { pid: embedded.process.pid, exited: exitOf(embedded.process), stop: () => embedded.stop() };
      },
    });
    const admin = new pg.Client({ connectionString: embeddedUrl });
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB_NAME]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DB_NAME}`);
    await admin.end();
  }
  const db = createPool(config.databaseUrl, 1);
  const applied = await migrate(db);
  await db.end();
  return {
    applied,
    /** The supervised service the API and workers need, if any. */
    service: embeddedUrl ? 'postgres' : null,
    description: embeddedUrl ? `embedded, data in ${dir} (set DATABASE_URL to use your own)` : 'DATABASE_URL',
  };
}
