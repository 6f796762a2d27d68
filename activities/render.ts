// CPU-bound activities (task queue `video-render`): render a stored composition with its engine
// (which validates it first), then store the video; the composition itself is the artifact.
// Heartbeats every second so Temporal notices a dead worker quickly and can deliver cancellation,
// which aborts the render.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { getEngine, RenderError } from '../src/engines/index.js';
import { metrics } from '../src/metrics.js';
import type { RenderedVideo, RenderInput } from '../src/shared.js';
import type { ActivityDeps } from './deps.js';

export function createRenderActivities({ storage, config }: ActivityDeps) {
  return {
    async renderComposition(input: RenderInput): Promise<RenderedVideo> {
      const ctx = Context.current();
      const engine = getEngine(input.engine);
      const source = await storage.getText(input.compositionKey);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), `render-${input.generationId}-`));
      let progress = 0;
      const beat = setInterval(() => ctx.heartbeat({ progress }), 1000);
      try {
        const started = performance.now();
        const result = await engine
          .render(source, {
            width: input.width,
            height: input.height,
            outputPath: path.join(dir, 'video.mp4'),
            tools: config.render,
            signal: ctx.cancellationSignal,
            onProgress: (fraction) => (progress = fraction),
          })
          .catch((err: unknown) => {
            // A cancelled render surfaces as the cancellation itself, not as a render failure.
            if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
            if (!(err instanceof RenderError)) throw err;
            throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
          });
        const seconds = (performance.now() - started) / 1000;
        metrics.renderDuration.observe({ engine: input.engine }, seconds);
        metrics.renderFps.observe({ engine: input.engine }, result.frames / seconds);

        const video = { key: `generations/${input.generationId}/video.mp4`, content_type: 'video/mp4' };
        await storage.put(video.key, result.path, video.content_type);
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
