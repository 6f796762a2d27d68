// Child side of a HyperFrames render: writes the prepared project (index.html, local library copies,
// the requester's media under assets/) into the work directory and runs the producer as a library
// with BeginFrame capture. The producer's file server serves the project to the page, the only
// server the page can reach (its network namespace, and the page network guard).
// A chunk of a split render goes through the producer's distributed primitives instead: plan the
// project (deterministic: every chunk's worker plans the same), render the chunk's frame range with
// a closed GOP, so that the join concatenates chunks without re-encoding.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRenderJob, executeRenderJob, resolveConfig, type ProducerLogger } from '@hyperframes/producer';
import type { Logger } from '../../logger.js';
import type { ChildRenderer, IsolatedJob } from '../isolation/protocol.js';
import { DEFAULT_FPS, durationFinding } from '../limits.js';
import { RenderError, type RenderChunk, type RenderProgress } from '../types.js';
import { guardPageNetwork } from './pageNetwork.js';
import { prepareComposition } from './prepare.js';
import type { HyperframesSettings } from './settings.js';
import { VENDOR_DIR } from './vendor.js';

/** The producer's options for one render; also used by the benchmark's bare-producer run. */
export function producerRenderConfig(opts: {
  fps: number;
  chromePath: string;
  crf: number;
  settings: HyperframesSettings;
  logger?: ProducerLogger;
  /** VP9 WebM with alpha (the producer leaves the page background transparent and captures by screenshot). */
  transparent?: boolean;
}) {
  return {
    fps: opts.fps,
    quality: opts.settings.quality,
    crf: opts.crf,
    // Unset: the producer calibrates on sample frames, then picks a worker count.
    ...(opts.settings.workers ? { workers: opts.settings.workers } : {}),
    format: opts.transparent ? ('webm' as const) : ('mp4' as const),
    hdrMode: 'force-sdr' as const,
    // BeginFrame capture: 30–45% faster; the default software-GPU mode would silently force screenshots.
    producerConfig: {
      ...resolveConfig({ chromePath: opts.chromePath, forceScreenshot: false }),
      staticFrameDedup: opts.settings.skipHeldFrames,
    },
    logger: opts.logger,
  };
}

export const render: ChildRenderer<HyperframesSettings> = async (job, { onProgress, log }) => {
  const projectDir = path.join(job.workDir, 'project');
  await fs.mkdir(path.join(projectDir, VENDOR_DIR), { recursive: true });
  const prepared = prepareComposition(job.source, job);
  await fs.writeFile(path.join(projectDir, 'index.html'), prepared.html);
  await Promise.all(prepared.vendorFiles.map((f) => fs.copyFile(f.from, path.join(projectDir, VENDOR_DIR, f.file))));
  if (job.assetsDir) await placeAssets(job.assetsDir, path.join(projectDir, ASSETS_DIR));

  const fps = job.fps ?? DEFAULT_FPS;
  const network = await guardPageNetwork(job.settings.chromePath, job.workDir, log, {
    sandbox: job.unprivileged,
    guard: job.settings.pageNetworkGuard,
  });
  if (job.chunk) {
    try {
      await renderChunkOf(job, job.chunk, projectDir, { fps, chromePath: network.chromePath, onProgress, log });
    } finally {
      await network.close();
    }
    // The producer's chunk result does not count the frames it reused.
    return { framesSkipped: null };
  }
  const abort = new AbortController();
  let tooLong: RenderError | undefined;
  const renderJob = createRenderJob(
    producerRenderConfig({
      fps,
      chromePath: network.chromePath,
      crf: job.crf,
      settings: job.settings,
      logger: producerLogger(log),
      transparent: job.transparent,
    }),
  );
  try {
    await executeRenderJob(
      renderJob,
      projectDir,
      job.outputPath,
      (j) => {
        // The duration is known once the producer has probed the page: stop early when it is over the limit.
        const finding = j.duration !== undefined && !tooLong ? durationFinding(j.duration, fps) : undefined;
        if (finding) {
          tooLong = new RenderError('invalid_composition', finding.message, [finding]);
          abort.abort();
        }
        // The producer's stages: preprocessing and frame capture, then encoding and assembling the file.
        const stage = j.status === 'encoding' || j.status === 'assembling' ? 'encoding' : 'rendering';
        onProgress({
          stage,
          fraction: j.progress / 100,
          framesRendered: j.framesRendered ?? null,
          framesTotal: j.totalFrames ?? null,
        });
      },
      abort.signal,
    );
  } catch (err) {
    throw (
      tooLong ?? new RenderError('render_failed', `HyperFrames render failed: ${firstLines((err as Error).message)}`)
    );
  } finally {
    await network.close();
  }
  if (tooLong) throw tooLong;
  if (renderJob.status !== 'complete') {
    throw new RenderError(
      'render_failed',
      `HyperFrames render ended ${renderJob.status}: ${firstLines(renderJob.error ?? '')}`,
    );
  }
  // Frames not captured: those the timeline shows to be still (the producer's static-frame dedup), and
  // those Chrome reported no damage for (never, as every BeginFrame asks for a screenshot: issue 34).
  const summary = renderJob.perfSummary;
  if (!summary) return { framesSkipped: null };
  return {
    framesSkipped: (summary.staticDedup?.reusedFrames ?? 0) + (summary.beginFrameReuse?.noDamageFrames ?? 0),
  };
};

/**
 * Renders frames [chunk.start, chunk.end) to job.outputPath. The plan's frame count and slices must
 * be the workflow's (both from the root's data-duration); a mismatch fails rather than leave a gap.
 * Progress: the producer reports none for a chunk, so its captured frame files are counted.
 */
async function renderChunkOf(
  job: IsolatedJob<HyperframesSettings>,
  chunk: RenderChunk,
  projectDir: string,
  opts: { fps: number; chromePath: string; onProgress: (p: RenderProgress) => void; log: Logger },
): Promise<void> {
  const { plan, renderChunk } = await import('@hyperframes/producer/distributed');
  const planDir = path.join(job.workDir, 'plan');
  const config = producerRenderConfig({
    fps: opts.fps,
    chromePath: opts.chromePath,
    crf: job.crf,
    settings: job.settings,
    logger: producerLogger(opts.log),
  });
  // A chunk's browser and capture workers are configured by these variables only. HYPERFRAMES_WORKERS
  // capture workers per chunk (one by default: with several, one falling back to screenshots under
  // load fails the chunk, "inconsistent modes"); without the minimum the producer takes two for
  // longer chunks whatever the maximum.
  process.env.PRODUCER_HEADLESS_SHELL_PATH = opts.chromePath;
  if (job.settings.workers) {
    process.env.PRODUCER_MAX_WORKERS = String(job.settings.workers);
    process.env.PRODUCER_MIN_PARALLEL_FRAMES = String(Number.MAX_SAFE_INTEGER);
  }
  const frames = chunk.end - chunk.start;
  const counter = setInterval(() => {
    void countCapturedFrames(job.outputPath).then((n) => {
      // Every frame captured: the chunk's encode runs.
      if (n > 0)
        opts.onProgress({
          stage: n >= frames ? 'encoding' : 'rendering',
          fraction: (Math.min(n, frames) / frames) * 0.9,
          framesRendered: Math.min(n, frames),
          framesTotal: frames,
        });
    });
  }, PROGRESS_POLL_MS);
  try {
    const planned = await plan(
      projectDir,
      {
        fps: opts.fps as 24 | 30 | 60,
        width: job.width,
        height: job.height,
        format: 'mp4',
        quality: config.quality,
        crf: config.crf,
        chunkSize: chunk.size,
        maxParallelChunks: chunk.count,
        hdrMode: 'force-sdr',
        // As a whole render does: fonts the page names but nobody has fall back rather than fail.
        rejectOnSystemFonts: false,
        failClosedFontFetch: false,
        producerConfig: config.producerConfig,
        logger: config.logger,
      },
      planDir,
    );
    const slices = JSON.parse(await fs.readFile(path.join(planDir, 'meta', 'chunks.json'), 'utf8')) as {
      startFrame: number;
      endFrame: number;
    }[];
    const slice = slices[chunk.index];
    if (planned.totalFrames !== chunk.total || slice?.startFrame !== chunk.start || slice.endFrame !== chunk.end) {
      throw new RenderError(
        'render_failed',
        `HyperFrames planned frames ${slice?.startFrame}–${slice?.endFrame} of ${planned.totalFrames} ` +
          `for chunk ${chunk.index}, not ${chunk.start}–${chunk.end} of ${chunk.total}`,
      );
    }
    // Its frame count is checked by the chunk activity, for every engine.
    await renderChunk(planDir, chunk.index, job.outputPath);
    opts.onProgress({ stage: 'encoding', fraction: 1, framesRendered: frames, framesTotal: frames });
  } catch (err) {
    throw err instanceof RenderError
      ? err
      : new RenderError('render_failed', `HyperFrames chunk render failed: ${firstLines((err as Error).message)}`);
  } finally {
    clearInterval(counter);
  }
}

const PROGRESS_POLL_MS = 1000;

/** Frames the producer has captured for the chunk written to `outputPath` (in its scratch directory beside it). */
async function countCapturedFrames(outputPath: string): Promise<number> {
  const dir = path.dirname(outputPath);
  const prefix = `${path.basename(outputPath)}.work.`;
  try {
    const work = (await fs.readdir(dir)).find((name) => name.startsWith(prefix));
    // One capture worker writes into captured-frames/, several into capture-attempt-<n>/worker-<i>/.
    return work
      ? (await fs.readdir(path.join(dir, work), { recursive: true })).filter((f) =>
          path.basename(f).startsWith('frame_'),
        ).length
      : 0;
  } catch {
    return 0; // not there yet, or being moved or removed
  }
}

/** Directory (relative to the project) compositions find the requester's media in: `assets/<name>`. */
const ASSETS_DIR = 'assets';

/**
 * Puts every asset file into the project: hard links where the file system allows (videos can be
 * 100 MB), else copies. Never symlinks: the producer's file server refuses paths that leave the project.
 */
async function placeAssets(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  const names = (await fs.readdir(from, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  await Promise.all(
    names.map((name) =>
      fs
        .link(path.join(from, name), path.join(to, name))
        .catch(() => fs.copyFile(path.join(from, name), path.join(to, name))),
    ),
  );
}

const firstLines = (s: string) => s.split('\n').filter(Boolean).slice(0, 4).join(' ').slice(0, 600);

/** Producer logs go to our logger; its chatty info level becomes debug. */
function producerLogger(log: Logger): ProducerLogger {
  return {
    error: (message, meta) => log.error(meta ?? {}, message),
    warn: (message, meta) => log.warn(meta ?? {}, message),
    info: (message, meta) => log.debug(meta ?? {}, message),
    debug: (message, meta) => log.trace(meta ?? {}, message),
    isLevelEnabled: (level) => log.isLevelEnabled(level === 'info' ? 'debug' : level === 'debug' ? 'trace' : level),
  };
}
