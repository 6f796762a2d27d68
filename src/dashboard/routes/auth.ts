// Sign-in and sign-out. Wrong email and wrong password get the same answer and cost the same scrypt
// time; every attempt counts as a failure of the login rate limit until it succeeds
// (src/dashboard/loginLimit.ts).
import Router from '@koa/router';
import { clearLoginFailures, findMemberByEmail } from '../../db/members.js';
import type { AppDeps } from '../../http/context.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { clearCookie, readTokenCookie, setCookie } from '../cookies.js';
import { CSRF_FIELD, newCsrfToken, sameToken } from '../csrf.js';
import { readForm } from '../form.js';
import { clientIp } from '../../http/clientIp.js';
import { beginLoginAttempt, throttledAddress } from '../loginLimit.js';
import { decoyHash, PASSWORD_MAX_LENGTH, verifyPassword } from '../password.js';
import { sendPage, seeOther } from '../respond.js';
import { endSession, requireMember, startSession } from '../session.js';
import { loginPage } from '../views/login.js';

const LOGIN_CSRF_COOKIE = 'dashboard_login_csrf';
const LOGIN_PATH = '/dashboard/login';

/** Only dashboard paths are followed after sign-in (no open redirect). */
const safeNext = (next: string | null | undefined) =>
  next && /^\/dashboard(\/[\w-]+)*$/.test(next) ? next : '/dashboard';

export function authRoutes(deps: AppDeps): Router<DashboardState> {
  const router = new Router<DashboardState>();

  /** Renders the sign-in form with a fresh double-submit token (cookie + hidden field). */
  const showLogin = (
    ctx: DashboardContext,
    status: number,
    opts: { email?: string; next?: string; error?: string; info?: string },
  ) => {
    const csrf = newCsrfToken();
    setCookie(ctx, deps.config, LOGIN_CSRF_COOKIE, csrf, { path: LOGIN_PATH, maxAgeSeconds: 3600 });
    sendPage(ctx, loginPage({ csrf, ...opts }), status);
  };

  router.get(LOGIN_PATH, (ctx) => {
    if (ctx.state.session) return ctx.redirect('/dashboard');
    const next = typeof ctx.query.next === 'string' ? safeNext(ctx.query.next) : undefined;
    showLogin(ctx, 200, { next, info: ctx.query.signed_out !== undefined ? 'You are signed out.' : undefined });
  });

  router.post(LOGIN_PATH, async (ctx) => {
    const { form } = await readForm(ctx);
    const email = (form.get('email') ?? '').trim().slice(0, 320);
    const password = form.get('password') ?? '';
    const next = safeNext(form.get('next'));
    if (!sameToken(form.get(CSRF_FIELD), readTokenCookie(ctx, LOGIN_CSRF_COOKIE))) {
      return showLogin(ctx, 403, {
        email,
        next,
        error: 'The sign-in form expired or did not come from this site. Please try again.',
      });
    }
    if (!email || !password || password.length > PASSWORD_MAX_LENGTH) {
      return showLogin(ctx, 400, { email, next, error: 'Enter your email and password.' });
    }
    const address = clientIp(ctx);
    const lockedFor = await beginLoginAttempt(deps.db, email, address);
    if (lockedFor > 0) {
      ctx.set('Retry-After', String(lockedFor));
      const [n, unit] = lockedFor < 60 ? [lockedFor, 'second'] : [Math.ceil(lockedFor / 60), 'minute'];
      const wait = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return showLogin(ctx, 429, { email, next, error: `Too many failed sign-ins. Try again in ${wait}.` });
    }
    const member = await findMemberByEmail(deps.db, email);
    const passwordOk = await verifyPassword(password, member?.password_hash ?? (await decoyHash()));
    if (!member || !passwordOk) {
      ctx.state.log.info({ email_domain: email.split('@')[1] ?? null }, 'dashboard sign-in failed');
      return showLogin(ctx, 401, { email, next, error: 'Wrong email or password.' });
    }
    await clearLoginFailures(deps.db, email, throttledAddress(address));
    await startSession(ctx, deps, member.id);
    clearCookie(ctx, deps.config, LOGIN_CSRF_COOKIE, LOGIN_PATH);
    ctx.state.log.info({ member_id: member.id, organization_id: member.organization_id }, 'dashboard sign-in');
    seeOther(ctx, next);
  });

  router.post('/dashboard/logout', requireMember(), async (ctx) => {
    await endSession(ctx, deps);
    seeOther(ctx, `${LOGIN_PATH}?signed_out`);
  });

  return router;
}
