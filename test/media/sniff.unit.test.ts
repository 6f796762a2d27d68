// Media type sniffing (magic numbers), image dimensions from headers, data: URL decoding and the
// media limits. Fixtures are small real files written by ffmpeg (122×44 images; 1-second videos,
// first bytes only), plus hand-made headers for the cases ffmpeg does not write.
import { describe, expect, it } from 'vitest';
import { decodeDataUrl } from '../../src/media/dataUrl.js';
import { formatBytes, imageSizeProblem, MEDIA_LIMITS, videoDurationProblem } from '../../src/media/limits.js';
import { imageSize, sniffMedia } from '../../src/sniff.js';

const b64 = (s: string) => Buffer.from(s, 'base64');
const FILES = {
  png: b64(
    'iVBORw0KGgoAAAANSUhEUgAAAHoAAAAsCAIAAAAl7DtZAAAACXBIWXMAAAABAAAAAQBPJcTWAAAAiUlEQVR4nO3OUQkAIABEsevfWbCF+3jCAmxn' +
      '+57xgxQ/SPGDFD9I8YMUP0jxgxQ/SPGDFD9I8YMUP0jxgxQ/SPGDFD9I8YMUP0jxgxQ/SPGDFD9I8YMUP0jxgxQ/SPGDFD9I8YMUP0jxgxQ/SP' +
      'GDFD9I8YMUP0jxgxQ/SPGDFD9I8YMUP0jxg5QL9ky6RcVQp3EAAAAASUVORK5CYII=',
  ),
  jpg: b64(
    '/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgI' +
      'CAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABNAAEBAAAAAAAAAAAAAAAAAAAABgEBAQEAAAAAAAAAAAAAAAAAAAYHEAEAAAAAAAAAAAAAAAAAAA' +
      'AAEQEAAAAAAAAAAAAAAAAAAAAA/8AAEQgALAB6AwEiAAIRAAMRAP/aAAwDAQACEQMRAD8AiwEo38AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
      'AAAAAAAAAAAB/9k=',
  ),
  gif: b64('R0lGODlhegAsAPcfMQAAACQAAEgAAGwAAJAAALQAANg='),
  webpLossy: b64(
    'UklGRl4AAABXRUJQVlA4IFIAAABwBACdASp6ACwAPpFIoUylpCMiIWgAsBIJaQDV5oAACzUzWmzZs2bNmzYwAAD+7tPf/8Buvi2mX//c4H/c4H/c' +
      '4H8bVXhCKFDFpJDpBTebAAAA',
  ),
  webpLossless: b64('UklGRiIAAABXRUJQVlA4TBUAAAAvecAKAAcQ9Y/+B4CE8H++FNH/1BcA'),
  mp4: b64('AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDE='),
  mov: b64('AAAAFGZ0eXBxdCAgAAACAHF0ICAAAAAId2lkZQAABDU='),
  webm: b64('GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQJChYECGFOAZwEAAAAAAARB'),
};

/** A VP8X (extended) WebP header: canvas width-1 and height-1 as 24-bit little-endian numbers. */
function webpExtended(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

/** A JPEG whose APP1 Exif segment says Orientation 6 (rotated 90°), then a 4000×3000 SOF0. */
function rotatedJpeg(): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4); // IFD0 at 8
  tiff.writeUInt16LE(1, 8); // one entry
  tiff.writeUInt16LE(0x0112, 10); // Orientation
  tiff.writeUInt16LE(3, 12); // SHORT
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(6, 18);
  const app1 = Buffer.concat([
    Buffer.from([0xff, 0xe1, 0, 2 + 6 + tiff.length]),
    Buffer.from('Exif\0\0', 'latin1'),
    tiff,
  ]);
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, 0x0b, 0xb8, 0x0f, 0xa0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof, Buffer.from([0xff, 0xd9])]);
}

describe('sniffMedia', () => {
  it.each([
    ['png', 'image', 'image/png', 'png'],
    ['jpg', 'image', 'image/jpeg', 'jpg'],
    ['gif', 'image', 'image/gif', 'gif'],
    ['webpLossy', 'image', 'image/webp', 'webp'],
    ['webpLossless', 'image', 'image/webp', 'webp'],
    ['mp4', 'video', 'video/mp4', 'mp4'],
    ['mov', 'video', 'video/quicktime', 'mov'],
    ['webm', 'video', 'video/webm', 'webm'],
  ] as const)('%s → %s %s', (file, kind, mediaType, extension) => {
    expect(sniffMedia(FILES[file])).toEqual({ kind, mediaType, extension });
  });

  it(
    'judges the bytes, not what they claim: ' + 'HTML, SVG, text, HEIF/AVIF, Matroska and empty input are none of ours',
    () => {
      const ftyp = (brand: string) =>
        Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(12)]);
      for (const bytes of [
        Buffer.from('<!doctype html><html><body>not an image</body></html>'),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        Buffer.from('data:image/png;base64,'),
        ftyp('heic'),
        ftyp('avif'),
        ftyp('mif1'),
        Buffer.concat([
          Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88]),
          Buffer.from('matroska', 'latin1'),
        ]),
        Buffer.alloc(0),
        Buffer.from([0x89, 0x50, 0x4e]), // a truncated PNG signature
      ]) {
        expect(sniffMedia(bytes)).toBeNull();
      }
    },
  );
});

describe('imageSize', () => {
  it.each([
    ['png', 'image/png'],
    ['jpg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webpLossy', 'image/webp'],
    ['webpLossless', 'image/webp'],
  ] as const)('%s: 122×44, as ffprobe reads it', (file, type) => {
    expect(imageSize(FILES[file], type)).toEqual({ width: 122, height: 44 });
  });

  it('extended WebP (VP8X) canvas size', () => {
    expect(imageSize(webpExtended(1200, 800), 'image/webp')).toEqual({ width: 1200, height: 800 });
  });

  it('JPEG with EXIF orientation 6: the sides as displayed (swapped)', () => {
    expect(imageSize(rotatedJpeg(), 'image/jpeg')).toEqual({ width: 3000, height: 4000 });
  });

  it('truncated or corrupt headers: null, never a throw', () => {
    expect(imageSize(FILES.png.subarray(0, 20), 'image/png')).toBeNull();
    expect(imageSize(FILES.jpg.subarray(0, 100), 'image/jpeg')).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0x00, 0x00]), 'image/jpeg')).toBeNull();
    expect(imageSize(FILES.webpLossy.subarray(0, 24), 'image/webp')).toBeNull();
    expect(imageSize(Buffer.from('GIF89a'), 'image/gif')).toBeNull();
  });
});

describe('decodeDataUrl', () => {
  const png64 = FILES.png.toString('base64');
  it('base64 (standard or URL-safe alphabet, line breaks ignored) and percent-encoding', () => {
    expect(decodeDataUrl(`data:image/png;base64,${png64}`)).toEqual({ bytes: FILES.png });
    expect(decodeDataUrl(`data:;base64,${png64.replace(/(.{60})/g, '$1\n')}`)).toEqual({ bytes: FILES.png });
    expect(decodeDataUrl(`DATA:image/png;BASE64,${FILES.png.toString('base64url')}`)).toEqual({ bytes: FILES.png });
    const percent = [...FILES.gif].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    expect(decodeDataUrl(`data:image/gif,${percent}`)).toEqual({ bytes: FILES.gif });
  });

  it('the declared type is not trusted: a "PNG" holding HTML decodes to HTML, which sniffing refuses', () => {
    const decoded = decodeDataUrl(`data:image/png;base64,${Buffer.from('<html></html>').toString('base64')}`);
    expect('bytes' in decoded && sniffMedia(decoded.bytes)).toBeNull();
  });

  it('malformed: no comma, not base64, bad percent-encoding, characters beyond a byte', () => {
    for (const url of [
      'data:image/png;base64',
      'data:image/png;base64,****',
      'data:image/png,%zz',
      'data:image/png,\u20ac',
      'https://x/',
    ]) {
      expect(decodeDataUrl(url)).toHaveProperty('problem');
    }
  });
});

describe('limits', () => {
  it('images: 16384 px a side, 50 megapixels', () => {
    expect(imageSizeProblem({ width: 16_384, height: 3000 })).toBeNull();
    expect(imageSizeProblem({ width: 16_385, height: 10 })).toMatch(/each side may be at most 16384/);
    expect(imageSizeProblem({ width: 8000, height: 7000 })).toMatch(/over the limit of 50 megapixels/);
  });

  it('videos: at most 60 s (container rounding tolerated)', () => {
    expect(videoDurationProblem(60.04)).toBeNull();
    expect(videoDurationProblem(61)).toBe('the video lasts 61.0 s, over the limit of 60 s');
  });

  it('sizes: 10 MiB images, 100 MiB videos; formatted for people', () => {
    expect(MEDIA_LIMITS.maxBytes).toEqual({ image: 10 * 2 ** 20, video: 100 * 2 ** 20 });
    expect([formatBytes(999), formatBytes(340_000), formatBytes(8_200_000)]).toEqual(['999 B', '340 KB', '8.2 MB']);
  });
});

describe('GIF frames', () => {
  /** A GIF with a `screen` logical screen and one frame declaring `frame` (a 2-colour table, a tiny LZW body). */
  function gif(screen: [number, number], frame: [number, number, number, number]) {
    const u16 = (n: number) => [n & 0xff, n >> 8];
    return Buffer.from([
      ...Buffer.from('GIF89a'),
      ...u16(screen[0]),
      ...u16(screen[1]),
      0x80, // a global colour table of 2 entries
      0,
      0,
      ...[0, 0, 0, 255, 255, 255],
      0x21, // a graphic control extension, skipped
      0xf9,
      4,
      0,
      0,
      0,
      0,
      0,
      0x2c, // the frame: left, top, width, height
      ...frame.flatMap(u16),
      0,
      2, // LZW minimum code size, one data sub-block, the terminator
      2,
      0x4c,
      0x01,
      0,
      0x3b,
    ]);
  }

  it('a 1×1 screen whose frame declares 65535×65535 is judged by the frame, and refused', () => {
    const bomb = gif([1, 1], [0, 0, 65535, 65535]);
    expect(sniffMedia(bomb)?.mediaType).toBe('image/gif');
    const size = imageSize(bomb, 'image/gif')!;
    expect(size).toEqual({ width: 65535, height: 65535 });
    expect(imageSizeProblem(size)).toMatch(/65535×65535 pixels/);
    // A frame placed far off a small screen counts with its offset.
    expect(imageSize(gif([10, 10], [60000, 0, 2, 2]), 'image/gif')).toEqual({ width: 60002, height: 10 });
    // A frame inside its screen changes nothing.
    expect(imageSize(gif([120, 44], [0, 0, 120, 44]), 'image/gif')).toEqual({ width: 120, height: 44 });
  });
});
