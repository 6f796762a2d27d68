// Dashboard sessions over HTTP: the session cookie, loading the session on each request, and the
// guard of member-only routes (signed in; and for every state change, a valid CSRF token).
import type { Middleware } from 'koa';
import {
  createSession,
  deleteSession,
  findSession,
  type DashboardSession,
  type SessionLimits,
} from '../db/sessions.js';
import { unauthenticated } from '../errors.js';
import type { AppDeps } from '../http/context.js';
import type { DashboardContext, DashboardState, FormFile } from './context.js';
import { clearCookie, readTokenCookie, setCookie } from './cookies.js';
import { checkCsrf } from './csrf.js';
import { readForm } from './form.js';
import { seeOther } from './respond.js';

export const SESSION_COOKIE = 'dashboard_session';
const SESSION_COOKIE_PATH = '/dashboard';

const limitsOf = ({ config }: Pick<AppDeps, 'config'>): SessionLimits => ({
  idleSeconds: config.dashboard.sessionIdleSeconds,
  absoluteSeconds: config.dashboard.sessionMaxSeconds,
});

/** Sets ctx.state.session when the request carries the cookie of a live session. */
export function loadSession(deps: Pick<AppDeps, 'db' | 'config'>): Middleware<DashboardState> {
  return async (ctx, next) => {
    const token = readTokenCookie(ctx as DashboardContext, SESSION_COOKIE);
    const session = token ? await findSession(deps.db, token, limitsOf(deps)) : null;
    if (session) {
      ctx.state.session = session;
      ctx.state.log = ctx.state.log.child({ organization_id: session.organizationId, member_id: session.memberId });
    }
    await next();
  };
}

/** A fresh session for a member who just signed in (a new token: no session fixation). */
export async function startSession(
  ctx: DashboardContext,
  deps: Pick<AppDeps, 'db' | 'config'>,
  memberId: string,
): Promise<void> {
  const { token } = await createSession(deps.db, memberId, limitsOf(deps));
  setCookie(ctx, deps.config, SESSION_COOKIE, token, {
    path: SESSION_COOKIE_PATH,
    maxAgeSeconds: deps.config.dashboard.sessionMaxSeconds,
  });
}

/** Deletes the session server-side (the cookie alone no longer opens anything) and clears the cookie. */
export async function endSession(ctx: DashboardContext, deps: Pick<AppDeps, 'db' | 'config'>): Promise<void> {
  const token = readTokenCookie(ctx, SESSION_COOKIE);
  if (token) await deleteSession(deps.db, token);
  clearCookie(ctx, deps.config, SESSION_COOKIE, SESSION_COOKIE_PATH);
}

/**
 * Guard of member-only routes. Not signed in: pages redirect to the sign-in page, other methods (and
 * GETs that are no page, `page: false`: event streams) get 401. Every non-GET request must carry the
 * session's CSRF token in its form (else 403).
 */
export function requireMember(opts: { page?: boolean } = {}): Middleware<DashboardState> {
  return async (ctx, next) => {
    const session = ctx.state.session;
    const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (!session) {
      if (!reading || opts.page === false) throw unauthenticated('You are signed out. Sign in and try again.');
      return seeOther(ctx as DashboardContext, `/dashboard/login?next=${encodeURIComponent(ctx.path)}`);
    }
    if (!reading) {
      const { form, files } = await readForm(ctx as DashboardContext);
      ctx.state.form = form;
      ctx.state.files = files;
      checkCsrf(form, session.csrfToken);
    }
    await next();
  };
}

/** The signed-in member of a route behind requireMember. */
export function member(ctx: DashboardContext): DashboardSession {
  if (!ctx.state.session) throw unauthenticated('You are signed out');
  return ctx.state.session;
}

/** The form of a POST behind requireMember. */
export const form = (ctx: DashboardContext): URLSearchParams => ctx.state.form ?? new URLSearchParams();

/** A file of a multipart POST behind requireMember; undefined when none was chosen. */
export const formFile = (ctx: DashboardContext, name: string): FormFile | undefined => {
  const file = ctx.state.files?.get(name);
  return file && file.bytes.length > 0 ? file : undefined;
};
