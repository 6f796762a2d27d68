// Usage (the same figures as GET /v1/usage, from src/api/usage/service.ts) and one generation's page
// with its video (a signed storage URL) and webhook deliveries. Another organization's id is a 404.
import Router from '@koa/router';
import { z } from 'zod';
import { readUsage } from '../../api/usage/service.js';
import { getGeneration } from '../../db/generations.js';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { listDeliveries } from '../deliveries.js';
import { sendPage } from '../respond.js';
import { member, requireMember } from '../session.js';
import { generationPage } from '../views/generation.js';
import { usagePage } from '../views/usage.js';

export function usageRoutes(deps: AppDeps): Router<DashboardState> {
  const { db, storage, config } = deps;
  const router = new Router<DashboardState>();

  /** The generation's workflow in the Temporal UI (its workflow id is the generation id), when configured. */
  const workflowUrl = (generationId: string) => {
    const ui = config.dashboard.temporalUiUrl;
    return ui ? `${ui}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(generationId)}` : null;
  };

  /** A signed URL of the video, its origin allowed by the page's CSP. */
  const videoUrl = async (ctx: DashboardContext, videoKey: string | null) => {
    if (!videoKey) return null;
    const { url } = await storage.url(videoKey);
    ctx.state.mediaOrigins = [...(ctx.state.mediaOrigins ?? []), new URL(url).origin];
    return url;
  };

  router.get('/dashboard', requireMember(), (ctx) => ctx.redirect('/dashboard/usage'));

  router.get('/dashboard/usage', requireMember(), async (ctx) => {
    const session = member(ctx);
    const usage = await readUsage(deps, session.organizationId);
    const recent = await Promise.all(
      usage.recent_requests.map(async (g) => {
        const row = g.status === 'completed' ? await getGeneration(db, session.organizationId, g.id) : null;
        return { ...g, videoUrl: await videoUrl(ctx, row?.video_key ?? null), workflowUrl: workflowUrl(g.id) };
      }),
    );
    sendPage(ctx, usagePage({ session, usage, recent }));
  });

  router.get(
    '/dashboard/generations/:id',
    requireMember(),
    validate({ params: z.object({ id: z.string().min(1).max(100) }) }, async (ctx: DashboardContext, { params: { id } }) => {
      const session = member(ctx);
      const generation = await getGeneration(db, session.organizationId, id);
      if (!generation) throw notFound('No such generation in your organization');
      const deliveries = await listDeliveries(db, session.organizationId, { generationId: id });
      sendPage(
        ctx,
        generationPage({
          session,
          generation,
          videoUrl: generation.status === 'completed' ? await videoUrl(ctx, generation.video_key) : null,
          workflowUrl: workflowUrl(id),
          deliveries,
        }),
      );
    }),
  );
  return router;
}
