// GET /openapi.json (OpenAPI 3.1) and GET /docs (the same document rendered by Redoc, bundled from npm
// and served from here: no CDN).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../http/context.js';
import { notFound } from '../../errors.js';
import { openApiDocument } from './document.js';

/** Redoc's standalone bundle from npm (served from here: the page works with no internet). */
const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

/**
 * The storyboard reference's pictures (frames of real renders by bench/storyboard-pictures.ts), kept
 * beside this module so the build copies them: `/docs/pictures/<engine>-<kind>.png`.
 */
const PICTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pictures');

/** The reference page: Redoc rendering /openapi.json, everything from this origin. */
const DOCS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" \
content="width=device-width, initial-scale=1">
<title>Video generation API reference</title><link rel="icon" href="data:,"></head>
<body><redoc spec-url="/openapi.json" hide-download-button="false" expand-responses="200" required-props-first="true" \
json-sample-expand-level="4"></redoc>
<script src="/docs/redoc.standalone.js"></script></body></html>`;

/** Redoc styles its elements at run time (inline styles) and searches in a blob: worker. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; worker-src blob:; frame-ancestors 'none'; base-uri 'none'";

export function openApiRoutes({ config }: AppDeps) {
  const router = new Router<AppState>();
  const doc = openApiDocument(config.publicBaseUrl);
  const bundle = fs.readFileSync(REDOC_BUNDLE);
  router.get('/openapi.json', (ctx) => {
    ctx.body = doc;
  });
  router.get('/docs', (ctx) => {
    ctx.set({ 'Content-Security-Policy': DOCS_CSP, 'X-Content-Type-Options': 'nosniff' });
    ctx.type = 'html';
    ctx.body = DOCS_PAGE;
  });
  router.get('/docs/pictures/:name', async (ctx) => {
    const { name } = ctx.params;
    if (!name || !/^[a-z]+-[a-z]+\.png$/.test(name) || !fs.existsSync(path.join(PICTURES, name)))
      throw notFound('No such picture');
    ctx.set({ 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    ctx.type = 'image/png';
    ctx.body = await fs.promises.readFile(path.join(PICTURES, name));
  });
  router.get('/docs/redoc.standalone.js', (ctx) => {
    ctx.set({ 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    ctx.type = 'application/javascript';
    ctx.body = bundle;
  });
  return router;
}
