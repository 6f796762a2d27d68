// Child side of a HyperFrames render: writes the prepared project (index.html, local library copies,
// the requester's media under assets/) into the work directory and runs the producer as a library
// with BeginFrame capture. The producer's file server serves the project to the page, the only
// server the page can reach (its network namespace, and the page network guard).
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRenderJob, executeRenderJob, resolveConfig, type ProducerLogger } from '@hyperframes/producer';
import type { Logger } from '../../logger.js';
import type { ChildRenderer } from '../isolation/protocol.js';
import { DEFAULT_FPS, durationFinding } from '../limits.js';
import { RenderError, type EncodingSettings } from '../types.js';
import { guardPageNetwork } from './pageNetwork.js';
import { prepareComposition } from './prepare.js';
import { VENDOR_DIR } from './vendor.js';

/** The producer's options for one render; also used by the benchmark's bare-producer run. */
export function producerRenderConfig(opts: { fps: number; chromePath: string; encoding: EncodingSettings; logger?: ProducerLogger }) {
  return {
    fps: opts.fps,
    quality: opts.encoding.hyperframesQuality,
    crf: opts.encoding.crf,
    // Unset: the producer calibrates on sample frames, then picks a worker count.
    ...(opts.encoding.hyperframesWorkers ? { workers: opts.encoding.hyperframesWorkers } : {}),
    format: 'mp4' as const,
    hdrMode: 'force-sdr' as const,
    // BeginFrame capture: 30–45% faster; the default software-GPU mode would silently force screenshots.
    producerConfig: resolveConfig({ chromePath: opts.chromePath, forceScreenshot: false }),
    logger: opts.logger,
  };
}

export const render: ChildRenderer = async (job, { onProgress, log }) => {
  const projectDir = path.join(job.workDir, 'project');
  await fs.mkdir(path.join(projectDir, VENDOR_DIR), { recursive: true });
  const prepared = prepareComposition(job.source, job);
  await fs.writeFile(path.join(projectDir, 'index.html'), prepared.html);
  await Promise.all(prepared.vendorFiles.map((f) => fs.copyFile(f.from, path.join(projectDir, VENDOR_DIR, f.file))));
  if (job.assetsDir) await placeAssets(job.assetsDir, path.join(projectDir, ASSETS_DIR));

  const fps = job.fps ?? DEFAULT_FPS;
  const abort = new AbortController();
  let tooLong: RenderError | undefined;
  const network = await guardPageNetwork(job.chromePath, job.workDir, log, { sandbox: job.chromeSandbox, guard: job.pageNetworkGuard });
  const renderJob = createRenderJob(producerRenderConfig({ fps, chromePath: network.chromePath, encoding: job.encoding, logger: producerLogger(log) }));
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
        onProgress({ stage, fraction: j.progress / 100, framesRendered: j.framesRendered ?? null, framesTotal: j.totalFrames ?? null });
      },
      abort.signal,
    );
  } catch (err) {
    throw tooLong ?? new RenderError('render_failed', `HyperFrames render failed: ${firstLines((err as Error).message)}`);
  } finally {
    await network.close();
  }
  if (tooLong) throw tooLong;
  if (renderJob.status !== 'complete') {
    throw new RenderError('render_failed', `HyperFrames render ended ${renderJob.status}: ${firstLines(renderJob.error ?? '')}`);
  }
};

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
    names.map((name) => fs.link(path.join(from, name), path.join(to, name)).catch(() => fs.copyFile(path.join(from, name), path.join(to, name)))),
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
