// The fetchMedia step (activities/media.ts): every media part of a request becomes a stored asset,
// its mediaAssetKey (`<image|video>-<n>.<ext>`, src/storage/keys.ts), described by a small MediaAsset (the only thing
// that enters workflow history). https parts are downloaded once each (the same URL twice: once),
// their type sniffed from the bytes, images measured from their headers, videos with ffprobe, and the
// limits applied. `asset:` parts (data: URL images the API stored) are read back and described.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSET_URL_PREFIX, type MediaAsset, type MediaPart } from '../shared.js';
import type { MediaFetchCall } from '../temporal/contract.js';
import type { Storage } from '../storage/index.js';
import { mediaAssetKey } from '../storage/keys.js';
import { probeMediaVideo, type Confinement } from '../video/index.js';
import type { UrlPolicy } from '../outbound/urlPolicy.js';
import { downloadToFile, DownloadError } from './download.js';
import { formatLimit, imageSizeProblem, MEDIA_LIMITS, videoDurationProblem } from './limits.js';
import { imageSize, sniffMedia } from '../sniff.js';
import { getToFile } from './storageFiles.js';

export type FetchMediaDeps = {
  storage: Storage;
  policy: UrlPolicy;
  /** Trusted CAs (PEM) for the downloads; undefined: the system's. */
  ca?: string[];
  /** FFMPEG_PATH: videos are read by the ffprobe beside it, confined as `confine` says (the render sandbox). */
  ffmpegPath: string;
  confine?: Confinement;
  signal?: AbortSignal;
};

/** A part that cannot be used; `retryable`: the network's fault, another attempt may succeed. */
export class MediaUnavailableError extends Error {
  constructor(
    readonly part: MediaPart,
    reason: string,
    readonly retryable: boolean,
  ) {
    super(
      `The ${part.kind} ${describeSource(part.url)} (${part.kind} ${part.number} of the request) ` +
        `cannot be used: ${reason}`,
    );
    this.name = 'MediaUnavailableError';
  }
}

const MAX_URL_IN_MESSAGE = 200;
function describeSource(url: string): string {
  if (url.startsWith(ASSET_URL_PREFIX)) return `sent as a data: URL`;
  return url.length > MAX_URL_IN_MESSAGE ? `${url.slice(0, MAX_URL_IN_MESSAGE)}…` : url;
}

/** Asset names the API gives data: URL images (`image-3.png`). */
const ASSET_NAME = /^(image|video)-[1-9]\d{0,3}\.[a-z0-9]{2,5}$/;
/** Bytes read to sniff a video's type (images are read whole: their header may sit behind EXIF data). */
const VIDEO_HEAD_BYTES = 64 * 1024;

export async function fetchMediaAssets(call: MediaFetchCall, deps: FetchMediaDeps): Promise<MediaAsset[]> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `media-${call.generationId}-`));
  try {
    const downloads = new Map<string, Promise<string>>();
    const fetchOne = async (part: MediaPart): Promise<MediaAsset> => {
      if (part.url.startsWith(ASSET_URL_PREFIX)) return storedAsset(call.generationId, part, dir, deps);
      // The same URL in two parts of the same kind is downloaded once.
      const id = `${part.kind} ${part.url}`;
      let download = downloads.get(id);
      if (!download) {
        download = downloadPart(part, path.join(dir, `${part.kind}-${part.number}.download`), deps);
        downloads.set(id, download);
      }
      const file = await download;
      const asset = await describe(part, file, deps);
      await deps.storage.put(mediaAssetKey(call.generationId, asset.name), file, asset.mediaType);
      return asset;
    };
    return await inOrder(call.parts, MEDIA_LIMITS.concurrency, fetchOne);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

async function downloadPart(part: MediaPart, file: string, deps: FetchMediaDeps): Promise<string> {
  try {
    await downloadToFile(part.url, file, {
      ...deps.policy,
      ca: deps.ca,
      maxBytes: MEDIA_LIMITS.maxBytes[part.kind],
      timeoutMs: MEDIA_LIMITS.downloadTimeoutMs[part.kind],
      maxRedirects: MEDIA_LIMITS.maxRedirects,
      signal: deps.signal,
    });
    return file;
  } catch (err) {
    if (err instanceof DownloadError) throw new MediaUnavailableError(part, err.message, err.retryable);
    throw err;
  }
}

/** An image the API stored from a data: URL (checked there): read back and described. */
async function storedAsset(
  generationId: string,
  part: MediaPart,
  dir: string,
  deps: FetchMediaDeps,
): Promise<MediaAsset> {
  const name = part.url.slice(ASSET_URL_PREFIX.length);
  if (!ASSET_NAME.test(name) || !name.startsWith(`${part.kind}-`))
    throw new MediaUnavailableError(part, `"${name}" is not an asset name`, false);
  const file = path.join(dir, name);
  try {
    await getToFile(deps.storage, mediaAssetKey(generationId, name), file);
  } catch (err) {
    // Storage trouble (S3 unreachable): worth another attempt.
    throw new MediaUnavailableError(part, `the stored asset could not be read (${(err as Error).message})`, true);
  }
  const asset = await describe(part, file, deps);
  return { ...asset, name };
}

/** Sniffs, measures and checks a file against the limits of its part's kind. */
async function describe(part: MediaPart, file: string, deps: FetchMediaDeps): Promise<MediaAsset> {
  const bytes = (await fs.promises.stat(file)).size;
  const refuse = (reason: string) => new MediaUnavailableError(part, reason, false);
  if (bytes > MEDIA_LIMITS.maxBytes[part.kind])
    throw refuse(`it is over the limit of ${formatLimit(MEDIA_LIMITS.maxBytes[part.kind])}`);
  const content = part.kind === 'image' ? await fs.promises.readFile(file) : await readHead(file, VIDEO_HEAD_BYTES);
  const type = sniffMedia(content);
  if (!type) throw refuse('its bytes are not a PNG, JPEG, GIF or WebP image, nor an MP4, MOV or WebM video');
  if (type.kind !== part.kind)
    throw refuse(
      `it is ${type.kind === 'image' ? 'an image' : 'a video'} (${type.mediaType}), ` +
        `not ${part.kind === 'image' ? 'an image' : 'a video'}`,
    );
  const name = `${part.kind}-${part.number}.${type.extension}`;
  if (type.kind === 'image') {
    const size = imageSize(content, type.mediaType);
    if (!size) throw refuse(`the ${type.mediaType} header is unreadable (truncated or corrupt)`);
    const tooBig = imageSizeProblem(size);
    if (tooBig) throw refuse(tooBig);
    return {
      name,
      kind: 'image',
      mediaType: type.mediaType,
      bytes,
      width: size.width,
      height: size.height,
      durationSeconds: null,
    };
  }
  const facts = await probeMediaVideo(deps.ffmpegPath, file, deps.confine);
  if ('problem' in facts) throw refuse(facts.problem);
  const tooLong = videoDurationProblem(facts.durationSeconds);
  if (tooLong) throw refuse(tooLong);
  const durationSeconds = Math.round(facts.durationSeconds * 100) / 100;
  return {
    name,
    kind: 'video',
    mediaType: type.mediaType,
    bytes,
    width: facts.width,
    height: facts.height,
    durationSeconds,
  };
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Runs `work` over `items` with at most `limit` at once; results in item order. After a failure no
 * new item starts, and the failure of the earliest item is the one thrown.
 */
async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const started: Promise<R>[] = [];
  const running = new Set<Promise<unknown>>();
  let failed = false;
  for (const item of items) {
    while (running.size >= limit) await Promise.race(running);
    if (failed) break;
    const job = work(item);
    started.push(job);
    const tracked: Promise<unknown> = job.then(
      () => running.delete(tracked),
      () => {
        failed = true;
        running.delete(tracked);
      },
    );
    running.add(tracked);
  }
  const settled = await Promise.allSettled(started);
  const failure = settled.find((r) => r.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<R>).value);
}
