// The rendering engines behind one interface. Activities call getEngine(id).validate(...) and .render(...).
import type { EngineId } from '../shared.js';
import { hyperframesEngine } from './hyperframes/index.js';
import { lottieEngine } from './lottie/index.js';
import type { Engine } from './types.js';

const ENGINES: Record<EngineId, Engine> = { hyperframes: hyperframesEngine, lottie: lottieEngine };

export function getEngine(id: EngineId): Engine {
  const engine = ENGINES[id];
  if (!engine) throw new Error(`Unknown engine: ${String(id)}`);
  return engine;
}

export * from './limits.js';
export { RenderError, type Engine, type Finding, type RenderErrorCode, type RenderOptions, type RenderResult } from './types.js';
