// Synchronous CPU work of the I/O activities (the embedded offline composer and its token count, an
// engine's validation of a composition) runs in worker threads, not on the worker's event loop: the
// loop also carries every other activity and workflow task of the process, such as webhook
// deliveries, and one composition holding it for tens of milliseconds delays all of them. The
// threads start when first needed and load the engines (and the ENGINE_PLUGINS) themselves
// (tasks.ts); tinypool queues the work while every thread is busy.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import { siblingModule } from '../engines/modulePath.js';
import type { OfflineCompositionSpec, StoryboardTarget, ValidationTarget } from '../engines/types.js';
import type { BrandSnapshot, Finding, TokenUsage } from '../shared.js';

let pool: Tinypool | undefined;

const TASKS = fileURLToPath(siblingModule(import.meta.url, 'tasks'));

function threads(): Tinypool {
  pool ??= new Tinypool({
    // From source (tsx, vitest) the threads register tsx themselves (sourceEntry.mjs); the build runs plain .js.
    filename: TASKS.endsWith('.ts') ? fileURLToPath(new URL('./sourceEntry.mjs', import.meta.url)) : TASKS,
    // One warm thread (its engines and tokenizer loaded); a second while both cores have work.
    minThreads: 1,
    maxThreads: Math.max(1, Math.min(2, os.availableParallelism())),
    idleTimeout: 60_000,
  });
  return pool;
}

/**
 * The engine's offline composition for `spec`, the tokens it counts as (prompt in, composition out),
 * and the storyboard it draws (JSON, public form; null when the engine plans none).
 */
export function composeOffThread(
  engine: string,
  spec: OfflineCompositionSpec,
  prompt: string,
): Promise<{ source: string; usage: TokenUsage; storyboard: string | null }> {
  return threads().run({ engine, spec, prompt }, { name: 'composeOffline' });
}

/**
 * A storyboard (JSON, public form) drawn by the engine, and the tokens it counts as (storyboard in, composition out).
 */
export function drawStoryboardOffThread(
  engine: string,
  storyboard: string,
  target: StoryboardTarget,
  brand: BrandSnapshot | null,
): Promise<{ source: string; usage: TokenUsage }> {
  return threads().run({ engine, storyboard, target, brand }, { name: 'drawStoryboard' });
}

/** The engine's findings about `source`. */
export function validateOffThread(engine: string, source: string, target: ValidationTarget): Promise<Finding[]> {
  return threads().run({ engine, source, target }, { name: 'validate' });
}

/** Ends the threads (a stopping worker). */
export async function closeThreads(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
