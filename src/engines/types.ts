// The one contract between the workflow activities and the rendering engines.
import type { EngineId } from '../shared.js';

/** One problem found in a composition; `severity: 'error'` means the composition is invalid. */
export type Finding = {
  code: string;
  message: string;
  /** Where: a JSON path for Lottie (`/layers/2/ks`), a selector, element id or snippet for HTML. */
  location?: string;
  fix_hint?: string;
  severity: 'error' | 'warning';
};

export type RenderOptions = {
  width: number;
  height: number;
  /** Frames per second of the output; default: the composition's own (Lottie `fr`) or 30. */
  fps?: number;
  outputPath: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Wall-clock limit of this render; default: config RENDER_TIMEOUT_SECONDS. */
  timeoutMs?: number;
};

export type RenderResult = {
  path: string;
  durationSeconds: number;
  frames: number;
  width: number;
  height: number;
  fps: number;
  bytes: number;
  codec: string;
};

export interface Engine {
  id: EngineId;
  /** Media type of the source (the stored artifact), e.g. text/html, application/json. */
  artifactType: string;
  validate(source: string, opts: { width: number; height: number }): Promise<Finding[]>;
  render(source: string, opts: RenderOptions): Promise<RenderResult>;
}

/** Why a render failed; `code` is stable, `message` is for people (and the LLM repair loop). */
export type RenderErrorCode =
  | 'invalid_composition' // validation found errors; `findings` says which
  | 'invalid_render_options' // width/height/fps outside the limits
  | 'render_timeout' // wall-clock limit reached; the process tree was killed
  | 'render_aborted' // the caller's AbortSignal fired
  | 'render_crashed' // the render process died (signal, OOM, WASM trap)
  | 'render_failed'; // the engine reported an error (broken composition at run time, ffmpeg failure)

export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
    readonly findings: Finding[] = [],
  ) {
    super(message);
    this.name = 'RenderError';
  }

  /** Retrying the same source cannot help for these. */
  get retryable(): boolean {
    return this.code === 'render_crashed' || this.code === 'render_timeout';
  }
}
