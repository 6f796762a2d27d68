// Reads and parses JSON request bodies, after authentication and the rate limit (src/app/httpApp.ts):
// a request that will be refused anyway costs no body reading. Bounded in size (after decoding the
// Content-Encoding), UTF-8 only, and bounded in nesting depth, which is checked by one pass over the
// text before JSON.parse builds anything. Every failure is a 4xx in the one error shape.
import type { Middleware } from 'koa';
import inflate from 'inflation';
import getRawBody from 'raw-body';
import { ApiError } from './errors.js';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body; `{}` when the request has none (or is not JSON: routes refuse that with 415). */
    body?: unknown;
  }
}

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Extension: a create carrying `input_audio` parts (a sound track, base64) may be this large: a 20 MiB
 * track (src/audio/track.ts) in base64 and the rest of the request. Only the create routes read that far.
 */
export const MAX_AUDIO_BODY_BYTES = 28 * 1024 * 1024;
const CREATE_ROUTES = new Set(['/v1/responses', '/v1/chat/completions']);
/** Far above any valid request (its deepest field is about 6 levels down); a parser's recursion stays small. */
export const MAX_JSON_DEPTH = 32;
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function jsonBodyMiddleware(): Middleware {
  return async (ctx, next) => {
    ctx.request.body = {};
    if (PARSED_METHODS.has(ctx.method) && ctx.request.is('application/json')) {
      const limit = ctx.method === 'POST' && CREATE_ROUTES.has(ctx.path) ? MAX_AUDIO_BODY_BYTES : MAX_BODY_BYTES;
      const bytes = await readBody(ctx.req, ctx.request.get('content-encoding'), ctx.request.length, limit);
      // Above the usual limit only with a sound track in it (the schema then checks where it is).
      if (bytes.length > MAX_BODY_BYTES && !bytes.includes('"input_audio"'))
        throw new ApiError(
          413,
          'request_too_large',
          `Request body is larger than ${MAX_BODY_BYTES} bytes (${MAX_AUDIO_BODY_BYTES} with input_audio parts)`,
        );
      const text = utf8Text(bytes);
      if (text.trim() !== '') ctx.request.body = parseJson(text);
    }
    await next();
  };
}

async function readBody(
  req: Parameters<typeof inflate>[0],
  encoding: string,
  length: number | undefined,
  limit: number,
): Promise<Buffer> {
  try {
    // The declared length only holds for the encoded bytes: checked by raw-body only without an encoding.
    return await getRawBody(inflate(req), {
      limit,
      length: encoding && encoding !== 'identity' ? undefined : length,
    });
  } catch (err) {
    const e = err as { status?: number; type?: string; code?: string; message?: string };
    if (e.status === 413) throw new ApiError(413, 'request_too_large', `Request body is larger than ${limit} bytes`);
    if (e.status === 415)
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Unsupported Content-Encoding "${encoding}"; send identity, gzip, deflate or br`,
      );
    // zlib's codes (Z_DATA_ERROR…) and brotli's (ERR__ERROR_FORMAT…): the body is not what Content-Encoding says.
    if (typeof e.code === 'string' && /^(Z_|ERR_)/.test(e.code)) {
      throw new ApiError(
        400,
        'invalid_request',
        `Request body is not valid ${encoding} data (Content-Encoding: ${encoding})`,
        'Content-Encoding',
      );
    }
    if (typeof e.status === 'number' && e.status < 500)
      throw new ApiError(400, 'invalid_request', `Request body could not be read: ${e.message ?? e.type}`);
    throw err;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON is UTF-8 (RFC 8259 §8.1): other bytes are refused rather than silently replaced in a prompt. */
function utf8Text(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'invalid_json', 'Request body is not UTF-8 text');
  }
}

function parseJson(text: string): unknown {
  const depth = nestingDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH)
    throw new ApiError(
      400,
      'invalid_json',
      `Request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
    );
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'invalid_json', `Request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** The deepest bracket nesting outside strings, counted up to `stopAbove` + 1 (then it stops reading). */
export function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
