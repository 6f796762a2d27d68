// The render path every engine shares: check options, validate (errors refuse the render), render
// in an isolated child process, then describe the output from ffprobe.
import { probeVideo } from '../video/index.js';
import { runIsolated } from './isolation/runIsolated.js';
import { checkRenderOptions } from './limits.js';
import { RenderError, type EngineModule, type MediaAsset, type RenderOptions, type RenderResult } from './types.js';

/**
 * The requester's media a render may use: `assets` (validation accepts `assets/<name>` references to
 * them) and the directory holding their files, named after them. Passed along with RenderOptions.
 */
export type RenderMedia = { assets?: readonly MediaAsset[]; assetsDir?: string };

export async function renderIsolated(
  engine: EngineModule,
  source: string,
  opts: RenderOptions & RenderMedia,
): Promise<RenderResult> {
  checkRenderOptions(opts);
  if (opts.chunk && !engine.timing)
    throw new RenderError('invalid_render_options', `The ${engine.id} engine renders no chunks`);
  if (opts.chunk && opts.transparent)
    throw new RenderError('invalid_render_options', 'A transparent video renders whole, not in chunks');
  // Validated against the canvas and the assets it may refer to.
  const errors = (await engine.validate(source, opts)).filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    const summary = errors
      .slice(0, 3)
      .map((f) => `${f.code}: ${f.message}`)
      .join('; ');
    throw new RenderError('invalid_composition', `The composition is invalid (${summary})`, errors);
  }
  const { ffmpegPath, timeoutMs, crf } = opts.tools;
  const settings = opts.tools.engineSettings(engine);
  const report = await runIsolated(
    {
      engine: engine.id,
      source,
      width: opts.width,
      height: opts.height,
      fps: opts.fps,
      ffmpegPath,
      crf,
      settings,
      assetsDir: opts.assetsDir,
      assets: opts.assets,
      chunk: opts.chunk,
      ...(opts.transparent ? { transparent: true } : {}),
    },
    {
      entry: engine.renderEntry,
      preload: engine.preload ?? [],
      readOnly: engine.settings?.sandboxPaths?.(settings) ?? [],
    },
    opts.outputPath,
    opts.tools,
    { timeoutMs: opts.timeoutMs ?? timeoutMs, signal: opts.signal, onProgress: opts.onProgress },
  );
  // A WebM's container records no frame count: its packets are counted.
  const probed = await probeVideo(ffmpegPath, opts.outputPath, { countPackets: opts.transparent === true });
  return { ...probed, framesSkipped: report.framesSkipped };
}
