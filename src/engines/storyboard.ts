// The one path from a storyboard to a composition: the generation's brand applied to the storyboard
// (its kit's look, its logo on the closing scene), then the engine draws it. The embedded composer
// (the engines' composeOffline, the worker threads' composer) and storyboard requests all take it.
import type { BrandSnapshot } from '../shared.js';
import { withBrand } from '../storyboard/brand.js';
import { offlineStoryboard } from '../storyboard/plan.js';
import type { Storyboard } from '../storyboard/types.js';
import type { EngineModule, OfflineCompositionSpec, StoryboardTarget } from './types.js';

/** An engine's drawing of storyboards (EngineModule.drawStoryboard). */
export type StoryboardDrawer = NonNullable<EngineModule['drawStoryboard']>;

/** The storyboard drawn by `draw` in `brand` (none: as it is). */
export function drawInBrand(
  draw: StoryboardDrawer,
  storyboard: Storyboard,
  brand: BrandSnapshot | null | undefined,
  target: StoryboardTarget,
): string {
  return draw(withBrand(storyboard, brand), target);
}

/**
 * The embedded composer of an engine that draws storyboards: the storyboard planned from the prompt, and it drawn in
 * the spec's brand.
 */
export function composeStoryboard(
  draw: StoryboardDrawer,
  spec: OfflineCompositionSpec,
): { storyboard: Storyboard; source: string } {
  const storyboard = offlineStoryboard(spec);
  return { storyboard, source: drawInBrand(draw, storyboard, spec.brand, spec) };
}
