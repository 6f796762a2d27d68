// Errors of the OpenAI Videos shape in OpenAI's body, {"error": {"message", "type", "param", "code"}}, which the
// official SDKs read into their APIError (`status`, `error.type`, `error.code`, `error.param`). Status, code,
// message and param are the ones every route decides (src/http/errors.ts); only the words around them differ.
import type { ApiError, ErrorDialect } from '../../http/errors.js';

/** OpenAI's error `type` for a status. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** Requests under /v1/videos (case-insensitive, as the router matches). */
export const VIDEOS_PATH = /^\/v1\/videos(?:\/|$)/i;

export const videosErrorDialect: ErrorDialect = {
  serves: (path) => VIDEOS_PATH.test(path),
  body: (e: ApiError) => {
    const { error, ...extra } = e.body();
    return {
      error: { message: error.message, type: typeOf(e.status), param: error.param ?? null, code: error.code },
      ...extra,
    };
  },
};
