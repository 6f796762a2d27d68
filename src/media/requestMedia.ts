// Request time (API): the media parts of a generation request. Every http(s) URL must be a public
// HTTPS URL, checked like webhook_url (scheme, names, every resolved address); a data: URL must hold a
// PNG, JPEG, GIF or WebP image (sniffed from its bytes), which is stored as the generation's asset
// right away so workflow history and the database never carry it: the part keeps `asset:<name>`.
// Anything else is a 400 `invalid_media_url` naming the part.
import type { Config } from '../config.js';
import { invalidInput } from '../errors.js';
import {
  ASSET_URL_PREFIX,
  type ContentPart,
  type GenerationRequest,
  type InputMessage,
  type MediaKind,
} from '../shared.js';
import { imageSize, sniffMedia, type ImageSize, type SniffedType } from '../sniff.js';
import type { Storage } from '../storage/index.js';
import { mediaAssetKey } from '../storage/keys.js';
import { NonPublicUrlError, urlPolicyFromConfig, vetPublicHttpsUrl, type HostResolver } from '../outbound/urlPolicy.js';
import { decodeDataUrl } from './dataUrl.js';
import { formatLimit, imageSizeProblem, MEDIA_LIMITS } from './limits.js';
import { putBytes } from './storageFiles.js';

/** An image received as a data: URL, to store as asset `name` once the generation exists. */
export type MediaUpload = { name: string; bytes: Buffer; mediaType: string };

export type PreparedMedia = { request: GenerationRequest; uploads: MediaUpload[] };

const refused = (param: string, reason: string) => invalidInput(`${param}: ${reason}`, param, 'invalid_media_url');

/**
 * Checks every media part and decodes data: URL images. Returns the request with those parts
 * pointing at their assets (`asset:image-1.png`) and the bytes to store. Throws the 400, naming the
 * part by `mediaParams`: where each media part came from in the body, in the request's order.
 */
export async function prepareRequestMedia(
  request: GenerationRequest,
  config: Config,
  mediaParams: readonly string[],
  resolve?: HostResolver,
): Promise<PreparedMedia> {
  const policy = urlPolicyFromConfig(config, resolve);
  const uploads: MediaUpload[] = [];
  const checks: { param: string; check: Promise<unknown> }[] = [];
  // Numbered per kind in request order, exactly as mediaPartsOf numbers them for the fetch step.
  const counts: Record<MediaKind, number> = { image: 0, video: 0 };
  let index = 0;

  const messages = request.messages.map((message): InputMessage => ({
    ...message,
    content: message.content.map((part): ContentPart => {
      if (part.type === 'text') return part;
      const number = ++counts[part.type];
      const param = mediaParams[index++] ?? 'input';
      if (/^data:/i.test(part.url)) {
        const upload = decodeImage(part.url, part.type, number, param);
        uploads.push(upload);
        return { type: part.type, url: `${ASSET_URL_PREFIX}${upload.name}` };
      }
      const check = vetPublicHttpsUrl(part.url, policy).catch((err: unknown) => {
        if (err instanceof NonPublicUrlError)
          throw refused(param, `media URLs must be public HTTPS URLs: ${err.message}`);
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
  if (kind !== 'image')
    throw refused(param, 'data: URLs are accepted for images only; give a video as a public HTTPS URL');
  const decoded = decodeDataUrl(url);
  if ('problem' in decoded) throw refused(param, decoded.problem);
  const image = checkImage(decoded.bytes, (reason) => refused(param, reason), 'the data: URL');
  return { name: `image-${number}.${image.extension}`, bytes: decoded.bytes, mediaType: image.mediaType };
}

export type CheckedImage = SniffedType & ImageSize;

/**
 * What an uploaded image is (its bytes judged, never a declared type) and its size, within the
 * limits of user media; else throws `refuse(reason)` (`what` names the upload in it). Request images
 * and brand logos alike.
 */
export function checkImage(
  bytes: Buffer,
  refuse: (reason: string) => Error,
  what: string,
  maxBytes: number = MEDIA_LIMITS.maxBytes.image,
): CheckedImage {
  const type = sniffMedia(bytes);
  if (type?.kind !== 'image')
    throw refuse(`${what} does not hold a PNG, JPEG, GIF or WebP image (judged by its bytes)`);
  if (bytes.length > maxBytes) throw refuse(`the image is over ${formatLimit(maxBytes)}`);
  const size = imageSize(bytes, type.mediaType);
  if (!size) throw refuse(`the ${type.mediaType} image's header is unreadable (truncated or corrupt)`);
  const tooBig = imageSizeProblem(size);
  if (tooBig) throw refuse(tooBig);
  return { ...type, ...size };
}

/** Stores the decoded data: URL images as the generation's assets. */
export async function storeUploads(storage: Storage, generationId: string, uploads: MediaUpload[]): Promise<void> {
  for (const u of uploads) await putBytes(storage, mediaAssetKey(generationId, u.name), u.bytes, u.mediaType);
}
