// What the two chat protocols (OpenAI-compatible, Anthropic) have in common: the same expansion and
// composition conversations (prompts.ts), sent through each protocol's own wire format.
import { z } from 'zod';
import { logger } from '../logger.js';
import type { TokenUsage } from '../shared.js';
import { countTokens } from '../text/tokens.js';
import { compositionChat, expansionChat, type ChatRequest } from './prompts.js';
import { servedModel, type ProviderConnection } from './protocol.js';
import type { ProviderAdapter, ProviderReply } from './types.js';

/** The providers.json entry of a chat provider; a protocol with fields of its own extends it. */
export const chatEntry = z
  .object({
    base_url: z.url({ protocol: /^https?$/ }),
    /** Environment variable holding the API key; omitted for servers that need none (a private vLLM). */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
    timeout_seconds: z.number().positive().max(900).default(120),
    max_output_tokens: z.number().int().min(256).max(200_000).default(8192),
    models: z
      .record(z.string().min(1).max(100), servedModel)
      .refine((m) => Object.keys(m).length > 0, 'serves no model'),
  })
  .strict();
export type ChatEntry = z.infer<typeof chatEntry>;

export type ChatConnection<Entry extends ChatEntry = ChatEntry> = ProviderConnection<Entry>;

/** Sends one chat in a protocol's wire format; throws ProviderError. */
export type ChatCompletion<Entry extends ChatEntry = ChatEntry> = (
  conn: ChatConnection<Entry>,
  chat: ChatRequest,
  signal: AbortSignal,
) => Promise<ProviderReply>;

export function chatAdapter<Entry extends ChatEntry>(
  conn: ChatConnection<Entry>,
  complete: ChatCompletion<Entry>,
  signal: AbortSignal,
): ProviderAdapter {
  return {
    expand: (task) => complete(conn, expansionChat(task, conn.model.input), signal),
    compose: (task) => complete(conn, compositionChat(task, conn.model.input), signal),
  };
}

/**
 * The provider's reported usage; when a server reports none (some self-hosted ones), an estimate
 * from our tokenizer, so the call is still billed.
 */
export function usageOrEstimate(
  reported: TokenUsage | null,
  conn: ChatConnection,
  chat: ChatRequest,
  reply: string,
): TokenUsage {
  if (reported) return reported;
  logger.warn({ provider: conn.slug }, 'provider reported no token usage; billing an estimate');
  const sent = [
    chat.system,
    ...chat.messages.flatMap((m) => m.content.map((p) => (p.type === 'text' ? p.text : p.url))),
  ];
  return { input_tokens: countTokens(sent.join('\n')), output_tokens: countTokens(reply) };
}

export const baseUrl = (conn: ChatConnection) => conn.entry.base_url.replace(/\/+$/, '');
export const timeoutMs = (conn: ChatConnection) => Math.round(conn.entry.timeout_seconds * 1000);
