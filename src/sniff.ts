// What a media file really is, from its first bytes (magic numbers), never from a Content-Type
// header or a data: URL's declared type: PNG, JPEG, GIF and WebP images; MP4/MOV (ISO BMFF `ftyp`)
// and WebM videos. Image dimensions are read from the headers (no decoding). Pure, on the ground
// floor: the media checks (src/media/) and the engines (Lottie's embedded images) both use it.
import type { MediaKind } from './shared.js';

export type SniffedType = { kind: MediaKind; mediaType: string; extension: string };

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const ascii = (b: Uint8Array, at: number, length: number) => {
  const part = b.subarray(Math.min(at, b.length), Math.min(at + length, b.length));
  return Buffer.from(part.buffer, part.byteOffset, part.length).toString('latin1');
};
const startsWith = (b: Uint8Array, bytes: number[], at = 0) =>
  b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);

/** ISO BMFF brands of still images (HEIF, AVIF): an `ftyp` box, but not a video we accept. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

/** The type the bytes say, or null when they are none of the accepted ones. */
export function sniffMedia(b: Uint8Array): SniffedType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: 'image', mediaType: 'image/png', extension: 'png' };
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { kind: 'image', mediaType: 'image/jpeg', extension: 'jpg' };
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')
    return { kind: 'image', mediaType: 'image/gif', extension: 'gif' };
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP')
    return { kind: 'image', mediaType: 'image/webp', extension: 'webp' };
  if (ascii(b, 4, 4) === 'ftyp' && b.length >= 12) {
    const brand = ascii(b, 8, 4);
    if (IMAGE_BRANDS.has(brand.trim())) return null;
    return brand === 'qt  '
      ? { kind: 'video', mediaType: 'video/quicktime', extension: 'mov' }
      : { kind: 'video', mediaType: 'video/mp4', extension: 'mp4' };
  }
  // EBML header, DocType "webm" (Matroska files say "matroska").
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(b, 4, 60).includes('webm'))
    return { kind: 'video', mediaType: 'video/webm', extension: 'webm' };
  return null;
}

export type ImageSize = { width: number; height: number };

/** Width and height as displayed (JPEG EXIF rotation applied), or null when the header is unreadable. */
export function imageSize(b: Uint8Array, mediaType: string): ImageSize | null {
  const size = rawImageSize(b, mediaType);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function rawImageSize(b: Uint8Array, mediaType: string): ImageSize | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    switch (mediaType) {
      case 'image/png':
        return ascii(b, 12, 4) === 'IHDR' ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
      case 'image/gif':
        return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
      case 'image/webp':
        return webpSize(b, view);
      case 'image/jpeg':
        return jpegSize(b, view);
      default:
        return null;
    }
  } catch {
    return null; // truncated: a read past the end
  }
}

function webpSize(b: Uint8Array, view: DataView): ImageSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && startsWith(b, [0x9d, 0x01, 0x2a], 23)) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  return null;
}

/** Start-of-frame markers carry the size: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegSize(b: Uint8Array, view: DataView): ImageSize | null {
  let orientation = 1;
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // no length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame header
    const length = view.getUint16(i + 2);
    if (marker === 0xe1 && ascii(b, i + 4, 6) === 'Exif\0\0')
      orientation = exifOrientation(b, i + 10, i + 2 + length) ?? orientation;
    if (isStartOfFrame(marker)) {
      const height = view.getUint16(i + 5);
      const width = view.getUint16(i + 7);
      // Orientations 5–8 rotate by 90°: browsers display the image with its sides swapped.
      return orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
    }
    i += 2 + length;
  }
  return null;
}

/** The EXIF Orientation tag (0x0112) of IFD0 in the TIFF structure at [start, end), if any. */
function exifOrientation(b: Uint8Array, start: number, end: number): number | null {
  if (end > b.length || end - start < 8) return null;
  const view = new DataView(b.buffer, b.byteOffset + start, end - start);
  const little = ascii(b, start, 2) === 'II';
  if (!little && ascii(b, start, 2) !== 'MM') return null;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > view.byteLength) return null;
  const entries = view.getUint16(ifd, little);
  for (let k = 0; k < entries; k++) {
    const at = ifd + 2 + k * 12;
    if (at + 12 > view.byteLength) return null;
    if (view.getUint16(at, little) === 0x0112) return view.getUint16(at + 8, little);
  }
  return null;
}
