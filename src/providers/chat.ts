// What the two chat protocols (OpenAI-compatible, Anthropic) have in common: the same expansion and
// composition conversations (prompts.ts), sent through each protocol's own wire format.
import { logger } from '../logger.js';
import type { TokenUsage } from '../shared.js';
import { compositionChat, expansionChat, type ChatRequest } from './prompts.js';
import type { HttpProviderEntry, ServedModel } from './registry.js';
import { countTokens } from './tokens.js';
import type { ProviderAdapter, ProviderReply } from './types.js';

export type ChatConnection = { slug: string; entry: HttpProviderEntry; model: ServedModel; apiKey: string | null };

/** Sends one chat in a protocol's wire format; throws ProviderError. */
export type ChatCompletion = (conn: ChatConnection, chat: ChatRequest, signal: AbortSignal) => Promise<ProviderReply>;

export function chatAdapter(conn: ChatConnection, complete: ChatCompletion, signal: AbortSignal): ProviderAdapter {
  return {
    expand: (task) => complete(conn, expansionChat(task, conn.model.input), signal),
    compose: (task) => complete(conn, compositionChat(task, conn.model.input), signal),
  };
}

/**
 * The provider's reported usage; when a server reports none (some self-hosted ones), an estimate
 * from our tokenizer, so the call is still billed.
 */
export function usageOrEstimate(reported: TokenUsage | null, conn: ChatConnection, chat: ChatRequest, reply: string): TokenUsage {
  if (reported) return reported;
  logger.warn({ provider: conn.slug }, 'provider reported no token usage; billing an estimate');
  const sent = [chat.system, ...chat.messages.flatMap((m) => m.content.map((p) => (p.type === 'text' ? p.text : p.url)))];
  return { input_tokens: countTokens(sent.join('\n')), output_tokens: countTokens(reply) };
}

export const baseUrl = (conn: ChatConnection) => conn.entry.base_url.replace(/\/+$/, '');
export const timeoutMs = (conn: ChatConnection) => Math.round(conn.entry.timeout_seconds * 1000);
