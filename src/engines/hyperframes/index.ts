// The `hyperframes` engine: HTML + GSAP compositions rendered by @hyperframes/producer in headless Chrome.
import { siblingModule } from '../modulePath.js';
import type { EngineModule } from '../types.js';
import { hyperframesLlm } from './llm.js';
import { composeHyperframes, drawHyperframes } from './offline.js';
import { hyperframesSettings } from './settings.js';
import { hyperframesTiming } from './timing.js';
import { validateHyperframes } from './validate.js';

export const hyperframesEngine: EngineModule = {
  id: 'hyperframes',
  name: 'HyperFrames (HTML + GSAP, rendered in headless Chromium)',
  premiumMultiplier: 1.2,
  artifact: { mediaType: 'text/html', extension: 'html' },
  // The default engine: `auto` picks it when no other engine's keyword matches.
  autoKeywords: [],
  validate: validateHyperframes,
  timing: hyperframesTiming,
  renderEntry: siblingModule(import.meta.url, 'renderInChild'),
  preload: ['@hyperframes/producer'],
  settings: hyperframesSettings,
  llm: hyperframesLlm,
  composeOffline: composeHyperframes,
  drawStoryboard: drawHyperframes,
};
