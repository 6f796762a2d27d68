// What a generation page's script hears while the generation is in flight: one small JSON event per
// change, from the process's one watcher per generation (src/api/generations/watch.ts, which the
// API's streams share), the last one with `done` and, when completed, the video and its poster.
import type { GenerationSnapshot } from '../api/generations/translate.js';
import type { GenerationProgress, GenerationStatus } from '../shared.js';
import { progressLabel } from './views/progress.js';

export type LiveEvent = {
  status: GenerationStatus;
  progress: GenerationProgress | null;
  /** The progress in words, as the page shows it. */
  label: string;
  /** 0–100; null while unknown. */
  percent: number | null;
  done: boolean;
  /** Completed: signed URLs of the video and of its poster (null for none). */
  video_url?: string;
  poster_url?: string | null;
};

export function liveEvent(snapshot: GenerationSnapshot, terminal: boolean, posterUrl: string | null = null): LiveEvent {
  const { status, progress } = snapshot;
  return {
    status,
    progress,
    label: progressLabel(status, progress, snapshot.error),
    percent: status === 'completed' ? 100 : (progress?.percent ?? null),
    done: terminal,
    ...(terminal && status === 'completed' && snapshot.video
      ? { video_url: snapshot.video.url, poster_url: posterUrl }
      : {}),
  };
}
