// The `hyperframes` engine: HTML + GSAP compositions rendered by @hyperframes/producer in headless Chrome.
import { renderIsolated } from '../render.js';
import type { Engine } from '../types.js';
import { validateHyperframes } from './validate.js';

export const hyperframesEngine: Engine = {
  id: 'hyperframes',
  artifactType: 'text/html',
  validate: validateHyperframes,
  render: (source, opts) => renderIsolated('hyperframes', validateHyperframes, source, opts),
};
