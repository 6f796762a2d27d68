// HTTP Range (RFC 9110 §14) for one byte range; multi-range requests are answered whole.

export type ByteRange = { start: number; end: number };

/**
 * The range a `Range` header asks for within `size` bytes: undefined to send the whole body
 * (no header, another unit, several ranges, or syntax we ignore), 'unsatisfiable' for a 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    // Suffix range: the last N bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined; // invalid: ignore the header
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** A strong validator of a stored file: objects are written once under their key and never changed. */
export function entityTag(size: number, modified: Date): string {
  return `"${size.toString(16)}-${modified.getTime().toString(16)}"`;
}

/**
 * Whether a Range request gets its range (RFC 9110 §13.1.5): always without `If-Range`; with it, only
 * when its validator matches the file, else the whole file (200). An entity tag matches by strong
 * comparison (a weak tag never does); a date only when it is exactly the Last-Modified (whole seconds)
 * and that date is strong, i.e. at least one second before now.
 */
export function rangeApplies(
  ifRange: string | undefined,
  etag: string,
  lastModified: Date,
  nowMs = Date.now(),
): boolean {
  if (!ifRange) return true;
  const validator = ifRange.trim();
  if (validator.startsWith('"')) return validator === etag;
  if (validator.startsWith('W/')) return false;
  const date = Date.parse(validator);
  const modifiedMs = Math.floor(lastModified.getTime() / 1000) * 1000;
  return !Number.isNaN(date) && date === modifiedMs && nowMs - lastModified.getTime() >= 1000;
}
