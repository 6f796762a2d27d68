// The one contract between the workflow activities and the rendering engines.
import type { z } from 'zod';
import type { BrandSnapshot, Finding, MediaAsset, RenderChunk } from '../shared.js';
import type { NarrationLine } from '../storyboard/narration.js';
import type { Storyboard } from '../storyboard/types.js';
import type { ProbedVideo } from '../video/index.js';
import type { RenderSandboxConfig } from './isolation/sandbox.js';

export type { Finding, MediaAsset, RenderChunk };

/**
 * An engine's own settings: the environment variables it reads (zod checks with defaults, by variable
 * name; the registry reads them through the config, and a bad value stops the worker naming the
 * variable) and the settings object its render receives, made from the checked values.
 */
export interface EngineSettings<S = unknown> {
  readonly variables: z.ZodObject;
  read(values: Record<string, unknown>): S;
  /** Paths the settings name outside the system directories (a browser…): the render process sees them, read-only. */
  sandboxPaths?(settings: S): string[];
}

/** An engine's settings, typed by its own module (`read` sees its variables' checked values). */
export function engineSettings<V extends z.ZodObject, S>(
  variables: V,
  read: (values: z.output<V>) => S,
  sandboxPaths?: (settings: S) => string[],
): EngineSettings<S> {
  return { variables, read: (values) => read(values as z.output<V>), ...(sandboxPaths && { sandboxPaths }) };
}

/**
 * Binaries, limits and settings a render runs with (config RENDER_*, FFMPEG_PATH, each engine's own), passed in by the
 * caller.
 */
export type RenderTools = {
  ffmpegPath: string;
  timeoutMs: number;
  sandbox: RenderSandboxConfig;
  /** x264 constant rate factor of every video (RENDER_CRF): lower is better and larger. */
  crf: number;
  /** An engine's own settings object (its `settings`, read from the environment once). */
  engineSettings(engine: Pick<EngineModule, 'id' | 'settings'>): unknown;
};

export type RenderOptions = {
  width: number;
  height: number;
  /** Frames per second of the output; default: the composition's own (Lottie `fr`) or 30. */
  fps?: number;
  outputPath: string;
  tools: RenderTools;
  signal?: AbortSignal;
  onProgress?: (progress: RenderProgress) => void;
  /** Wall-clock limit of this render; default: tools.timeoutMs. */
  timeoutMs?: number;
  /** Render only this chunk of the video's frames (engines with `timing`); absent: the whole video. */
  chunk?: RenderChunk;
  /**
   * A WebM (VP9, `yuva420p`) with an alpha channel instead of an H.264 MP4: what the composition leaves unpainted is
   * transparent. Whole renders only (no `chunk`).
   */
  transparent?: boolean;
};

/** A composition's output frames and rate, known from its source alone. */
export type RenderTiming = { frames: number; fps: number };

/** How far a render is: frames drawn, then the encoder finishing the file. */
export type RenderProgress = {
  stage: 'rendering' | 'encoding';
  /** Of the whole render, 0–1. */
  fraction: number;
  framesRendered: number | null;
  framesTotal: number | null;
};

/** The rendered file as ffprobe describes it, and what the render skipped. */
export type RenderResult = ProbedVideo & {
  /**
   * Frames the render did not draw or capture again because nothing changed (the previous one was
   * encoded again); null when the engine cannot tell.
   */
  framesSkipped: number | null;
};

/** What a render process reports about its render beyond the file. */
export type RenderReport = Pick<RenderResult, 'framesSkipped'>;

export type Canvas = { width: number; height: number };

/** What a composition is checked against: the canvas, the length asked for, the assets it may use. */
export type ValidationTarget = Canvas & { durationSeconds?: number | null; assets?: readonly MediaAsset[] };

/** What the embedded offline composer (the `local` provider) is asked for. */
export type OfflineCompositionSpec = Canvas & {
  prompt: string;
  instructions: string | null;
  /** Seconds the video must last; null: the storyboard's natural length. */
  durationSeconds: number | null;
  /** The video has a voice: each scene gets its narration and time to say it. Absent: silent. */
  narrate?: boolean;
  assets: readonly MediaAsset[];
  /** The organization's brand kit as this generation applies it (its logo is one of `assets`); absent: none. */
  brand?: BrandSnapshot | null;
  /** For a transparent video: drawn without background and ornament (StoryboardTarget). */
  transparent?: boolean;
};

/** What an LLM needs to write this engine's compositions, and how its reply is read. */
export type EngineLlmKit = {
  /** "a HyperFrames HTML composition": how prompts name what the LLM writes. */
  description: string;
  /** Language tag of the fenced block the LLM is asked to reply in (```html). */
  fence: string;
  /** Fence languages that count as this engine's composition when reading a reply. */
  fenceLanguages: readonly string[];
  /** The composition within a block or a raw reply (trims prose around an HTML document or a JSON object). */
  trimToComposition(text: string): string;
  /** The composition contract: system prompt of every composition call. */
  contract(): string;
  /** The prompting guide: system prompt of the expand_prompt call. */
  guide(): string;
  /**
   * Where a composition carries its narration (NARRATION_LINES_FORMAT), told to the LLM when the video has a voice;
   * and how it is read (narrationLines: [] when there is none). Absent: the voice reads the prompt.
   */
  narrationPlace?: string;
  narrationOf?(source: string): NarrationLine[];
};

/**
 * One rendering engine: everything engine-specific, in its folder `src/engines/<id>/`. The registry
 * (src/engines/registry.ts) lists the modules; nothing outside src/engines/ branches on an engine id.
 */
export interface EngineModule {
  /** The `engine` value of requests and the catalog: lowercase letters, digits, '-'. */
  readonly id: string;
  /** The catalog's display name (GET /v1/engines). */
  readonly name: string;
  /** Multiplier on every model's token prices for this engine (catalog `premium_multiplier`). */
  readonly premiumMultiplier: number;
  /** The stored composition (the artifact): media type and file extension. */
  readonly artifact: { mediaType: string; extension: string };
  /** Words in a prompt that make `engine: "auto"` choose this engine. */
  readonly autoKeywords: readonly string[];
  /** Findings about a composition; any with severity 'error' refuses the render. */
  validate(source: string, target: ValidationTarget): Promise<Finding[]>;
  /**
   * The render's frames and rate read from the source, without rendering; null when only a render
   * can tell. Engines that have it render chunks (RenderOptions.chunk): frames [start, end) of the
   * whole render, each frame as the whole render draws it, encoded from a keyframe so that chunks
   * join without re-encoding. Absent: every video renders in one piece.
   */
  timing?(source: string): RenderTiming | null;
  /**
   * The module run in the isolated render process: it exports `render: ChildRenderer`. Packages in
   * `preload` are imported natively before TypeScript support starts (large bundles load far faster so).
   */
  readonly renderEntry: URL;
  readonly preload?: readonly string[];
  /** Its own settings (environment variables → the settings object its render receives as `job.settings`). */
  readonly settings?: EngineSettings;
  readonly llm: EngineLlmKit;
  /** A valid composition from the prompt alone, for the embedded offline `local` provider. */
  composeOffline(spec: OfflineCompositionSpec): string;
  /**
   * The storyboard drawn as a composition (storyboard requests, and the embedded composer's plan);
   * images by their local asset names among `target.assets`. Absent: the engine takes no storyboards.
   */
  drawStoryboard?(storyboard: Storyboard, target: StoryboardTarget): string;
}

/** The canvas a storyboard is drawn on, and the generation's assets its image scenes name. */
/**
 * What a storyboard is drawn for. `transparent`: for a video with an alpha channel: the background and its ornament
 * are left out (text, shapes and images stay).
 */
export type StoryboardTarget = Canvas & { assets: readonly MediaAsset[]; transparent?: boolean };

/** An engine as callers use it: the module plus its isolated render. */
export interface Engine extends EngineModule {
  render(source: string, opts: RenderOptions): Promise<RenderResult>;
}

/** Why a render failed; `code` is stable, `message` is for people (and the LLM repair loop). */
export type RenderErrorCode =
  | 'invalid_composition' // validation found errors; `findings` says which
  | 'invalid_render_options' // width/height/fps outside the limits
  | 'render_timeout' // wall-clock limit reached; the process tree was killed
  | 'render_aborted' // the caller's AbortSignal fired
  | 'render_crashed' // the render process died (signal, WASM trap)
  | 'render_resource_limit' // it broke a limit of its sandbox (memory, processes, file size, CPU time) and was killed
  | 'render_failed'; // the engine reported an error (broken composition at run time, ffmpeg failure)

export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
    readonly findings: Finding[] = [],
    /** For the operator's log only (what a crashed process printed last): never shown to clients. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }

  /** Retrying the same source cannot help for these. */
  get retryable(): boolean {
    return this.code === 'render_crashed' || this.code === 'render_timeout';
  }
}
