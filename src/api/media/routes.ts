// GET/HEAD /media/<key>?expires=…&sig=… — files of the local storage driver at signed URLs. Public:
// the signature is the authentication. Supports Range requests so players can seek.
import fs from 'node:fs';
import Router from '@koa/router';
import { z } from 'zod';
import { DomainError, notFound } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { LocalStorage } from '../../storage/index.js';
import { parseRange } from './range.js';

/** A query value counts only as one string; absent or repeated is no value, which fails the signature check (403). */
const single = z.string().optional().catch(undefined);
const mediaRequest = { params: z.object({ key: z.string() }), query: z.object({ expires: single, sig: single }) };

export function mediaRoutes({ storage }: Pick<AppDeps, 'storage'>) {
  const router = new Router<AppState>();
  router.get('/media/*key', validate(mediaRequest, async (ctx, { params: { key }, query: { expires, sig } }) => {
    // With S3 storage, URLs point at the bucket: nothing is served here.
    if (!(storage instanceof LocalStorage)) throw notFound('Media is not served by this API (STORAGE_DRIVER=s3)');
    const check = storage.checkSignature(key, expires, sig);
    if (check === 'invalid') throw new DomainError('forbidden', 'invalid_signature', 'The media URL signature is invalid');
    if (check === 'expired') throw new DomainError('forbidden', 'url_expired', 'The media URL has expired; fetch the generation again for a fresh URL');

    const object = await storage.stat(key);
    if (!object) throw notFound('No such media');
    const range = parseRange(ctx.get('Range') || undefined, object.size);
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
    ctx.lastModified = object.modified;
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
  }));
  return router;
}
