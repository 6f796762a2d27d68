// Orchestration providers: one call of one provider, as the composition activities make it. Routing
// between providers (order, fallback, repair rounds, usage sums) is the workflow's (workflows/compose.ts).
import { speaks, type GenerationRequest, type MediaAsset, type TokenUsage } from '../shared.js';
import type { ExpansionCall } from '../temporal/contract.js';
import { extractComposition } from './extract.js';
import type { ProviderConnection } from './protocol.js';
import { protocolOf } from './protocols.js';
import type { ProviderEntry, ProviderRegistry, SecretReader } from './registry.js';
import type { Brief, ProviderAdapter, ProviderReply, Repair, VideoSpec } from './types.js';

export { FINAL_PROVIDER_FAILURES, PROVIDER_FAILURE, ProviderError } from './errors.js';
export { assertProviderOrder, loadProviderRegistry, registryOf } from './registry.js';

/**
 * One composition (or repair) call to a provider; the activity resolves storage keys to sources first. `assets`: the
 * request's stored media (absent: none).
 */
export type ProviderCompositionCall = {
  provider: string;
  request: GenerationRequest;
  expandedPrompt: string | null;
  repair: Repair | null;
  assets?: readonly MediaAsset[];
};
/** `storyboard`: the storyboard the composition draws (JSON), when the provider planned one (the embedded composer). */
export type WrittenComposition = { source: string; usage: TokenUsage; storyboard?: string };

/** The adapter of the connection's protocol (the registry has refused entries of any unregistered one). */
export function adapterFor(conn: ProviderConnection<ProviderEntry>, signal: AbortSignal): ProviderAdapter {
  return protocolOf(conn.entry.protocol)!.connect(conn, signal);
}

/**
 * The request's messages as one brief: every text part in order, every image and video, the stored assets, the brand
 * kit.
 */
export function briefOf(
  request: GenerationRequest,
  expandedPrompt: string | null = null,
  assets: readonly MediaAsset[] = [],
): Brief {
  const parts = request.messages.flatMap((m) => m.content);
  const text = parts.flatMap((p) => (p.type === 'text' && p.text.trim() ? [p.text.trim()] : [])).join('\n\n');
  const media = parts.flatMap((p) => (p.type === 'image' || p.type === 'video' ? [{ kind: p.type, url: p.url }] : []));
  return {
    text: expandedPrompt ?? text,
    media,
    instructions: request.instructions,
    assets,
    brand: request.brand ?? null,
  };
}

const videoSpec = (r: GenerationRequest): VideoSpec => ({
  engine: r.engine,
  width: r.width,
  height: r.height,
  durationSeconds: r.duration_seconds,
  ...(r.output?.transparent ? { transparent: true } : {}),
  narrate: speaks(r),
});

export type CallEnv = { registry: ProviderRegistry; secret: SecretReader; signal: AbortSignal };

function connect({ registry, secret, signal }: CallEnv, provider: string, request: GenerationRequest) {
  return adapterFor(registry.connect(provider, request.model, secret), signal);
}

/** The expand_prompt call: the prompt rewritten with the engine's guide (the original when the reply is empty). */
export async function expandPrompt(env: CallEnv, call: ExpansionCall): Promise<ProviderReply> {
  const { request } = call;
  const brief = briefOf(request, null, call.assets);
  const reply = await connect(env, call.provider, request).expand({ ...videoSpec(request), brief });
  return { text: reply.text.trim() || brief.text, usage: reply.usage };
}

/**
 * One composition (or repair) call: the composition (extracted from the reply unless it is verbatim), and the tokens it
 * used.
 */
export async function writeComposition(env: CallEnv, call: ProviderCompositionCall): Promise<WrittenComposition> {
  const { request } = call;
  const reply = await connect(env, call.provider, request).compose({
    ...videoSpec(request),
    brief: briefOf(request, call.expandedPrompt, call.assets),
    repair: call.repair,
  });
  const source = reply.verbatim ? reply.text : extractComposition(reply.text, request.engine);
  return { source, usage: reply.usage, ...(reply.storyboard && { storyboard: reply.storyboard }) };
}
