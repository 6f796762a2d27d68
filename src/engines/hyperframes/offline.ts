// The HyperFrames engine's offline composition (the embedded `local` provider): the prompt's storyboard
// (src/storyboard/) drawn as motion graphics, one layout per scene kind, laid out for the canvas
// and exactly as long as the storyboard, in the organization's brand when it has a kit. Same prompt
// and kit, same document (byte for byte).
import { isBrandLogo } from '../../shared.js';
import { withBrand } from '../../storyboard/brand.js';
import { planStoryboard } from '../../storyboard/plan.js';
import type { OfflineCompositionSpec } from '../types.js';
import { storyboardDocument } from './storyboard/document.js';

export function composeHyperframes(spec: OfflineCompositionSpec): string {
  const image = spec.assets.find((a) => a.kind === 'image' && !isBrandLogo(a))?.name ?? null;
  const planned = planStoryboard({
    prompt: spec.prompt,
    instructions: spec.instructions,
    durationSeconds: spec.durationSeconds,
    image,
  });
  return storyboardDocument(withBrand(planned, spec.brand), { width: spec.width, height: spec.height });
}
