// Dashboard forms are plain url-encoded POSTs (they work without JavaScript). The app's JSON body
// parser leaves them unread, so they are read here, with a size limit.
import { ApiError } from '../http/errors.js';
import type { DashboardContext } from './context.js';

const FORM_LIMIT_BYTES = 64 * 1024;

export async function readForm(ctx: DashboardContext): Promise<URLSearchParams> {
  const type = ctx.request.is('application/x-www-form-urlencoded');
  if (type === null) return new URLSearchParams(); // no body at all
  if (type === false) throw new ApiError(415, 'unsupported_media_type', 'Dashboard forms are sent as application/x-www-form-urlencoded');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) throw new ApiError(413, 'request_too_large', 'The form is too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
