// Runs one render in a child process with a wall-clock limit. A crash, a hang or an abort fails
// only that render; on every failure the render's whole process tree (the child, its ffmpeg, every
// Chrome) is SIGKILLed and its work directory removed. The render process points TMPDIR at the work
// directory, so Chrome's profile and the producer's scratch files go there and nothing is left behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contextLogger } from '../../logger.js';
import { RenderError, type RenderProgress } from '../types.js';
import { RenderProcessTree } from './processTree.js';
import type { ChildMessage, ChildProgram, IsolatedJob, ParentMessage } from './protocol.js';
import { acquireRenderProcess, keepSpare, type RenderProcess } from './renderProcess.js';

/** Prefix of every render's work directory under the OS temp directory. */
export const WORK_DIR_PREFIX = 'video-render-';
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
  job: Omit<IsolatedJob, 'renderId' | 'workDir' | 'outputPath'>,
  program: ChildProgram,
  outputPath: string,
  opts: IsolatedRenderOptions,
): Promise<void> {
  if (opts.signal?.aborted) throw new RenderError('render_aborted', 'Render aborted before it started');
  const started = Date.now();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), WORK_DIR_PREFIX));
  const proc = acquireRenderProcess(job.engine, program, job.ffmpegPath);
  const log = contextLogger({ render: proc.renderId, engine: job.engine });
  const fullJob: IsolatedJob = { ...job, renderId: proc.renderId, workDir, outputPath: path.join(workDir, 'output.mp4') };
  const tree = new RenderProcessTree(proc.renderId, proc.child.pid);

  try {
    await supervise(proc, fullJob, tree, opts);
    await moveFile(fullJob.outputPath, outputPath);
    log.info({ wallMs: Date.now() - started, peakRssMb: Math.round(tree.peakRssBytes / 2 ** 20) }, 'render finished');
  } catch (err) {
    const wallMs = Date.now() - started;
    // An abort is the caller's (a cancelled generation, a stopping worker: the signal's reason says
    // which), not a render that failed.
    if ((err as RenderError).code === 'render_aborted') log.info({ wallMs, reason: (opts.signal?.reason as Error | undefined)?.message }, 'render cancelled');
    else log.warn({ wallMs, code: (err as RenderError).code, message: (err as Error).message }, 'render failed');
    throw err;
  } finally {
    await killAndWait(tree);
    fs.rmSync(workDir, { recursive: true, force: true });
    keepSpare(job.engine, program, job.ffmpegPath);
  }
}

function supervise(proc: RenderProcess, job: IsolatedJob, tree: RenderProcessTree, opts: IsolatedRenderOptions): Promise<void> {
  const { child, outputTail: tail } = proc;
  const log = contextLogger({ render: proc.renderId, engine: job.engine }); // bound now: the handlers below run outside the caller's context
  return new Promise<void>((resolve, reject) => {
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
      else resolve();
    };
    const fail = (err: RenderError) => {
      if (failure || outcome) return;
      failure = err;
      tree.killAll(); // the child's 'exit' follows and settles…
      setTimeout(() => settle(err), EXIT_WAIT_MS).unref(); // …or, if it never comes, this does
    };
    const timer = setTimeout(
      () => fail(new RenderError('render_timeout', `Render exceeded its time limit of ${Math.round(opts.timeoutMs / 1000)} s and was stopped`)),
      opts.timeoutMs,
    );
    const onAbort = () => fail(new RenderError('render_aborted', 'Render aborted'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const sampler = setInterval(() => tree.sample(), SAMPLE_INTERVAL_MS);

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
      if (outcome?.type === 'failed') return settle(new RenderError(outcome.code, outcome.message, outcome.findings ?? []));
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      settle(new RenderError('render_crashed', `Render process ${how}${tail.length ? `: ${tail.slice(-5).join(' | ')}` : ''}`));
    });
  });
}

async function killAndWait(tree: RenderProcessTree) {
  const deadline = Date.now() + KILL_SETTLE_MS;
  while (tree.killAll() > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function moveFile(from: string, to: string) {
  if (!fs.existsSync(from)) throw new RenderError('render_failed', 'Renderer finished without writing a video');
  await fs.promises.mkdir(path.dirname(path.resolve(to)), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.promises.copyFile(from, to);
    await fs.promises.rm(from, { force: true });
  }
}
