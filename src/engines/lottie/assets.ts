// The requester's media in a Lottie render: image assets that refer to `assets/<name>` ("u":
// "assets/", "p": "<name>") are inlined as data URLs before the animation is loaded, since the player
// fetches nothing. Only files of the render's assets directory that are really images (sniffed) are
// inlined; anything else is left as written.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sniffMedia } from '../../media/sniff.js';

/** `assets/<name>`: one file name, no directories. */
const ASSET_REF = /^(?:\.\/)?assets\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

type ImageAsset = { u?: unknown; p?: unknown; e?: unknown; layers?: unknown };

/** The animation with its `assets/` images embedded; `source` unchanged when there is nothing to embed. */
export async function inlineLottieAssets(source: string, assetsDir: string | undefined): Promise<string> {
  if (!assetsDir) return source;
  const animation = JSON.parse(source) as { assets?: unknown };
  if (!Array.isArray(animation.assets)) return source;
  const dataUrls = new Map<string, Promise<string | null>>();
  let changed = false;
  for (const asset of animation.assets as ImageAsset[]) {
    if (typeof asset !== 'object' || asset === null || asset.layers !== undefined || typeof asset.p !== 'string') continue;
    const name = ASSET_REF.exec(`${typeof asset.u === 'string' ? asset.u : ''}${asset.p}`)?.[1];
    if (!name) continue;
    if (!dataUrls.has(name)) dataUrls.set(name, imageDataUrl(path.join(assetsDir, name)));
    const dataUrl = await dataUrls.get(name)!;
    if (!dataUrl) continue;
    asset.u = '';
    asset.p = dataUrl;
    asset.e = 1;
    changed = true;
  }
  return changed ? JSON.stringify(animation) : source;
}

async function imageDataUrl(file: string): Promise<string | null> {
  const bytes = await fs.readFile(file).catch(() => null);
  const type = bytes && sniffMedia(bytes);
  return bytes && type?.kind === 'image' ? `data:${type.mediaType};base64,${bytes.toString('base64')}` : null;
}
