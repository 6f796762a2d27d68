// /v1/videos: the OpenAI Videos API as a third request shape (extension; README "OpenAI Videos drop-in").
// Apps written against OpenAI's SDK work by changing the base URL: create (JSON or multipart/form-data),
// retrieve, list, delete, download the content, remix. Keys, credits, rate limits, Idempotency-Key and
// webhooks are the other shapes'; errors are in OpenAI's body (errors.ts).
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import Router from '@koa/router';
import { listGenerations } from '../../db/generations.js';
import { DomainError, invalidInput, notFound } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import { idParams, parse, validate } from '../../http/validate.js';
import { OUTPUT_MEDIA_TYPES, TERMINAL_STATUSES } from '../../shared.js';
import { LocalStorage } from '../../storage/index.js';
import { posterKey, spritesheetKey, thumbnailKey } from '../../storage/keys.js';
import { ATTRIBUTION_WARNING_HEADER, readAppHeaders } from '../generations/appHeaders.js';
import { idempotencyOf } from '../generations/idempotency.js';
import { findOwned } from '../generations/service.js';
import { readMultipartBody } from './multipart.js';
import { videoContentQuery, videoListQuery, videoRequestSchemas } from './schema.js';
import { createVideo, deleteVideo, readVideo, remixSource, videoViews } from './service.js';

/** How long an SDK poller waits before asking again about a video in flight (`openai-poll-after-ms`). */
export const POLL_AFTER_MS = 2000;

/** A stored file's media type and extension, by its extension (the video is MP4, WebM or GIF: output_format). */
function fileTypeOf(key: string): { contentType: string; extension: string } {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  const types: Record<string, string> = { ...OUTPUT_MEDIA_TYPES, jpg: 'image/jpeg' };
  return { contentType: types[extension] ?? 'application/octet-stream', extension };
}

export function videosRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  const schemas = videoRequestSchemas();

  router.post('/v1/videos', async (ctx) => {
    let raw: unknown = ctx.request.body;
    if (ctx.request.is('multipart/form-data')) raw = await readMultipartBody(ctx);
    else if (ctx.request.length && !ctx.request.is('application/json'))
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send the request body as JSON (Content-Type: application/json) or multipart/form-data',
      );
    const body = parse(schemas.create, raw, 'body');
    const idempotency = idempotencyOf(ctx, 'videos', body);
    const { app, warnings } = readAppHeaders(ctx);
    const { video, replayed } = await createVideo(deps, ctx.state.auth, body, app, idempotency);
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    if (warnings.length) ctx.set(ATTRIBUTION_WARNING_HEADER, warnings.join('; '));
    ctx.body = video;
  });

  router.get(
    '/v1/videos',
    validate({ query: videoListQuery }, async (ctx, { query }) => {
      const page = await listGenerations(deps.db, ctx.state.auth.organizationId, {
        limit: query.limit,
        after: query.after,
        oldestFirst: query.order === 'asc',
      });
      // Another organization's id answers exactly like an unknown one.
      if (!page) throw invalidInput(`after: no video with id ${query.after}`, 'after');
      const data = await videoViews(deps, page.rows);
      ctx.body = {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: page.hasMore,
      };
    }),
  );

  router.get(
    '/v1/videos/:id',
    validate({ params: idParams }, async (ctx, { params: { id } }) => {
      const video = await readVideo(deps, ctx.state.auth.organizationId, id);
      if (video.status === 'queued' || video.status === 'in_progress')
        ctx.set('openai-poll-after-ms', String(POLL_AFTER_MS));
      ctx.body = video;
    }),
  );

  router.delete(
    '/v1/videos/:id',
    validate({ params: idParams }, async (ctx, { params: { id } }) => {
      await deleteVideo(deps, ctx.state.auth.organizationId, id);
      ctx.body = { id, object: 'video.deleted', deleted: true };
    }),
  );

  router.get(
    '/v1/videos/:id/content',
    validate({ params: idParams, query: videoContentQuery }, async (ctx, { params: { id }, query: { variant } }) => {
      const row = await findOwned(deps, ctx.state.auth.organizationId, id);
      if (row.status !== 'completed') {
        const why = TERMINAL_STATUSES.includes(row.status) ? `ended ${row.status}` : `is ${row.status}`;
        throw new DomainError('conflict', 'video_not_ready', `Video ${id} ${why}: it has no content`);
      }
      const keys =
        variant === 'video'
          ? [row.video_key]
          : variant === 'thumbnail'
            ? [thumbnailKey(id), posterKey(id)] // videos made before thumbnails: the poster frame
            : [spritesheetKey(id)];
      for (const key of keys) {
        if (!key) continue;
        const served = await serveStored(deps, key);
        if (!served) continue;
        const { contentType, extension } = fileTypeOf(key);
        ctx.set('Content-Type', contentType);
        ctx.set('Content-Disposition', `attachment; filename="${id}-${variant}.${extension}"`);
        ctx.set('X-Content-Type-Options', 'nosniff');
        if (Number.isFinite(served.size)) ctx.length = served.size;
        ctx.body = served.stream;
        return;
      }
      throw notFound(`Video ${id} has no ${variant}`);
    }),
  );

  router.post('/v1/videos/:id/remix', async (ctx) => {
    const { id } = parse(idParams, ctx.params, 'path');
    const { prompt } = parse(schemas.remix, ctx.request.body, 'body');
    const source = await remixSource(deps, ctx.state.auth.organizationId, id);
    const { row, own } = source;
    const body = parse(
      schemas.create,
      {
        prompt,
        model: own?.model ?? row.model,
        seconds: own?.seconds ?? String(Math.round(row.duration_seconds ?? row.request.duration_seconds ?? 4)),
        size: own?.size ?? `${row.request.width}x${row.request.height}`,
        engine: row.engine,
        webhook_url: row.webhook_url,
        // The original's file: a remix of a transparent WebM is one too.
        output_format: row.request.output?.format,
        transparent: row.request.output?.transparent,
      },
      'body',
    );
    const idempotency = idempotencyOf(ctx, 'videos.remix', { id, prompt });
    const { app } = readAppHeaders(ctx);
    const { video, replayed } = await createVideo(deps, ctx.state.auth, body, app, idempotency, {
      from: id,
      instructions: source.instructions,
      images: source.images,
    });
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.body = video;
  });

  return router;
}

/** A stored object's bytes as a stream (the local files, or the S3 object through its presigned URL). */
async function serveStored(deps: AppDeps, key: string): Promise<{ stream: Readable; size: number } | null> {
  const { storage } = deps;
  if (storage instanceof LocalStorage) {
    const object = await storage.stat(key);
    return object ? { stream: fs.createReadStream(object.path), size: object.size } : null;
  }
  const { url } = await storage.url(key, { ttlSeconds: 300 });
  const res = await fetch(url);
  if (res.status === 404 || res.status === 403 || !res.body) return null;
  if (!res.ok) throw new Error(`stored media ${key} could not be read (HTTP ${res.status})`);
  return { stream: Readable.fromWeb(res.body as WebReadableStream), size: Number(res.headers.get('content-length')) };
}
