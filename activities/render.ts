// CPU-bound activities (task queue `video-render`): render a stored composition with its engine
// (which validates it first), then store the video; the composition itself is the artifact. The
// requester's media (the generation's assets) are downloaded into the render's work directory first
// and handed to the engine, which serves them to the composition as `assets/<name>`.
// Heartbeats every second so Temporal notices a dead worker quickly and can deliver cancellation,
// which aborts the render. Progress goes to the workflow as signals (src/progress/reporter.ts): the
// workflow cannot read heartbeat details, and its query is what clients see.
// Beside the video go its previews: a poster frame (`poster.jpg`, for the dashboard's player and list), a
// thumbnail and a sprite sheet (src/video/previews.ts); one that cannot be made is logged and skipped, never a
// failed render.
// A long video renders as chunks (planRender, on the I/O queue, decides from the composition and the
// render slots Temporal reports): renderChunk draws one frame range on any render worker and stores
// it; joinChunks concatenates them without re-encoding and stores the video as renderComposition does.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { planChunks } from '../src/engines/chunks.js';
import { getEngine, RenderError, type RenderOptions } from '../src/engines/index.js';
import type { RenderMedia } from '../src/engines/render.js';
import type { RenderChunk, RenderResult } from '../src/engines/types.js';
import { getToFile } from '../src/media/storageFiles.js';
import { metrics } from '../src/metrics.js';
import { progressReporter, type ProgressReporter } from '../src/progress/reporter.js';
import { chunkKey, posterKey, spritesheetKey, thumbnailKey, videoKey } from '../src/storage/keys.js';
import {
  renderProgressSignal,
  type ChunkJoinInput,
  type ChunkRenderInput,
  type RenderActivities,
  type RenderedChunk,
  type RenderedVideo,
  type StoredMedia,
  type RenderInput,
  type RenderPlan,
  type RenderPlanActivities,
} from '../src/temporal/contract.js';
import { renderSlots } from '../src/temporal/renderSlots.js';
import {
  convertToGif,
  convertToWebm,
  extractPreviews,
  joinChunkFiles,
  probeVideo,
  type ProbedVideo,
} from '../src/video/index.js';
import { OUTPUT_MEDIA_TYPES } from '../src/shared.js';
import type { ActivityDeps } from './deps.js';

/** Chunks of a long video, decided on the I/O queue: reads the composition, asks Temporal for the render slots. */
export function createRenderPlanActivities({ storage, config, logger }: ActivityDeps): RenderPlanActivities {
  return {
    async planRender(input: RenderInput): Promise<RenderPlan> {
      // A transparent video's alpha WebM is rendered whole (chunks are joined as MP4s).
      if (input.output?.transparent) return { chunks: [] };
      const timing = getEngine(input.engine).timing?.(await storage.getText(input.compositionKey)) ?? null;
      // Short videos (most) need no slot count.
      if (!timing || planChunks(timing, config.renderChunks, Infinity).length === 0) return { chunks: [] };
      const slots = await renderSlots(Context.current().client, config.temporal.namespace).catch((err: unknown) => {
        logger.warn({ generation_id: input.generationId, err: String(err) }, 'render slots unknown: one piece');
        return 1;
      });
      const chunks = planChunks(timing, config.renderChunks, slots);
      logger.info(
        { generation_id: input.generationId, frames: timing.frames, slots, chunks: chunks.length },
        chunks.length ? 'render split into chunks' : 'render in one piece: one render slot',
      );
      return { chunks };
    },
  };
}

export function createRenderActivities({ storage, config, renderTools, logger }: ActivityDeps): RenderActivities {
  /**
   * Runs `work` in a fresh work directory with heartbeats (so Temporal notices a dead worker quickly
   * and can deliver cancellation; they carry the render's fraction) and a progress reporter (a
   * chunk's reports carry its index).
   */
  async function inActivity<T>(
    input: RenderInput,
    chunk: RenderChunk | null,
    work: (dir: string, reporter: ProgressReporter) => Promise<T>,
  ): Promise<T> {
    const ctx = Context.current();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `render-${input.generationId}-`));
    let progress = 0;
    const beat = setInterval(() => ctx.heartbeat({ progress }), 1000);
    const workflow = ctx.client.workflow.getHandle(ctx.info.workflowExecution!.workflowId);
    const signalled = progressReporter((report) =>
      workflow.signal(renderProgressSignal, chunk ? { ...report, chunk: chunk.index } : report),
    );
    const reporter: ProgressReporter = {
      ...signalled,
      render: (p) => {
        progress = p.fraction;
        signalled.render(p);
      },
    };
    try {
      const result = await work(dir, reporter);
      await reporter.flush();
      return result;
    } catch (err) {
      // A cancelled step surfaces as the cancellation itself, not as a failure of its own.
      if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
      throw err;
    } finally {
      clearInterval(beat);
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /** Renders the composition (or one chunk of it) to `dir`/video.mp4 with its engine. */
  async function render(
    input: RenderInput,
    chunk: RenderChunk | null,
    dir: string,
    reporter: ProgressReporter,
  ): Promise<RenderResult> {
    const ctx = Context.current();
    const engine = getEngine(input.engine);
    const source = await storage.getText(input.compositionKey);
    const assets = input.assets ?? [];
    const assetsDir = path.join(dir, 'assets');
    if (assets.length) {
      await fs.mkdir(assetsDir);
      await Promise.all(assets.map((a) => getToFile(storage, a.key, path.join(assetsDir, path.basename(a.name)))));
    }
    const options: RenderOptions & RenderMedia = {
      width: input.width,
      height: input.height,
      // A transparent video comes out of the engine as an alpha WebM (whole renders only: planRender).
      outputPath: path.join(dir, input.output?.transparent && !chunk ? 'video.webm' : 'video.mp4'),
      tools: renderTools,
      signal: ctx.cancellationSignal,
      onProgress: (p) => reporter.render(p),
      assets: assets.map(({ key: _key, ...asset }) => asset),
      assetsDir: assets.length ? assetsDir : undefined,
      ...(chunk ? { chunk } : {}),
      ...(input.output?.transparent && !chunk ? { transparent: true } : {}),
    };
    const started = performance.now();
    const result = await engine.render(source, options).catch((err: unknown) => {
      if (!(err instanceof RenderError) || ctx.cancellationSignal.aborted) throw err;
      throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
    });
    const seconds = (performance.now() - started) / 1000;
    metrics.renderDuration.observe({ engine: input.engine }, seconds);
    metrics.renderFps.observe({ engine: input.engine }, result.frames / seconds);
    return result;
  }

  /**
   * Stores the finished video and its previews (poster frame, thumbnail, sprite sheet: src/video/previews.ts); the
   * composition is the artifact. A preview that cannot be made is logged, never fails the video. Logs how long
   * each step of the activity took (`render steps`: the latency budget, bench/latency.ts, reads it).
   */
  async function storeVideo(
    input: RenderInput,
    video: ProbedVideo,
    dir: string,
    rendered: { ms: number; framesSkipped: number | null },
  ): Promise<RenderedVideo> {
    const signal = Context.current().cancellationSignal;
    const started = performance.now();
    // The previews are cut from the rendered MP4 while it is stored (converted first when another format is asked).
    const [stored, previewsMs] = await Promise.all([
      storeOutput(input, video, dir).then((media) => ({ media, ms: performance.now() - started })),
      storePreviews(input, video, dir, signal).then(() => performance.now() - started),
    ]);
    logger.info(
      {
        generation_id: input.generationId,
        render_ms: Math.round(rendered.ms),
        frames_skipped: rendered.framesSkipped,
        // Side by side: the upload includes converting to the requested format; the previews are poster, thumbnail and
        // sprite sheet.
        upload_ms: Math.round(stored.ms),
        poster_ms: Math.round(previewsMs),
      },
      'render steps',
    );
    const artifact = { key: input.compositionKey, content_type: getEngine(input.engine).artifact.mediaType };
    return { video: stored.media, artifact, duration_seconds: video.durationSeconds };
  }

  /** Cuts and stores the previews (src/video/previews.ts); one that cannot be made is logged, never fails the video. */
  async function storePreviews(input: RenderInput, video: ProbedVideo, dir: string, signal: AbortSignal) {
    const id = input.generationId;
    const files = {
      poster: path.join(dir, 'poster.jpg'),
      thumbnail: path.join(dir, 'thumbnail.jpg'),
      spriteSheet: path.join(dir, 'sprite-sheet.jpg'),
    };
    try {
      await extractPreviews(config.render.ffmpegPath, video.path, video.durationSeconds, files, signal);
      await Promise.all([
        storage.put(posterKey(id), files.poster, 'image/jpeg'),
        storage.put(thumbnailKey(id), files.thumbnail, 'image/jpeg'),
        storage.put(spritesheetKey(id), files.spriteSheet, 'image/jpeg'),
      ]);
    } catch (err) {
      if (signal.aborted) throw signal.reason ?? err;
      logger.warn({ generation_id: input.generationId, err: String(err) }, 'previews not stored; the video is');
    }
  }

  /**
   * Stores the video as the request asks (`output`): the MP4 as rendered; a transparent WebM as the engine rendered
   * it; otherwise the MP4 converted to WebM (VP9) or GIF (src/video/convert.ts).
   */
  async function storeOutput(input: RenderInput, video: ProbedVideo, dir: string): Promise<StoredMedia> {
    const format = input.output?.format ?? 'mp4';
    const stored = { key: videoKey(input.generationId, format), content_type: OUTPUT_MEDIA_TYPES[format] };
    let file = video.path;
    if (format !== 'mp4' && !input.output?.transparent) {
      file = path.join(dir, `output.${format}`);
      const { ffmpegPath, crf } = renderTools;
      const signal = Context.current().cancellationSignal;
      if (format === 'webm') await convertToWebm(ffmpegPath, video.path, file, crf, signal);
      else await convertToGif(ffmpegPath, video.path, file, video.fps, signal);
    }
    await storage.put(stored.key, file, stored.content_type);
    return stored;
  }

  return {
    async renderComposition(input: RenderInput): Promise<RenderedVideo> {
      return inActivity(input, null, async (dir, reporter) => {
        const started = performance.now();
        const result = await render(input, null, dir, reporter);
        reporter.storing();
        return storeVideo(input, result, dir, { ms: performance.now() - started, framesSkipped: result.framesSkipped });
      });
    },

    /** One chunk of a long video, stored under its chunk key until the join. */
    async renderChunk(input: ChunkRenderInput): Promise<RenderedChunk> {
      const { chunk } = input;
      return inActivity(input, chunk, async (dir, reporter) => {
        const result = await render(input, chunk, dir, reporter);
        const expected = chunk.end - chunk.start;
        if (result.frames !== expected) {
          throw ApplicationFailure.create({
            type: 'render_failed',
            message: `Chunk ${chunk.index} has ${result.frames} frames, not ${expected}`,
            nonRetryable: true,
          });
        }
        const key = chunkKey(input.generationId, chunk.index);
        await storage.put(key, result.path, 'video/mp4');
        return { index: chunk.index, key, frames: result.frames };
      });
    },

    /**
     * The chunks, in order, as one video (stream copy: every chunk starts on a keyframe); then stored, and the chunks
     * removed.
     */
    async joinChunks(input: ChunkJoinInput): Promise<RenderedVideo> {
      return inActivity(input, null, async (dir, reporter) => {
        const started = performance.now();
        const parts = [...input.chunks].sort((a, b) => a.index - b.index);
        const files = parts.map((c) => path.join(dir, `chunk-${c.index}.mp4`));
        await Promise.all(parts.map((c, i) => getToFile(storage, c.key, files[i]!)));
        const output = path.join(dir, 'video.mp4');
        await joinChunkFiles(config.render.ffmpegPath, files, output, Context.current().cancellationSignal);
        const video = await probeVideo(config.render.ffmpegPath, output);
        const expected = parts.reduce((sum, c) => sum + c.frames, 0);
        if (video.frames !== expected) {
          throw ApplicationFailure.create({
            type: 'render_failed',
            message: `The joined video has ${video.frames} frames, not ${expected}`,
            nonRetryable: true,
          });
        }
        reporter.storing();
        const stored = await storeVideo(input, video, dir, { ms: performance.now() - started, framesSkipped: null });
        // Only the video is kept; a chunk left behind is logged, not a failed generation.
        await Promise.all(
          parts.map((c) =>
            storage
              .delete(c.key)
              .catch((err: unknown) =>
                logger.warn({ generation_id: input.generationId, key: c.key, err: String(err) }, 'chunk not removed'),
              ),
          ),
        );
        return stored;
      });
    },
  };
}
