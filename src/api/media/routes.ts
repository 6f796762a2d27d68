// GET/HEAD /media/<key>?expires=…&sig=…[&inline=1] — files of the local storage driver at signed URLs.
// Public: the signature is the authentication. Supports Range (and If-Range) requests so players can seek.
// Artifacts are compositions written by an LLM from user prompts (attacker-controlled HTML), and
// user media can be anything: no media response may run as the API's (and dashboard's) origin.
// Every one is sandboxed by its CSP (opaque origin, no script, nothing loaded from anywhere), never
// sniffed, and named by Content-Disposition: pictures, video and sound inline, anything else a
// download unless `?inline=1` asks to view it (still sandboxed).
import fs from 'node:fs';
import Router from '@koa/router';
import { z } from 'zod';
import { DomainError, notFound } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { LocalStorage } from '../../storage/index.js';
import { contentDisposition } from '../../storage/disposition.js';
import { entityTag, parseRange, rangeApplies } from './range.js';

/** A query value counts only as one string; absent or repeated is no value, which fails the signature check (403). */
const single = z.string().optional().catch(undefined);
const mediaRequest = {
  params: z.object({ key: z.string() }),
  query: z.object({ expires: single, sig: single, inline: single }),
};

/**
 * Every media response's CSP: `sandbox` without allow-scripts gives an opaque origin where no script
 * runs; styles and embedded pictures still show a page's structure.
 */
export const MEDIA_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: blob:; media-src data: blob:; " +
  "font-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** `mediaBaseUrl`: config MEDIA_BASE_URL, the only origin media is served at when set. */
export function mediaRoutes({ storage, mediaBaseUrl }: Pick<AppDeps, 'storage'> & { mediaBaseUrl?: string }) {
  const router = new Router<AppState>();
  const mediaHost = mediaBaseUrl ? new URL(mediaBaseUrl).host : null;
  router.get(
    '/media/*key',
    validate(mediaRequest, async (ctx, { params: { key }, query: { expires, sig, inline } }) => {
      ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': MEDIA_CSP });
      // With a media origin, media is never served as the API's (the dashboard's) origin.
      if (mediaHost && ctx.host !== mediaHost) throw notFound(`Media is served at ${mediaBaseUrl}`);
      // With S3 storage, URLs point at the bucket: nothing is served here.
      if (!(storage instanceof LocalStorage)) throw notFound('Media is not served by this API (STORAGE_DRIVER=s3)');
      const check = storage.checkSignature(key, expires, sig);
      if (check === 'invalid')
        throw new DomainError('forbidden', 'invalid_signature', 'The media URL signature is invalid');
      if (check === 'expired')
        throw new DomainError(
          'forbidden',
          'url_expired',
          'The media URL has expired; fetch the generation again for a fresh URL',
        );

      const object = await storage.stat(key);
      if (!object) throw notFound('No such media');
      const etag = entityTag(object.size, object.modified);
      // A Range whose If-Range no longer matches gets the whole (new) file.
      const range = rangeApplies(ctx.get('If-Range') || undefined, etag, object.modified)
        ? parseRange(ctx.get('Range') || undefined, object.size)
        : undefined;
      // An unsatisfiable Range is HTTP's own answer (416 with Content-Range), not a domain failure.
      if (range === 'unsatisfiable') {
        throw new ApiError(416, 'range_not_satisfiable', `The file has ${object.size} bytes`, undefined, undefined, {
          'Content-Range': `bytes */${object.size}`,
          'Accept-Ranges': 'bytes',
        });
      }
      ctx.set('Accept-Ranges', 'bytes');
      ctx.set('Cache-Control', `private, max-age=${Math.max(0, Number(expires) - Math.floor(Date.now() / 1000))}`);
      ctx.set('Content-Type', object.contentType); // exactly as stored (ctx.type would append a charset)
      ctx.set('Content-Disposition', contentDisposition(key, object.contentType, inline === '1'));
      ctx.lastModified = object.modified;
      ctx.set('ETag', etag);
      const { start, end } = range ?? { start: 0, end: object.size - 1 };
      ctx.status = range ? 206 : 200;
      if (range) ctx.set('Content-Range', `bytes ${start}-${end}/${object.size}`);
      // HEAD: headers only (Koa would not read a stream, leaving its file open).
      if (ctx.method === 'HEAD' || object.size === 0) {
        ctx.length = end - start + 1;
        return;
      }
      ctx.body = fs.createReadStream(object.path, { start, end });
      ctx.length = end - start + 1;
    }),
  );
  return router;
}
