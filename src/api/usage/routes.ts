import Router from '@koa/router';
import type { AppDeps, AppState } from '../../http/context.js';
import { readUsage } from './service.js';

/** GET /v1/usage (interface 2.4, 4.7): balance and usage of the calling key's organization. */
export function usageRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  router.get('/v1/usage', async (ctx) => {
    ctx.body = await readUsage(deps, ctx.state.auth.organizationId);
  });
  return router;
}
