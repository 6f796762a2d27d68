// Signed media URLs of the local driver: HMAC-SHA256 over the key and the expiry time. The
// signature is the authentication, so the media route is public.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

export function signMedia(secret: string, key: string, expires: number): string {
  return crypto.createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

/** Checks the signature first (so a tampered expiry is `invalid`), then the expiry. */
export function checkMediaSignature(
  secret: string,
  key: string,
  expires: string | undefined,
  sig: string | undefined,
  nowSeconds: number,
): SignatureCheck {
  if (!expires || !/^\d{1,12}$/.test(expires) || !sig) return 'invalid';
  const expected = Buffer.from(signMedia(secret, key, Number(expires)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) < nowSeconds ? 'expired' : 'valid';
}

export const SECRET_FILE = 'media-url-secret';
const secrets = new Map<string, string>();

/**
 * The signing secret: MEDIA_URL_SECRET when set, else one generated once into
 * `<DATA_DIR>/media-url-secret` (mode 0600) and read by every process sharing DATA_DIR (API, workers).
 */
export function mediaUrlSecret(storage: { mediaUrlSecret?: string }, dataDir: string): string {
  if (storage.mediaUrlSecret) return storage.mediaUrlSecret;
  const file = path.join(dataDir, SECRET_FILE);
  const known = secrets.get(file);
  if (known) return known;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    // Write a complete temp file, then link it into place: link fails if another process won the race,
    // and a reader never sees a half-written secret.
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (delete it to generate a new one)`);
  secrets.set(file, secret);
  return secret;
}
