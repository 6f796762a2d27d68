// Signed storage URLs on dashboard pages: each one's origin joins the page's CSP (media-src for the
// videos, img-src for their posters), so the browser loads them from the storage's own host.
import type { Storage } from '../storage/index.js';
import type { DashboardContext } from './context.js';
import { posterUrl } from './posters.js';

/** Allows the origin of `url` on the page being answered; returns `url`. */
export function allowMedia<T extends string | null>(ctx: DashboardContext, url: T): T {
  if (url) ctx.state.mediaOrigins = [...(ctx.state.mediaOrigins ?? []), new URL(url).origin];
  return url;
}

/** A signed URL of the stored object (a video), allowed by the page's CSP; null for no key. */
export async function mediaUrl(ctx: DashboardContext, storage: Storage, key: string | null): Promise<string | null> {
  return key ? allowMedia(ctx, (await storage.url(key)).url) : null;
}

/** The generation's poster (signed), allowed by the page's CSP; null when it has none. */
export async function pagePosterUrl(
  ctx: DashboardContext,
  storage: Storage,
  generationId: string,
): Promise<string | null> {
  return allowMedia(ctx, await posterUrl(storage, generationId));
}
