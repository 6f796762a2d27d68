// The dashboard under /dashboard: server-rendered pages with their own session sign-in (not API
// keys). Every /dashboard request is answered here (HTML, security headers); others pass through.
import type { Middleware } from 'koa';
import type { AppDeps, AppState } from '../api/context.js';
import { assetRoutes } from './assets.js';
import type { DashboardState } from './context.js';
import { htmlErrors } from './errors.js';
import { securityHeaders } from './headers.js';
import { authRoutes } from './routes/auth.js';
import { keysRoutes } from './routes/keys.js';
import { usageRoutes } from './routes/usage.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { loadSession } from './session.js';

const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/');

type AnyMiddleware = Middleware<DashboardState, any>;

/** Runs middleware in order, like Koa's own stack; the last one's next() ends the chain. */
function chain(middleware: AnyMiddleware[]): AnyMiddleware {
  return (ctx, next) => {
    const dispatch = (i: number): Promise<unknown> => (i < middleware.length ? Promise.resolve(middleware[i]!(ctx, () => dispatch(i + 1))) : next());
    return dispatch(0);
  };
}

export function dashboard(deps: AppDeps): Middleware<AppState> {
  const pages = [authRoutes(deps), keysRoutes(deps), webhooksRoutes(deps), usageRoutes(deps)];
  const assets = assetRoutes();
  const handle = chain([
    securityHeaders(),
    htmlErrors(),
    assets.routes(),
    loadSession(deps),
    ...pages.flatMap((router) => [router.routes(), router.allowedMethods()]),
  ]);
  // A /dashboard path never reaches the keyed API routes below it in the app.
  return (ctx, next) => (isDashboardPath(ctx.path) ? handle(ctx as never, async () => {}) : next()) as Promise<void>;
}
