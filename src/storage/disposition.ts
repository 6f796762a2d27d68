// How a stored object is offered to a browser (Content-Disposition), the same for both drivers:
// pictures (not SVG, a document that runs scripts), video and sound inline; anything else, such as
// an HTML or JSON artifact written from a user's prompt, as a download unless the client asks to view it.
import { generationOfKey } from './keys.js';

/** Shown inline by a browser: pictures except SVG, video, sound. */
export const viewable = (contentType: string) =>
  /^(video|audio)\//.test(contentType) || (contentType.startsWith('image/') && !contentType.startsWith('image/svg'));

/** `<generation id>-<file name>` of a key, in characters safe in any header and file system. */
export function downloadName(key: string): string {
  const file = key.split('/').at(-1)!;
  const generationId = generationOfKey(key);
  const name = generationId ? `${generationId}-${file}` : file;
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 150) || 'media';
}

/** The Content-Disposition of `key`; `inline` when the client asks to view a non-viewable type. */
export function contentDisposition(key: string, contentType: string, inline = false): string {
  return `${viewable(contentType) || inline ? 'inline' : 'attachment'}; filename="${downloadName(key)}"`;
}
