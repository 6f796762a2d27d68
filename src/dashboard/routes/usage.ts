// Usage (the same figures as GET /v1/usage, from src/api/usage/service.ts) with the recent
// generations: each one's prompt (first line) and, once completed, its poster frame (a signed storage
// URL; generations from before posters have none, and link to their page's player instead).
import Router from '@koa/router';
import { readUsage } from '../../api/usage/service.js';
import { getGeneration } from '../../db/generations.js';
import type { AppDeps } from '../../http/context.js';
import type { DashboardState } from '../context.js';
import { pagePosterUrl } from '../media.js';
import { sendPage } from '../respond.js';
import { member, requireMember } from '../session.js';
import { workflowUrl } from '../temporal.js';
import { promptFirstLine } from '../views/format.js';
import { usagePage } from '../views/usage.js';

export function usageRoutes(deps: AppDeps): Router<DashboardState> {
  const { db, storage, config } = deps;
  const router = new Router<DashboardState>();

  router.get('/dashboard', requireMember(), (ctx) => ctx.redirect('/dashboard/usage'));

  router.get('/dashboard/usage', requireMember(), async (ctx) => {
    const session = member(ctx);
    const usage = await readUsage(deps, session.organizationId);
    const recent = await Promise.all(
      usage.recent_requests.map(async (g) => {
        const [row, posterUrl] = await Promise.all([
          getGeneration(db, session.organizationId, g.id),
          g.status === 'completed' ? pagePosterUrl(ctx, storage, g.id) : null,
        ]);
        return {
          ...g,
          prompt: row ? promptFirstLine(row.request) : '',
          canvas: row ? { width: row.request.width, height: row.request.height } : null,
          posterUrl,
          workflowUrl: workflowUrl(config, g.id),
        };
      }),
    );
    sendPage(ctx, usagePage({ session, usage, recent }));
  });
  return router;
}
