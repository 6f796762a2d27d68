// Runs one render in a contained child process (sandbox.ts) with a wall-clock limit, a CPU-time
// limit and its control group's memory and task limits. A crash, a hang, a broken limit or an abort
// fails only that render; on every outcome the render's whole process tree (the child, its ffmpeg,
// every Chrome) is SIGKILLed and its work directory and control group removed. The render process
// points TMPDIR at the work directory, so Chrome's profile and the producer's scratch files go there.
import { pipeline } from 'node:stream/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contextLogger } from '../../logger.js';
import { RenderError, type RenderProgress, type RenderReport, type RenderTools } from '../types.js';
import { RenderProcessTree } from './processTree.js';
import type { ChildMessage, ChildProgram, IsolatedJob, ParentMessage } from './protocol.js';
import { acquireRenderProcess, keepSpare, releaseRenderProcess, type RenderProcess } from './renderProcess.js';
import { giveToRenderUser, PROJECT_ROOT } from './sandbox.js';
/**
 * How often the render's process tree is scanned (peak memory; process groups to kill later). A scan
 * reads /proc for every process (~4 ms of CPU), taken from the render itself on a busy machine, and
 * killing rescans anyway: once a second is enough.
 */
const SAMPLE_INTERVAL_MS = 1000;
/** How long to wait for killed processes to disappear before removing their files anyway. */
const KILL_SETTLE_MS = 1000;
/** How long a killed render process may take to report its exit before the render fails regardless. */
const EXIT_WAIT_MS = 1000;

export type IsolatedRenderOptions = {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: RenderProgress) => void;
};

/** Renders `job` in a render process and moves its output to `outputPath`. Throws RenderError. */
export async function runIsolated(
  job: Omit<IsolatedJob, 'renderId' | 'workDir' | 'outputPath' | 'unprivileged'>,
  program: ChildProgram,
  outputPath: string,
  tools: RenderTools,
  opts: IsolatedRenderOptions,
): Promise<RenderReport> {
  if (opts.signal?.aborted) throw new RenderError('render_aborted', 'Render aborted before it started');
  const started = Date.now();
  const proc = acquireRenderProcess(job.engine, program, tools);
  const { workDir } = proc;
  const log = contextLogger({ render: proc.renderId, engine: job.engine });
  const fullJob: IsolatedJob = {
    ...job,
    renderId: proc.renderId,
    workDir,
    // The container follows the name (ffmpeg and the producer choose the muxer by it).
    outputPath: path.join(workDir, job.transparent ? 'output.webm' : 'output.mp4'),
    assetsDir: job.assetsDir && copyAssets(tools, job.assetsDir, path.join(workDir, 'input')),
    unprivileged: proc.unprivileged,
  };
  const tree = new RenderProcessTree(proc.renderId, proc.child.pid);

  try {
    const report = await supervise(proc, fullJob, tree, tools, opts);
    await takeRenderOutput(fullJob.outputPath, outputPath);
    log.info(
      {
        wallMs: Date.now() - started,
        peakRssMb: Math.round(tree.peakRssBytes / 2 ** 20),
        framesSkipped: report.framesSkipped,
      },
      'render finished',
    );
    return report;
  } catch (thrown) {
    const wallMs = Date.now() - started;
    const err = limitError(proc, fullJob, tools, thrown);
    // An abort is the caller's (a cancelled generation, a stopping worker: the signal's reason says
    // which), not a render that failed.
    if ((err as RenderError).code === 'render_aborted')
      log.info({ wallMs, reason: (opts.signal?.reason as Error | undefined)?.message }, 'render cancelled');
    else
      log.warn(
        {
          wallMs,
          code: (err as RenderError).code,
          message: (err as Error).message,
          output: (err as RenderError).detail,
        },
        'render failed',
      );
    throw err instanceof RenderError ? withoutMachinePaths(err, workDir) : err;
  } finally {
    await killAndWait(tree);
    void releaseRenderProcess(proc); // its control group goes once the kernel has reaped the last process
    keepSpare(job.engine, program, tools);
  }
}

/**
 * The requester's media, copied into the work directory (the render sees no other directory of the
 * worker) and handed to the render user.
 */
function copyAssets(tools: RenderTools, from: string, to: string): string {
  fs.cpSync(from, to, { recursive: true });
  giveToRenderUser(tools.sandbox, to);
  for (const name of fs.readdirSync(to)) giveToRenderUser(tools.sandbox, path.join(to, name));
  return to;
}

/**
 * A failed render that broke one of its limits (the kernel's counters of its control group, or an
 * output file at the size limit) fails with `render_resource_limit`; anything else as it was.
 */
function limitError(proc: RenderProcess, job: IsolatedJob, tools: RenderTools, err: unknown): unknown {
  if ((err as RenderError).code === 'render_aborted' || (err as RenderError).code === 'render_resource_limit')
    return err;
  // A process killed by its rlimit: SIGXCPU (CPU time) or SIGXFSZ (file size), the render process or one it started.
  const message = `${(err as Error).message ?? ''} ${(err as RenderError).detail ?? ''}`;
  if (message.includes('SIGXCPU')) return cpuLimitError(tools.sandbox.cpuSeconds);
  if (message.includes('SIGXFSZ')) return fileLimitError(tools.sandbox.maxFileBytes);
  return breachError(proc, job, tools) ?? err;
}

/**
 * A render's failure as clients read it (its message reaches the API and webhooks): the machine's own
 * paths — the render's work directory, the temp directory, the installation — and stack frames left
 * out. The worker's log above keeps the message as it was.
 */
function withoutMachinePaths(err: RenderError, workDir: string): RenderError {
  let message = err.message.replace(/\n\s*at .*/g, '');
  for (const [dir, name] of [
    [workDir, '<render>'],
    [PROJECT_ROOT, '<app>'],
    [os.tmpdir(), '<tmp>'],
  ] as const)
    message = message.replaceAll(dir, name);
  return message === err.message ? err : new RenderError(err.code, message, err.findings, err.detail);
}

const cpuLimitError = (seconds: number) =>
  new RenderError(
    'render_resource_limit',
    `The render used more than its CPU-time limit of ${seconds} s and was stopped`,
  );
const fileLimitError = (bytes: number) =>
  new RenderError('render_resource_limit', `The render wrote a file of more than ${size(bytes)} and was stopped`);

/** The limit the render broke, as the error it fails with; null when it broke none. */
function breachError(proc: RenderProcess, job: IsolatedJob, { sandbox }: RenderTools): RenderError | null {
  const breach = proc.cgroup?.breach();
  if (breach === 'memory')
    return new RenderError(
      'render_resource_limit',
      `The render used more than its memory limit of ${size(sandbox.memoryBytes)} and was stopped`,
    );
  if (breach === 'tasks')
    return new RenderError(
      'render_resource_limit',
      `The render tried to run more than ${sandbox.maxTasks} processes and threads and was stopped`,
    );
  if (largestFile(job.workDir) >= sandbox.maxFileBytes) return fileLimitError(sandbox.maxFileBytes);
  return null;
}

const size = (bytes: number) =>
  bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MiB` : `${Math.round(bytes / 1024)} KiB`;

function largestFile(dir: string): number {
  let largest = 0;
  try {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) largest = Math.max(largest, fs.statSync(path.join(entry.parentPath, entry.name)).size);
    }
  } catch {
    // A file removed while we looked: not the one at the limit.
  }
  return largest;
}

function supervise(
  proc: RenderProcess,
  job: IsolatedJob,
  tree: RenderProcessTree,
  tools: RenderTools,
  opts: IsolatedRenderOptions,
): Promise<RenderReport> {
  const { child, outputTail: tail } = proc;
  // Bound now: the handlers below run outside the caller's context.
  const log = contextLogger({ render: proc.renderId, engine: job.engine });
  return new Promise<RenderReport>((resolve, reject) => {
    let outcome: ChildMessage | undefined;
    let failure: RenderError | undefined;
    let settled = false;
    const settle = (err?: RenderError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(sampler);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(outcome?.type === 'done' ? outcome.report : { framesSkipped: null });
    };
    const fail = (err: RenderError) => {
      if (failure || outcome) return;
      failure = err;
      tree.killAll(); // the child's 'exit' follows and settles…
      setTimeout(() => settle(err), EXIT_WAIT_MS).unref(); // …or, if it never comes, this does
    };
    const timer = setTimeout(
      () =>
        fail(
          new RenderError(
            'render_timeout',
            `Render exceeded its time limit of ${Math.round(opts.timeoutMs / 1000)} s and was stopped`,
          ),
        ),
      opts.timeoutMs,
    );
    const onAbort = () => fail(new RenderError('render_aborted', 'Render aborted'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // Every sample also checks the CPU time of the whole render (its control group's, else the live
    // processes' own), which no per-process rlimit can bound.
    const cpuLimit = tools.sandbox.cpuSeconds;
    const sampler = setInterval(() => {
      // A process of the render OOM-killed or a fork refused: the render cannot be trusted to finish
      // (Chrome waits a long time for a killed page), so it ends now.
      const breach = proc.cgroup?.breach() ? breachError(proc, job, tools) : null;
      if (breach) return fail(breach);
      const members = tree.sample();
      const cpu = proc.cgroup ? proc.cgroup.cpuSeconds() : members.reduce((sum, p) => sum + p.cpuSeconds, 0);
      if (cpu > cpuLimit) fail(cpuLimitError(cpuLimit));
    }, SAMPLE_INTERVAL_MS);

    void proc.spawned.then(() => {
      tree.sample();
      child.send({ type: 'render', job } satisfies ParentMessage);
    });
    child.on('message', (message: ChildMessage) => {
      if (failure) return;
      if (message.type !== 'progress') {
        outcome = message;
        return;
      }
      try {
        opts.onProgress?.(message.progress);
      } catch (err) {
        log.warn({ err }, 'onProgress callback threw');
      }
    });
    child.on('error', (err) => fail(new RenderError('render_crashed', `Render process could not run: ${err.message}`)));
    child.on('exit', (code, signal) => {
      if (failure) return settle(failure);
      if (outcome?.type === 'done' && code === 0) return settle();
      if (outcome?.type === 'failed')
        return settle(new RenderError(outcome.code, outcome.message, outcome.findings ?? []));
      // Through the sandbox's shell a signal shows as status 128+n.
      const killedBy = signal ?? (code !== null && code > 128 ? signalName(code - 128) : null);
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      settle(new RenderError('render_crashed', `Render process ${how}`, [], tail.slice(-5).join(' | ') || undefined));
    });
  });
}

const signalName = (n: number) => Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;

async function killAndWait(tree: RenderProcessTree) {
  const deadline = Date.now() + KILL_SETTLE_MS;
  while (tree.killAll() > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Takes the render's output out of its work directory. The directory is the sandboxed render's to
 * write, so the output is opened without following a symlink (O_NOFOLLOW) and taken only when it is
 * a regular file: a render that planted a link (to a file the worker may read) or a FIFO is refused.
 * Copied through the opened descriptor, so nothing swapped in after the check is read.
 */
export async function takeRenderOutput(from: string, to: string) {
  let source: fs.promises.FileHandle;
  try {
    source = await fs.promises.open(from, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RenderError('render_failed', 'Renderer finished without writing a video');
    if (code === 'ELOOP') throw new RenderError('render_failed', 'The render’s output is a symbolic link; refused');
    throw err;
  }
  try {
    if (!(await source.stat()).isFile())
      throw new RenderError('render_failed', 'The render’s output is not a regular file; refused');
    await fs.promises.mkdir(path.dirname(path.resolve(to)), { recursive: true });
    const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
    const dest = await fs.promises.open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o644);
    await pipeline(source.createReadStream({ autoClose: false }), dest.createWriteStream());
  } finally {
    await source.close();
  }
  await fs.promises.rm(from, { force: true });
}
