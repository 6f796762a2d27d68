// Types and names shared by the API, the workflows and the activities. Workflows import this
// module inside Temporal's deterministic sandbox, so it must stay free of Node and I/O imports.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

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
} as const;

export type EngineId = 'hyperframes' | 'lottie';
export const ENGINE_IDS = ['hyperframes', 'lottie'] as const satisfies readonly EngineId[];

/** The internal status vocabulary is the Responses view's; the Chat view translates it. */
export type GenerationStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';
export const TERMINAL_STATUSES: readonly GenerationStatus[] = ['completed', 'failed', 'cancelled', 'incomplete'];

/** One content part, whatever request shape it came from. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string }
  | { type: 'video'; url: string };

export type InputMessage = { role: 'system' | 'developer' | 'user' | 'assistant'; content: ContentPart[] };

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
  provider_order: string[] | null;
  webhook_url: string | null;
};

export type GenerationWorkflowInput = {
  generationId: string;
  organizationId: string;
  request: GenerationRequest;
  /** Unix ms when the API accepted the request (latency is measured from here). */
  createdAtMs: number;
};

export type TokenUsage = { input_tokens: number; output_tokens: number };

export type GenerationError = { code: string; message: string };

/** What the workflow's `state` query answers while the generation is in flight. */
export type GenerationLiveState = {
  status: GenerationStatus;
  provider: string | null;
};

export type Composition = { source: string; provider: string };

export type StoredMedia = { key: string; content_type: string };

export type RenderedVideo = {
  video: StoredMedia;
  artifact: StoredMedia;
  duration_seconds: number;
};

/** Written to PostgreSQL once, when the generation reaches a terminal state. */
export type GenerationOutcome = {
  generationId: string;
  status: Extract<GenerationStatus, 'completed' | 'failed' | 'cancelled'>;
  provider: string | null;
  usage: TokenUsage | null;
  rendered: RenderedVideo | null;
  error: GenerationError | null;
};
