// Webhook settings of the member's organization (through src/db/webhooks.ts): reveal and rotate the
// signing secret, toggle event types, and the recent deliveries with their attempts.
import Router from '@koa/router';
import {
  getWebhookSettings,
  rotateWebhookSecret,
  setEnabledWebhookEvents,
  signingSecretsView,
  type WebhookSettings,
} from '../../db/webhooks.js';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared.js';
import { isWebhookEventType } from '../../webhooks/events.js';
import type { DashboardState } from '../context.js';
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
};

function orNotFound(settings: WebhookSettings | null): WebhookSettings {
  if (!settings) throw notFound('No such organization');
  return settings;
}

export function webhooksRoutes({ db, config }: AppDeps): Router<DashboardState> {
  const router = new Router<DashboardState>();
  const graceSeconds = config.webhooks.secretGraceSeconds;

  router.get('/dashboard/webhooks', requireMember(), async (ctx) => {
    const session = member(ctx);
    const settings = orNotFound(await getWebhookSettings(db, session.organizationId));
    const deliveries = await listDeliveries(db, session.organizationId, { limit: RECENT_DELIVERIES });
    sendPage(
      ctx,
      webhooksPage({
        session,
        secrets: signingSecretsView(settings),
        enabled: settings.enabled_events,
        reveal: ctx.query.reveal === '1',
        graceSeconds,
        deliveries,
        message: NOTICES[String(ctx.query.notice)],
      }),
    );
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
