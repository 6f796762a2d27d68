// Optional application identification headers (interface 5.6), stored with each generation. They
// never reject a create: browsers and SDKs set Referer on their own (file://, extension pages, long
// URLs), so a value that cannot be kept is dropped or trimmed, and the answer says so in
// ATTRIBUTION_WARNING_HEADER (README, "Attribution headers").
import type { Context } from 'koa';
import type { AppInfo } from '../../db/generations.js';
import { CONTROL_CHARACTER } from '../../http/requestGuard.js';

export const APP_HEADER_LIMITS = { name: 256, referer: 2048, title: 256 } as const;
/** Names each attribution header that was dropped or changed, and why; absent when all were kept. */
export const ATTRIBUTION_WARNING_HEADER = 'X-Attribution-Warning';

const CONTROL_CHARS = new RegExp(CONTROL_CHARACTER.source, 'g');

export type AppHeaders = { app: AppInfo; warnings: string[] };

export function readAppHeaders(ctx: Pick<Context, 'get'>): AppHeaders {
  const warnings: string[] = [];
  // Header lookups are case-insensitive: the names are written as warnings quote them.
  const first = (...names: string[]) => {
    const name = names.find((n) => ctx.get(n) !== '');
    return name ? { name, value: ctx.get(name) } : null;
  };
  const name = first('X-Application-Name', 'X-App-Name');
  const referer = first('Referer', 'HTTP-Referer');
  const title = first('X-Service-Title', 'X-Title');
  return {
    app: {
      name: name && text(name.name, name.value, APP_HEADER_LIMITS.name, warnings),
      referer: referer && url(referer.name, referer.value, warnings),
      title: title && text(title.name, title.value, APP_HEADER_LIMITS.title, warnings),
    },
    warnings,
  };
}

/** Control characters stripped, then cut to the limit; null when nothing is left. */
function text(header: string, value: string, limit: number, warnings: string[]): string | null {
  const stripped = value.replace(CONTROL_CHARS, '');
  if (stripped !== value) warnings.push(`${header} control characters removed`);
  if (stripped.length > limit) warnings.push(`${header} cut to ${limit} characters`);
  return stripped.slice(0, limit) || null;
}

/** An http(s) URL of at most the limit, else dropped (a cut URL would name another application). */
function url(header: string, value: string, warnings: string[]): string | null {
  const drop = (why: string) => {
    warnings.push(`${header} dropped: ${why}`);
    return null;
  };
  if (value.length > APP_HEADER_LIMITS.referer) return drop(`longer than ${APP_HEADER_LIMITS.referer} characters`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return drop('not an http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return drop('not an http or https URL');
  return value;
}
