// The multipart/form-data body of POST /v1/videos, which the official SDK sends: read (bounded) and parsed
// by the runtime's own Fetch implementation (Response#formData: RFC 7578, no library of ours), then made
// the same object a JSON body is. The `input_reference` file part becomes `{image_url: <data: URL>}`, so
// it is checked and stored exactly like a data: URL image (sniffed from its bytes, 400 naming the part).
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../../http/errors.js';
import { MEDIA_LIMITS } from '../../media/limits.js';

/** The image's limit and room for the text fields beside it. */
export const MAX_MULTIPART_BYTES = MEDIA_LIMITS.maxBytes.image + 256 * 1024;

export async function readMultipartBody(ctx: Context): Promise<Record<string, unknown>> {
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: MAX_MULTIPART_BYTES, length: ctx.request.length });
  } catch (err) {
    const e = err as { status?: number; message?: string };
    if (e.status === 413)
      throw new ApiError(413, 'request_too_large', `Request body is larger than ${MAX_MULTIPART_BYTES} bytes`);
    if (typeof e.status === 'number' && e.status < 500)
      throw new ApiError(400, 'invalid_request', `Request body could not be read: ${e.message}`);
    throw err;
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': ctx.get('content-type') } }).formData();
  } catch (err) {
    throw new ApiError(
      400,
      'invalid_request',
      `Request body is not valid multipart/form-data: ${(err as Error).message}`,
    );
  }
  const body: Record<string, unknown> = {};
  for (const [field, value] of form.entries()) {
    // The SDK sends an object's fields as `input_reference[image_url]`: one level of nesting.
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(field);
    const name = nested ? nested[1]! : field;
    const into = nested ? ((body[name] ??= {}) as Record<string, unknown>) : body;
    const at = nested ? nested[2]! : field;
    const param = nested ? `${name}.${at}` : name;
    if (typeof into !== 'object' || at in into)
      throw new ApiError(400, 'invalid_request', `${param}: given more than once`, param);
    if (typeof value === 'string') {
      into[at] = value;
    } else if (field === 'input_reference') {
      const data = Buffer.from(await value.arrayBuffer());
      // The declared type is not trusted: the bytes are sniffed when the request media are prepared.
      body[name] = { image_url: `data:application/octet-stream;base64,${data.toString('base64')}` };
    } else {
      throw new ApiError(400, 'invalid_request', `${param}: only input_reference may be a file`, param);
    }
  }
  return body;
}
