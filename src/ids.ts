import crypto from 'node:crypto';

/** Prefixed random ids: `gen_…`, `org_…`, `key_…`, `evt_…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${crypto.randomBytes(bytes).toString('hex')}`;
}
