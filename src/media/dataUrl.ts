// data: URLs of request images (RFC 2397): decoded to bytes. The declared media type is ignored:
// what the bytes are is sniffed from them (src/sniff.ts).

/** The bytes of a `data:` URL, or a reason it is not one we can read. */
export function decodeDataUrl(url: string): { bytes: Buffer } | { problem: string } {
  const comma = url.indexOf(',');
  if (!/^data:/i.test(url) || comma < 0) return { problem: 'not a data: URL (data:[<type>][;base64],<data>)' };
  const header = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    // Standard or URL-safe alphabet; whitespace (line breaks some encoders add) is ignored.
    const compact = payload.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact))
      return { problem: 'the base64 data holds characters outside the base64 alphabet' };
    return { bytes: Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64') };
  }
  // Percent-encoded octets: each %XX is one byte, other (single-byte) characters stand for themselves.
  const bytes = Buffer.alloc(payload.length);
  let n = 0;
  for (let i = 0; i < payload.length; i++) {
    const c = payload.charCodeAt(i);
    if (c === 0x25) {
      const hex = payload.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/i.test(hex)) return { problem: 'the data is not valid percent-encoding' };
      bytes[n++] = parseInt(hex, 16);
      i += 2;
    } else if (c > 0xff) {
      return { problem: 'the data holds characters that are not octets (use base64)' };
    } else {
      bytes[n++] = c;
    }
  }
  return { bytes: bytes.subarray(0, n) };
}
