// The dashboard under /dashboard: server-rendered pages with their own session sign-in (not API
// keys). Every /dashboard request is answered here (HTML, security headers); others pass through.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { AppDeps, AppState } from '../http/context.js';
import { assetRoutes } from './assets.js';
import type { DashboardContext, DashboardState } from './context.js';
import { htmlErrors } from './errors.js';
import { securityHeaders } from './headers.js';
import { authRoutes } from './routes/auth.js';
import { brandRoutes } from './routes/brand.js';
import { generationsRoutes } from './routes/generations.js';
import { keysRoutes } from './routes/keys.js';
import { usageRoutes } from './routes/usage.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { loadSession } from './session.js';

const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/');

/** The dashboard's middleware, and its routers (the app reads the methods a path allows off them). */
export function dashboard(deps: AppDeps): { middleware: Middleware<AppState>; routers: Router<DashboardState>[] } {
  const pages = [
    authRoutes(deps),
    keysRoutes(deps),
    webhooksRoutes(deps),
    brandRoutes(deps),
    usageRoutes(deps),
    generationsRoutes(deps),
  ];
  const assets = assetRoutes();
  const handle = compose<DashboardContext>([
    securityHeaders(),
    htmlErrors(),
    assets.routes(),
    loadSession(deps),
    ...pages.flatMap((router) => [router.routes(), router.allowedMethods()]),
  ]);
  // No `next`: a /dashboard path never reaches the keyed API routes below it in the app. The cast
  // names the state the dashboard's own middleware adds (all optional) and the routers' fields.
  const middleware: Middleware<AppState> = (ctx, next) =>
    isDashboardPath(ctx.path) ? handle(ctx as DashboardContext) : next();
  return { middleware, routers: [assets, ...pages] };
}
