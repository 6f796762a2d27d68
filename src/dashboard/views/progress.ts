// A generation's progress in words, the same on the page and in its live events: "Queued",
// "Composing with openai (repair round 1)", "Rendering frame 120 of 300, about 12 s left",
// "Encoding", "Storing"; and how it ended.
import type { GenerationProgress, GenerationStatus } from '../../shared.js';

const ENDED: Partial<Record<GenerationStatus, string>> = {
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  incomplete: 'Incomplete',
};

/** "about 12 s left", "about 3 min left". */
export function timeLeft(seconds: number): string {
  if (seconds < 1) return 'almost done';
  if (seconds < 90) return `about ${Math.round(seconds)} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

export function progressLabel(
  status: GenerationStatus,
  progress: GenerationProgress | null,
  error?: { message: string } | null,
): string {
  const ended = ENDED[status];
  if (ended) return error?.message && status !== 'cancelled' ? `${ended}: ${error.message}` : ended;
  if (!progress) return status === 'queued' ? 'Queued' : 'In progress';
  switch (progress.stage) {
    case 'queued':
      return 'Queued';
    case 'composing': {
      const round = progress.repair_round ? ` (repair round ${progress.repair_round})` : '';
      return `${progress.provider ? `Composing with ${progress.provider}` : 'Composing'}${round}`;
    }
    case 'rendering': {
      const frames = progress.frames_total
        ? `Rendering frame ${progress.frames_rendered ?? 0} of ${progress.frames_total}`
        : 'Rendering';
      return progress.eta_seconds === null ? frames : `${frames}, ${timeLeft(progress.eta_seconds)}`;
    }
    case 'encoding':
      return 'Encoding';
    case 'storing':
      return 'Storing';
  }
}
