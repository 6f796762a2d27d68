import path from 'node:path';

/**
 * A module beside `importMetaUrl`, with the same extension: `.ts` when run from source with tsx,
 * `.js` once compiled. Engines name their render entry with it.
 */
export function siblingModule(importMetaUrl: string, name: string): URL {
  return new URL(`./${name}${path.extname(new URL(importMetaUrl).pathname)}`, importMetaUrl);
}
