import path from 'node:path';

/**
 * A module at `relative` (no extension) from `importMetaUrl`, with the same extension: `.ts` when run
 * from source with tsx, `.js` once compiled (npm run build). Engines name their render entry with it.
 */
export function siblingModule(importMetaUrl: string, relative: string): URL {
  return new URL(
    `${relative.startsWith('.') ? relative : `./${relative}`}${path.extname(new URL(importMetaUrl).pathname)}`,
    importMetaUrl,
  );
}
