// The HyperFrames engine's offline composition (the embedded `local` provider): the prompt's storyboard
// (src/storyboard/) drawn as motion graphics, one layout per scene kind, laid out for the canvas
// and exactly as long as the storyboard. Same prompt, same document (byte for byte).
import { planStoryboard } from '../../storyboard/plan.js';
import type { OfflineCompositionSpec } from '../types.js';
import { storyboardDocument } from './storyboard/document.js';

export function composeHyperframes(spec: OfflineCompositionSpec): string {
  const image = spec.assets.find((a) => a.kind === 'image')?.name ?? null;
  const storyboard = planStoryboard({
    prompt: spec.prompt,
    instructions: spec.instructions,
    durationSeconds: spec.durationSeconds,
    image,
  });
  return storyboardDocument(storyboard, { width: spec.width, height: spec.height });
}
