// One delivery attempt over HTTPS. The URL is vetted again here and the connection goes to the
// vetted address only (a `lookup` that answers with it), with SNI and Host still the URL's host, so
// a DNS answer that changes after the check (rebinding) is never used. No redirects are followed;
// the whole attempt is bounded in time, and only a small part of the response is read. A failure is
// told in fixed words (attemptFailures.ts), its cause apart, for the log.
import type { WebhookSendOutcome } from '../temporal/contract.js';
import https from 'node:https';
import { ATTEMPT_FAILURES, type AttemptFailure } from './attemptFailures.js';
import { parseRetryAfter } from './retryPolicy.js';
import {
  NonPublicUrlError,
  pinnedConnection,
  vetPublicHttpsUrl,
  type PublicTarget,
  type UrlPolicy,
} from '../outbound/urlPolicy.js';

/** A receiver must answer within this time (interface 6.6.1). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** At most this much of a response is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** The part of the response body kept in the attempt record. */
const RESPONSE_EXCERPT_CHARS = 1024;

export type SendOptions = UrlPolicy & {
  /** Trusted CAs (PEM); undefined: the system's. */
  ca?: string[];
  timeoutMs?: number;
};

/** How the attempt went; `cause`: why no answer came, in the failure's own words (for the log alone). */
export type SendOutcome = WebhookSendOutcome & { error: AttemptFailure | null; cause: string | null };

export async function sendWebhook(
  request: { url: string; body: string; headers: Record<string, string> },
  options: SendOptions,
): Promise<SendOutcome> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: AttemptFailure, cause: string): SendOutcome => ({
    statusCode: null,
    durationMs: Date.now() - started,
    error,
    cause,
    retryAfterMs: null,
    responseExcerpt: null,
  });
  try {
    const target = await abortable(vetPublicHttpsUrl(request.url, options), signal);
    const response = await post(target, request, options.ca, signal);
    return {
      statusCode: response.statusCode,
      durationMs: Date.now() - started,
      error: null,
      cause: null,
      retryAfterMs: parseRetryAfter(response.retryAfter, Date.now()),
      responseExcerpt: response.body.slice(0, RESPONSE_EXCERPT_CHARS),
    };
  } catch (err) {
    if (signal.aborted) return failed(ATTEMPT_FAILURES.timeout, `no response within ${timeoutMs / 1000} s`);
    if (err instanceof NonPublicUrlError)
      return failed(
        err.unresolved ? ATTEMPT_FAILURES.unresolved : ATTEMPT_FAILURES.notPublic,
        `rejected before connecting: ${err.detail}`,
      );
    const { code, message } = err as NodeJS.ErrnoException;
    const cause = [code, message || String(err)].filter(Boolean).join(': ');
    return failed(
      TLS_FAILURE.test(`${code ?? ''} ${message ?? ''}`) ? ATTEMPT_FAILURES.tls : ATTEMPT_FAILURES.unreachable,
      cause,
    );
  }
}

/**
 * Node's TLS failures: certificate checks (`CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`,
 * `ERR_TLS_CERT_ALTNAME_INVALID`…) and handshakes (`ERR_SSL_…`, `EPROTO`).
 */
const TLS_FAILURE = /CERT|SSL|TLS|EPROTO|UNABLE_TO_(?:VERIFY|GET)/;

type RawResponse = { statusCode: number; retryAfter: string | undefined; body: string };

function post(
  target: PublicTarget,
  request: { body: string; headers: Record<string, string> },
  ca: string[] | undefined,
  signal: AbortSignal,
) {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = https.request(
      {
        method: 'POST',
        ...pinnedConnection(target),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'video-api-webhooks/1',
        },
        ca,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          resolve({
            statusCode: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
