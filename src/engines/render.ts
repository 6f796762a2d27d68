// The render path every engine shares: check options, validate (errors refuse the render), render
// in an isolated child process, then describe the output from ffprobe.
import { ffprobeFor } from './isolation/renderProcess.js';
import { runIsolated } from './isolation/runIsolated.js';
import { checkRenderOptions } from './limits.js';
import { probeVideo } from './probe.js';
import { RenderError, type EngineModule, type RenderOptions, type RenderResult } from './types.js';

export async function renderIsolated(engine: EngineModule, source: string, opts: RenderOptions): Promise<RenderResult> {
  checkRenderOptions(opts);
  const errors = (await engine.validate(source, opts)).filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    const summary = errors.slice(0, 3).map((f) => `${f.code}: ${f.message}`).join('; ');
    throw new RenderError('invalid_composition', `The composition is invalid (${summary})`, errors);
  }
  const { chromePath, ffmpegPath, timeoutMs } = opts.tools;
  await runIsolated(
    { engine: engine.id, source, width: opts.width, height: opts.height, fps: opts.fps, chromePath, ffmpegPath },
    { entry: engine.renderEntry, preload: engine.preload ?? [] },
    opts.outputPath,
    { timeoutMs: opts.timeoutMs ?? timeoutMs, signal: opts.signal, onProgress: opts.onProgress },
  );
  return probeVideo(opts.outputPath, ffprobeFor(ffmpegPath));
}
