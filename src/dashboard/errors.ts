// Failures on dashboard pages become HTML error pages. The status and message come from the one
// mapping of the HTTP layer (toApiError), so a 404 here is a 404 in the JSON API too.
import type { Middleware } from 'koa';
import { notFound } from '../errors.js';
import { toApiError } from '../http/errors.js';
import type { DashboardContext, DashboardState } from './context.js';
import { sendPage } from './respond.js';
import { errorPage } from './views/layout.js';

export function htmlErrors(): Middleware<DashboardState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw notFound('There is no such page in the dashboard.');
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500) ctx.state.log.error({ err }, 'dashboard request failed');
      ctx.set(error.headers ?? {});
      sendPage(ctx as DashboardContext, errorPage(error.status, error.message, ctx.state.session), error.status);
    }
  };
}
