// The Video object of OpenAI's Videos API, as a view of a generation (any shape's: a generation created on
// /v1/responses is a video too). Fields are OpenAI's, timestamps in Unix seconds; our statuses map onto its
// four (a cancelled or incomplete generation is `failed`, its error saying why). Extensions follow
// OpenAI's fields: `engine` and the signed URLs of the video's media.
import type { GenerationRow } from '../../db/generations.js';
import type { OpenAiVideoRow } from '../../db/videos.js';
import type { GenerationStatus } from '../../shared.js';
import type { GenerationSnapshot } from '../generations/translate.js';

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

const STATUS: Record<GenerationStatus, VideoStatus> = {
  queued: 'queued',
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'failed',
  incomplete: 'failed',
};

/** The prompt of a generation of another shape: its user text, as sent. */
function promptOf(row: GenerationRow): string | null {
  const texts = row.request.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
  return texts.length ? texts.join('\n') : null;
}

export function toVideoView(g: GenerationSnapshot, row: GenerationRow, own: OpenAiVideoRow | null) {
  const status = STATUS[g.status];
  const error =
    g.error ??
    (g.status === 'cancelled' ? { code: 'cancelled', message: 'The video was cancelled before it finished' } : null);
  const duration = row.request.duration_seconds ?? null;
  return {
    id: g.id,
    object: 'video' as const,
    model: own?.model ?? g.model,
    status,
    progress: status === 'completed' ? 100 : status === 'failed' ? 0 : Math.round(g.progress?.percent ?? 0),
    created_at: Math.floor(g.createdAtMs / 1000),
    completed_at: g.completedAtMs === null ? null : Math.floor(g.completedAtMs / 1000),
    // Stored media are kept until the video is deleted: they do not expire.
    expires_at: null,
    error: status === 'failed' ? error : null,
    prompt: own?.prompt ?? promptOf(row),
    remixed_from_video_id: own?.remixed_from_video_id ?? null,
    seconds: own?.seconds ?? (duration === null ? null : String(Math.round(duration))),
    size: own?.size ?? `${row.request.width}x${row.request.height}`,
    // Extensions.
    engine: g.engine,
    video_url: status === 'completed' ? g.video : null,
    thumbnail_url: status === 'completed' ? g.thumbnail : null,
    spritesheet_url: status === 'completed' ? g.spritesheet : null,
  };
}

export type VideoView = ReturnType<typeof toVideoView>;
