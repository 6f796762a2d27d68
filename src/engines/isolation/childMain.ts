// Main module of a render process (spawned by renderProcess.ts, loaded by childEntry.mjs). Loads
// its engine's render entry at once (a spare process waits fully loaded), receives one job over IPC,
// renders it, reports progress and the outcome, exits. If the parent goes away, the render's whole
// process tree is killed and its work directory removed: nobody would collect them.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { logger } from '../../logger.js';
import { RenderError, type RenderProgress } from '../types.js';
import { RenderProcessTree } from './processTree.js';
import type { ChildMessage, ChildRenderer, ParentMessage } from './protocol.js';

// The engine's render entry module (EngineModule.renderEntry), passed by the parent.
const renderer = import(pathToFileURL(process.argv[2]!).href).then((m: { render: ChildRenderer }) => m.render);
renderer.catch(() => {}); // reported when a job arrives
let job: ParentMessage['job'] | undefined;

process.on('disconnect', () => {
  if (job) {
    logger.warn({ render: job.renderId }, 'parent went away: killing the render');
    new RenderProcessTree(job.renderId, process.pid).killAll();
    fs.rmSync(job.workDir, { recursive: true, force: true });
  }
  process.exit(1);
});

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function run(current: ParentMessage['job']) {
  job = current;
  // Scratch files of everything this render starts (producer work dirs, Chrome profiles) land in the
  // work directory, which the parent removes whatever happens. Set only now, so tsx's transform
  // cache stays in the real temp directory.
  process.env.TMPDIR = current.workDir;
  const log = logger.child({ render: current.renderId, engine: current.engine });
  let lastSent: RenderProgress | null = null;
  const onProgress = (progress: RenderProgress) => {
    const fraction = Math.max(0, Math.min(1, progress.fraction));
    // At most ~100 messages per render, and one at each change of stage.
    if (lastSent && lastSent.stage === progress.stage && fraction - lastSent.fraction < 0.01 && fraction < 1) return;
    lastSent = { ...progress, fraction };
    void send({ type: 'progress', progress: lastSent });
  };
  try {
    const render = await renderer;
    const report = (await render(current, { onProgress, log })) ?? { framesSkipped: null };
    await send({ type: 'done', report });
    process.exit(0);
  } catch (err) {
    const e =
      err instanceof RenderError ? err : new RenderError('render_failed', (err as Error)?.message ?? String(err));
    log.error({ err }, 'render failed');
    await send({ type: 'failed', code: e.code, message: e.message, findings: e.findings });
    process.exit(1);
  }
}

process.once('message', (message: ParentMessage) => void run(message.job));
