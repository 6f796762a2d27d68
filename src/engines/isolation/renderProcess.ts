// Render processes: one per render, never reused. Starting one (Node, the engine library, TypeScript
// support) costs ~0.4 s, so after a render one spare process per engine is started and left idle
// with everything loaded; the next render of that engine takes it. A spare does not keep the parent
// alive, exits when the parent goes away, and is killed by closeRenderProcesses(). Each process is
// started contained (sandbox.ts) with its own work directory, the only one it may write.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { logger } from '../../logger.js';
import { ffprobeFor } from '../../video/index.js';
import type { RenderTools } from '../types.js';
import type { RenderCgroup } from './cgroup.js';
import type { ChildProgram } from './protocol.js';
import { RENDER_MARKER_ENV, RenderProcessTree } from './processTree.js';
import { createWorkDir, sandboxedSpawn } from './sandbox.js';

export type RenderProcess = {
  child: ChildProcess;
  /** Also the value of RENDER_MARKER_ENV in the environment of everything this process starts. */
  renderId: string;
  /** Resolves once the process runs (the 'spawn' event may be long past for a spare). */
  spawned: Promise<void>;
  /** Last lines of its stdout/stderr, for error messages. */
  outputTail: string[];
  /** Its private work directory (0700, the render user's), removed by whoever ends the process. */
  workDir: string;
  /** Its control group (memory, tasks, CPU time), when the platform has cgroups. */
  cgroup: RenderCgroup | null;
  /** The process does not run as root (a browser may keep its own sandbox). */
  unprivileged: boolean;
};

/** Prefix of every render's work directory under the OS temp directory. */
export const WORK_DIR_PREFIX = 'video-render-';

const childEntry = fileURLToPath(new URL('./childEntry.mjs', import.meta.url));
const OUTPUT_TAIL_LINES = 30;
/** Spares start this long after a render ends, so they do not compete with the render's last work. */
const SPARE_DELAY_MS = 200;

const spares = new Map<string, RenderProcess>();
const pendingSpares = new Set<NodeJS.Timeout>();

function start(program: ChildProgram, tools: RenderTools): RenderProcess {
  const renderId = crypto.randomUUID();
  const workDir = createWorkDir(tools.sandbox, WORK_DIR_PREFIX);
  const entry = fileURLToPath(program.entry);
  // Only what the render needs: never the worker's credentials (DATABASE_URL, S3 keys, secrets).
  const env: Record<string, string> = {
    [RENDER_MARKER_ENV]: renderId,
    ...producerFfmpegEnv(tools.ffmpegPath),
    ...loggerEnv(),
  };
  const readOnly = [
    path.dirname(entry),
    ...program.readOnly,
    ...(path.isAbsolute(tools.ffmpegPath) ? [path.dirname(tools.ffmpegPath)] : []),
  ];
  const sandboxed = sandboxedSpawn(
    tools.sandbox,
    renderId,
    [process.execPath, childEntry, entry, ...program.preload],
    workDir,
    readOnly,
    env,
  );
  const child = spawn(sandboxed.command, sandboxed.args, {
    detached: true, // own process group, so the whole group can be killed
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: sandboxed.env,
  });
  const spawned = new Promise<void>((resolve) => child.once('spawn', () => resolve()));
  spawned.catch(() => {});
  child.once('error', () => {}); // reported by whoever supervises the render
  return {
    child,
    renderId,
    spawned,
    outputTail: collectOutput(child, renderId),
    workDir,
    cgroup: sandboxed.cgroup,
    unprivileged: sandboxed.unprivileged,
  };
}

/** The logger's variables (the child logs like the worker); nothing else of the worker's environment. */
function loggerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['LOG_LEVEL', 'SERVICE_NAME']) if (process.env[name]) env[name] = process.env[name];
  return env;
}

/** Removes what a render process leaves once it is gone: its work directory and control group. */
export async function releaseRenderProcess(p: RenderProcess): Promise<void> {
  fs.rmSync(p.workDir, { recursive: true, force: true });
  await p.cgroup?.remove();
}

/** Whether the process holds the engine's event loop: a spare must not keep the parent alive. */
function holdEventLoop(p: RenderProcess, hold: boolean) {
  const handles = [p.child, p.child.channel, p.child.stdout, p.child.stderr] as (
    { ref(): void; unref(): void } | null | undefined
  )[];
  for (const h of handles) {
    if (hold) h?.ref();
    else h?.unref();
  }
}

const isAlive = (p: RenderProcess) => p.child.exitCode === null && p.child.signalCode === null && p.child.connected;

/** A render process for `engine`: the warm spare when there is one, else a new one. */
export function acquireRenderProcess(engine: string, program: ChildProgram, tools: RenderTools): RenderProcess {
  const spare = spares.get(engine);
  spares.delete(engine);
  if (spare && isAlive(spare)) {
    holdEventLoop(spare, true);
    spare.cgroup?.setLimits({ memoryBytes: tools.sandbox.memoryBytes, maxTasks: tools.sandbox.maxTasks });
    return spare;
  }
  if (spare) {
    spare.child.kill('SIGKILL');
    void releaseRenderProcess(spare);
  }
  return start(program, tools);
}

/** Starts a spare for `engine` shortly, unless one is waiting already. */
export function keepSpare(engine: string, program: ChildProgram, tools: RenderTools): void {
  const timer = setTimeout(() => {
    pendingSpares.delete(timer);
    const existing = spares.get(engine);
    if (existing && isAlive(existing)) return;
    const spare = start(program, tools);
    holdEventLoop(spare, false);
    spare.child.once('exit', () => {
      if (spares.get(engine) !== spare) return; // taken by a render, which cleans up after it
      spares.delete(engine);
      void releaseRenderProcess(spare);
    });
    spares.set(engine, spare);
  }, SPARE_DELAY_MS).unref();
  pendingSpares.add(timer);
}

/** Pids of the idle spare processes (of one engine, or all), with the sandbox processes around them. */
export function spareProcessIds(engine?: string): number[] {
  return [...spares.entries()]
    .filter(([e]) => !engine || e === engine)
    .flatMap(([, p]) =>
      p.child.pid === undefined ? [] : new RenderProcessTree(p.renderId, p.child.pid).members().map((m) => m.pid),
    );
}

/** Work directories of the idle spares (of one engine, or all), one per spare, empty until its render. */
export function spareWorkDirs(engine?: string): string[] {
  return [...spares.entries()].filter(([e]) => !engine || e === engine).map(([, p]) => p.workDir);
}

/** Kills the idle spares and cancels pending ones (on shutdown; renders in progress are not affected). */
export async function closeRenderProcesses(): Promise<void> {
  for (const timer of pendingSpares) clearTimeout(timer);
  pendingSpares.clear();
  const closing = [...spares.values()];
  spares.clear();
  await Promise.all(
    closing.map(async (spare) => {
      if (spare.child.exitCode === null && spare.child.signalCode === null) {
        const exited = new Promise<void>((resolve) => spare.child.once('exit', () => resolve()));
        // Spares are unreferenced; without this a script awaiting here could end before the exit arrives.
        spare.child.ref();
        new RenderProcessTree(spare.renderId, spare.child.pid).killAll(); // the sandbox's processes too
        await exited;
      }
      await releaseRenderProcess(spare);
    }),
  );
}

/** The producer finds ffmpeg on PATH, or at an absolute path given in these variables. */
function producerFfmpegEnv(ffmpegPath: string): Record<string, string> {
  if (!path.isAbsolute(ffmpegPath)) return {};
  return { HYPERFRAMES_FFMPEG_PATH: ffmpegPath, HYPERFRAMES_FFPROBE_PATH: ffprobeFor(ffmpegPath) };
}

/** Keeps the last lines of the child's stdout/stderr; logs them at debug level. */
function collectOutput(child: ChildProcess, renderId: string): string[] {
  const tail: string[] = [];
  const log = logger.child({ render: renderId });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      tail.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
      if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
      log.debug({ line }, 'render process output');
    });
  }
  return tail;
}
