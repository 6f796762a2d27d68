// Dashboard cookies, written by hand so every flag is explicit: always HttpOnly and SameSite=Strict,
// scoped to a dashboard path, Secure per DASHBOARD_COOKIE_SECURE (`auto`: when the request was HTTPS).
import type { Config } from '../config.js';
import type { DashboardContext } from './context.js';

type CookieOptions = { path: string; maxAgeSeconds: number };

function isSecure(ctx: DashboardContext, config: Config): boolean {
  const setting = config.dashboard.cookieSecure;
  return setting === 'true' || (setting === 'auto' && ctx.secure);
}

export function setCookie(
  ctx: DashboardContext,
  config: Config,
  name: string,
  value: string,
  opts: CookieOptions,
): void {
  const flags = [
    `${name}=${value}`,
    `Path=${opts.path}`,
    `Max-Age=${opts.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (isSecure(ctx, config)) flags.push('Secure');
  ctx.append('Set-Cookie', flags.join('; '));
}

export function clearCookie(ctx: DashboardContext, config: Config, name: string, path: string): void {
  setCookie(ctx, config, name, '', { path, maxAgeSeconds: 0 });
}

/** Tokens we issue are base64url; anything else in a cookie is ignored without a database lookup. */
export function readTokenCookie(ctx: DashboardContext, name: string): string | null {
  const value = ctx.cookies.get(name);
  return value && /^[\w-]{20,100}$/.test(value) ? value : null;
}
