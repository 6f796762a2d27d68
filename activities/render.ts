// CPU-bound activities (task queue `video-render`): render a stored composition with its engine
// (which validates it first), then store the video; the composition itself is the artifact. The
// requester's media (the generation's assets) are downloaded into the render's work directory first
// and handed to the engine, which serves them to the composition as `assets/<name>`.
// Heartbeats every second so Temporal notices a dead worker quickly and can deliver cancellation,
// which aborts the render. Progress goes to the workflow as signals (src/progress/reporter.ts): the
// workflow cannot read heartbeat details, and its query is what clients see.
// Beside the video goes a poster frame (`poster.jpg`, for the dashboard's player and list); a poster
// that cannot be made is logged and skipped, never a failed render.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { getEngine, RenderError, type RenderOptions } from '../src/engines/index.js';
import type { RenderMedia } from '../src/engines/render.js';
import { getToFile } from '../src/media/storageFiles.js';
import { metrics } from '../src/metrics.js';
import { progressReporter } from '../src/progress/reporter.js';
import { posterKey, type RenderedVideo, type RenderInput } from '../src/shared.js';
import { renderProgressSignal } from '../workflows/generation.js';
import type { ActivityDeps } from './deps.js';

/** Poster frames: at most this wide (the dashboard shows them at most this large), JPEG. */
const POSTER_MAX_WIDTH = 540;
const POSTER_TIMEOUT_MS = 30_000;

/**
 * Writes a JPEG of the video's frame at 1 s (the middle of a shorter video), scaled down to at most
 * POSTER_MAX_WIDTH wide, to `dest`.
 */
async function extractPoster(ffmpegPath: string, videoPath: string, durationSeconds: number, dest: string, signal?: AbortSignal): Promise<void> {
  const at = Math.max(0, Math.min(1, durationSeconds / 2));
  const args = ['-v', 'error', '-ss', at.toFixed(3), '-i', videoPath, '-frames:v', '1', '-vf', `scale='min(${POSTER_MAX_WIDTH},iw)':-2`, '-q:v', '3', '-update', '1', '-y', dest];
  await promisify(execFile)(ffmpegPath, args, { timeout: POSTER_TIMEOUT_MS, signal });
  const { size } = await fs.stat(dest);
  if (size === 0) throw new Error('ffmpeg wrote an empty poster');
}

export function createRenderActivities({ storage, config, logger }: ActivityDeps) {
  return {
    async renderComposition(input: RenderInput): Promise<RenderedVideo> {
      const ctx = Context.current();
      const engine = getEngine(input.engine);
      const source = await storage.getText(input.compositionKey);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), `render-${input.generationId}-`));
      let progress = 0;
      const beat = setInterval(() => ctx.heartbeat({ progress }), 1000);
      const workflow = ctx.client.workflow.getHandle(ctx.info.workflowExecution!.workflowId);
      const reporter = progressReporter((report) => workflow.signal(renderProgressSignal, report));
      try {
        const assets = input.assets ?? [];
        const assetsDir = path.join(dir, 'assets');
        if (assets.length) {
          await fs.mkdir(assetsDir);
          await Promise.all(assets.map((a) => getToFile(storage, a.key, path.join(assetsDir, path.basename(a.name)))));
        }
        const options: RenderOptions & RenderMedia = {
          width: input.width,
          height: input.height,
          outputPath: path.join(dir, 'video.mp4'),
          tools: config.render,
          signal: ctx.cancellationSignal,
          onProgress: (p) => {
            progress = p.fraction;
            reporter.render(p);
          },
          assets: assets.map(({ key: _key, ...asset }) => asset),
          assetsDir: assets.length ? assetsDir : undefined,
        };
        const started = performance.now();
        const result = await engine
          .render(source, options)
          .catch((err: unknown) => {
            // A cancelled render surfaces as the cancellation itself, not as a render failure.
            if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
            if (!(err instanceof RenderError)) throw err;
            throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
          });
        const seconds = (performance.now() - started) / 1000;
        metrics.renderDuration.observe({ engine: input.engine }, seconds);
        metrics.renderFps.observe({ engine: input.engine }, result.frames / seconds);

        reporter.storing();
        const video = { key: `generations/${input.generationId}/video.mp4`, content_type: 'video/mp4' };
        await storage.put(video.key, result.path, video.content_type);
        try {
          const poster = path.join(dir, 'poster.jpg');
          await extractPoster(config.render.ffmpegPath, result.path, result.durationSeconds, poster, ctx.cancellationSignal);
          await storage.put(posterKey(input.generationId), poster, 'image/jpeg');
        } catch (err) {
          if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
          logger.warn({ generation_id: input.generationId, err: String(err) }, 'poster frame not stored; the video is');
        }
        await reporter.flush();
        const artifact = { key: input.compositionKey, content_type: engine.artifact.mediaType };
        return { video, artifact, duration_seconds: result.durationSeconds };
      } finally {
        clearInterval(beat);
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export type RenderActivities = ReturnType<typeof createRenderActivities>;
