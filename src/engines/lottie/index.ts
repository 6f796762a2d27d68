// The `lottie` engine: Lottie JSON rendered by ThorVG (dotlottie-web WASM) and encoded by ffmpeg, no browser.
import { renderIsolated } from '../render.js';
import type { Engine } from '../types.js';
import { validateLottie } from './validate.js';

export const lottieEngine: Engine = {
  id: 'lottie',
  artifactType: 'application/json',
  validate: validateLottie,
  render: (source, opts) => renderIsolated('lottie', validateLottie, source, opts),
};
