// The `lottie` engine: Lottie JSON rendered by ThorVG (dotlottie-web WASM) and encoded by ffmpeg, no browser.
import { siblingModule } from '../modulePath.js';
import type { EngineModule } from '../types.js';
import { lottieLlm } from './llm.js';
import { lottieTiming } from './timing.js';
import { composeLottie, drawLottie } from './offline.js';
import { lottieSettings } from './settings.js';
import { validateLottie } from './validate.js';

export const lottieEngine: EngineModule = {
  id: 'lottie',
  name: 'Lottie (JSON animation, rendered with ThorVG)',
  premiumMultiplier: 1,
  artifact: { mediaType: 'application/json', extension: 'json' },
  // Vector, loop-style motion graphics.
  autoKeywords: ['lottie', 'icon', 'logo', 'loader', 'loading', 'spinner', 'sticker', 'emoji', 'vector', 'flat'],
  validate: validateLottie,
  timing: lottieTiming,
  renderEntry: siblingModule(import.meta.url, 'renderInChild'),
  preload: ['@lottiefiles/dotlottie-web', 'harfbuzzjs', 'bidi-js'],
  settings: lottieSettings,
  llm: lottieLlm,
  composeOffline: composeLottie,
  drawStoryboard: drawLottie,
};
