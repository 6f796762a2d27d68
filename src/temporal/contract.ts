// The Temporal contract: everything that crosses a Temporal boundary — task queues, search
// attributes, workflow names and signatures, queries and signals, workflow inputs and results, and
// the activity interfaces the workflows call and the workers implement. The API, the workers, the
// activities and the workflows import this module; nothing outside workflows/ imports a workflow.
// It runs inside Temporal's deterministic sandbox too, so it imports only the domain vocabulary
// (src/shared.ts) and Temporal's own definitions. Workflow history holds what crosses it: storage
// keys and small facts, never a composition's source.
import { defineSearchAttributeKey, SearchAttributeType, type Priority } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type {
  EngineId,
  Finding,
  GenerationError,
  GenerationProgress,
  GenerationRequest,
  GenerationStage,
  GenerationStatus,
  MediaAsset,
  MediaPart,
  RenderChunk,
  TokenUsage,
  VideoOutput,
  WebhookEventStatus,
  WebhookEventType,
} from '../shared.js';

/** Task queues: I/O-bound work (LLM calls, storage, webhooks) and CPU-bound rendering scale separately. */
export const TASK_QUEUES = {
  io: 'video-io',
  render: 'video-render',
} as const;

/**
 * Task priority of what a client waits on once the work is done: a generation's terminal record and
 * every webhook delivery (its workflow tasks and each of its activities). Temporal dispatches a
 * queue's backlog by `priorityKey` first (1 goes first; unset is 3), then across fairness keys, so
 * these overtake compositions and renders waiting in the same queues (test/workflows/priority.test.ts).
 * Set on each command with the organization's fairness key, not left to inheritance.
 */
export const deliveryPriority = (organizationId: string): Priority => ({ priorityKey: 1, fairnessKey: organizationId });

/** Custom search attributes registered on the Temporal namespace so the UI can filter generations. */
export const SEARCH_ATTRIBUTES = {
  organization: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  engine: defineSearchAttributeKey('Engine', SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('GenerationStatus', SearchAttributeType.KEYWORD),
  /** In flight: the stage (composing, rendering…); cleared at the end. */
  stage: defineSearchAttributeKey('GenerationStage', SearchAttributeType.KEYWORD),
} as const;

// ---- Workflows --------------------------------------------------------------------------------------

/** Workflow type names, as the worker registers the functions of workflows/index.ts. */
export const WORKFLOW_TYPES = {
  generation: 'generationWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
} as const;

/** One generation (workflow id = generation id): queued → in_progress → completed | failed | cancelled. */
export type GenerationWorkflow = (input: GenerationWorkflowInput) => Promise<GenerationStatus>;
/** One lifecycle event's delivery (workflow id = event id), with its durable retry schedule. */
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;

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

/** What the generation workflow's `state` query answers while the generation is in flight. */
export type GenerationLiveState = {
  status: GenerationStatus;
  provider: string | null;
  progress: GenerationProgress | null;
  /** Counts every change of status or progress: stream events are numbered by it. */
  seq: number;
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

/** The live state of a generation in flight (the API's GET and streams ask it). */
export const stateQuery = defineQuery<GenerationLiveState>('state');
/** From the render activity: how far the render is (throttled there). */
export const renderProgressSignal = defineSignal<[RenderProgressReport]>('renderProgress');

// ---- Activity calls ------------------------------------------------------------------------------

/** What the fetchMedia activity downloads (or finds stored) and describes. */
export type MediaFetchCall = { generationId: string; parts: MediaPart[] };

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
/**
 * A composition written by a provider: stored under `key`; only the key enters workflow history.
 * `storyboardKey`: where the storyboard it draws is stored (the embedded composer's plan, or a
 * storyboard request's), absent when none is known.
 */
export type CompositionDraft = { key: string; usage: TokenUsage; storyboardKey?: string | null };

/**
 * The valid composition the compose step settled on: its storage key, the provider that wrote it, its storyboard's key.
 */
export type Composition = { key: string; provider: string; storyboardKey?: string | null };

/**
 * A storyboard request's composition: its stored storyboard (storyboardKey) drawn by the engine, no provider called.
 */
export type StoryboardDrawCall = { generationId: string; request: GenerationRequest; assets: MediaAsset[] };

/**
 * `durationSeconds`: the length the composition must have (the request's), null when free; `assets`: what it may refer
 * to under `assets/`.
 */
export type ValidationInput = {
  engine: EngineId;
  key: string;
  width: number;
  height: number;
  durationSeconds: number | null;
  assets: MediaAsset[];
};

/** An asset as a render needs it: its description and where it is stored. */
export type RenderAsset = MediaAsset & { key: string };

/** `assets`: downloaded into the render's work directory and served to the composition under `assets/`. */
export type RenderInput = {
  generationId: string;
  engine: EngineId;
  compositionKey: string;
  width: number;
  height: number;
  assets: RenderAsset[];
  /** The request's `output` (WebM, GIF, transparent); absent: an opaque MP4. */
  output?: VideoOutput;
};

/** How a video renders: in one piece (no chunks) or as these chunks, joined afterwards. */
export type RenderPlan = { chunks: RenderChunk[] };
/** A rendered chunk, stored under `key` until the join. */
export type RenderedChunk = { index: number; key: string; frames: number };
export type ChunkRenderInput = RenderInput & { chunk: RenderChunk };
export type ChunkJoinInput = RenderInput & { chunks: RenderedChunk[] };

export type StoredMedia = { key: string; content_type: string };

export type RenderedVideo = {
  video: StoredMedia;
  artifact: StoredMedia;
  duration_seconds: number;
};

/**
 * What the voice says (task queue `video-io`): the storyboard's narration, else `fallbackText` (the
 * user's prompt, for a composition an LLM wrote without a storyboard) over the whole video.
 */
export type NarrationCall = {
  generationId: string;
  storyboardKey: string | null;
  /** Without a storyboard: the LLM's composition, whose narration (if it wrote one) is said. */
  compositionKey?: string;
  engine?: string;
  fallbackText: string;
  /** The rendered video's length: the fallback narration's room. */
  durationSeconds: number;
  voice: string;
};
/**
 * The narration spoken and stored: its manifest's key (null: nothing to say), the characters spoken
 * (billed), and who spoke them.
 */
export type SpokenNarration = { key: string | null; characters: number; providers: string[] };

/** The sound mixed and muxed into the stored video (task queue `video-render`), after the render or the join. */
export type SoundMixCall = {
  generationId: string;
  videoKey: string;
  durationSeconds: number;
  narrationKey: string | null;
  /** Music: the generated bed's motion and cuts come from the storyboard (absent: a smooth bed, no cuts). */
  storyboardKey: string | null;
  compositionKey: string;
  music: string;
  /** `music: "audio-<n>"`: the stored track's asset name. */
  track?: string | null;
  captions: 'none' | 'sidecar' | 'burned';
};
/** The mix's loudness (null: nothing to mix, the video stays silent) and the sidecar captions' key. */
export type MixedSound = {
  loudness: { integratedLufs: number; truePeakDbtp: number } | null;
  captionsKey: string | null;
};

/** Written to PostgreSQL once, when the generation reaches a terminal state. */
export type GenerationOutcome = {
  generationId: string;
  status: Extract<GenerationStatus, 'completed' | 'failed' | 'cancelled'>;
  provider: string | null;
  usage: TokenUsage | null;
  rendered: RenderedVideo | null;
  /** As clients see it: an unexpected failure is `internal_error` with a fixed message. */
  error: GenerationError | null;
  /** The live state's `seq` once terminal: the number of the stream's final event (absent: unknown). */
  eventSeq?: number;
  /** An unexpected failure's own words, for the operator's log only (never stored or shown to clients). */
  internalCause?: string;
  /** Where the storyboard of the composition is stored (linked as `storyboard_url`); absent: none. */
  storyboardKey?: string | null;
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
  /**
   * Set when the activity that records the terminal state prepared the event (the completed event): the workflow does
   * not prepare it again.
   */
  prepared?: PreparedDelivery;
  /**
   * `prepared` under its former name, in the input of delivery workflows started before it was
   * renamed; read while one of those can still be running (README, "Changing workflows").
   */
  attempted?: PreparedDelivery;
};

/** What the delivery workflow needs once the event is recorded. */
export type WebhookDeliveryPlan = { retryScheduleMs: number[] };

/**
 * The completed event as the activity that writes the terminal state left it (issue 35): `plan` null,
 * the organization does not want the event (nothing recorded or sent); else recorded, and, when the
 * schedule starts with no wait, attempted once (`result`, `status`), so that no workflow task stands
 * between the record and the receiver.
 */
export type PreparedDelivery =
  | { plan: null; result?: undefined }
  | { plan: WebhookDeliveryPlan; result?: undefined }
  | { plan: WebhookDeliveryPlan; result: WebhookAttemptResult; status: WebhookEventStatus };

/** How one HTTPS attempt went (src/webhooks/send.ts). */
export type WebhookSendOutcome = {
  statusCode: number | null;
  durationMs: number;
  /**
   * Why no response came, in fixed words members may read (src/webhooks/attemptFailures.ts); null when
   * the receiver answered. The cause is logged by whoever saw it, never carried here.
   */
  error: string | null;
  retryAfterMs: number | null;
  responseExcerpt: string | null;
};

export type WebhookAttemptResult = WebhookSendOutcome & { eventId: string; attempt: number; attemptedAtMs: number };

export type WebhookDeliveryResult = { status: WebhookEventStatus | 'disabled'; attempts: number };

// ---- Activity interfaces (implemented in activities/, called through workflows/activities.ts) ------

/** Generation records (task queue `video-io`). */
export interface RecordActivities {
  markStarted(generationId: string): Promise<void>;
  /**
   * Writes the terminal state and charges the tokens consumed, exactly once; given the completed
   * event, prepares it and makes its first attempt right after (a retry sends nothing twice).
   */
  finishGeneration(outcome: GenerationOutcome, completedEvent?: WebhookDeliveryInput): Promise<PreparedDelivery | void>;
}

/** The requester's images and videos, stored as the generation's assets (task queue `video-io`). */
export interface MediaActivities {
  fetchMedia(call: MediaFetchCall): Promise<MediaAsset[]>;
}

/** Provider routing, one provider call each, and validation of a stored composition (task queue `video-io`). */
export interface ProviderActivities {
  planRoute(request: GenerationRequest): Promise<RoutePlan>;
  expandPrompt(call: ExpansionCall): Promise<ExpansionResult>;
  writeComposition(call: CompositionCall): Promise<CompositionDraft>;
  /** The engine's error findings about a stored composition (warnings do not block a render). */
  validateComposition(input: ValidationInput): Promise<Finding[]>;
}

/** Storyboard requests (task queue `video-io`): the stored storyboard drawn as the composition, stored. */
export interface StoryboardActivities {
  drawStoryboard(call: StoryboardDrawCall): Promise<CompositionDraft>;
}

/** The activities that call a provider (each its own attempt; their failures are classified). */
export const PROVIDER_CALLS = [
  'expandPrompt',
  'writeComposition',
] as const satisfies readonly (keyof ProviderActivities)[];

/** Whether a long video renders in chunks, decided on the I/O queue (task queue `video-io`). */
export interface RenderPlanActivities {
  planRender(input: RenderInput): Promise<RenderPlan>;
}

/** CPU-bound rendering (task queue `video-render`). */
export interface RenderActivities {
  renderComposition(input: RenderInput): Promise<RenderedVideo>;
  /** One chunk of a long video, stored under its chunk key until the join. */
  renderChunk(input: ChunkRenderInput): Promise<RenderedChunk>;
  joinChunks(input: ChunkJoinInput): Promise<RenderedVideo>;
}

/** Speaking the narration (task queue `video-io`): each clip once, stored; a retry finds them. */
export interface SpeechActivities {
  speakNarration(call: NarrationCall): Promise<SpokenNarration>;
}

/** The video's one mix, mastered and muxed (task queue `video-render`). */
export interface SoundMixActivities {
  mixSound(call: SoundMixCall): Promise<MixedSound>;
}

/** Lifecycle event delivery (task queue `video-io`). */
export interface WebhookActivities {
  /** Whether the organization wants events of this type (checked once before optional, frequent events). */
  webhookEventEnabled(input: { organizationId: string; type: WebhookEventType }): Promise<boolean>;
  /** The organization's webhook endpoint URLs a generation's completed event goes to (videos of /v1/videos only). */
  webhookEndpointsFor(input: { organizationId: string; generationId: string }): Promise<string[]>;
  /** Records the event with its body, built once; null when the organization does not want this type. */
  prepareWebhookEvent(input: WebhookDeliveryInput): Promise<WebhookDeliveryPlan | null>;
  /** One signed POST; every outcome is a result to record. */
  attemptWebhookDelivery(req: { eventId: string; attempt: number }): Promise<WebhookAttemptResult>;
  recordWebhookAttempt(result: WebhookAttemptResult, eventStatus: WebhookEventStatus): Promise<void>;
}
