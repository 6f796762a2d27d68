// Downloads one requester's media URL to a file, with the webhook client's protections: the URL is
// vetted (public HTTPS only, every resolved address checked) and the connection goes only to the
// vetted address (TLS SNI and Host stay the hostname), so DNS rebinding cannot redirect it. Redirects
// are followed only to URLs that pass the same checks (never into private address space), at most
// MEDIA_LIMITS.maxRedirects. The body is bounded in bytes and the whole download in time.
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  NonPublicUrlError,
  pinnedConnection,
  vetPublicHttpsUrl,
  type PublicTarget,
  type UrlPolicy,
} from '../outbound/urlPolicy.js';
import { formatLimit } from './limits.js';

export type DownloadOptions = UrlPolicy & {
  /** Trusted CAs (PEM); undefined: the system's. */
  ca?: string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** The caller's cancellation (the activity's). */
  signal?: AbortSignal;
};

export type Downloaded = { bytes: number; contentType: string | null; finalUrl: string };

/** Why a download failed, for people; `retryable`: a later attempt may succeed (network, 5xx, 429). */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses another attempt may change: timeouts, rate limits, server trouble. */
const retryableStatus = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;
/** TLS failures that are the server's configuration, not the network's: retrying cannot help. */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT|HOSTNAME_MISMATCH|ALTNAME/;

export async function downloadToFile(url: string, dest: string, opts: DownloadOptions): Promise<Downloaded> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let current = url;
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await vet(current, redirects > 0, opts, signal);
      const res = await get(target, opts.ca, signal);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.destroy();
        const location = res.headers.location;
        if (!location) throw new DownloadError(`HTTP ${status} redirect without a Location`, false);
        if (redirects >= opts.maxRedirects) throw new DownloadError(`more than ${opts.maxRedirects} redirects`, false);
        current = new URL(location, current).href;
        continue;
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw new DownloadError(
          `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`,
          retryableStatus(status),
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw new DownloadError(`it is ${declared} bytes, over the limit of ${formatLimit(opts.maxBytes)}`, false);
      }
      const bytes = await save(res, dest, opts.maxBytes);
      return { bytes, contentType: res.headers['content-type'] ?? null, finalUrl: current };
    }
  } catch (err) {
    if (err instanceof DownloadError) throw err;
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (timeout.aborted)
      throw new DownloadError(`no complete answer within ${Math.round(opts.timeoutMs / 1000)} s`, true);
    const e = err as NodeJS.ErrnoException;
    const detail = e.code && !e.message.includes(e.code) ? `${e.message} (${e.code})` : e.message || String(err);
    throw new DownloadError(detail, !CERTIFICATE_ERROR.test(`${e.code ?? ''} ${e.message}`));
  }
}

async function vet(url: string, redirected: boolean, policy: UrlPolicy, signal: AbortSignal): Promise<PublicTarget> {
  try {
    return await abortable(vetPublicHttpsUrl(url, policy), signal);
  } catch (err) {
    if (!(err instanceof NonPublicUrlError)) throw err;
    // A name that does not resolve now (it did when the request came) may resolve on the next attempt.
    throw new DownloadError(
      redirected ? `it redirects to ${url}, which is refused: ${err.message}` : `refused: ${err.message}`,
      err.unresolved,
    );
  }
}

/** Counts the body into `dest`, failing (and removing the file) past `maxBytes`. */
async function save(res: IncomingMessage, dest: string, maxBytes: number): Promise<number> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new DownloadError(`it is over the limit of ${formatLimit(maxBytes)}`, false));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(res, limit, fs.createWriteStream(dest));
    return bytes;
  } catch (err) {
    await fs.promises.rm(dest, { force: true });
    throw err;
  }
}

function get(target: PublicTarget, ca: string[] | undefined, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = https.request(
      {
        method: 'GET',
        ...pinnedConnection(target),
        headers: {
          accept: 'image/*, video/*;q=0.9, */*;q=0.1',
          'accept-encoding': 'identity',
          'user-agent': 'video-api-media/1',
        },
        ca,
        signal,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
