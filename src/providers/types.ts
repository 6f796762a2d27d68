// What flows between the composition activities and the provider adapters.
import type { BrandSnapshot, EngineId, Finding, MediaAsset, MediaKind, TokenUsage } from '../shared.js';

export type MediaRef = { kind: MediaKind; url: string };

/**
 * The request as the LLM sees it: the prompt (possibly expanded), its images/videos (the request's
 * parts: https URLs, or `asset:<name>` for data: URL images), the requester's instructions, and the
 * media stored as the generation's assets, which the composition refers to as `assets/<name>`, and
 * the organization's brand kit (its logo is one of the assets).
 */
export type Brief = {
  text: string;
  media: MediaRef[];
  instructions: string | null;
  assets?: readonly MediaAsset[];
  brand?: BrandSnapshot | null;
};

/** What the video must be: engine, canvas, and the length asked for (null: the composition's choice). */
export type VideoSpec = {
  engine: EngineId;
  width: number;
  height: number;
  durationSeconds: number | null;
  /** A video with an alpha channel (`transparent: true`): nothing may paint the background. */
  transparent?: boolean;
  /** The video has a voice: its scenes need narration (the embedded composer writes it; LLMs are asked for it). */
  narrate?: boolean;
};

export type ExpansionTask = VideoSpec & { brief: Brief };

/** The composition that failed validation and why, sent back to the LLM for a fix. */
export type Repair = { previous: string; findings: Finding[] };

export type CompositionTask = VideoSpec & { brief: Brief; repair: Repair | null };

/**
 * `verbatim`: the text is the composition itself, to be stored as written (the embedded composer's);
 * otherwise the composition is extracted from the reply (src/providers/extract.ts). `storyboard`: the
 * storyboard the composition draws (JSON, public form), from the embedded composer only.
 */
export type ProviderReply = { text: string; usage: TokenUsage; verbatim?: boolean; storyboard?: string | null };

/** One per protocol (src/providers/<protocol>/adapter.ts). Failures throw ProviderError. */
export interface ProviderAdapter {
  /** Rewrites the brief's prompt with the engine's prompting guide. */
  expand(task: ExpansionTask): Promise<ProviderReply>;
  /**
   * Writes (or, with `repair`, fixes) the composition; the reply text may wrap it in prose or a code fence, unless
   * `verbatim`.
   */
  compose(task: CompositionTask): Promise<ProviderReply>;
}
