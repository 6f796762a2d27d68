// Limits of the requester's media (README, "User media").
import type { MediaKind } from '../shared.js';
import type { ImageSize } from '../sniff.js';

const MiB = 1024 * 1024;

export const MEDIA_LIMITS = {
  /** Bytes of one file, by kind. */
  maxBytes: { image: 10 * MiB, video: 100 * MiB } satisfies Record<MediaKind, number>,
  /** Length of one video. */
  maxVideoSeconds: 60,
  /** Pixels of one image (a decompression bomb would take Chrome's memory), and of each side. */
  maxImagePixels: 50_000_000,
  maxImageSide: 16_384,
  /** Redirects followed per URL (each target is checked like the URL itself). */
  maxRedirects: 5,
  /** Wall-clock time of one download (connection, redirects, body), by kind. */
  downloadTimeoutMs: { image: 60_000, video: 300_000 } satisfies Record<MediaKind, number>,
  /** Downloads of one generation running at once. */
  concurrency: 4,
} as const;

/** Containers report lengths like 60.02 s for a 60-second clip. */
const DURATION_SLACK_SECONDS = 0.1;

/** Why an image of this size is refused, or null. */
export function imageSizeProblem({ width, height }: ImageSize): string | null {
  const { maxImageSide, maxImagePixels } = MEDIA_LIMITS;
  if (width > maxImageSide || height > maxImageSide)
    return `the image is ${width}×${height} pixels; each side may be at most ${maxImageSide}`;
  if (width * height > maxImagePixels)
    return `the image is ${width}×${height} pixels, over the limit of ${maxImagePixels / 1e6} megapixels`;
  return null;
}

/** Why a video of this length is refused, or null. */
export function videoDurationProblem(seconds: number): string | null {
  return seconds > MEDIA_LIMITS.maxVideoSeconds + DURATION_SLACK_SECONDS
    ? `the video lasts ${seconds.toFixed(1)} s, over the limit of ${MEDIA_LIMITS.maxVideoSeconds} s`
    : null;
}

/** "340 KB", "8.2 MB": sizes as the LLM brief and error messages show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export const formatLimit = (bytes: number) => `${bytes / MiB} MiB`;
