// The `model` of an OpenAI Videos request, mapped onto ours (README, "OpenAI Videos drop-in"). OpenAI's
// video models name no orchestration LLM: each stands for one of the catalog's models on the default
// engine. Our own model ids are accepted as they are; `engine` (extension) picks another engine.
import type { Catalog } from '../../catalog/index.js';
import { invalidInput } from '../../errors.js';

/** OpenAI's video models (the SDK's `VideoModel`) and the catalog model each one is served by. */
export const OPENAI_VIDEO_MODELS: Readonly<Record<string, string>> = {
  'sora-2': 'gpt-4o-mini',
  'sora-2-2025-10-06': 'gpt-4o-mini',
  'sora-2-2025-12-08': 'gpt-4o-mini',
  'sora-2-pro': 'gpt-4.1',
  'sora-2-pro-2025-10-06': 'gpt-4.1',
};

/** What a Videos create is given when it names no model (OpenAI's default). */
export const DEFAULT_VIDEO_MODEL = 'sora-2';

/** The orchestration model a Videos `model` stands for on `engine`; a 400 naming `model` when none. */
export function orchestrationModel(catalog: Catalog, engine: string, model: string): string {
  const ours = OPENAI_VIDEO_MODELS[model] ?? model;
  if (catalog.price(engine, ours)) return ours;
  throw invalidInput(
    `model: "${model}" is not offered on engine ${engine}; choose one of ` +
      `${[...Object.keys(OPENAI_VIDEO_MODELS), ...catalog.modelIds(engine)].join(', ')}`,
    'model',
  );
}
