// /v1/webhook_endpoints (extension): the organization's webhook endpoints, which receive OpenAI's
// `video.completed` / `video.failed` events of every video made on /v1/videos, signed with the
// organization's secret (README, "OpenAI Videos"). Any key of the organization manages them; members do on
// the dashboard's Webhooks page.
import Router from '@koa/router';
import { z } from 'zod';
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
} from '../../db/webhookEndpoints.js';
import { conflict, notFound } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { assertPublicWebhookUrl } from '../../webhooks/webhookUrl.js';
import { webhookEndpointCreateSchema } from './schema.js';

export const webhookEndpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  object: 'webhook_endpoint' as const,
  url: e.url,
  created_at: Math.floor(e.created_at.getTime() / 1000),
});

export function webhookEndpointsRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  router.get('/v1/webhook_endpoints', async (ctx) => {
    const endpoints = await listWebhookEndpoints(deps.db, ctx.state.auth.organizationId);
    ctx.body = { object: 'list', data: endpoints.map(webhookEndpointView) };
  });
  router.post(
    '/v1/webhook_endpoints',
    validate({ body: webhookEndpointCreateSchema }, async (ctx, { body }) => {
      const { organizationId } = ctx.state.auth;
      await assertPublicWebhookUrl(body.url, deps.config, undefined, 'url');
      const added = await addWebhookEndpoint(deps.db, organizationId, body.url);
      if (added === 'limit_reached')
        throw conflict(
          `The organization has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints already: delete one first`,
          'endpoint_limit_reached',
        );
      ctx.state.log.info({ organization_id: organizationId, endpoint_id: added.id }, 'webhook endpoint added');
      ctx.body = webhookEndpointView(added);
    }),
  );
  router.delete(
    '/v1/webhook_endpoints/:id',
    validate({ params: z.object({ id: z.string().max(64) }) }, async (ctx, { params }) => {
      const { organizationId } = ctx.state.auth;
      if (!(await deleteWebhookEndpoint(deps.db, organizationId, params.id)))
        throw notFound(`No webhook endpoint ${params.id}`);
      ctx.body = { id: params.id, object: 'webhook_endpoint.deleted', deleted: true };
    }),
  );
  return router;
}
