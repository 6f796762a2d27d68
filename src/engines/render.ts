// The render path both engines share: check options, validate (errors refuse the render), render
// in an isolated child process, then describe the output from ffprobe.
import { loadConfig } from '../config.js';
import type { EngineId } from '../shared.js';
import { ffprobeFor } from './isolation/renderProcess.js';
import { runIsolated } from './isolation/runIsolated.js';
import { checkRenderOptions } from './limits.js';
import { probeVideo } from './probe.js';
import { RenderError, type Finding, type RenderOptions, type RenderResult } from './types.js';

type Validator = (source: string, canvas: { width: number; height: number }) => Promise<Finding[]>;

export async function renderIsolated(engine: EngineId, validate: Validator, source: string, opts: RenderOptions): Promise<RenderResult> {
  checkRenderOptions(opts);
  const errors = (await validate(source, opts)).filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    const summary = errors.slice(0, 3).map((f) => `${f.code}: ${f.message}`).join('; ');
    throw new RenderError('invalid_composition', `The composition is invalid (${summary})`, errors);
  }
  const { render } = loadConfig();
  await runIsolated(
    { engine, source, width: opts.width, height: opts.height, fps: opts.fps, chromePath: render.chromePath, ffmpegPath: render.ffmpegPath },
    opts.outputPath,
    { timeoutMs: opts.timeoutMs ?? render.timeoutMs, signal: opts.signal, onProgress: opts.onProgress },
  );
  return probeVideo(opts.outputPath, ffprobeFor(render.ffmpegPath));
}
