// When a video renders as chunks across render workers, and which frames each chunk draws. Pure:
// the planning activity decides, the engines draw (RenderOptions.chunk), the join concatenates.
import type { RenderChunk, RenderTiming } from './types.js';

export type ChunkPolicy = {
  /** Videos longer than this (seconds) are split; shorter ones render in one piece. */
  thresholdSeconds: number;
  /** No chunk shorter than this (seconds): each chunk pays a browser start and page load. */
  minChunkSeconds: number;
  /** At most this many chunks per video. */
  maxChunks: number;
};

/**
 * The chunks of a video of `timing`, with `slots` render slots in the cluster: as many as the slots,
 * the maximum and the shortest chunk allow; none (one piece) for short videos or when only one
 * chunk would result.
 */
export function planChunks(timing: RenderTiming, policy: ChunkPolicy, slots: number): RenderChunk[] {
  const seconds = timing.frames / timing.fps;
  if (seconds <= policy.thresholdSeconds) return [];
  const wanted = Math.min(policy.maxChunks, slots, Math.floor(seconds / policy.minChunkSeconds));
  const chunks = splitFrames(timing.frames, wanted);
  return chunks.length > 1 ? chunks : [];
}

/**
 * `total` frames in at most `count` chunks of equal size (the last may be shorter): the producer's
 * own slicing, so that a HyperFrames chunk's plan agrees with ours.
 */
export function splitFrames(total: number, count: number): RenderChunk[] {
  const size = Math.ceil(total / Math.max(1, count));
  const n = Math.ceil(total / size);
  return Array.from({ length: n }, (_, index) => ({
    index,
    count: n,
    start: index * size,
    end: Math.min(total, (index + 1) * size),
    size,
    total,
  }));
}
