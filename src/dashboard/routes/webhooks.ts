// Webhook settings of the member's organization (through src/db/webhooks.ts): reveal and rotate the
// signing secret, toggle event types, add and remove the organization's endpoints (OpenAI Videos events),
// and the recent deliveries with their attempts.
import Router from '@koa/router';
import {
  getWebhookSettings,
  rotateWebhookSecret,
  setEnabledWebhookEvents,
  signingSecretsView,
  type WebhookSettings,
} from '../../db/webhooks.js';
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
} from '../../db/webhookEndpoints.js';
import { DomainError, notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared.js';
import { isWebhookEventType } from '../../webhooks/events.js';
import { assertPublicWebhookUrl } from '../../webhooks/webhookUrl.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { listDeliveries } from '../deliveries.js';
import { sendPage, seeOther } from '../respond.js';
import { form, member, requireMember } from '../session.js';
import { confirmPage } from '../views/layout.js';
import { rotateQuestion, webhooksPage } from '../views/webhooks.js';

/** Deliveries listed on the page, newest first. */
const RECENT_DELIVERIES = 25;

const NOTICES: Record<string, string> = {
  saved: 'Event types saved.',
  rotated: 'The signing secret was rotated. The previous one keeps signing during the grace period.',
  'endpoint-added': 'Endpoint added.',
  'endpoint-deleted': 'Endpoint deleted.',
};

function orNotFound(settings: WebhookSettings | null): WebhookSettings {
  if (!settings) throw notFound('No such organization');
  return settings;
}

export function webhooksRoutes({ db, config }: AppDeps): Router<DashboardState> {
  const router = new Router<DashboardState>();
  const graceSeconds = config.webhooks.secretGraceSeconds;

  const showPage = async (ctx: DashboardContext, message?: { kind: 'ok' | 'error'; text: string }, status = 200) => {
    const session = member(ctx);
    const settings = orNotFound(await getWebhookSettings(db, session.organizationId));
    const deliveries = await listDeliveries(db, session.organizationId, { limit: RECENT_DELIVERIES });
    const notice = NOTICES[String(ctx.query.notice)];
    sendPage(
      ctx,
      webhooksPage({
        session,
        secrets: signingSecretsView(settings),
        enabled: settings.enabled_events,
        reveal: ctx.query.reveal === '1',
        graceSeconds,
        deliveries,
        endpoints: await listWebhookEndpoints(db, session.organizationId),
        message: message ?? (notice ? { kind: 'ok', text: notice } : undefined),
      }),
      status,
    );
  };

  router.get('/dashboard/webhooks', requireMember(), (ctx) => showPage(ctx));

  // Organization endpoints (OpenAI Videos events): added after the same URL check as the API's, removed by id.
  router.post('/dashboard/webhooks/endpoints', requireMember(), async (ctx) => {
    const url = (form(ctx).get('url') ?? '').trim();
    try {
      await assertPublicWebhookUrl(url, config, undefined, 'url');
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return showPage(ctx, { kind: 'error', text: err.message }, 400);
    }
    const added = await addWebhookEndpoint(db, member(ctx).organizationId, url);
    if (added === 'limit_reached') {
      const text = `The organization has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints already: delete one first.`;
      return showPage(ctx, { kind: 'error', text }, 409);
    }
    ctx.state.log.info({ endpoint_id: added.id }, 'dashboard: webhook endpoint added');
    seeOther(ctx, '/dashboard/webhooks?notice=endpoint-added');
  });

  router.post('/dashboard/webhooks/endpoints/:id/delete', requireMember(), async (ctx) => {
    const session = member(ctx);
    const endpoint = (await listWebhookEndpoints(db, session.organizationId)).find((e) => e.id === ctx.params.id);
    if (!endpoint) throw notFound('No such webhook endpoint in your organization');
    if (form(ctx).get('confirm') !== 'yes') {
      return sendPage(
        ctx,
        confirmPage({
          session,
          section: 'webhooks',
          title: 'Delete endpoint',
          question: `Delete the endpoint ${endpoint.url}? It receives no further events.`,
          action: ctx.path,
          label: 'Delete endpoint',
          back: '/dashboard/webhooks',
        }),
      );
    }
    await deleteWebhookEndpoint(db, session.organizationId, endpoint.id);
    ctx.state.log.info({ endpoint_id: ctx.params.id }, 'dashboard: webhook endpoint deleted');
    seeOther(ctx, '/dashboard/webhooks?notice=endpoint-deleted');
  });

  router.post('/dashboard/webhooks/events', requireMember(), async (ctx) => {
    const checked = form(ctx).getAll('events').filter(isWebhookEventType);
    const unchecked = WEBHOOK_EVENT_TYPES.filter((t) => !checked.includes(t));
    orNotFound(await setEnabledWebhookEvents(db, member(ctx).organizationId, { enable: checked, disable: unchecked }));
    ctx.state.log.info({ enabled_events: checked }, 'dashboard: webhook event types saved');
    seeOther(ctx, '/dashboard/webhooks?notice=saved');
  });

  router.post('/dashboard/webhooks/rotate', requireMember(), async (ctx) => {
    if (form(ctx).get('confirm') !== 'yes') {
      return sendPage(
        ctx,
        confirmPage({
          session: member(ctx),
          section: 'webhooks',
          title: 'Rotate signing secret',
          question: rotateQuestion(graceSeconds),
          action: ctx.path,
          label: 'Rotate secret',
          back: '/dashboard/webhooks',
        }),
      );
    }
    orNotFound(await rotateWebhookSecret(db, member(ctx).organizationId, graceSeconds));
    ctx.state.log.info('dashboard: webhook secret rotated');
    seeOther(ctx, '/dashboard/webhooks?reveal=1&notice=rotated');
  });
  return router;
}
