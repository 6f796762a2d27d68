// Optional application identification headers (interface 5.6), stored with each generation.
import type { Context } from 'koa';
import { invalidInput } from '../../errors.js';
import type { AppInfo } from '../../db/generations.js';

export const APP_HEADER_LIMITS = { name: 256, referer: 2048, title: 256 } as const;

// C0 and C1 control characters (and DEL).
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

export function readAppHeaders(ctx: Pick<Context, 'get'>): AppInfo {
  const name = ctx.get('x-application-name') || ctx.get('x-app-name');
  const referer = ctx.get('referer') || ctx.get('http-referer');
  const title = ctx.get('x-service-title') || ctx.get('x-title');
  return {
    name: name ? name.slice(0, APP_HEADER_LIMITS.name) : null,
    referer: referer ? checkReferer(referer) : null,
    title: title ? title.replace(CONTROL_CHARS, '').slice(0, APP_HEADER_LIMITS.title) || null : null,
  };
}

function checkReferer(value: string): string {
  if (value.length > APP_HEADER_LIMITS.referer) {
    throw invalidInput(`Referer is longer than ${APP_HEADER_LIMITS.referer} characters`, 'Referer');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput('Referer must be a valid http or https URL', 'Referer');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidInput('Referer must be a valid http or https URL', 'Referer');
  }
  return value;
}
