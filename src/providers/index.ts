// Orchestration providers: one call of one provider, as the composition activities make it. Routing
// between providers (order, fallback, repair rounds, usage sums) is the workflow's (workflows/compose.ts).
import type { GenerationRequest, TokenUsage } from '../shared.js';
import { anthropicChat } from './anthropic/adapter.js';
import { chatAdapter } from './chat.js';
import { extractComposition } from './extract.js';
import { localAdapter } from './local/adapter.js';
import { openaiChat } from './openai/adapter.js';
import type { ProviderConnection, ProviderRegistry, SecretReader } from './registry.js';
import type { Brief, ProviderAdapter, ProviderReply, Repair } from './types.js';

export { FINAL_PROVIDER_FAILURES, PROVIDER_FAILURE, ProviderError } from './errors.js';
export { assertProviderOrder, loadProviderRegistry, registryOf, type PlannedAttempt } from './registry.js';

export type ExpansionCall = { provider: string; request: GenerationRequest };
export type CompositionCall = { provider: string; request: GenerationRequest; expandedPrompt: string | null; repair: Repair | null };
export type CompositionDraft = { source: string; usage: TokenUsage };

export function adapterFor(conn: ProviderConnection, signal: AbortSignal): ProviderAdapter {
  const { entry } = conn;
  if (entry.protocol === 'local') return localAdapter;
  const chat = { ...conn, entry };
  return chatAdapter(chat, entry.protocol === 'anthropic' ? anthropicChat : openaiChat, signal);
}

/** The request's messages as one brief: every text part in order, every image and video. */
export function briefOf(request: GenerationRequest, expandedPrompt: string | null = null): Brief {
  const parts = request.messages.flatMap((m) => m.content);
  const text = parts.flatMap((p) => (p.type === 'text' && p.text.trim() ? [p.text.trim()] : [])).join('\n\n');
  const media = parts.flatMap((p) => (p.type === 'image' || p.type === 'video' ? [{ kind: p.type, url: p.url }] : []));
  return { text: expandedPrompt ?? text, media, instructions: request.instructions };
}

export type CallEnv = { registry: ProviderRegistry; secret: SecretReader; signal: AbortSignal };

function connect({ registry, secret, signal }: CallEnv, provider: string, request: GenerationRequest) {
  return adapterFor(registry.connect(provider, request.model, secret), signal);
}

/** The expand_prompt call: the prompt rewritten with the engine's guide (the original when the reply is empty). */
export async function expandPrompt(env: CallEnv, call: ExpansionCall): Promise<ProviderReply> {
  const { request } = call;
  const brief = briefOf(request);
  const reply = await connect(env, call.provider, request).expand({ engine: request.engine, width: request.width, height: request.height, brief });
  return { text: reply.text.trim() || brief.text, usage: reply.usage };
}

/** One composition (or repair) call: the composition extracted from the reply, and the tokens it used. */
export async function writeComposition(env: CallEnv, call: CompositionCall): Promise<CompositionDraft> {
  const { request } = call;
  const reply = await connect(env, call.provider, request).compose({
    engine: request.engine,
    width: request.width,
    height: request.height,
    brief: briefOf(request, call.expandedPrompt),
    repair: call.repair,
  });
  return { source: extractComposition(reply.text, request.engine), usage: reply.usage };
}
