// Per-key rate limit of interface section 8: RATE_LIMIT_PER_WINDOW accepted requests per rolling
// RATE_LIMIT_WINDOW_SECONDS (a true sliding window: each request counts for exactly one window
// length after it was accepted), on the generation endpoints and GET /v1/usage only. The count lives
// in PostgreSQL (src/db/rateLimit.ts), so every API process shares it. Runs right after auth.
import type { Middleware } from 'koa';
import { sweepIdleRateLimitKeys, takeRateLimitSlot } from '../../db/rateLimit.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import { metrics } from '../../metrics.js';

/**
 * POST/GET/DELETE on /v1/responses[/{id}], /v1/chat/completions[/{id}] and /v1/videos[/{id}[/content|/remix]]
 * (the OpenAI Videos shape is a third way to the same generations), GET /v1/usage, GET/PUT /v1/brand
 * (extension: each PUT may store a logo) and /v1/webhook_endpoints[/{id}] (extension). Case-insensitive and with
 * an optional trailing slash, like the router's own matching.
 */
const LIMITED_ROUTE = new RegExp(
  '^/v1/(?:(?:responses|chat/completions|webhook_endpoints)(?:/[^/]+)?|' +
    'videos(?:/[^/]+(?:/(?:content|remix))?)?|usage|brand)/?$',
  'i',
);
const LIMITED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);

export function isRateLimited(method: string, path: string): boolean {
  return LIMITED_METHODS.has(method) && LIMITED_ROUTE.test(path);
}

export function rateLimitMiddleware({ db, config, logger }: AppDeps): Middleware<AppState> {
  const { enabled, perWindow, windowSeconds } = config.rateLimit;
  // Rows of idle keys are deleted at most once per window per process, off the request path.
  let nextSweepAt = 0;
  const sweepIdleKeys = () => {
    if (Date.now() < nextSweepAt) return;
    nextSweepAt = Date.now() + windowSeconds * 1000;
    sweepIdleRateLimitKeys(db, windowSeconds).catch((err) =>
      logger.warn({ err: String(err) }, 'rate-limit sweep failed'),
    );
  };

  return async (ctx, next) => {
    if (!enabled || !isRateLimited(ctx.method, ctx.path) || !ctx.state.auth) return next();
    const decision = await takeRateLimitSlot(db, ctx.state.auth.apiKeyId, perWindow, windowSeconds);
    sweepIdleKeys();
    const headers = {
      'X-RateLimit-Limit': String(perWindow),
      'X-RateLimit-Remaining': String(Math.max(0, perWindow - decision.used)),
      'X-RateLimit-Reset': String(decision.resetAtSeconds),
    };
    if (!decision.allowed) {
      metrics.rateLimitRejections.inc();
      throw rateLimitExceeded(perWindow, windowSeconds, decision.retryAfterSeconds, headers);
    }
    ctx.set(headers);
    return next();
  };
}

/**
 * Counts a request that carries no valid key against its client address (bucket `address:<ip>`):
 * the 429 to answer instead of a 401 when the address is over RATE_LIMIT_UNAUTHENTICATED_PER_WINDOW,
 * else null. Keeps key guessing and junk traffic cheap: it runs before any body is read.
 */
export async function takeUnauthenticatedSlot({ db, config }: AppDeps, address: string): Promise<ApiError | null> {
  const { enabled, unauthenticatedPerWindow, windowSeconds } = config.rateLimit;
  if (!enabled) return null;
  const decision = await takeRateLimitSlot(db, `address:${address}`, unauthenticatedPerWindow, windowSeconds);
  if (decision.allowed) return null;
  metrics.rateLimitRejections.inc();
  const message =
    `Too many requests without a valid API key from this address (limit ${unauthenticatedPerWindow} per ` +
    `${windowSeconds} s); retry after ${decision.retryAfterSeconds} s`;
  return rateLimitError(message, decision.retryAfterSeconds, {});
}

/** The 429 body satisfies both shapes of interface section 7: `error.code` and `message` + `data.retry_after`. */
function rateLimitExceeded(limit: number, windowSeconds: number, retryAfter: number, headers: Record<string, string>) {
  return rateLimitError(
    `Rate limit of ${limit} requests per ${windowSeconds} s exceeded for this API key; retry after ${retryAfter} s`,
    retryAfter,
    headers,
  );
}

function rateLimitError(message: string, retryAfter: number, headers: Record<string, string>) {
  return new ApiError(
    429,
    'RATE_LIMIT_EXCEEDED',
    message,
    undefined,
    { message, data: { retry_after: retryAfter } },
    { ...headers, 'Retry-After': String(retryAfter) },
  );
}
