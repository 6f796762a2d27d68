// Protocol `anthropic`: the Anthropic Messages API (POST {base_url}/messages).
import { z } from 'zod';
import { PROVIDER_CAUSES, PROVIDER_FAILURE, ProviderError } from '../errors.js';
import { postJson } from '../http.js';
import type { ChatPart } from '../prompts.js';
import type { ProviderProtocol } from '../protocol.js';
import {
  baseUrl,
  chatAdapter,
  chatEntry,
  timeoutMs,
  usageOrEstimate,
  type ChatCompletion,
  type ChatEntry,
} from '../chat.js';

export const ANTHROPIC_VERSION = '2023-06-01';

const messageSchema = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  stop_reason: z.string().nullish(),
  usage: z
    .object({
      input_tokens: z.number().int().min(0),
      output_tokens: z.number().int().min(0),
      // Prompt-cache tokens are input too, reported apart from input_tokens.
      cache_creation_input_tokens: z.number().int().min(0).nullish(),
      cache_read_input_tokens: z.number().int().min(0).nullish(),
    })
    .nullish(),
});

function toWire(p: ChatPart) {
  if (p.type === 'text') return { type: 'text', text: p.text };
  if (p.type === 'image') return { type: 'image', source: { type: 'url', url: p.url } };
  // The Messages API takes no video: the model gets the URL as text.
  return { type: 'text', text: `Video: ${p.url}` };
}

const anthropicChat: ChatCompletion = async (conn, chat, signal) => {
  const body = {
    model: conn.model.id,
    max_tokens: conn.entry.max_output_tokens,
    system: chat.system,
    messages: chat.messages.map((m) => ({ role: m.role, content: m.content.map(toWire) })),
  };
  const headers: Record<string, string> = {
    'anthropic-version': ANTHROPIC_VERSION,
    ...(conn.apiKey ? { 'x-api-key': conn.apiKey } : {}),
  };
  const raw = await postJson(`${baseUrl(conn)}/messages`, headers, body, { timeoutMs: timeoutMs(conn), signal });
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success)
    throw new ProviderError(
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.unusableAnswer,
      null,
      'answered with an unexpected Messages body',
    );
  const { content, stop_reason, usage } = parsed.data;
  const text = content.flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('');
  const reported = usage && {
    input_tokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
    output_tokens: usage.output_tokens,
  };
  const tokens = usageOrEstimate(reported ?? null, conn, chat, text);
  if (stop_reason === 'refusal')
    throw new ProviderError(
      PROVIDER_FAILURE.refused,
      PROVIDER_CAUSES.refused,
      tokens,
      'refused the content (stop_reason: refusal)',
    );
  return { text, usage: tokens };
};

export const anthropicProtocol: ProviderProtocol<ChatEntry> = {
  id: 'anthropic',
  entry: chatEntry,
  connect: (conn, signal) => chatAdapter(conn, anthropicChat, signal),
};
