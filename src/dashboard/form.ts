// Dashboard forms are plain url-encoded POSTs (they work without JavaScript). The app's JSON body
// parser leaves them unread, so they are read here, with a size limit.
import { ApiError } from '../http/errors.js';
import type { DashboardContext } from './context.js';

const FORM_LIMIT_BYTES = 64 * 1024;

export async function readForm(ctx: DashboardContext): Promise<URLSearchParams> {
  const type = ctx.request.is('application/x-www-form-urlencoded');
  if (type === null) return new URLSearchParams(); // no body at all
  if (type === false) throw new ApiError(415, 'unsupported_media_type', 'Dashboard forms are sent as application/x-www-form-urlencoded');
  // Browsers never compress what they submit; a compressed form would be read as garbage.
  const encoding = ctx.get('content-encoding');
  if (encoding && encoding !== 'identity') throw new ApiError(415, 'unsupported_media_type', `Dashboard forms are sent without Content-Encoding, not ${encoding.slice(0, 40)}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) throw new ApiError(413, 'request_too_large', 'The form is too large');
    chunks.push(chunk);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  // Fields go to PostgreSQL (emails, key names), whose text cannot hold NUL: refused by name, never a 500.
  for (const [name, value] of form) {
    if (!`${name}${value}`.includes('\u0000')) continue;
    const field = name.replace(/\u0000/g, '').slice(0, 40);
    throw new ApiError(400, 'invalid_request', `Form field ${field} contains a NUL character`, field);
  }
  return form;
}
