// The one place where the two request/response shapes meet the internal generation model:
// Responses request / Chat request → TranslatedRequest (the internal GenerationRequest and what the
// service keeps beside it), and a stored generation → either view.
import { invalidInput } from '../../errors.js';
import { chooseEngine, getEngine, resolveCanvas, resolveDuration } from '../../engines/index.js';
import {
  fillVariables,
  imageRefs,
  storyboardSchema,
  toStoryboard,
  type PublicStoryboard,
} from '../../storyboard/schema.js';
import { sceneTexts } from '../../storyboard/types.js';
import { assertProviderOrder, registryOf } from '../../providers/registry.js';
import type { AppDeps } from '../../http/context.js';
import {
  mediaPartsOf,
  type ContentPart,
  type GenerationProgress,
  type GenerationRequest,
  type GenerationStatus,
  type InputMessage,
  type OutputFormat,
  type VideoOutput,
} from '../../shared.js';
import { LIMITS, type ChatRequest, type ResponsesRequest } from './schema.js';

type Common = Pick<
  ResponsesRequest,
  | 'model'
  | 'engine'
  | 'expand_prompt'
  | 'width'
  | 'height'
  | 'provider'
  | 'webhook_url'
  | 'duration_seconds'
  | 'storyboard'
  | 'variables'
  | 'output_format'
  | 'transparent'
  | 'audio'
>;

/** What request translation needs: the catalog (models per engine) and the config (provider registry). */
export type TranslateDeps = Pick<AppDeps, 'catalog' | 'config'>;

/**
 * A create request of either shape, translated: everything the service needs to create the generation.
 * Only `request` is stored and sent through workflow history; the rest stays at the API.
 */
export type TranslatedRequest = {
  /** The internal request (shape-free: no body paths, no storyboard, only its size). */
  request: GenerationRequest;
  /**
   * Where each media part came from in the body (`input.0.content.1.image_url`), in the order of the
   * request's media parts, for the media URL checks' 400 naming the part.
   */
  mediaParams: string[];
  /**
   * A storyboard request's storyboard, filled and checked, as JSON, which the service stores under the generation;
   * null: none.
   */
  storyboardJson: string | null;
  /** The request's sound track parts (extension), in order: `audio-1` is the first. */
  audioParts: AudioPart[];
};

/** A sound track part (extension): kept apart from the prompt, stored for `audio.music`. */
export type AudioPart = { data: string; format: string; param: string };

/** An internal content part (or a sound track) and where it came from in the body. */
type LocatedPart = { part: ContentPart | { type: 'audio'; data: string; format: string }; param: string };

/**
 * Content of either shape as internal parts. The shapes differ only in part type names
 * (`input_text`/`text`, `input_image`/`image_url`, `input_video`/`video_url`); the field carrying the
 * value (`text`, `image_url`, `video_url`, urls already normalised by the schema) says which it is.
 */
type ShapePart =
  { text: string } | { image_url: string } | { video_url: string } | { input_audio: { data: string; format: string } };
function toContentParts(content: string | ShapePart[], at: string): LocatedPart[] {
  if (typeof content === 'string') return [{ part: { type: 'text', text: content }, param: at }];
  return content.map((p, i): LocatedPart => {
    if ('text' in p) return { part: { type: 'text', text: p.text }, param: `${at}.${i}.text` };
    if ('image_url' in p) return { part: { type: 'image', url: p.image_url }, param: `${at}.${i}.image_url` };
    if ('input_audio' in p) return { part: { type: 'audio', ...p.input_audio }, param: `${at}.${i}.input_audio.data` };
    return { part: { type: 'video', url: p.video_url }, param: `${at}.${i}.video_url` };
  });
}

/** One message of the request with its parts located. */
type LocatedMessage = { role: InputMessage['role']; content: LocatedPart[] };

export function fromResponsesRequest(body: ResponsesRequest, deps: TranslateDeps): TranslatedRequest {
  if (body.input === undefined && !body.storyboard) throw invalidInput('input: required (or a storyboard)', 'input');
  const messages: LocatedMessage[] =
    body.input === undefined
      ? []
      : typeof body.input === 'string'
        ? [{ role: 'user', content: toContentParts(body.input, 'input') }]
        : body.input.map((m, i) => ({ role: m.role, content: toContentParts(m.content, `input.${i}.content`) }));
  return build(body, deps, messages, body.instructions ?? null, body.aspect_ratio ?? null, 'aspect_ratio');
}

export function fromChatRequest(body: ChatRequest, deps: TranslateDeps): TranslatedRequest {
  // System (and developer) messages of the Chat shape are the Responses shape's `instructions`.
  const isSystem = (m: { role: string }) => m.role === 'system' || m.role === 'developer';
  const all = body.messages ?? [];
  const messages: LocatedMessage[] = all.flatMap((m, i) =>
    isSystem(m) ? [] : [{ role: m.role, content: toContentParts(m.content, `messages.${i}.content`) }],
  );
  const systemText = all
    .filter(isSystem)
    .flatMap((m) =>
      toContentParts(m.content, 'messages').flatMap(({ part }) => (part.type === 'text' ? [part.text] : [])),
    );
  const instructions = [body.instructions, ...systemText].filter(Boolean).join('\n\n') || null;
  if (messages.length === 0 && !body.storyboard)
    throw invalidInput('messages: at least one user message is required (or a storyboard)', 'messages');
  return build(body, deps, messages, instructions, body.aspectRatio ?? null, 'aspectRatio');
}

function build(
  body: Common,
  { catalog, config }: TranslateDeps,
  located: LocatedMessage[],
  instructions: string | null,
  aspectRatio: string | null,
  aspectParam: string,
): TranslatedRequest {
  const audioParts = located.flatMap((m) =>
    m.content.flatMap(({ part, param }) =>
      part.type === 'audio' ? [{ data: part.data, format: part.format, param }] : [],
    ),
  );
  if (audioParts.length > LIMITS.maxAudioParts)
    throw invalidInput(`At most ${LIMITS.maxAudioParts} input_audio parts per request`, audioParts.at(-1)!.param);
  const messages: InputMessage[] = located.map((m) => ({
    role: m.role,
    content: m.content.flatMap(({ part }) => (part.type === 'audio' ? [] : [part])),
  }));
  const mediaParams = located.flatMap((m) =>
    m.content.flatMap(({ part, param }) => (part.type === 'text' || part.type === 'audio' ? [] : [param])),
  );
  const texts = messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
  const allText = [instructions ?? '', ...texts].join('\n');
  // Characters the requester wrote (the '\n' separators above are ours and do not count).
  if (allText.length - texts.length > LIMITS.maxTotalTextChars) {
    throw invalidInput(`Prompt text is longer than ${LIMITS.maxTotalTextChars} characters in total`, 'input');
  }
  if (!body.storyboard && texts.every((t) => t.trim() === '')) throw invalidInput('The prompt has no text', 'input');
  if (body.variables && !body.storyboard)
    throw invalidInput('variables: they fill a storyboard’s placeholders; send a storyboard with them', 'variables');
  if (mediaParams.length > LIMITS.maxMediaParts) {
    throw invalidInput(
      `At most ${LIMITS.maxMediaParts} image and video parts per request (got ${mediaParams.length})`,
      'input',
    );
  }

  const storyboard = body.storyboard ? checkedStoryboard(body.storyboard, body, messages) : null;
  const engine = chooseEngine(body.engine, storyboard ? `${allText}\n${storyboard.texts}` : allText);
  if (storyboard && !getEngine(engine).drawStoryboard)
    throw invalidInput(`storyboard: engine ${engine} does not render storyboards`, 'engine');
  if (!catalog.price(engine, body.model)) {
    const offered = catalog.modelIds(engine);
    throw invalidInput(
      `model: "${body.model}" is not offered on engine ${engine}; choose one of ${offered.join(', ')}`,
      'model',
    );
  }
  if (body.provider?.order) assertProviderOrder(registryOf(config), body.provider.order, body.model);
  const canvas = resolveCanvas(
    { width: body.width, height: body.height, aspect_ratio: aspectRatio ?? undefined },
    aspectParam,
  );
  const request: GenerationRequest = {
    model: body.model,
    engine,
    engine_requested: body.engine,
    instructions,
    messages,
    expand_prompt: body.expand_prompt,
    width: canvas.width,
    height: canvas.height,
    aspect_ratio: aspectRatio,
    // A storyboard's length is its own (its scenes' seconds, or the duration it or the request gives).
    duration_seconds: storyboard
      ? storyboard.durationSeconds
      : resolveDuration(body.duration_seconds, texts.join('\n')),
    provider_order: body.provider?.order ?? null,
    webhook_url: body.webhook_url ?? null,
    ...videoOutput(body.output_format, body.transparent),
    ...(storyboard && { storyboard: { bytes: Buffer.byteLength(storyboard.json, 'utf8') } }),
    ...(body.audio && { audio: checkedAudio(body.audio, audioParts.length) }),
  };
  // The mix is muxed as AAC into an MP4; a WebM or GIF would drop it silently, so the pair is refused.
  if (request.output && request.audio && (request.audio.voice !== 'none' || request.audio.music !== 'none'))
    throw invalidInput(
      `audio: sound is delivered in MP4 only; output_format "${request.output.format}" has no sound track ` +
        '(leave output_format out, or send audio with voice and music "none")',
      'audio',
    );
  return { request, mediaParams, storyboardJson: storyboard?.json ?? null, audioParts };
}

/** The request's `audio`, defaults filled by the schema; what the schema cannot see is checked here. */
function checkedAudio(audio: NonNullable<Common['audio']>, parts: number): NonNullable<GenerationRequest['audio']> {
  if (audio.voice === 'none' && audio.captions !== 'none')
    throw invalidInput(
      'audio.captions: captions show the narration; they need a voice (audio.voice)',
      'audio.captions',
    );
  if (/^audio-/.test(audio.music) && Number(audio.music.slice('audio-'.length)) > parts)
    throw invalidInput(
      `audio.music: ${audio.music} names input_audio part ${audio.music.slice('audio-'.length)}, ` +
        `but the request has ${parts}`,
      'audio.music',
    );
  return { voice: audio.voice, music: audio.music, captions: audio.captions };
}

/**
 * The request's `output` (extension): absent for an opaque MP4, so such requests stay as they always were. A
 * transparent video is a WebM: with another `output_format` it is a 400 naming `transparent`.
 */
export function videoOutput(
  format: OutputFormat | undefined,
  transparent: boolean | undefined,
): { output?: VideoOutput } {
  if (transparent) {
    if (format !== undefined && format !== 'webm')
      throw invalidInput(
        `transparent: a transparent video is a WebM (VP9 with alpha); output_format "${format}" has no alpha channel ` +
          '(send "webm", or leave it out)',
        'transparent',
      );
    return { output: { format: 'webm', transparent: true } };
  }
  return format === undefined || format === 'mp4' ? {} : { output: { format, transparent: false } };
}

/**
 * A storyboard request's storyboard: placeholders filled from `variables` (a missing one is a 400
 * naming it), then read as the engines will (a 400 naming the path of what cannot be), its images
 * among the request's image parts. Nothing is planned: the storyboard is the video.
 */
function checkedStoryboard(sent: PublicStoryboard, body: Common, messages: InputMessage[]) {
  if (body.expand_prompt)
    throw invalidInput('expand_prompt: a storyboard is rendered as written; nothing is expanded', 'expand_prompt');
  const filled = fillVariables(sent, body.variables ?? {});
  const imageCount = mediaPartsOf({ messages }).filter((p) => p.kind === 'image').length;
  for (const { ref, param } of imageRefs(filled)) {
    if (Number(ref.slice('image-'.length)) > imageCount) {
      throw invalidInput(
        `${param}: ${ref} names image part ${ref.slice('image-'.length)}, ` +
          `but the request has ${imageCount} image part(s)`,
        param,
      );
    }
  }
  // Variables may make a text longer than its field allows: checked again, filled.
  const issue = storyboardSchema.safeParse(filled).error?.issues[0];
  if (issue) {
    const param = ['storyboard', ...issue.path.map(String)].join('.');
    throw invalidInput(`${param}: ${issue.message} (with the variables filled)`, param);
  }
  const board = toStoryboard(filled, { image: (ref) => ref, durationSeconds: body.duration_seconds ?? null });
  return {
    json: JSON.stringify(filled),
    durationSeconds: board.durationSeconds,
    texts: board.scenes.flatMap(sceneTexts).join('\n'),
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
  /** Extension: the storyboard the composition draws, when one is known (signed like the artifact). */
  storyboard: SignedUrl | null;
  /** Extension: the completed video's thumbnail and sprite sheet (src/video/previews.ts), signed; else null. */
  thumbnail: SignedUrl | null;
  spritesheet: SignedUrl | null;
  /** Extension: the captions (WebVTT) of a completed generation that asked for them (sidecar or burned). */
  captions: SignedUrl | null;
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
        status: completed
          ? 'completed'
          : g.status === 'queued' || g.status === 'in_progress'
            ? 'in_progress'
            : 'incomplete',
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
    storyboard_url: g.storyboard,
    thumbnail_url: g.thumbnail,
    spritesheet_url: g.spritesheet,
    captions_url: g.captions,
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
    storyboard_url: g.storyboard,
    thumbnail_url: g.thumbnail,
    spritesheet_url: g.spritesheet,
    captions_url: g.captions,
    progress: g.progress,
  };
}
