import Router from '@koa/router';
import type { AppDeps, AppState } from '../../http/context.js';

/** GET /v1/engines — public catalog (interface 2.5, 4.8): no key, not rate-limited. */
export function enginesRoutes({ catalog }: AppDeps) {
  const router = new Router<AppState>();
  const body = catalog.toPublic();
  router.get('/v1/engines', (ctx) => {
    ctx.body = body;
  });
  return router;
}
