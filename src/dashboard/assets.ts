// The dashboard's static files (one stylesheet, one script), loaded once. Pages link them with a
// content hash in the query, so they can be cached for good and still change on deploy.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import { z } from 'zod';
import { validate } from '../http/validate.js';
import type { DashboardState } from './context.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const TYPES = { 'dashboard.css': 'text/css; charset=utf-8', 'dashboard.js': 'text/javascript; charset=utf-8' } as const;
export type AssetName = keyof typeof TYPES;

const assets = new Map<string, { type: string; body: Buffer; version: string }>(
  Object.entries(TYPES).map(([name, type]) => {
    const body = fs.readFileSync(path.join(DIR, name));
    return [name, { type, body, version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16) }];
  }),
);

export const assetUrl = (name: AssetName) => `/dashboard/assets/${name}?v=${assets.get(name)!.version}`;

export function assetRoutes(): Router<DashboardState> {
  const router = new Router<DashboardState>();
  router.get(
    '/dashboard/assets/:name',
    validate({ params: z.object({ name: z.string() }) }, (ctx, { params }) => {
      const asset = assets.get(params.name);
      if (!asset) return; // falls through to the dashboard's 404 page
      ctx.type = asset.type;
      ctx.etag = asset.version;
      ctx.set('Cache-Control', ctx.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.body = asset.body;
    }),
  );
  return router;
}
