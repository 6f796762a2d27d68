// One generation's page (its video with a poster frame, details, webhook deliveries; while in flight,
// its progress) and the page's live events: GET /dashboard/generations/:id/events, server-sent, from
// the process's one watcher per generation (the API's streams share it). Another organization's id
// is a 404, on both.
import Router from '@koa/router';
import { queryLiveState } from '../../api/generations/service.js';
import { generationWatchers, type LiveUpdate } from '../../api/generations/watch.js';
import { getGeneration } from '../../db/generations.js';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { openEventStream } from '../../http/sse.js';
import { takeStreamSlot } from '../../http/streamCaps.js';
import { idParams, validate } from '../../http/validate.js';
import { TERMINAL_STATUSES } from '../../shared.js';
import { captionsKey, videoKey } from '../../storage/keys.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { listDeliveries } from '../deliveries.js';
import { liveEvent } from '../live.js';
import { mediaUrl, pagePosterUrl } from '../media.js';
import { posterUrl } from '../posters.js';
import { sendPage } from '../respond.js';
import { member, requireMember } from '../session.js';
import { workflowUrl } from '../temporal.js';
import { generationPage } from '../views/generation.js';
import { storyboardSchema } from '../../storyboard/schema.js';
import type { Storage } from '../../storage/types.js';

/** The generation's stored storyboard and a signed URL to download it; null when it has none (or it cannot be read). */
async function storyboardOf(storage: Storage, key: string | null) {
  if (!key) return null;
  try {
    const content = storyboardSchema.parse(JSON.parse(await storage.getText(key)));
    return { content, url: (await storage.url(key)).url };
  } catch {
    return null;
  }
}

export function generationsRoutes(deps: AppDeps): Router<DashboardState> {
  const { db, storage, config } = deps;
  const router = new Router<DashboardState>();

  router.get(
    '/dashboard/generations/:id',
    requireMember(),
    validate({ params: idParams }, async (ctx: DashboardContext, { params: { id } }) => {
      const session = member(ctx);
      const generation = await getGeneration(db, session.organizationId, id);
      if (!generation) throw notFound('No such generation in your organization');
      const completed = generation.status === 'completed';
      const inFlight = !TERMINAL_STATUSES.includes(generation.status);
      // In flight: where it stands now (the page's script follows from there), and the storage's
      // origin allowed already for the video the script swaps in at the end.
      const live = inFlight ? await queryLiveState(deps, id, 'debug') : null;
      if (inFlight) await mediaUrl(ctx, storage, videoKey(id));
      // Burned captions are on the picture already: the player shows a track only for sidecar ones.
      const captioned = completed && generation.request.audio?.captions === 'sidecar';
      const [deliveries, videoUrl, poster, storyboard, captionsUrl] = await Promise.all([
        listDeliveries(db, session.organizationId, { generationId: id }),
        completed ? mediaUrl(ctx, storage, generation.video_key) : null,
        completed ? pagePosterUrl(ctx, storage, id) : null,
        storyboardOf(storage, generation.storyboard_key),
        captioned ? mediaUrl(ctx, storage, captionsKey(id)) : null,
      ]);
      sendPage(
        ctx,
        generationPage({
          session,
          generation,
          live: inFlight ? { status: live?.status ?? generation.status, progress: live?.progress ?? null } : null,
          videoUrl,
          posterUrl: poster,
          captionsUrl,
          workflowUrl: workflowUrl(config, id),
          deliveries,
          storyboard,
        }),
      );
    }),
  );

  router.get(
    '/dashboard/generations/:id/events',
    requireMember({ page: false }),
    validate({ params: idParams }, async (ctx: DashboardContext, { params: { id } }) => {
      const session = member(ctx);
      // Subscribing checks ownership: an unknown or another organization's id is a 404 before any event.
      const early: LiveUpdate[] = [];
      let deliver: ((update: LiveUpdate) => void) | null = null;
      const slot = await takeStreamSlot(deps, session.organizationId, `member:${session.memberId}`);
      let unsubscribe: () => void;
      try {
        unsubscribe = await generationWatchers(deps).subscribe(session.organizationId, id, (update) =>
          deliver ? deliver(update) : early.push(update),
        );
      } catch (err) {
        slot.release();
        throw err;
      }
      const stream = openEventStream(ctx, config.streamHeartbeatMs);
      void stream.closed.then(() => {
        unsubscribe();
        slot.release();
      });
      // Events go out in order; the last one waits for its poster lookup.
      let sending = Promise.resolve();
      let last = '';
      deliver = (update) => {
        sending = sending
          .then(async () => {
            const completed = update.terminal && update.snapshot.status === 'completed';
            const event = liveEvent(update.snapshot, update.terminal, completed ? await posterUrl(storage, id) : null);
            const json = JSON.stringify(event);
            if (json !== last) stream.send(event);
            last = json;
          })
          .catch((err: unknown) => ctx.state.log.warn({ err, generation_id: id }, 'dashboard live event failed'))
          .finally(() => {
            if (update.terminal) stream.end();
          });
      };
      for (const update of early) deliver(update);
    }),
  );
  return router;
}
