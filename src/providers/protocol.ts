// What a provider protocol is: the shape of its providers.json entries and how to reach a provider
// that speaks it. Each protocol is one module (src/providers/<protocol>/) listed in protocols.ts; the
// registry (registry.ts) knows protocols only through this type.
import { z } from 'zod';
import type { ProviderAdapter } from './types.js';

/** Media a model can look at; other media of a request are described to it as URLs in the text. */
const mediaKind = z.enum(['image', 'video']);
export type MediaKind = z.infer<typeof mediaKind>;

/** A served model: the provider's model id, or `{id, input}` when the model also accepts images/videos. */
export const servedModel = z
  .union([z.string().min(1), z.object({ id: z.string().min(1), input: z.array(mediaKind).default([]) }).strict()])
  .transform((m) => (typeof m === 'string' ? { id: m, input: [] as MediaKind[] } : m));
export type ServedModel = z.infer<typeof servedModel>;

/** The fields of an entry the registry reads, whatever its protocol. */
export type ProtocolEntry = {
  timeout_seconds: number;
  /** The most a call may answer, in tokens (credit holds count every call at this size: src/credits/hold.ts). */
  max_output_tokens: number;
  /** Our model ids → how the provider serves each; `*` serves every catalog model under our own id. */
  models: Record<string, ServedModel> | '*';
  /** Environment variable holding the API key; absent when the provider needs none. */
  api_key_env?: string;
};

/** A provider ready to be called: its entry, the model id to send and the API key (if it needs one). */
export type ProviderConnection<Entry extends ProtocolEntry = ProtocolEntry> = {
  slug: string;
  entry: Entry;
  model: ServedModel;
  apiKey: string | null;
};

export interface ProviderProtocol<Entry extends ProtocolEntry = ProtocolEntry> {
  /** The `protocol` value of the entries that speak it. */
  readonly id: string;
  /** The entry without its `protocol` field; strict, so a misspelt key is refused at load. */
  readonly entry: z.ZodType<Entry, unknown>;
  /** Tried after every other provider when the file sets no default_order (an offline stand-in). */
  readonly triedLast?: boolean;
  // A method rather than a function property, so that a protocol typed for its own entries fits the
  // protocol list: the registry hands it only entries its `entry` schema parsed.
  connect(conn: ProviderConnection<Entry>, signal: AbortSignal): ProviderAdapter;
}
