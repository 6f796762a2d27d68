import type { Middleware } from 'koa';
import { authenticateApiKey } from '../../db/apiKeys.js';
import type { Db } from '../../db/pool.js';
import { unauthenticated } from '../../errors.js';
import type { AppState } from '../../http/context.js';

/** `Authorization: Bearer <key>`; the key's organization scopes everything downstream. */
export function authMiddleware(db: Db): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!header) throw unauthenticated('Missing Authorization header; send "Authorization: Bearer <API key>"');
    if (!match) throw unauthenticated('Malformed Authorization header; expected "Bearer <API key>"');
    const principal = await authenticateApiKey(db, match[1]!);
    if (!principal) throw unauthenticated('Invalid, revoked or deleted API key');
    ctx.state.auth = principal;
    ctx.state.log = ctx.state.log.child({ organization_id: principal.organizationId });
    await next();
  };
}
