// GET/HEAD /media/<key>?expires=…&sig=… — files of the local storage driver at signed URLs. Public:
// the signature is the authentication. Supports Range requests so players can seek.
import fs from 'node:fs';
import Router from '@koa/router';
import { ApiError, notFound } from '../../errors.js';
import { LocalStorage } from '../../storage/index.js';
import type { AppDeps, AppState } from '../context.js';
import { parseRange } from './range.js';

export function mediaRoutes({ storage }: Pick<AppDeps, 'storage'>) {
  const router = new Router<AppState>();
  router.get('/media/*key', async (ctx) => {
    // With S3 storage, URLs point at the bucket: nothing is served here.
    if (!(storage instanceof LocalStorage)) throw notFound('Media is not served by this API (STORAGE_DRIVER=s3)');
    const key = String((ctx.params as { key: string }).key);
    const expires = typeof ctx.query.expires === 'string' ? ctx.query.expires : undefined;
    const sig = typeof ctx.query.sig === 'string' ? ctx.query.sig : undefined;
    const check = storage.checkSignature(key, expires, sig);
    if (check === 'invalid') throw new ApiError(403, 'invalid_signature', 'The media URL signature is invalid');
    if (check === 'expired') throw new ApiError(403, 'url_expired', 'The media URL has expired; fetch the generation again for a fresh URL');

    const object = await storage.stat(key);
    if (!object) throw notFound('No such media');
    const range = parseRange(ctx.get('Range') || undefined, object.size);
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
  });
  return router;
}
