// API keys of the member's organization: create (the full key is shown in this one response only),
// revoke, delete. A key id of another organization is answered 404, like an unknown one.
import Router from '@koa/router';
import { z } from 'zod';
import { createApiKey, deleteApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../../db/apiKeys.js';
import { DomainError, notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { idParams, validate } from '../../http/validate.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { sendPage, seeOther } from '../respond.js';
import { form, member, requireMember } from '../session.js';
import { confirmPage } from '../views/layout.js';
import { KEY_ACTION_LABELS, keyActionQuestion, keysPage, type KeyAction } from '../views/keys.js';

const keyName = z.string().trim().min(1, 'Give the key a name').max(200, 'Names have at most 200 characters');

const NOTICES: Record<string, string> = { revoked: 'The key was revoked.', deleted: 'The key was deleted.' };

export function keysRoutes({ db, config }: AppDeps): Router<DashboardState> {
  const router = new Router<DashboardState>();

  router.get('/dashboard/keys', requireMember(), async (ctx) => {
    const session = member(ctx);
    const text = NOTICES[String(ctx.query.notice)];
    sendPage(
      ctx,
      keysPage({
        session,
        keys: await listApiKeys(db, session.organizationId),
        message: text ? { kind: 'ok', text } : undefined,
      }),
    );
  });

  router.post('/dashboard/keys', requireMember(), async (ctx) => {
    const session = member(ctx);
    const name = keyName.safeParse(form(ctx).get('name') ?? '');
    if (!name.success) {
      const keys = await listApiKeys(db, session.organizationId);
      return sendPage(
        ctx,
        keysPage({ session, keys, message: { kind: 'error', text: name.error.issues[0]!.message } }),
        400,
      );
    }
    let created: Awaited<ReturnType<typeof createApiKey>>;
    try {
      created = await createApiKey(
        db,
        session.organizationId,
        name.data,
        { manageBrand: form(ctx).get('manage_brand') === 'on' },
        config.keysPerOrganization,
      );
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'key_limit_reached') throw err;
      const keys = await listApiKeys(db, session.organizationId);
      return sendPage(ctx, keysPage({ session, keys, message: { kind: 'error', text: err.message } }), 409);
    }
    ctx.state.log.info({ api_key_id: created.id }, 'dashboard: key created');
    const keys = await listApiKeys(db, session.organizationId);
    sendPage(ctx, keysPage({ session, keys, created, message: { kind: 'ok', text: 'Key created.' } }), 201);
  });

  /** The organization's key with this id, else 404. */
  const ownKey = async (ctx: DashboardContext, id: string): Promise<ApiKeyInfo> => {
    const key = (await listApiKeys(db, member(ctx).organizationId)).find((k) => k.id === id);
    if (!key) throw notFound('No such API key in your organization');
    return key;
  };

  const apply: Record<KeyAction, (id: string) => Promise<unknown>> = {
    revoke: (id) => revokeApiKey(db, id),
    delete: (id) => deleteApiKey(db, id),
  };
  for (const action of ['revoke', 'delete'] as const) {
    router.post(
      `/dashboard/keys/:id/${action}`,
      requireMember(),
      validate({ params: idParams }, async (ctx: DashboardContext, { params }) => {
        const key = await ownKey(ctx, params.id);
        if (form(ctx).get('confirm') !== 'yes') {
          const label = KEY_ACTION_LABELS[action];
          return sendPage(
            ctx,
            confirmPage({
              session: member(ctx),
              section: 'keys',
              title: `${label} key`,
              question: keyActionQuestion(action, key),
              action: ctx.path,
              label,
              back: '/dashboard/keys',
            }),
          );
        }
        await apply[action](key.id);
        ctx.state.log.info({ api_key_id: key.id }, `dashboard: key ${action}d`);
        seeOther(ctx, `/dashboard/keys?notice=${action}d`);
      }),
    );
  }
  return router;
}
