import crypto from 'node:crypto';

/** Prefixed random ids: `gen_…`, `org_…`, `key_…`, `evt_…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${crypto.randomBytes(bytes).toString('hex')}`;
}

/** A new organization webhook signing secret (Standard Webhooks): `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}
