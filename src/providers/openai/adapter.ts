// Protocol `openai`: OpenAI-compatible Chat Completions (POST {base_url}/chat/completions), spoken by
// OpenAI, OpenRouter, Ollama, vLLM and llama.cpp's server.
import { z } from 'zod';
import { PROVIDER_CAUSES, PROVIDER_FAILURE, ProviderError } from '../errors.js';
import { postJson } from '../http.js';
import type { ChatMessage } from '../prompts.js';
import type { ProviderProtocol } from '../protocol.js';
import { baseUrl, chatAdapter, chatEntry, timeoutMs, usageOrEstimate, type ChatCompletion } from '../chat.js';

const entry = chatEntry.extend({
  /**
   * The request field carrying max_output_tokens. OpenAI's own API wants `max_completion_tokens`
   * (its o-series models refuse `max_tokens`); many compatible servers know only `max_tokens`.
   */
  max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
});
type OpenaiEntry = z.infer<typeof entry>;

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) }).nullish(),
});

/** Text-only messages go as a plain string: some self-hosted servers accept nothing else. */
function toWire(m: ChatMessage) {
  if (m.content.every((p) => p.type === 'text'))
    return { role: m.role, content: m.content.map((p) => p.text).join('\n\n') };
  return {
    role: m.role,
    content: m.content.map((p) => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      // `video_url` parts are OpenRouter's extension for video-capable models.
      return p.type === 'image'
        ? { type: 'image_url', image_url: { url: p.url } }
        : { type: 'video_url', video_url: { url: p.url } };
    }),
  };
}

const openaiChat: ChatCompletion<OpenaiEntry> = async (conn, chat, signal) => {
  const body = {
    model: conn.model.id,
    [conn.entry.max_tokens_field]: conn.entry.max_output_tokens,
    messages: [{ role: 'system', content: chat.system }, ...chat.messages.map(toWire)],
  };
  const headers: Record<string, string> = conn.apiKey ? { authorization: `Bearer ${conn.apiKey}` } : {};
  const raw = await postJson(`${baseUrl(conn)}/chat/completions`, headers, body, {
    timeoutMs: timeoutMs(conn),
    signal,
  });
  const parsed = completionSchema.safeParse(raw);
  if (!parsed.success)
    throw new ProviderError(
      PROVIDER_FAILURE.unavailable,
      PROVIDER_CAUSES.unusableAnswer,
      null,
      'answered with an unexpected Chat Completions body',
    );
  const { choices, usage } = parsed.data;
  const { message, finish_reason } = choices[0]!;
  const text = message.content ?? '';
  const tokens = usageOrEstimate(
    usage ? { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens } : null,
    conn,
    chat,
    text,
  );
  if (message.refusal || finish_reason === 'content_filter') {
    throw new ProviderError(
      PROVIDER_FAILURE.refused,
      PROVIDER_CAUSES.refused,
      tokens,
      `refused the content: ${message.refusal ?? 'content filter'}`,
    );
  }
  return { text, usage: tokens };
};

export const openaiProtocol: ProviderProtocol<OpenaiEntry> = {
  id: 'openai',
  entry,
  connect: (conn, signal) => chatAdapter(conn, openaiChat, signal),
};
