// Member passwords: scrypt (memory-hard) with a per-password random salt; the parameters are stored
// with the hash, so they can be raised later without invalidating existing hashes.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** 64 MiB and about as much CPU as OWASP's N=2^17,r=8,p=1 (one of its listed equivalent settings). */
const DEFAULT_PARAMS = { logN: 16, r: 8, p: 2 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

type Params = { logN: number; r: number; p: number };

const derive = (password: string, salt: Buffer, { logN, r, p }: Params, length: number) =>
  scrypt(password.normalize('NFKC'), salt, length, { N: 2 ** logN, r, p, maxmem: 256 * 1024 * 1024 });

export async function hashPassword(password: string, params: Params = DEFAULT_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params, KEY_LENGTH);
  return ['scrypt', params.logN, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time comparison; false for a malformed stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (![params.logN, params.r, params.p].every((n) => Number.isInteger(n) && n > 0) || params.logN > 20) return false;
  const actual = await derive(password, Buffer.from(salt, 'base64'), params, expected.length);
  return crypto.timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, checked when the email is unknown, so an unknown email costs the same
 * time as a wrong password (no account enumeration by timing).
 */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(crypto.randomBytes(16).toString('hex')));
