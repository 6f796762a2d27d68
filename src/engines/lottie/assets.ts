// The requester's media in a Lottie render: image assets that refer to `assets/<name>` ("u":
// "assets/", "p": "<name>") are inlined as data URLs before the animation is loaded, since the player
// fetches nothing. Only files of the render's assets directory that are really images (sniffed) are
// inlined; anything else is left as written. ThorVG decodes PNG and WebP only, so other images (JPEG,
// GIF) and oversized ones are turned into a PNG by ffmpeg first.
import fs from 'node:fs/promises';
import path from 'node:path';
import { imageSize, sniffMedia } from '../../sniff.js';
import { imageToPng } from '../../video/index.js';

/** Longest side embedded as is; larger images are scaled down (more pixels only slow every frame). */
const MAX_EMBEDDED_SIDE = 2048;
const DRAWABLE_TYPES = new Set(['image/png', 'image/webp']);

/** `assets/<name>`: one file name, no directories. */
const ASSET_REF = /^(?:\.\/)?assets\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

type ImageAsset = { u?: unknown; p?: unknown; e?: unknown; layers?: unknown };

/** The animation with its `assets/` images embedded; `source` unchanged when there is nothing to embed. */
export async function inlineLottieAssets(
  source: string,
  assetsDir: string | undefined,
  ffmpegPath: string,
): Promise<string> {
  if (!assetsDir) return source;
  const animation = JSON.parse(source) as { assets?: unknown };
  if (!Array.isArray(animation.assets)) return source;
  const dataUrls = new Map<string, Promise<string | null>>();
  let changed = false;
  for (const asset of animation.assets as ImageAsset[]) {
    if (typeof asset !== 'object' || asset === null || asset.layers !== undefined || typeof asset.p !== 'string')
      continue;
    const name = ASSET_REF.exec(`${typeof asset.u === 'string' ? asset.u : ''}${asset.p}`)?.[1];
    if (!name) continue;
    if (!dataUrls.has(name)) dataUrls.set(name, imageDataUrl(path.join(assetsDir, name), ffmpegPath));
    const dataUrl = await dataUrls.get(name)!;
    if (!dataUrl) continue;
    asset.u = '';
    asset.p = dataUrl;
    asset.e = 1;
    changed = true;
  }
  return changed ? JSON.stringify(animation) : source;
}

async function imageDataUrl(file: string, ffmpegPath: string): Promise<string | null> {
  const bytes = await fs.readFile(file).catch(() => null);
  const type = bytes && sniffMedia(bytes);
  if (!bytes || type?.kind !== 'image') return null;
  const size = imageSize(bytes, type.mediaType);
  const drawable =
    DRAWABLE_TYPES.has(type.mediaType) && size !== null && Math.max(size.width, size.height) <= MAX_EMBEDDED_SIDE;
  if (drawable) return `data:${type.mediaType};base64,${bytes.toString('base64')}`;
  // An image ffmpeg cannot read is left as written.
  const png = await imageToPng(ffmpegPath, file, MAX_EMBEDDED_SIDE).catch(() => null);
  return png?.length ? `data:image/png;base64,${png.toString('base64')}` : null;
}
