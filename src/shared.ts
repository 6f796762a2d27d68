// The domain's shared vocabulary: the one internal generation request, statuses, progress, media,
// findings and lifecycle event names, used by the API, the workflows, the activities and the
// engines alike. A leaf: it imports nothing, so anything may import it (Temporal's deterministic
// workflow sandbox included). What crosses a Temporal boundary is in src/temporal/contract.ts.

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
  { type: 'text'; text: string } | { type: 'image'; url: string } | { type: 'video'; url: string };

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
  /**
   * Seconds the video must last (the request's duration_seconds, else a length the prompt states); null: the
   * composition's own.
   */
  duration_seconds: number | null;
  provider_order: string[] | null;
  webhook_url: string | null;
  /**
   * Extension: the organization's brand kit as this generation uses it (with the request's overrides),
   * resolved when the generation is created so a render stays the same when the kit changes later.
   * Absent or null: no brand (none set, or the request said `brand: false`).
   */
  brand?: BrandSnapshot | null;
  /**
   * Extension: a storyboard request. The storyboard (placeholders filled, checked) is stored under
   * storyboardKey(id) (src/storage/keys.ts) before the workflow starts, and drawn as written: no provider is called.
   * `bytes`: its size, bounding the tokens it counts as. Absent or null: a prompt request.
   */
  storyboard?: { bytes: number } | null;
  /**
   * Extension: the video's file when it is not an opaque MP4 (`output_format`, `transparent`). Absent or null: MP4.
   */
  output?: VideoOutput | null;
  /**
   * Extension: the video's sound, with every default filled (README, Sound). Absent or null: a silent
   * video, as before the extension.
   */
  audio?: GenerationAudio | null;
};

/** Files a video may be delivered as (`output_format`); `mp4` is the default. */
export const OUTPUT_FORMATS = ['mp4', 'webm', 'gif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** A video delivered as WebM (VP9; with `transparent`, with an alpha channel and no background) or GIF. */
export type VideoOutput = { format: Exclude<OutputFormat, 'mp4'>; transparent: boolean };
/** The media type of a video file of each format. */
export const OUTPUT_MEDIA_TYPES: Record<OutputFormat, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
};

/** The sound of a generation: `voice` none/auto/a voice id; `music` none/auto/`audio-<n>`/an https URL. */
export type GenerationAudio = {
  voice: string;
  music: string;
  captions: 'none' | 'sidecar' | 'burned';
  /** `music: "audio-<n>"`: the asset name the track was stored under when the generation was created. */
  track?: string | null;
};

/** Whether a request asks for a voice reading its narration. */
export const speaks = (request: Pick<GenerationRequest, 'audio'>): boolean =>
  !!request.audio && request.audio.voice !== 'none';

/** The longest video a generation makes, in seconds: requests, storyboards and the engines' checks hold to it. */
export const MAX_DURATION_SECONDS = 60;

// ---- Brand kits (extension) -----------------------------------------------------------------------

/** Type styles of the installed font families: the storyboard's FontFamily is this list. */
export const BRAND_FONTS = ['sans', 'serif', 'mono', 'rounded'] as const;
export type BrandFont = (typeof BRAND_FONTS)[number];

/** Text stored as-is in PostgreSQL (jsonb), which cannot hold NUL or unpaired surrogates. */
export const isStorableText = (s: string) => !s.includes('\u0000') && s.isWellFormed();
export const STORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** A brand colour: `#rrggbb`, lower case. */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/;

export type BrandColours = { background: string | null; text: string | null; accent: string | null };

/** A brand kit as one generation applies it: null fields leave the composer's own choice. */
export type BrandSnapshot = {
  colors: BrandColours;
  font: BrandFont | null;
  /** The logo, stored as one of the generation's assets (named `brand-logo.<ext>`); null: none. */
  logo: MediaAsset | null;
  /** Whether the closing scene shows the logo. */
  logo_on_closing: boolean;
};

/** Asset name of a generation's brand logo (`brand-logo.png`): never taken for the requester's own image. */
export const brandLogoName = (extension: string) => `brand-logo.${extension}`;
export const isBrandLogo = (asset: Pick<MediaAsset, 'name'>) => asset.name.startsWith('brand-logo.');

export type TokenUsage = { input_tokens: number; output_tokens: number };

/** Why a generation failed, as clients see it: a stable snake_case code and a message for people. */
export type GenerationError = { code: string; message: string };

// ---- User media ----------------------------------------------------------------------------------

/**
 * A user's image or video, fetched and stored with the generation. Compositions refer to it by `name`
 * under the `assets/` path (`<img src="assets/photo-1.jpg">`, Lottie `"u": "assets/", "p": "photo-1.jpg"`).
 */
export type MediaAsset = {
  name: string;
  kind: 'image' | 'video';
  mediaType: string;
  bytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
};

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
    m.content.flatMap((p) =>
      p.type === 'image' || p.type === 'video' ? [{ kind: p.type, number: ++counts[p.type], url: p.url }] : [],
    ),
  );
}

// ---- Compositions and renders ------------------------------------------------------------------------

/** One problem found in a composition; `severity: 'error'` means the composition is invalid. */
export type Finding = {
  code: string;
  message: string;
  /** Where: a JSON path for Lottie (`/layers/2/ks`), a selector, element id or snippet for HTML. */
  location?: string;
  fix_hint?: string;
  severity: 'error' | 'warning';
};

/**
 * One chunk of a render split across render workers: output frames [start, end) of `total`. Chunks
 * are `size` frames long (the last may be shorter), each its own encode starting on a keyframe.
 */
export type RenderChunk = { index: number; count: number; start: number; end: number; size: number; total: number };

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

// ---- Lifecycle webhooks (interface section 6) -------------------------------------------------------

export const WEBHOOK_EVENT_TYPES = [
  'video.generation.queued',
  'video.generation.started',
  'video.generation.completed',
  // Extension: at most one per 10 percentage points of progress, for receivers that prefer push.
  'video.generation.progress',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Toggles of an organization that never changed them: only completions are delivered. */
export const DEFAULT_ENABLED_EVENTS: readonly WebhookEventType[] = ['video.generation.completed'];

/** Where the delivery of one event stands (`pending` until delivered, gone or out of attempts). */
export type WebhookEventStatus = 'pending' | 'delivered' | 'failed' | 'gone';
