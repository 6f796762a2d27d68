// Request time (API): the media parts of a generation request. Every http(s) URL must be a public
// HTTPS URL, checked like webhook_url (scheme, names, every resolved address); a data: URL must hold a
// PNG, JPEG, GIF or WebP image (sniffed from its bytes), which is stored as the generation's asset
// right away so workflow history and the database never carry it: the part keeps `asset:<name>`.
// Anything else is a 400 `invalid_media_url` naming the part.
import type { Config } from '../config.js';
import { invalidInput } from '../errors.js';
import { ASSET_URL_PREFIX, mediaAssetKey, type ContentPart, type GenerationRequest, type InputMessage, type MediaKind } from '../shared.js';
import type { Storage } from '../storage/index.js';
import { NonPublicUrlError, urlPolicyFromConfig, vetPublicHttpsUrl, type HostResolver } from '../webhooks/urlPolicy.js';
import { decodeDataUrl } from './dataUrl.js';
import { formatLimit, imageSizeProblem, MEDIA_LIMITS } from './limits.js';
import { imageSize, sniffMedia } from './sniff.js';
import { putBytes } from './storageFiles.js';

/** An image received as a data: URL, to store as asset `name` once the generation exists. */
export type MediaUpload = { name: string; bytes: Buffer; mediaType: string };

export type PreparedMedia = { request: GenerationRequest; uploads: MediaUpload[] };

/** Where a part came from in the request body (`input.0.content.1.image_url`); undefined: unknown. */
export type ParamOf = (part: ContentPart) => string | undefined;

const refused = (param: string, reason: string) =>
  invalidInput(`${param}: ${reason}`, param, 'invalid_media_url');

/**
 * Checks every media part and decodes data: URL images. Returns the request with those parts
 * pointing at their assets (`asset:image-1.png`) and the bytes to store. Throws the 400.
 */
export async function prepareRequestMedia(
  request: GenerationRequest,
  config: Config,
  paramOf: ParamOf,
  resolve?: HostResolver,
): Promise<PreparedMedia> {
  const policy = urlPolicyFromConfig(config, resolve);
  const uploads: MediaUpload[] = [];
  const checks: { param: string; check: Promise<unknown> }[] = [];
  // Numbered per kind in request order, exactly as mediaPartsOf numbers them for the fetch step.
  const counts: Record<MediaKind, number> = { image: 0, video: 0 };

  const messages = request.messages.map((message): InputMessage => ({
    ...message,
    content: message.content.map((part): ContentPart => {
      if (part.type === 'text') return part;
      const number = ++counts[part.type];
      const param = paramOf(part) ?? 'input';
      if (/^data:/i.test(part.url)) {
        const upload = decodeImage(part.url, part.type, number, param);
        uploads.push(upload);
        return { type: part.type, url: `${ASSET_URL_PREFIX}${upload.name}` };
      }
      const check = vetPublicHttpsUrl(part.url, policy).catch((err: unknown) => {
        if (err instanceof NonPublicUrlError) throw refused(param, `media URLs must be public HTTPS URLs: ${err.message}`);
        throw err;
      });
      check.catch(() => {}); // awaited below, in order
      checks.push({ param, check });
      return part;
    }),
  }));
  // Checked concurrently (each may resolve a name); the first refused part in request order is reported.
  for (const { check } of checks) await check;
  return { request: { ...request, messages }, uploads };
}

function decodeImage(url: string, kind: MediaKind, number: number, param: string): MediaUpload {
  if (kind !== 'image') throw refused(param, 'data: URLs are accepted for images only; give a video as a public HTTPS URL');
  const decoded = decodeDataUrl(url);
  if ('problem' in decoded) throw refused(param, decoded.problem);
  const type = sniffMedia(decoded.bytes);
  if (type?.kind !== 'image') throw refused(param, 'the data: URL does not hold a PNG, JPEG, GIF or WebP image (judged by its bytes)');
  if (decoded.bytes.length > MEDIA_LIMITS.maxBytes.image) throw refused(param, `the image is over ${formatLimit(MEDIA_LIMITS.maxBytes.image)}`);
  const size = imageSize(decoded.bytes, type.mediaType);
  if (!size) throw refused(param, `the ${type.mediaType} image's header is unreadable (truncated or corrupt)`);
  const tooBig = imageSizeProblem(size);
  if (tooBig) throw refused(param, tooBig);
  return { name: `image-${number}.${type.extension}`, bytes: decoded.bytes, mediaType: type.mediaType };
}

/** Stores the decoded data: URL images as the generation's assets. */
export async function storeUploads(storage: Storage, generationId: string, uploads: MediaUpload[]): Promise<void> {
  for (const u of uploads) await putBytes(storage, mediaAssetKey(generationId, u.name), u.bytes, u.mediaType);
}
