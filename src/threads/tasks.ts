// The work pool.ts hands to its worker threads. Each thread registers the engines the process does
// (the built-in ones and ENGINE_PLUGINS) before its first task.
import { loadConfig } from '../config.js';
import { getEngine, registerEnginePlugins } from '../engines/index.js';
import { composeStoryboard, drawInBrand } from '../engines/storyboard.js';
import type { OfflineCompositionSpec, StoryboardTarget, ValidationTarget } from '../engines/types.js';
import { countTokens } from '../text/tokens.js';
import type { BrandSnapshot, Finding, TokenUsage } from '../shared.js';
import { assetNamed, fromStoryboard, STORYBOARD_LIMITS, storyboardSchema, toStoryboard } from '../storyboard/schema.js';

const ready = registerEnginePlugins(loadConfig().enginePlugins);

/**
 * The embedded composer: the prompt's storyboard drawn by the engine in the generation's brand, and
 * that storyboard (public form, JSON, without the brand: a re-sent storyboard gets the brand of its own
 * request) when the engine draws storyboards; else the engine's own offline composition.
 */
export async function composeOffline({
  engine,
  spec,
  prompt,
}: {
  engine: string;
  spec: OfflineCompositionSpec;
  prompt: string;
}): Promise<{ source: string; usage: TokenUsage; storyboard: string | null }> {
  await ready;
  const module = getEngine(engine);
  const planned = module.drawStoryboard ? composeStoryboard(module.drawStoryboard, spec) : null;
  const source = planned ? planned.source : module.composeOffline(spec);
  return {
    source,
    usage: { input_tokens: countTokens(prompt), output_tokens: countTokens(source) },
    storyboard: planned && JSON.stringify(fromStoryboard(planned.storyboard)),
  };
}

/**
 * A storyboard request's composition: the stored storyboard (checked by the API) drawn as written.
 * It counts as the embedded composer's call does: the storyboard in, the composition out (up to the hold's bound).
 */
export async function drawStoryboard({
  engine,
  storyboard,
  target,
  brand,
}: {
  engine: string;
  storyboard: string;
  target: StoryboardTarget;
  brand: BrandSnapshot | null;
}): Promise<{ source: string; usage: TokenUsage }> {
  await ready;
  const names = target.assets.map((a) => a.name);
  const board = toStoryboard(storyboardSchema.parse(JSON.parse(storyboard)), {
    image: (ref) => assetNamed(names, ref),
  });
  const source = drawInBrand(getEngine(engine).drawStoryboard!, board, brand, target);
  // Counted up to what the credit hold reserved: a generation never costs more than its hold.
  return {
    source,
    usage: {
      input_tokens: countTokens(storyboard),
      output_tokens: Math.min(countTokens(source), STORYBOARD_LIMITS.outputTokens),
    },
  };
}

export async function validate({
  engine,
  source,
  target,
}: {
  engine: string;
  source: string;
  target: ValidationTarget;
}): Promise<Finding[]> {
  await ready;
  return getEngine(engine).validate(source, target);
}
