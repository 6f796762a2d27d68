import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';
import { metrics } from '../metrics.js';
import type { AppState } from './context.js';

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Accepts X-Request-Id (when sane) or makes one, echoes it, gives the request a child logger, and
 * logs and measures every request. `polls`: route templates (`GET /v1/responses/:id`) that clients
 * read again and again (status polls, probes, scrapes); they log at debug unless they fail, so the
 * info log shows what changed.
 */
export function requestLogMiddleware(logger: Logger, polls: readonly string[] = []): Middleware<AppState> {
  const pollRoutes = new Set(polls);
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = VALID_REQUEST_ID.test(given) ? given : `req_${crypto.randomBytes(8).toString('hex')}`;
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      // Route templates, not raw paths, keep the label set small.
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      // An event stream on a poll route is a watch, not a poll: logged like any other request.
      const poll = pollRoutes.has(`${method} ${route}`) && ctx.status < 400 && !ctx.response.is('text/event-stream');
      ctx.state.log[poll ? 'debug' : 'info'](
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) },
        'request',
      );
    }
  };
}
