// Render processes: one per render, never reused. Starting one (Node, the engine library, TypeScript
// support) costs ~0.4 s, so after a render one spare process per engine is started and left idle
// with everything loaded; the next render of that engine takes it. A spare does not keep the parent
// alive, exits when the parent goes away, and is killed by closeRenderProcesses().
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { logger } from '../../logger.js';
import type { ChildProgram } from './protocol.js';
import { RENDER_MARKER_ENV } from './processTree.js';

export type RenderProcess = {
  child: ChildProcess;
  /** Also the value of RENDER_MARKER_ENV in the environment of everything this process starts. */
  renderId: string;
  /** Resolves once the process runs (the 'spawn' event may be long past for a spare). */
  spawned: Promise<void>;
  /** Last lines of its stdout/stderr, for error messages. */
  outputTail: string[];
};

const childEntry = fileURLToPath(new URL('./childEntry.mjs', import.meta.url));
const OUTPUT_TAIL_LINES = 30;
/** Spares start this long after a render ends, so they do not compete with the render's last work. */
const SPARE_DELAY_MS = 200;

const spares = new Map<string, RenderProcess>();
const pendingSpares = new Set<NodeJS.Timeout>();

function start(program: ChildProgram, ffmpegPath: string): RenderProcess {
  const renderId = crypto.randomUUID();
  const child = spawn(process.execPath, [childEntry, fileURLToPath(program.entry), ...program.preload], {
    detached: true, // own process group, so the whole group can be killed
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, [RENDER_MARKER_ENV]: renderId, ...producerFfmpegEnv(ffmpegPath) },
  });
  const spawned = new Promise<void>((resolve) => child.once('spawn', () => resolve()));
  spawned.catch(() => {});
  child.once('error', () => {}); // reported by whoever supervises the render
  return { child, renderId, spawned, outputTail: collectOutput(child, renderId) };
}

/** Whether the process holds the engine's event loop: a spare must not keep the parent alive. */
function holdEventLoop(p: RenderProcess, hold: boolean) {
  const handles = [p.child, p.child.channel, p.child.stdout, p.child.stderr] as ({ ref(): void; unref(): void } | null | undefined)[];
  for (const h of handles) {
    if (hold) h?.ref();
    else h?.unref();
  }
}

const isAlive = (p: RenderProcess) => p.child.exitCode === null && p.child.signalCode === null && p.child.connected;

/** A render process for `engine`: the warm spare when there is one, else a new one. */
export function acquireRenderProcess(engine: string, program: ChildProgram, ffmpegPath: string): RenderProcess {
  const spare = spares.get(engine);
  spares.delete(engine);
  if (spare && isAlive(spare)) {
    holdEventLoop(spare, true);
    return spare;
  }
  return start(program, ffmpegPath);
}

/** Starts a spare for `engine` shortly, unless one is waiting already. */
export function keepSpare(engine: string, program: ChildProgram, ffmpegPath: string): void {
  const timer = setTimeout(() => {
    pendingSpares.delete(timer);
    const existing = spares.get(engine);
    if (existing && isAlive(existing)) return;
    const spare = start(program, ffmpegPath);
    holdEventLoop(spare, false);
    spare.child.once('exit', () => spares.get(engine) === spare && spares.delete(engine));
    spares.set(engine, spare);
  }, SPARE_DELAY_MS).unref();
  pendingSpares.add(timer);
}

/** Pids of the idle spare processes (of one engine, or all). */
export function spareProcessIds(engine?: string): number[] {
  return [...spares.entries()]
    .filter(([e]) => !engine || e === engine)
    .map(([, p]) => p.child.pid)
    .filter((pid): pid is number => pid !== undefined);
}

/** Kills the idle spares and cancels pending ones (on shutdown; renders in progress are not affected). */
export async function closeRenderProcesses(): Promise<void> {
  for (const timer of pendingSpares) clearTimeout(timer);
  pendingSpares.clear();
  const closing = [...spares.values()];
  spares.clear();
  await Promise.all(
    closing.map((spare) => {
      if (spare.child.exitCode !== null || spare.child.signalCode !== null) return undefined; // already gone
      const exited = new Promise<void>((resolve) => spare.child.once('exit', () => resolve()));
      // Spares are unreferenced; without this a script awaiting here could end before the exit arrives.
      spare.child.ref();
      spare.child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** The producer finds ffmpeg on PATH, or at an absolute path given in these variables. */
function producerFfmpegEnv(ffmpegPath: string): Record<string, string> {
  if (!path.isAbsolute(ffmpegPath)) return {};
  return { HYPERFRAMES_FFMPEG_PATH: ffmpegPath, HYPERFRAMES_FFPROBE_PATH: ffprobeFor(ffmpegPath) };
}

/** ffprobe next to the configured ffmpeg (same directory), else from PATH. */
export function ffprobeFor(ffmpegPath: string): string {
  return ffmpegPath.includes('/') ? path.join(path.dirname(ffmpegPath), 'ffprobe') : 'ffprobe';
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
