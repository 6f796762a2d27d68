// The HyperFrames engine's offline composition (the embedded `local` provider): the prompt's storyboard
// (src/storyboard/) drawn as motion graphics, one layout per scene kind, laid out for the canvas
// and exactly as long as the storyboard, in the organization's brand when it has a kit. Same prompt
// and kit, same document (byte for byte).
import type { Storyboard } from '../../storyboard/types.js';
import { composeStoryboard } from '../storyboard.js';
import type { OfflineCompositionSpec, StoryboardTarget } from '../types.js';
import { storyboardDocument } from './storyboard/document.js';

export function composeHyperframes(spec: OfflineCompositionSpec): string {
  return composeStoryboard(drawHyperframes, spec).source;
}

/** Images are named by their asset names: the page loads them from `assets/`. */
export function drawHyperframes(storyboard: Storyboard, target: StoryboardTarget): string {
  return storyboardDocument(
    storyboard,
    { width: target.width, height: target.height },
    target.transparent ? { transparent: true } : {},
  );
}
