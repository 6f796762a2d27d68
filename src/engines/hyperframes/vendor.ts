// Local copies of the browser libraries compositions load from CDNs. Renders run offline, so a
// <script src="https://cdn…/gsap…/ScrollTrigger.min.js"> is pointed at the same file from
// node_modules, copied into the render's project directory.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** `aliases`: last URL segments (package names) that mean the library's main file. */
type Library = { name: string; urlPattern: RegExp; dir: string; defaultFile: string; aliases: string[] };

const LIBRARIES: Library[] = [
  {
    name: 'gsap',
    urlPattern: /gsap/i,
    dir: path.dirname(require.resolve('gsap/dist/gsap.min.js')),
    defaultFile: 'gsap.min.js',
    aliases: ['gsap', 'tweenmax'],
  },
  {
    name: 'lottie-web',
    urlPattern: /lottie|bodymovin/i,
    dir: path.dirname(require.resolve('lottie-web/build/player/lottie.min.js')),
    defaultFile: 'lottie.min.js',
    aliases: ['lottie-web', 'bodymovin'],
  },
];

/** Directory (relative to the project) the local copies are served from. */
export const VENDOR_DIR = 'vendor';

export type VendorFile = { library: string; file: string; from: string };

const filesOf = new Map<string, string[]>();
const listDir = (dir: string) => filesOf.get(dir) ?? filesOf.set(dir, fs.readdirSync(dir)).get(dir)!;

/** The local copy serving a remote script URL, or undefined when the library is not shipped. */
export function localCopyFor(src: string): VendorFile | undefined {
  let url: URL;
  try {
    url = new URL(src, 'https://relative.invalid/');
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || url.hostname === 'relative.invalid') return undefined;
  const library = LIBRARIES.find((l) => l.urlPattern.test(url.pathname));
  if (!library) return undefined;
  // Last path segment without version or extension: "gsap@3.12.5" → gsap, "ScrollTrigger.min.js" → scrolltrigger.
  const segments = url.pathname.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const base = last
    .replace(/@[^/]*$/, '')
    .replace(/(\.min)?\.js$/i, '')
    .toLowerCase();
  const files = listDir(library.dir);
  const file =
    files.find((f) => f.toLowerCase() === `${base}.min.js`) ??
    files.find((f) => f.toLowerCase() === `${base}.js`) ??
    (library.aliases.includes(base) ? library.defaultFile : undefined);
  return file ? { library: library.name, file, from: path.join(library.dir, file) } : undefined;
}
