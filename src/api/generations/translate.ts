// The one place where the two request/response shapes meet the internal generation model:
// Responses request / Chat request → GenerationRequest, and a stored generation → either view.
import { invalidInput } from '../../errors.js';
import { chooseEngine, resolveCanvas, resolveDuration } from '../../engines/index.js';
import { assertProviderOrder, registryOf } from '../../providers/registry.js';
import type { AppDeps } from '../../http/context.js';
import type { ContentPart, GenerationProgress, GenerationRequest, GenerationStatus, InputMessage } from '../../shared.js';
import { LIMITS, type ChatRequest, type ResponsesRequest } from './schema.js';

type Common = Pick<ResponsesRequest, 'model' | 'engine' | 'expand_prompt' | 'width' | 'height' | 'provider' | 'webhook_url' | 'duration_seconds'>;

/** What request translation needs: the catalog (models per engine) and the config (provider registry). */
export type TranslateDeps = Pick<AppDeps, 'catalog' | 'config'>;

/**
 * Where each media part of a translated request came from (`input.0.content.1.image_url`), for the
 * media URL checks of the service, which answer 400 naming the part. Kept beside the request, not in
 * it: the internal request (stored, and sent through workflow history) stays shape-free.
 */
const MEDIA_PARAMS = new WeakMap<ContentPart, string>();
export const mediaParamOf = (part: ContentPart): string | undefined => MEDIA_PARAMS.get(part);

/**
 * Content of either shape as internal parts. The shapes differ only in part type names
 * (`input_text`/`text`, `input_image`/`image_url`, `input_video`/`video_url`); the field carrying the
 * value (`text`, `image_url`, `video_url`, urls already normalised by the schema) says which it is.
 */
type ShapePart = { text: string } | { image_url: string } | { video_url: string };
function toContentParts(content: string | ShapePart[], at: string): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i): ContentPart => {
    if ('text' in p) return { type: 'text', text: p.text };
    const part: ContentPart = 'image_url' in p ? { type: 'image', url: p.image_url } : { type: 'video', url: p.video_url };
    MEDIA_PARAMS.set(part, `${at}.${i}.${'image_url' in p ? 'image_url' : 'video_url'}`);
    return part;
  });
}

export function fromResponsesRequest(body: ResponsesRequest, deps: TranslateDeps): GenerationRequest {
  const messages: InputMessage[] =
    typeof body.input === 'string'
      ? [{ role: 'user', content: toContentParts(body.input, 'input') }]
      : body.input.map((m, i) => ({ role: m.role, content: toContentParts(m.content, `input.${i}.content`) }));
  return build(body, deps, messages, body.instructions ?? null, body.aspect_ratio ?? null, 'aspect_ratio');
}

export function fromChatRequest(body: ChatRequest, deps: TranslateDeps): GenerationRequest {
  // System (and developer) messages of the Chat shape are the Responses shape's `instructions`.
  const isSystem = (m: { role: string }) => m.role === 'system' || m.role === 'developer';
  const messages: InputMessage[] = body.messages.flatMap((m, i) =>
    isSystem(m) ? [] : [{ role: m.role, content: toContentParts(m.content, `messages.${i}.content`) }],
  );
  const systemText = body.messages
    .filter(isSystem)
    .flatMap((m) => toContentParts(m.content, 'messages').flatMap((p) => (p.type === 'text' ? [p.text] : [])));
  const instructions = [body.instructions, ...systemText].filter(Boolean).join('\n\n') || null;
  if (messages.length === 0) throw invalidInput('messages: at least one user message is required', 'messages');
  return build(body, deps, messages, instructions, body.aspectRatio ?? null, 'aspectRatio');
}

function build(
  body: Common,
  { catalog, config }: TranslateDeps,
  messages: InputMessage[],
  instructions: string | null,
  aspectRatio: string | null,
  aspectParam: string,
): GenerationRequest {
  const texts = messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
  const allText = [instructions ?? '', ...texts].join('\n');
  // Characters the requester wrote (the '\n' separators above are ours and do not count).
  if (allText.length - texts.length > LIMITS.maxTotalTextChars) {
    throw invalidInput(`Prompt text is longer than ${LIMITS.maxTotalTextChars} characters in total`, 'input');
  }
  if (texts.every((t) => t.trim() === '')) throw invalidInput('The prompt has no text', 'input');
  const media = messages.reduce((n, m) => n + m.content.filter((p) => p.type !== 'text').length, 0);
  if (media > LIMITS.maxMediaParts) {
    throw invalidInput(`At most ${LIMITS.maxMediaParts} image and video parts per request (got ${media})`, 'input');
  }

  const engine = chooseEngine(body.engine, allText);
  if (!catalog.price(engine, body.model)) {
    const offered = catalog.modelIds(engine);
    throw invalidInput(`model: "${body.model}" is not offered on engine ${engine}; choose one of ${offered.join(', ')}`, 'model');
  }
  if (body.provider?.order) assertProviderOrder(registryOf(config), body.provider.order, body.model);
  const canvas = resolveCanvas({ width: body.width, height: body.height, aspect_ratio: aspectRatio ?? undefined }, aspectParam);
  return {
    model: body.model,
    engine,
    engine_requested: body.engine,
    instructions,
    messages,
    expand_prompt: body.expand_prompt,
    width: canvas.width,
    height: canvas.height,
    aspect_ratio: aspectRatio,
    duration_seconds: resolveDuration(body.duration_seconds, texts.join('\n')),
    provider_order: body.provider?.order ?? null,
    webhook_url: body.webhook_url ?? null,
  };
}

// ---- Views -------------------------------------------------------------------------------------

export type SignedUrl = { url: string; expires_at: number };

/** A generation as both views need it: the stored record merged with live workflow state and signed URLs. */
export type GenerationSnapshot = {
  id: string;
  status: GenerationStatus;
  model: string;
  engine: string;
  provider: string | null;
  createdAtMs: number;
  completedAtMs: number | null;
  video: SignedUrl | null;
  artifact: SignedUrl | null;
  artifactType: string | null;
  usage: { input_tokens: number; output_tokens: number; cost_micros: number } | null;
  latencyMs: number | null;
  error: { code: string; message: string } | null;
  /** Live progress while in flight (extension); null once terminal. */
  progress: GenerationProgress | null;
};

const costUsd = (micros: number) => micros / 1_000_000;

export function toResponsesView(g: GenerationSnapshot) {
  const completed = g.status === 'completed';
  return {
    id: g.id,
    object: 'response' as const,
    status: g.status,
    model: g.model,
    engine: g.engine,
    provider: g.provider,
    created_at: Math.floor(g.createdAtMs / 1000),
    completed_at: g.completedAtMs,
    output: [
      {
        type: 'message' as const,
        id: `${g.id}_msg`,
        role: 'assistant' as const,
        status: completed ? 'completed' : g.status === 'queued' || g.status === 'in_progress' ? 'in_progress' : 'incomplete',
        content: completed && g.video ? [{ type: 'output_video' as const, video_url: g.video }] : [],
      },
    ],
    output_video_url: completed ? (g.video?.url ?? null) : null,
    usage: g.usage && {
      input_tokens: g.usage.input_tokens,
      output_tokens: g.usage.output_tokens,
      total_tokens: g.usage.input_tokens + g.usage.output_tokens,
      cost_usd: costUsd(g.usage.cost_micros),
    },
    latency_ms: g.latencyMs,
    error: g.error,
    artifact_url: g.artifact,
    artifact_type: g.artifactType,
    progress: g.progress,
  };
}

const CHAT_STATUS: Record<GenerationStatus, string> = {
  queued: 'pending',
  in_progress: 'processing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  incomplete: 'failed',
};

export function toChatView(g: GenerationSnapshot) {
  const completed = g.status === 'completed';
  return {
    id: g.id,
    object: 'chat.completion' as const,
    status: CHAT_STATUS[g.status],
    model: g.model,
    engine: g.engine,
    provider: g.provider,
    created: Math.floor(g.createdAtMs / 1000),
    completed_at: g.completedAtMs,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: null, video_url: completed ? g.video : null },
        finish_reason: completed ? ('stop' as const) : null,
      },
    ],
    usage: g.usage && {
      prompt_tokens: g.usage.input_tokens,
      completion_tokens: g.usage.output_tokens,
      total_tokens: g.usage.input_tokens + g.usage.output_tokens,
      cost_usd: costUsd(g.usage.cost_micros),
    },
    latency_ms: g.latencyMs,
    error: g.error && { message: g.error.message, type: g.error.code },
    artifact_url: g.artifact,
    artifact_type: g.artifactType,
    progress: g.progress,
  };
}
