// The first check of every request, before any route: the method is one HTTP routes use, and the
// path and query decode to text PostgreSQL can hold (UTF-8 without control characters), query values
// of a bounded length. What fails is a 4xx in the one error shape here, so no route, query or log
// line ever sees a NUL, a lone byte or an overlong encoding (`%00`, `%FF`, `%C0%80`).
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { notFound } from '../errors.js';
import { ApiError } from './errors.js';

/** Methods some route answers (or OPTIONS/HEAD, which the router derives); anything else is 405. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Longest value of one query parameter (path ids are bounded by their route's schema, src/http/validate.ts). */
export const MAX_QUERY_VALUE_CHARS = 1024;

/** The methods the routes of `routers` answer at `path` (HEAD with GET); none when no route serves it. */
export function methodsAt(routers: ReadonlyArray<Pick<Router, 'match'>>, path: string): string[] {
  const served = new Set(routers.flatMap((router) => router.match(path, 'GET').path.flatMap((layer) => layer.methods)));
  return [...KNOWN_METHODS].filter((method) => served.has(method));
}

/** C0 controls and DEL; C1 controls (U+0080–U+009F) are valid UTF-8 but never meaningful in an id. */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `allowedAt(path)`: the methods routes answer at a path (methodsAt over the app's routers), for the
 * `Allow` of a 405. An unknown method (PROPFIND, TRACE) is a 405 where some route serves the path,
 * else a 404 like any method there: a client mistake, answered before any route, never logged as an error.
 */
export function requestGuardMiddleware(allowedAt: (path: string) => string[]): Middleware {
  return async (ctx, next) => {
    if (!KNOWN_METHODS.has(ctx.method)) {
      const method = ctx.method.slice(0, 20);
      const allowed = allowedAt(ctx.path);
      if (!allowed.length) throw notFound(`No route for ${method} ${ctx.path.slice(0, 200)}`);
      throw new ApiError(
        405,
        'method_not_allowed',
        `Method ${method} is not supported; ${ctx.path.slice(0, 200)} allows ${allowed.join(', ')}`,
        undefined,
        undefined,
        { Allow: allowed.join(', ') },
      );
    }
    const path = decoded(ctx.path);
    if (path === null || CONTROL_CHARACTER.test(path))
      throw new ApiError(
        400,
        'invalid_request',
        'The request path has percent-encoded bytes that are not UTF-8 text without control characters',
        'path',
      );
    for (const pair of ctx.querystring ? ctx.querystring.split('&') : []) {
      const [rawName = '', rawValue = ''] = splitOnce(pair);
      const name = decoded(rawName.replace(/\+/g, ' '));
      const value = decoded(rawValue.replace(/\+/g, ' '));
      const param = name !== null && !CONTROL_CHARACTER.test(name) ? name.slice(0, 64) : 'query';
      if (name === null || value === null || CONTROL_CHARACTER.test(name) || CONTROL_CHARACTER.test(value)) {
        throw new ApiError(
          400,
          'invalid_request',
          `Query parameter ${param}: percent-encoded bytes that are not UTF-8 text without control characters`,
          param,
        );
      }
      if (value.length > MAX_QUERY_VALUE_CHARS)
        throw new ApiError(
          400,
          'invalid_request',
          `Query parameter ${param} is longer than ${MAX_QUERY_VALUE_CHARS} characters`,
          param,
        );
    }
    await next();
  };
}

const splitOnce = (pair: string) => {
  const at = pair.indexOf('=');
  return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
};

/** Percent-decoded as UTF-8; null when an escape is malformed or the bytes are not UTF-8 (overlong forms included). */
function decoded(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else bytes.push(...Buffer.from(raw[i]!, 'utf8'));
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}
