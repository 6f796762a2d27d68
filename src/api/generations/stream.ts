// `stream: true` and `GET /v1/responses/{id}?stream=true` (extension): a generation's life as
// server-sent events in OpenAI's formats, so stock clients' streaming iterators read them as is.
//   Responses: response.created (0), response.queued (1), response.in_progress (2), response.progress
//     (the workflow's state number, 3 and up), then response.completed / .failed / .cancelled /
//     .incomplete with the whole object. `starting_after` skips what a client already has.
//   Chat: chat.completion.chunk objects whose choices[0].delta carries status and progress; the last
//     carries video_url (or error) and finish_reason, then [DONE].
// Updates come from the process's one watcher per generation (watch.ts); a client that leaves only
// ends its stream.
import type { Context } from 'koa';
import type { AppDeps } from '../../http/context.js';
import { openEventStream, type EventStream } from '../../http/sse.js';
import type { StreamSlot } from '../../http/streamCaps.js';
import type { GenerationStatus } from '../../shared.js';
import { toChatView, toResponsesView, type GenerationSnapshot } from './translate.js';
import { generationWatchers, type LiveUpdate } from './watch.js';

export type StreamShape = 'responses' | 'chat';

export type StreamOptions = {
  shape: StreamShape;
  organizationId: string;
  id: string;
  /** Set when the stream answers the create request: it opens with the created object. */
  created?: GenerationSnapshot;
  /** Responses: only events numbered after this. */
  startingAfter?: number;
};

/**
 * Follows the generation (404 before anything is written when it is not the caller's), then streams
 * in the slot taken for it (src/http/streamCaps.ts), released when the stream ends.
 */
export async function streamGeneration(
  ctx: Context,
  deps: AppDeps,
  opts: StreamOptions,
  slot: StreamSlot,
): Promise<void> {
  const early: LiveUpdate[] = [];
  let deliver: ((update: LiveUpdate) => void) | null = null;
  let unsubscribe: () => void;
  try {
    unsubscribe = await generationWatchers(deps).subscribe(opts.organizationId, opts.id, (update) =>
      deliver ? deliver(update) : early.push(update),
    );
  } catch (err) {
    slot.release();
    throw err;
  }
  const stream = openEventStream(ctx, deps.config.streamHeartbeatMs);
  void stream.closed.then(() => {
    unsubscribe();
    slot.release();
  });
  const writer = opts.shape === 'responses' ? responsesWriter(stream, opts.startingAfter ?? -1) : chatWriter(stream);
  if (opts.created) writer.created(opts.created);
  deliver = (update) => {
    writer.update(update);
    if (update.terminal) stream.end();
  };
  for (const update of early) deliver(update);
}

type Writer = { created(snapshot: GenerationSnapshot): void; update(update: LiveUpdate): void };

const RESPONSE_END_EVENTS: Partial<Record<GenerationStatus, string>> = {
  completed: 'response.completed',
  failed: 'response.failed',
  cancelled: 'response.cancelled',
  incomplete: 'response.incomplete',
};

function responsesWriter(stream: EventStream, startingAfter: number): Writer {
  let last = startingAfter;
  let opened = false;
  const send = (n: number, type: string, payload: object) => {
    if (n <= last) return;
    last = n;
    stream.send({ type, sequence_number: n, ...payload }, type);
  };
  return {
    created(snapshot) {
      opened = true;
      send(0, 'response.created', { response: toResponsesView(snapshot) });
    },
    update({ snapshot, seq, terminal }) {
      const response = toResponsesView(snapshot);
      if (terminal) return send(seq, RESPONSE_END_EVENTS[snapshot.status] ?? 'response.completed', { response });
      // A stream that saw the creation also sees the queued state, even when processing began at once.
      if (snapshot.status === 'queued' || opened)
        send(1, 'response.queued', { response: { ...response, status: 'queued' } });
      if (snapshot.status === 'in_progress') send(2, 'response.in_progress', { response });
      if (snapshot.progress && seq > 2)
        send(seq, 'response.progress', { response_id: snapshot.id, progress: snapshot.progress });
    },
  };
}

const FINISH_REASONS: Partial<Record<GenerationStatus, string>> = {
  completed: 'stop',
  failed: 'error',
  cancelled: 'cancelled',
  incomplete: 'error',
};

function chatWriter(stream: EventStream): Writer {
  let first = true;
  let lastKey = '';
  const chunk = (snapshot: GenerationSnapshot, delta: object, finishReason: string | null, usage: unknown = null) => {
    const view = toChatView(snapshot);
    stream.send({
      id: view.id,
      object: 'chat.completion.chunk',
      created: view.created,
      model: view.model,
      engine: view.engine,
      provider: view.provider,
      status: view.status,
      // Role once, as OpenAI's first chunk has it.
      choices: [{ index: 0, delta: first ? { role: 'assistant', ...delta } : delta, finish_reason: finishReason }],
      usage,
    });
    first = false;
  };
  return {
    created(snapshot) {
      chunk(snapshot, { status: toChatView(snapshot).status, progress: snapshot.progress }, null);
      lastKey = JSON.stringify([snapshot.status, snapshot.progress]);
    },
    update({ snapshot, terminal }) {
      const view = toChatView(snapshot);
      if (terminal) {
        // The error rides in the delta: a top-level `error` makes OpenAI clients throw mid-stream.
        const outcome =
          view.status === 'completed' ? { video_url: view.choices[0].message.video_url } : { error: view.error };
        chunk(snapshot, { status: view.status, ...outcome }, FINISH_REASONS[snapshot.status] ?? 'stop', view.usage);
        stream.sendRaw('[DONE]');
        return;
      }
      const key = JSON.stringify([snapshot.status, snapshot.progress]);
      if (key === lastKey) return;
      lastKey = key;
      chunk(snapshot, { status: view.status, progress: snapshot.progress }, null);
    },
  };
}
