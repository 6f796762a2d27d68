// The `Idempotency-Key` header of the create endpoints: any printable ASCII string of at most 255
// characters, scoped to the organization, kept 24 hours (src/db/idempotency.ts). The request is
// identified by its shape and its validated body.
import crypto from 'node:crypto';
import type { Context } from 'koa';
import { invalidInput } from '../../errors.js';
import type { Idempotency } from './service.js';

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's idempotency key and hash, or undefined without the header. */
export function idempotencyOf(ctx: Pick<Context, 'get'>, shape: string, body: unknown): Idempotency | undefined {
  const key = ctx.get('idempotency-key');
  if (!key) return undefined;
  if (!IDEMPOTENCY_KEY.test(key))
    throw invalidInput('Idempotency-Key must be 1 to 255 printable ASCII characters', 'Idempotency-Key');
  return {
    key,
    requestHash: crypto
      .createHash('sha256')
      .update(`${shape}\n${JSON.stringify(body)}`)
      .digest('hex'),
  };
}
