// Where every HTTP request enters: middleware order and the route table, wiring the API's routers
// and the dashboard on the HTTP layer (src/http/, which knows none of them). Beside the process entry
// points (api.ts, worker.ts): src/app/ is the top floor, where the application is put together.
import Koa from 'koa';
import { brandRoutes } from '../api/brand/routes.js';
import { enginesRoutes } from '../api/engines/routes.js';
import { generationsRoutes } from '../api/generations/routes.js';
import { healthRoutes } from '../api/health/routes.js';
import { mediaRoutes } from '../api/media/routes.js';
import { authMiddleware } from '../api/middleware/auth.js';
import { rateLimitMiddleware } from '../api/middleware/rateLimit.js';
import { openApiRoutes } from '../api/openapi/routes.js';
import { usageRoutes } from '../api/usage/routes.js';
import { videosErrorDialect } from '../api/videos/errors.js';
import { videosRoutes } from '../api/videos/routes.js';
import { webhookEndpointsRoutes } from '../api/webhookEndpoints/routes.js';
import { dashboard } from '../dashboard/index.js';
import { notFound } from '../errors.js';
import type { AppDeps, AppState } from '../http/context.js';
import { errorMiddleware } from '../http/errors.js';
import { jsonBodyMiddleware } from '../http/jsonBody.js';
import { methodsAt, requestGuardMiddleware } from '../http/requestGuard.js';
import { requestLogMiddleware } from '../http/requestLog.js';

/** Reads clients repeat every few seconds: their request lines go to debug (src/http/requestLog.ts). */
const POLLS = [
  'GET /v1/responses/:id',
  'GET /v1/chat/completions/:id',
  'GET /v1/videos/:id',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
];

export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = deps.config.trustProxy;
  app.silent = true; // errors are logged by the request logger, not Koa's stderr printer

  const { mediaBaseUrl } = deps.config;
  const publicRouters = [
    healthRoutes(deps),
    enginesRoutes(deps),
    mediaRoutes({ storage: deps.storage, mediaBaseUrl }),
    openApiRoutes(deps),
  ];
  const site = dashboard(deps);
  const keyedRouters = [
    generationsRoutes(deps),
    videosRoutes(deps),
    usageRoutes(deps),
    brandRoutes(deps),
    webhookEndpointsRoutes(deps),
  ];
  const routers = [...publicRouters, ...site.routers, ...keyedRouters];

  app.use(requestLogMiddleware(deps.logger, POLLS));
  // Paths of another API's shape answer errors in its words (the OpenAI Videos shape: OpenAI's error body).
  app.use(errorMiddleware([videosErrorDialect]));
  // Unknown methods, and paths or queries that are not text, end here (404/400/405, never a 500).
  app.use(requestGuardMiddleware((path) => methodsAt(routers, path)));

  // A media origin (MEDIA_BASE_URL) serves media only: no page of the API or dashboard runs there.
  const mediaHost = mediaBaseUrl ? new URL(mediaBaseUrl).host : null;
  if (mediaHost) {
    app.use(async (ctx, next) => {
      if (ctx.host === mediaHost && !ctx.path.startsWith('/media/'))
        throw notFound(`${mediaBaseUrl} serves media only`);
      await next();
    });
  }

  // Public routes.
  for (const router of publicRouters) app.use(router.routes()).use(router.allowedMethods());
  // The dashboard (HTML pages under /dashboard): its own member sessions, not API keys.
  app.use(site.middleware);

  // Everything below needs a key.
  const keyed = authMiddleware(deps);
  // Routes match case-insensitively, so the gate must too (/V1/usage is /v1/usage).
  app.use(async (ctx, next) => (ctx.path.toLowerCase().startsWith('/v1/') ? keyed(ctx, next) : next()));
  // Per-key sliding window on the endpoints of interface section 8 only.
  app.use(rateLimitMiddleware(deps));
  // Bodies are read only now: a request refused by the key check or the rate limit costs no parsing.
  app.use(jsonBodyMiddleware());
  for (const router of keyedRouters) app.use(router.routes()).use(router.allowedMethods());
  return app;
}
