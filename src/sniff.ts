// What a media file really is, from its first bytes (magic numbers), never from a Content-Type
// header or a data: URL's declared type: PNG, JPEG, GIF and WebP images; MP4/MOV (ISO BMFF `ftyp`)
// and WebM videos; MP3, WAV, AAC (ADTS), M4A, Ogg (Vorbis, Opus) and FLAC sound. Image dimensions are read
// from the headers (no decoding). Pure, on the ground floor: the media checks (src/media/), the engines
// (Lottie's embedded images) and the user's sound tracks (src/audio/) use it.
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

/** The sound formats a user's track may come in. */
export const AUDIO_FORMATS = ['mp3', 'wav', 'aac', 'm4a', 'ogg', 'opus', 'flac'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** ISO BMFF brands of audio-only files (iTunes audio, audiobooks, protected audio). */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ']);

/** Length of an ID3v2 tag at the start (its 10-byte header plus a sync-safe size), 0 when there is none. */
function id3Length(b: Uint8Array): number {
  if (ascii(b, 0, 3) !== 'ID3' || b.length < 10) return 0;
  const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
  return 10 + size + (b[5]! & 0x10 ? 10 : 0); // a footer doubles the header
}

/**
 * The sound format the bytes say, or null when they are none of AUDIO_FORMATS. `ftyp` files are `m4a` only under an
 * audio brand (M4A, M4B, M4P); `mp4` otherwise: the caller decides, by probing, whether that MP4 holds sound alone.
 */
export function sniffAudio(b: Uint8Array): AudioFormat | 'mp4' | null {
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') return 'wav';
  if (ascii(b, 0, 4) === 'fLaC') return 'flac';
  if (ascii(b, 0, 4) === 'OggS') {
    // The first page holds the first stream's identification header: Opus says OpusHead, Vorbis \x01vorbis.
    const head = ascii(b, 28, 8);
    if (head === 'OpusHead') return 'opus';
    return head.slice(1, 7) === 'vorbis' || head.slice(1, 5) === 'FLAC' ? 'ogg' : null;
  }
  if (ascii(b, 4, 4) === 'ftyp' && b.length >= 12) return AUDIO_BRANDS.has(ascii(b, 8, 4)) ? 'm4a' : 'mp4';
  // MPEG frames may follow an ID3 tag: the 12-bit sync word, then the layer says MP3 (layer III) or ADTS AAC (00).
  const at = id3Length(b);
  if (b.length >= at + 4 && b[at] === 0xff && (b[at + 1]! & 0xf0) === 0xf0) {
    const layer = (b[at + 1]! >> 1) & 0x03;
    if (layer === 0) return 'aac';
    if (layer === 1) return 'mp3';
    return null;
  }
  // MPEG-2.5 streams use an 11-bit sync word (0xFFE); only layer III of it exists in practice.
  if (b.length >= at + 4 && b[at] === 0xff && (b[at + 1]! & 0xe6) === 0xe2) return 'mp3';
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
        return gifSize(b, view);
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

/**
 * A GIF's size for the pixel limits: its logical screen, grown to hold every frame's declared
 * rectangle (a decoder allocates each frame as declared: a 1×1 screen may declare a 65535×65535
 * frame). Frames past a truncation are not there to decode.
 */
function gifSize(b: Uint8Array, view: DataView): ImageSize {
  let width = view.getUint16(6, true);
  let height = view.getUint16(8, true);
  const colourTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  const skipSubBlocks = (at: number) => {
    while (at < b.length && b[at] !== 0) at += b[at]! + 1;
    return at + 1;
  };
  let i = 13 + colourTable(b[10]!);
  while (i < b.length) {
    const block = b[i];
    if (block === 0x21) i = skipSubBlocks(i + 2);
    else if (block === 0x2c) {
      if (i + 10 > b.length) break;
      width = Math.max(width, view.getUint16(i + 1, true) + view.getUint16(i + 5, true));
      height = Math.max(height, view.getUint16(i + 3, true) + view.getUint16(i + 7, true));
      i = skipSubBlocks(i + 10 + colourTable(b[i + 9]!) + 1);
    } else break; // the trailer (0x3b), or bytes no decoder reads further
  }
  return { width, height };
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
