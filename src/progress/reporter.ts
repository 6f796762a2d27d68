// The render activity's side of live progress: engine progress in, throttled reports to the
// workflow out (a signal each). A report goes at most once a second and only when the whole percent
// or the stage changed, so a render of any length adds at most ~100 signals to its history.
import type { RenderProgress } from '../engines/types.js';
import type { RenderProgressReport } from '../temporal/contract.js';

const MIN_INTERVAL_MS = 1000;
/** How long the activity waits for a last report before it returns anyway (Temporal may be away). */
const FLUSH_TIMEOUT_MS = 2000;

export type ProgressReporter = {
  /** Engine progress (called often). */
  render(progress: RenderProgress): void;
  /** The render is done and the video is being stored. */
  storing(): void;
  /** Waits (briefly) for the reports not yet sent. */
  flush(): Promise<void>;
};

export function progressReporter(
  send: (report: RenderProgressReport) => Promise<void>,
  now: () => number = () => performance.now(),
): ProgressReporter {
  let last: RenderProgressReport | null = null;
  let lastAt = -Infinity;
  let firstFrameAt: number | null = null;
  // One signal at a time; while one is out, only the newest report waits (reports are advisory: a
  // lost one is replaced by the next, and a slow server never makes them pile up).
  let waiting: RenderProgressReport | null = null;
  let sending: Promise<void> | null = null;
  const pump = async () => {
    while (waiting) {
      const report = waiting;
      waiting = null;
      await send(report).catch(() => {});
    }
    sending = null;
  };

  const emit = (report: RenderProgressReport, force: boolean) => {
    const t = now();
    const changed =
      !last || last.stage !== report.stage || Math.floor(report.fraction * 100) !== Math.floor(last.fraction * 100);
    if (!changed || (!force && last?.stage === report.stage && t - lastAt < MIN_INTERVAL_MS)) return;
    last = report;
    lastAt = t;
    waiting = report;
    sending ??= pump();
  };

  return {
    render(p) {
      const t = now();
      if (firstFrameAt === null && (p.framesRendered ?? 0) > 0) firstFrameAt = t;
      emit(
        {
          stage: p.stage,
          fraction: Math.max(0, Math.min(1, p.fraction)),
          frames_rendered: p.framesRendered,
          frames_total: p.framesTotal,
          eta_seconds: etaSeconds(p, firstFrameAt === null ? null : t - firstFrameAt),
        },
        false,
      );
    },
    storing() {
      emit(
        {
          stage: 'storing',
          fraction: 1,
          frames_rendered: last?.frames_total ?? null,
          frames_total: last?.frames_total ?? null,
          eta_seconds: null,
        },
        true,
      );
    },
    flush: () =>
      Promise.race([sending ?? Promise.resolve(), new Promise<void>((r) => setTimeout(r, FLUSH_TIMEOUT_MS).unref())]),
  };
}

/**
 * Seconds left, from the pace since the first frame: the frames still to draw at that pace, plus a
 * tenth of the whole drawing time for encoding. Null until the pace is known.
 */
function etaSeconds(p: RenderProgress, sinceFirstFrameMs: number | null): number | null {
  if (sinceFirstFrameMs === null || !p.framesRendered || !p.framesTotal || sinceFirstFrameMs < 500) return null;
  const perFrameMs = sinceFirstFrameMs / p.framesRendered;
  const framesLeft = Math.max(0, p.framesTotal - p.framesRendered);
  const encodingMs = p.stage === 'encoding' ? 0 : p.framesTotal * perFrameMs * 0.1;
  return Math.max(1, Math.ceil((framesLeft * perFrameMs + encodingMs) / 1000));
}
