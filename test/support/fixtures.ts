import type { ContentPart, EngineId, GenerationRequest } from '../../src/shared.js';

/** A valid internal generation request (160×284 canvas), with any field overridden. */
export function generationRequest(
  engine: EngineId,
  model: string,
  overrides: Partial<GenerationRequest> & { content?: ContentPart[] } = {},
): GenerationRequest {
  const { content = [{ type: 'text', text: 'usage fixture' }], ...rest } = overrides;
  return {
    model,
    engine,
    engine_requested: engine,
    instructions: null,
    messages: [{ role: 'user', content }],
    expand_prompt: false,
    width: 160,
    height: 284,
    aspect_ratio: null,
    duration_seconds: null,
    provider_order: null,
    webhook_url: null,
    ...rest,
  };
}
