// The one place that turns failures into the API's error body. ApiError carries its own status;
// Koa/http-errors (body parser: bad JSON, too large) keep their 4xx status; anything else is a 500
// with a generic message (details go to the log, never to the client).
import type { Middleware } from 'koa';
import { ApiError } from '../../errors.js';
import type { AppState } from '../context.js';

const HTTP_ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'request_too_large',
  415: 'unsupported_media_type',
};

export function errorMiddleware(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // Responses Koa or the router made without a body (no route: 404; wrong method: 405).
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
        const message = ctx.status === 404 ? `No route for ${ctx.method} ${ctx.path}` : `${ctx.method} is not supported on ${ctx.path}`;
        throw new ApiError(ctx.status, HTTP_ERROR_CODES[ctx.status] ?? 'invalid_request', message);
      }
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) ctx.state.log?.error({ err }, 'request failed');
      ctx.status = apiError.status;
      ctx.body = apiError.body();
      for (const [k, v] of Object.entries(apiError.headers ?? {})) ctx.set(k, v);
    }
  };
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; statusCode?: number; message?: string; name?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // The JSON body parser reports malformed JSON as a SyntaxError with status 400.
    if (e.name === 'SyntaxError') return new ApiError(400, 'invalid_json', `Request body is not valid JSON: ${e.message}`);
    return new ApiError(status, HTTP_ERROR_CODES[status] ?? 'invalid_request', e.message ?? 'Bad request');
  }
  if (isUnavailable(err)) return new ApiError(503, 'temporarily_unavailable', 'A backing service is unavailable; retry shortly');
  return new ApiError(500, 'internal_error', 'Internal server error');
}

// Connection-level failures of PostgreSQL or Temporal: the request was fine, the service is not.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08000', '08001', '08003', '08006']);
function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    (typeof e?.code === 'string' && UNAVAILABLE_CODES.has(e.code)) ||
    /Connection terminated|timeout exceeded when trying to connect|UNAVAILABLE/i.test(e?.message ?? '')
  );
}
