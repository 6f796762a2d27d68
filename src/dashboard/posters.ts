// Poster frames of finished videos. The render stores one beside each video, under
// `posterKey` (src/storage/keys.ts; activities/render.ts), before the generation completes; older
// generations have none, and their pages and rows simply show no poster.
import { LocalStorage, type Storage } from '../storage/index.js';
import { posterKey } from '../storage/keys.js';

/** Whether a completed generation has a poster never changes: answers are kept (a bounded number). */
const MAX_KNOWN = 5000;
const known = new WeakMap<Storage, Map<string, boolean>>();

/** Whether `key` is stored: a file for the local driver, a one-byte ranged GET of its signed URL otherwise. */
async function isStored(storage: Storage, key: string): Promise<boolean | null> {
  if (storage instanceof LocalStorage) return (await storage.stat(key)) !== undefined;
  try {
    const { url } = await storage.url(key, { ttlSeconds: 60 });
    const res = await fetch(url, { headers: { range: 'bytes=0-0' }, signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    if (res.ok) return true;
    // A missing object is 404, or 403 where the credentials may not list the bucket.
    return res.status === 404 || res.status === 403 ? false : null;
  } catch {
    return null; // unknown this time (network): no poster now, ask again next time
  }
}

/** A signed URL of the generation's poster, or null when it has none. Only for completed generations. */
export async function posterUrl(storage: Storage, generationId: string): Promise<string | null> {
  const key = posterKey(generationId);
  let cache = known.get(storage);
  if (!cache) known.set(storage, (cache = new Map()));
  let stored = cache.get(key);
  if (stored === undefined) {
    const answer = await isStored(storage, key);
    if (answer === null) return null;
    if (cache.size >= MAX_KNOWN) cache.delete(cache.keys().next().value!);
    cache.set(key, (stored = answer));
  }
  return stored ? (await storage.url(key)).url : null;
}
