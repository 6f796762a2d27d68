// Messages between an engine (parent) and its render process (child), over Node's IPC channel.
import type { Logger } from '../../logger.js';
import type { EncodingSettings, Finding, MediaAsset, RenderChunk, RenderErrorCode, RenderProgress } from '../types.js';

/** Everything a render process needs; it reads no config or environment of its own. */
export type IsolatedJob = {
  renderId: string;
  engine: string;
  source: string;
  width: number;
  height: number;
  fps?: number;
  /** Inside the render's work directory; the parent moves it to the caller's path on success. */
  outputPath: string;
  workDir: string;
  chromePath: string;
  ffmpegPath: string;
  /**
   * The requester's media: a directory holding each asset as a file named after it, which the
   * composition refers to as `assets/<name>`. Absent: none.
   */
  assetsDir?: string;
  assets?: readonly MediaAsset[];
  /** Chrome keeps its own sandbox (the render does not run as root). */
  chromeSandbox: boolean;
  /** Page requests go through the refusing proxy (hyperframes/pageNetwork.ts). */
  pageNetworkGuard: boolean;
  encoding: EncodingSettings;
  /** Render only this chunk of the video's frames; absent: the whole video. */
  chunk?: RenderChunk;
};

export type ParentMessage = { type: 'render'; job: IsolatedJob };

export type ChildMessage =
  | { type: 'progress'; progress: RenderProgress }
  | { type: 'done' }
  | { type: 'failed'; code: RenderErrorCode; message: string; findings?: Finding[] };

/** The program a render process runs: the engine's render entry module and the packages it preloads. */
export type ChildProgram = { entry: URL; preload: readonly string[] };

/** What each engine's render entry module exports as `render`. */
export type ChildRenderer = (
  job: IsolatedJob,
  ctx: { onProgress: (progress: RenderProgress) => void; log: Logger },
) => Promise<void>;
