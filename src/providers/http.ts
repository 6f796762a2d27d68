// The HTTP call both chat protocols share, and the one place that classifies a provider's failure:
// worth trying the next provider (unavailable), or final (rejected request, refused content).
import { PROVIDER_CAUSES, PROVIDER_FAILURE, ProviderError, type ProviderCause } from './errors.js';

export type PostOptions = { timeoutMs: number; signal: AbortSignal };

/** Statuses that blame the request itself; any other failure is the provider's (key, quota, load, outage). */
const REQUEST_AT_FAULT = new Set([400, 413, 422]);
const CONTENT_REFUSAL_CODES = new Set(['content_policy_violation', 'content_filter', 'moderation_blocked']);
const CONTENT_REFUSAL_TEXT = /content (management )?polic|content filter|safety system|flagged/i;

/** POSTs JSON and returns the parsed 2xx body; throws ProviderError, or the caller's abort reason when cancelled. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  opts: PostOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.any([opts.signal, timeout]),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (opts.signal.aborted) throw opts.signal.reason ?? err;
    if (timeout.aborted)
      throw new ProviderError(
        PROVIDER_FAILURE.unavailable,
        PROVIDER_CAUSES.timeout,
        null,
        `no answer within ${opts.timeoutMs / 1000} s`,
      );
    throw new ProviderError(
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.unreachable,
      null,
      `connection failed (${connectionErrorCode(err)})`,
    );
  }
  if (status < 200 || status > 299) throw httpFailure(status, text);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.unusableAnswer,
      null,
      `HTTP ${status} with a body that is not JSON`,
    );
  }
}

/** Both protocols put the reason in `error` ({message, type, code}); Anthropic wraps it in `{type: "error", error}`. */
export function httpFailure(status: number, body: string): ProviderError {
  let detail: { message?: unknown; type?: unknown; code?: unknown };
  try {
    const parsed = JSON.parse(body);
    detail =
      typeof parsed?.error === 'object' && parsed.error ? parsed.error : { message: parsed?.error ?? parsed?.message };
  } catch {
    detail = { message: body.trim().slice(0, 300) };
  }
  const said = typeof detail.message === 'string' && detail.message ? `: ${detail.message.slice(0, 300)}` : '';
  const logged = `HTTP ${status}${said}`;
  const codes = [detail.code, detail.type].map(String);
  if (codes.some((c) => CONTENT_REFUSAL_CODES.has(c)) || CONTENT_REFUSAL_TEXT.test(said)) {
    return new ProviderError(PROVIDER_FAILURE.refused, PROVIDER_CAUSES.refused, null, logged);
  }
  if (REQUEST_AT_FAULT.has(status))
    return new ProviderError(PROVIDER_FAILURE.rejected, PROVIDER_CAUSES.rejected, null, logged);
  return new ProviderError(PROVIDER_FAILURE.unavailable, statusCause(status), null, logged);
}

function statusCause(status: number): ProviderCause {
  if (status === 401 || status === 403) return PROVIDER_CAUSES.key;
  if (status === 429) return PROVIDER_CAUSES.rateLimited;
  if (status >= 500) return PROVIDER_CAUSES.serverError;
  return PROVIDER_CAUSES.other;
}

function connectionErrorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
}
