import type { Middleware } from 'koa';
import { authenticateApiKey } from '../../db/apiKeys.js';
import { unauthenticated } from '../../errors.js';
import { clientIp } from '../../http/clientIp.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { takeUnauthenticatedSlot } from './rateLimit.js';

/**
 * `Authorization: Bearer <key>`; the key's organization scopes everything downstream. A request
 * without a valid key counts against its address's own limit (429 once over it, else 401).
 */
export function authMiddleware(deps: AppDeps): Middleware<AppState> {
  const refuse = async (ctx: Parameters<Middleware<AppState>>[0], message: string) => {
    throw (await takeUnauthenticatedSlot(deps, clientIp(ctx))) ?? unauthenticated(message);
  };
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!header) return refuse(ctx, 'Missing Authorization header; send "Authorization: Bearer <API key>"');
    if (!match) return refuse(ctx, 'Malformed Authorization header; expected "Bearer <API key>"');
    const principal = await authenticateApiKey(deps.db, match[1]!);
    if (!principal) return refuse(ctx, 'Invalid, revoked or deleted API key');
    ctx.state.auth = principal;
    ctx.state.log = ctx.state.log.child({ organization_id: principal.organizationId });
    await next();
  };
}
