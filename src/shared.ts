// The Temporal contract: names, and the types of workflow inputs, results, queries and activity
// calls, shared by the API, the workflows and the activities. Workflows import this module inside
// Temporal's deterministic sandbox, so it stays free of Node and I/O imports. Workflow history holds
// what crosses this contract: storage keys and small facts, never a composition's source.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { MediaAsset } from './engines/types.js';
import type { WebhookEventStatus } from './db/webhooks.js';
import type { WebhookEventType } from './webhooks/events.js';

/** Task queues: I/O-bound work (LLM calls, storage, webhooks) and CPU-bound rendering scale separately. */
export const TASK_QUEUES = {
  io: 'video-io',
  render: 'video-render',
} as const;

/** Custom search attributes registered on the Temporal namespace so the UI can filter generations. */
export const SEARCH_ATTRIBUTES = {
  organization: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  engine: defineSearchAttributeKey('Engine', SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('GenerationStatus', SearchAttributeType.KEYWORD),
  /** In flight: the stage (composing, rendering…); cleared at the end. */
  stage: defineSearchAttributeKey('GenerationStage', SearchAttributeType.KEYWORD),
} as const;

/**
 * An engine of the registry (src/engines/registry.ts). A string, not a union: engines are
 * registered at run time, so requests are checked against the registry, not the compiler.
 */
export type EngineId = string;

/** The internal status vocabulary is the Responses view's; the Chat view translates it. */
export type GenerationStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';
export const TERMINAL_STATUSES: readonly GenerationStatus[] = ['completed', 'failed', 'cancelled', 'incomplete'];

/** One content part, whatever request shape it came from. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string }
  | { type: 'video'; url: string };

export type InputMessage = { role: 'system' | 'developer' | 'user' | 'assistant'; content: ContentPart[] };

// ---- User media ----------------------------------------------------------------------------------

export type { MediaAsset };
export type MediaKind = MediaAsset['kind'];

/**
 * A media part's URL after request time: an https URL (fetched by the fetchMedia activity), or
 * `asset:<name>` for an image the API received as a data: URL and already stored as that asset.
 */
export const ASSET_URL_PREFIX = 'asset:';

/** One image or video part of a request, numbered per kind in request order: image 1, image 2, video 1… */
export type MediaPart = { kind: MediaKind; number: number; url: string };

/** The request's image and video parts, numbered (the asset of image part n is named `image-<n>.<ext>`). */
export function mediaPartsOf(request: Pick<GenerationRequest, 'messages'>): MediaPart[] {
  const counts: Record<MediaKind, number> = { image: 0, video: 0 };
  return request.messages.flatMap((m) =>
    m.content.flatMap((p) => (p.type === 'image' || p.type === 'video' ? [{ kind: p.type, number: ++counts[p.type], url: p.url }] : [])),
  );
}

/** Storage key of a generation's media asset; compositions refer to it as `assets/<name>`. */
export const mediaAssetKey = (generationId: string, name: string) => `generations/${generationId}/assets/${name}`;

/** Storage key of a generation's poster frame (a JPEG stored beside the video by the render activity). */
export const posterKey = (generationId: string) => `generations/${generationId}/poster.jpg`;

/** Storage key of one chunk of a generation's video, kept until the chunks are joined. */
export const chunkKey = (generationId: string, index: number) => `generations/${generationId}/chunks/${index}.mp4`;

/** What the fetchMedia activity downloads (or finds stored) and describes. */
export type MediaFetchCall = { generationId: string; parts: MediaPart[] };

/** An asset as a render needs it: its description and where it is stored. */
export type RenderAsset = MediaAsset & { key: string };

/** The one internal generation request: both request shapes translate into it (src/api/generations/translate.ts). */
export type GenerationRequest = {
  model: string;
  /** The engine that renders (after resolving `auto`). */
  engine: EngineId;
  engine_requested: EngineId | 'auto';
  instructions: string | null;
  messages: InputMessage[];
  expand_prompt: boolean;
  width: number;
  height: number;
  aspect_ratio: string | null;
  /** Seconds the video must last (the request's duration_seconds, else a length the prompt states); null: the composition's own. */
  duration_seconds: number | null;
  provider_order: string[] | null;
  webhook_url: string | null;
};

export type GenerationWorkflowInput = {
  generationId: string;
  organizationId: string;
  request: GenerationRequest;
  /** Unix ms when the API accepted the request (latency is measured from here). */
  createdAtMs: number;
  /**
   * The provider the generation will try first (the head of its planned order, as the API sees it):
   * named by the queued event. Absent in executions started before it existed.
   */
  firstProvider?: string;
};

export type TokenUsage = { input_tokens: number; output_tokens: number };

export type GenerationError = { code: string; message: string };

// ---- Live progress (interface extension) ------------------------------------------------------------

export const GENERATION_STAGES = ['queued', 'composing', 'rendering', 'encoding', 'storing'] as const;
export type GenerationStage = (typeof GENERATION_STAGES)[number];

/** A generation in flight, as clients see it (`progress` in both views; null once terminal). */
export type GenerationProgress = {
  stage: GenerationStage;
  /** The whole generation, 0–100; never decreases. */
  percent: number;
  frames_rendered: number | null;
  frames_total: number | null;
  eta_seconds: number | null;
  /** While composing: the provider being called, and the repair round (0: the first draft). */
  provider: string | null;
  repair_round: number | null;
};

/** What the render activity reports to its workflow (a signal, throttled in the activity). */
export type RenderProgressReport = {
  stage: Extract<GenerationStage, 'rendering' | 'encoding' | 'storing'>;
  /** Of the render (frames and encoding), 0–1. */
  fraction: number;
  frames_rendered: number | null;
  frames_total: number | null;
  eta_seconds: number | null;
  /** From one chunk of a split render: its index (the workflow sums the chunks). Absent: the whole render. */
  chunk?: number;
};

/** What the workflow's `state` query answers while the generation is in flight. */
export type GenerationLiveState = {
  status: GenerationStatus;
  provider: string | null;
  progress: GenerationProgress | null;
  /** Counts every change of status or progress: stream events are numbered by it. */
  seq: number;
};

/** The valid composition the compose step settled on: its storage key, and the provider that wrote it. */
export type Composition = { key: string; provider: string };

export type StoredMedia = { key: string; content_type: string };

export type RenderedVideo = {
  video: StoredMedia;
  artifact: StoredMedia;
  duration_seconds: number;
};

// ---- Activity calls ------------------------------------------------------------------------------

/** One provider of a route: tried, or skipped for the recorded reason. */
export type PlannedAttempt = { provider: string; skipped: string | null; timeoutMs: number };
export type RoutePlan = { attempts: PlannedAttempt[]; repairRounds: number };

/** `assets`: the request's media, fetched and stored (absent: none). */
export type ExpansionCall = { provider: string; request: GenerationRequest; assets?: MediaAsset[] };
export type ExpansionResult = { text: string; usage: TokenUsage };

/** A draft that failed validation, sent back to the LLM with the findings. */
export type RepairOf = { draftKey: string; findings: Finding[] };

export type CompositionCall = {
  generationId: string;
  provider: string;
  request: GenerationRequest;
  expandedPrompt: string | null;
  repair: RepairOf | null;
  /** 1, 2, …: numbers the drafts of one generation (each is stored under its own key). */
  draftNumber: number;
  /** The request's media, fetched and stored: the LLM is told their names, types and sizes. */
  assets: MediaAsset[];
};
/** A composition written by a provider: stored under `key`; only the key enters workflow history. */
export type CompositionDraft = { key: string; usage: TokenUsage };

/** `durationSeconds`: the length the composition must have (the request's), null when free; `assets`: what it may refer to under `assets/`. */
export type ValidationInput = { engine: EngineId; key: string; width: number; height: number; durationSeconds: number | null; assets: MediaAsset[] };

/** `assets`: downloaded into the render's work directory and served to the composition under `assets/`. */
export type RenderInput = { generationId: string; engine: EngineId; compositionKey: string; width: number; height: number; assets: RenderAsset[] };

/**
 * One chunk of a render split across render workers: output frames [start, end) of `total`. Chunks
 * are `size` frames long (the last may be shorter), each its own encode starting on a keyframe.
 */
export type RenderChunk = { index: number; count: number; start: number; end: number; size: number; total: number };
/** How a video renders: in one piece (no chunks) or as these chunks, joined afterwards. */
export type RenderPlan = { chunks: RenderChunk[] };
/** A rendered chunk, stored under `key` until the join. */
export type RenderedChunk = { index: number; key: string; frames: number };
export type ChunkRenderInput = RenderInput & { chunk: RenderChunk };
export type ChunkJoinInput = RenderInput & { chunks: RenderedChunk[] };

/** One problem found in a composition; `severity: 'error'` means the composition is invalid. */
export type Finding = {
  code: string;
  message: string;
  /** Where: a JSON path for Lottie (`/layers/2/ks`), a selector, element id or snippet for HTML. */
  location?: string;
  fix_hint?: string;
  severity: 'error' | 'warning';
};

/** Written to PostgreSQL once, when the generation reaches a terminal state. */
export type GenerationOutcome = {
  generationId: string;
  status: Extract<GenerationStatus, 'completed' | 'failed' | 'cancelled'>;
  provider: string | null;
  usage: TokenUsage | null;
  rendered: RenderedVideo | null;
  error: GenerationError | null;
  /** The live state's `seq` once terminal: the number of the stream's final event (absent: unknown). */
  eventSeq?: number;
};

// ---- Webhook delivery ----------------------------------------------------------------------------

/** What the generation workflow knows when it emits an event. */
export type GenerationEventFacts = {
  type: WebhookEventType;
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
  provider: string | null;
  errorMessage: string | null;
  /** Storage key of the video (completed events): the delivery signs its URL when it builds the event. */
  videoKey: string | null;
  /** Progress events: where the generation is. */
  progress?: GenerationProgress;
};

/** Input of one delivery workflow: everything needed to build its event once. */
export type WebhookDeliveryInput = {
  /** `evt_…`; also the delivery workflow id and the `service-webhook-id` header of every attempt. */
  eventId: string;
  generationId: string;
  organizationId: string;
  webhookUrl: string;
  engine: EngineId;
  model: string;
  facts: GenerationEventFacts;
};

/** What the delivery workflow needs once the event is recorded. */
export type WebhookDeliveryPlan = { retryScheduleMs: number[] };

/** How one HTTPS attempt went (src/webhooks/send.ts). */
export type WebhookSendOutcome = {
  statusCode: number | null;
  durationMs: number;
  /** Why no response came (policy, DNS, TLS, connection, timeout); null when the receiver answered. */
  error: string | null;
  retryAfterMs: number | null;
  responseExcerpt: string | null;
};

export type WebhookAttemptResult = WebhookSendOutcome & { eventId: string; attempt: number; attemptedAtMs: number };

export type WebhookDeliveryResult = { status: WebhookEventStatus | 'disabled'; attempts: number };
