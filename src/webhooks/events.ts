// Lifecycle events (interface section 6): types, envelope and payload. Pure data, no I/O: the
// workflows import this module inside Temporal's deterministic sandbox.
import { WEBHOOK_EVENT_TYPES, type GenerationProgress, type WebhookEventType } from '../shared.js';
import type { GenerationEventFacts, WebhookDeliveryInput } from '../temporal/contract.js';

export const isWebhookEventType = (t: string): t is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);

/** `data.object` (interface 6.3). engine/model/provider only on queued and started events. */
export type GenerationEventObject = {
  id: string;
  object: 'video.generation';
  status: GenerationEventFacts['status'];
  engine?: string;
  model?: string;
  provider?: string | null;
  output_url: string | null;
  error_message: string | null;
  /** Progress events only (extension). */
  progress?: GenerationProgress;
};

/** The envelope (interface 6.2). */
export type WebhookEvent = {
  id: string;
  object: 'event';
  created: number;
  type: WebhookEventType;
  data: { object: GenerationEventObject };
};

export function buildWebhookEvent(
  input: WebhookDeliveryInput,
  createdAtMs: number,
  outputUrl: string | null,
): WebhookEvent {
  const { facts } = input;
  const known =
    facts.type === 'video.generation.completed'
      ? {}
      : { engine: input.engine, model: input.model, provider: facts.provider };
  const object: GenerationEventObject = {
    id: input.generationId,
    object: 'video.generation',
    status: facts.status,
    ...known,
    output_url: facts.status === 'completed' ? outputUrl : null,
    error_message: facts.status === 'failed' ? (facts.errorMessage ?? 'Generation failed') : null,
    ...(facts.progress ? { progress: facts.progress } : {}),
  };
  return {
    id: input.eventId,
    object: 'event',
    created: Math.floor(createdAtMs / 1000),
    type: facts.type,
    data: { object },
  };
}

/**
 * The OpenAI Videos shape's event (src/api/videos/): what OpenAI sent for a video, `video.completed` or
 * `video.failed`, naming the video only (the receiver retrieves it). Sent for the generations created on /v1/videos
 * instead of our completed event; OpenAI has no queued, started or progress events.
 */
export type OpenAiVideoEvent = {
  id: string;
  object: 'event';
  created_at: number;
  type: 'video.completed' | 'video.failed';
  data: { id: string };
};

/** The Videos shape's event for this delivery; null for an event OpenAI does not have. */
export function buildOpenAiVideoEvent(input: WebhookDeliveryInput, createdAtMs: number): OpenAiVideoEvent | null {
  const { facts } = input;
  if (facts.type !== 'video.generation.completed' || (facts.status !== 'completed' && facts.status !== 'failed'))
    return null;
  return {
    id: input.eventId,
    object: 'event',
    created_at: Math.floor(createdAtMs / 1000),
    type: facts.status === 'completed' ? 'video.completed' : 'video.failed',
    data: { id: input.generationId },
  };
}

/** Whether a recorded body is a Videos-shape event (signed under the Standard Webhooks header names). */
export function isOpenAiVideoEventBody(body: string): boolean {
  try {
    const { type } = JSON.parse(body) as { type?: unknown };
    return type === 'video.completed' || type === 'video.failed';
  } catch {
    return false;
  }
}
