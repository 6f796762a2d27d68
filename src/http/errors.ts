// The one place that turns failures into the API's error body
//   {"error": {"code": string, "message": string, "param"?: string}}
// and the one mapping of domain failures to statuses. ApiError carries its own status (HTTP-only
// answers: 413, 415, 416, 429, no route…; the JSON body reader's too), a DomainError gets the status of
// its kind; Koa/http-errors keep their 4xx status; a backing service that is down is a 503;
// anything else is a 500 with a generic message (details go to the log, never to the client).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Middleware } from 'koa';
import { DomainError, type DomainErrorKind } from '../errors.js';
import type { AppState } from './context.js';

type ErrorBody = { error: { code: string; message: string; param?: string } };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** Extra top-level fields merged into the body (e.g. the rate-limit body's `data`). */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  body(): ErrorBody & Record<string, unknown> {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    return { error, ...this.extra };
  }
}

const HTTP_ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'request_too_large',
  415: 'unsupported_media_type',
};

/**
 * Another API's error body for the paths it serves (the OpenAI Videos shape answers in OpenAI's words:
 * src/api/videos/errors.ts). The status, code, message and param stay the ones decided here.
 */
export type ErrorDialect = { serves(path: string): boolean; body(error: ApiError): unknown };

export function errorMiddleware(dialects: readonly ErrorDialect[] = []): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // Responses Koa or the router made without a body (no route: 404; wrong method: 405).
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
        const message =
          ctx.status === 404
            ? `No route for ${ctx.method} ${ctx.path}`
            : `${ctx.method} is not supported on ${ctx.path}`;
        throw new ApiError(ctx.status, HTTP_ERROR_CODES[ctx.status] ?? 'invalid_request', message);
      }
    } catch (err) {
      const apiError = toApiError(err);
      // A backing service that is away (503) is an outage the operator sees once per request, without
      // a stack; anything else of ours is a bug, with everything known about it.
      if (apiError.status === 503)
        ctx.state.log?.warn(
          { cause: (err as Error)?.message ?? String(err) },
          'request answered 503: a backing service is unavailable',
        );
      else if (apiError.status >= 500) ctx.state.log?.error({ err }, 'request failed');
      ctx.status = apiError.status;
      const dialect = dialects.find((d) => d.serves(ctx.path));
      ctx.body = dialect ? dialect.body(apiError) : apiError.body();
      for (const [k, v] of Object.entries(apiError.headers ?? {})) ctx.set(k, v);
    }
  };
}

/**
 * The server's `clientError` listener: requests Node's HTTP parser refuses before any middleware runs
 * (a malformed request line, a control character in a header, a head over 16 KiB, a bad chunk) get
 * the one error shape too, instead of Node's bodiless answer; the connection is then closed.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // Nothing sent yet on this connection (else a response is under way), and the client still listens.
  if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request_too_large', 'The request line and headers are larger than the server accepts']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time']
        : [400, 'invalid_request', `Malformed HTTP request (${err.code ?? 'parse error'})`];
  const body = JSON.stringify(new ApiError(status, code, message).body());
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  // An answer to HEAD has no body (the client would read one as a second, stray response).
  const isHead = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(isHead ? head : head + body, () => socket.destroy());
}

/** The one mapping from domain failures to HTTP statuses. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
};

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return new ApiError(DOMAIN_STATUS[err.kind], err.code, err.message, err.param);
  const e = err as { status?: number; statusCode?: number; message?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, HTTP_ERROR_CODES[status] ?? 'invalid_request', e.message ?? 'Bad request');
  }
  if (isUnavailable(err))
    return new ApiError(503, 'temporarily_unavailable', 'A backing service is unavailable; retry shortly');
  return new ApiError(500, 'internal_error', 'Internal server error');
}

// Connection-level failures of PostgreSQL or Temporal: the request was fine, the service is not.
// Socket errors (refused, reset, unreachable, name not resolved), SQLSTATE class 08 (connection
// exception), 57P01–57P03 (server shutting down or starting) and 53300 (too many connections), and
// the messages of pg, pg-pool and gRPC (UNAVAILABLE) that carry no code.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SQLSTATE_UNAVAILABLE = /^(?:08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|UNAVAILABLE/i;

/** Judges the error and its causes (Temporal's ServiceError and pg-pool wrap the transport's error). */
function isUnavailable(err: unknown, depth = 0): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  if (!e || depth > 4) return false;
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || SQLSTATE_UNAVAILABLE.test(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  return isUnavailable(e.cause, depth + 1);
}
