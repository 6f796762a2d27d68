// Storage keys are relative paths like `generations/gen_abc/video.mp4`: they become file paths
// (local driver) and object keys (S3), so only a safe alphabet is accepted.
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

export function isValidKey(key: string): boolean {
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH && key.split('/').every((s) => SEGMENT.test(s));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** The key as a URL path (each segment percent-encoded; the alphabet makes this a no-op today). */
export const keyToUrlPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');
