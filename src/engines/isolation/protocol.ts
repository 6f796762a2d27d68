// Messages between an engine (parent) and its render process (child), over Node's IPC channel.
import type { Logger } from '../../logger.js';
import type { Finding, MediaAsset, RenderChunk, RenderErrorCode, RenderProgress, RenderReport } from '../types.js';

/** Everything a render process needs; it reads no config or environment of its own. `S`: the engine's settings. */
export type IsolatedJob<S = unknown> = {
  renderId: string;
  engine: string;
  source: string;
  width: number;
  height: number;
  fps?: number;
  /** Inside the render's work directory; the parent moves it to the caller's path on success. */
  outputPath: string;
  workDir: string;
  ffmpegPath: string;
  /**
   * The requester's media: a directory holding each asset as a file named after it, which the
   * composition refers to as `assets/<name>`. Absent: none.
   */
  assetsDir?: string;
  assets?: readonly MediaAsset[];
  /** The render runs as an unprivileged user, so a browser can keep its own sandbox. */
  unprivileged: boolean;
  /** x264 constant rate factor of the video. */
  crf: number;
  /** The engine's own settings (EngineModule.settings), as read from the worker's environment. */
  settings: S;
  /** Render only this chunk of the video's frames; absent: the whole video. */
  chunk?: RenderChunk;
  /** A VP9 WebM with an alpha channel instead of an H.264 MP4 (RenderOptions.transparent). */
  transparent?: boolean;
};

export type ParentMessage = { type: 'render'; job: IsolatedJob };

export type ChildMessage =
  | { type: 'progress'; progress: RenderProgress }
  | { type: 'done'; report: RenderReport }
  | { type: 'failed'; code: RenderErrorCode; message: string; findings?: Finding[] };

/**
 * The program a render process runs: the engine's render entry module, the packages it preloads, and
 * paths outside the system directories it must see (read-only).
 */
export type ChildProgram = { entry: URL; preload: readonly string[]; readOnly: readonly string[] };

/** What each engine's render entry module exports as `render` (`S`: the engine's settings). */
export type ChildRenderer<S = unknown> = (
  job: IsolatedJob<S>,
  ctx: { onProgress: (progress: RenderProgress) => void; log: Logger },
) => Promise<RenderReport | void>;
