// Dashboard forms are plain POSTs that work without JavaScript: url-encoded, or multipart/form-data
// for a form with a file (the Brand page's logo). The app's JSON body parser leaves them unread, so
// they are read here, with size limits: text fields become the form, files are kept apart.
import { ApiError } from '../http/errors.js';
import type { DashboardContext, FormFile } from './context.js';

const FORM_LIMIT_BYTES = 64 * 1024;
/** A multipart form carries one small file (a logo: at most 0.5 MiB) and a few fields. */
const MULTIPART_LIMIT_BYTES = 640 * 1024;

export async function readForm(
  ctx: DashboardContext,
): Promise<{ form: URLSearchParams; files: Map<string, FormFile> }> {
  const files = new Map<string, FormFile>();
  const type = ctx.request.is('application/x-www-form-urlencoded', 'multipart/form-data');
  if (type === null) return { form: new URLSearchParams(), files }; // no body at all
  if (type === false)
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Dashboard forms are sent as application/x-www-form-urlencoded or multipart/form-data',
    );
  // Browsers never compress what they submit; a compressed form would be read as garbage.
  const encoding = ctx.get('content-encoding');
  if (encoding && encoding !== 'identity')
    throw new ApiError(
      415,
      'unsupported_media_type',
      `Dashboard forms are sent without Content-Encoding, not ${encoding.slice(0, 40)}`,
    );
  const multipart = type === 'multipart/form-data';
  const body = await readBody(ctx, multipart ? MULTIPART_LIMIT_BYTES : FORM_LIMIT_BYTES);
  const form = multipart
    ? await readMultipart(body, ctx.get('content-type'), files)
    : new URLSearchParams(body.toString('utf8'));
  // Fields go to PostgreSQL (emails, key names), whose text cannot hold NUL: refused by name, never a 500.
  for (const [name, value] of form) {
    if (!`${name}${value}`.includes('\u0000')) continue;
    const field = name.replace(/\u0000/g, '').slice(0, 40);
    throw new ApiError(400, 'invalid_request', `Form field ${field} contains a NUL character`, field);
  }
  return { form, files };
}

async function readBody(ctx: DashboardContext, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, 'request_too_large', 'The form is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** RFC 7578 parts, read by the platform's own parser (the Fetch API's `formData()`, undici in Node). */
async function readMultipart(
  body: Buffer,
  contentType: string,
  files: Map<string, FormFile>,
): Promise<URLSearchParams> {
  let parts: FormData;
  try {
    parts = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ApiError(400, 'invalid_request', 'The form is not valid multipart/form-data');
  }
  const form = new URLSearchParams();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else files.set(name, { filename: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return form;
}
