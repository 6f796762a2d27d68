// The caps on open event streams (README "Security"): at most STREAMS_PER_KEY per API key (or per
// dashboard member) and STREAMS_PER_ORGANIZATION per organization, across every API process. A
// stream past either cap is refused with a 429 of its own code, STREAM_LIMIT_EXCEEDED (the request
// rate limit's is RATE_LIMIT_EXCEEDED); streams already open are not touched.
import { refreshStreamLeases, releaseStreamLease, takeStreamLease } from '../db/streamLeases.js';
import type { AppDeps } from './context.js';
import { ApiError } from './errors.js';

/** How long a lease outlives its process's last refresh; refreshed at a third of that. */
const LEASE_TTL_SECONDS = 60;
const RETRY_AFTER_SECONDS = 30;

export type StreamSlot = { release(): void };

/** Leases this process holds, refreshed together by one timer while any is open. */
const held = new Map<number, AppDeps['db']>();
let refresher: NodeJS.Timeout | null = null;

function startRefreshing(logger: AppDeps['logger']) {
  if (refresher) return;
  refresher = setInterval(
    () => {
      const byDb = new Map<AppDeps['db'], number[]>();
      for (const [id, db] of held) byDb.set(db, [...(byDb.get(db) ?? []), id]);
      for (const [db, ids] of byDb)
        refreshStreamLeases(db, ids, LEASE_TTL_SECONDS).catch((err: unknown) =>
          logger.warn({ err: String(err) }, 'stream lease refresh failed'),
        );
    },
    (LEASE_TTL_SECONDS * 1000) / 3,
  );
  refresher.unref();
}

/**
 * Takes a slot for one event stream of `holder` (`key:<id>` or `member:<id>`) in the organization,
 * or throws the 429. Release it when the stream ends (or is not opened after all).
 */
export async function takeStreamSlot(
  { db, config, logger }: Pick<AppDeps, 'db' | 'config' | 'logger'>,
  organizationId: string,
  holder: string,
): Promise<StreamSlot> {
  const caps = config.streamCaps;
  const outcome = await takeStreamLease(db, organizationId, holder, caps, LEASE_TTL_SECONDS);
  if ('refused' in outcome) {
    const per = holder.startsWith('member:') ? 'dashboard member' : 'API key';
    const message =
      outcome.refused === 'holder'
        ? `At most ${caps.perHolder} event streams may be open per ${per}; close one before opening another`
        : `At most ${caps.perOrganization} event streams may be open per organization; close one first`;
    throw new ApiError(
      429,
      'STREAM_LIMIT_EXCEEDED',
      message,
      undefined,
      { message, data: { retry_after: RETRY_AFTER_SECONDS } },
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  }
  held.set(outcome.id, db);
  startRefreshing(logger);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      held.delete(outcome.id);
      if (held.size === 0 && refresher) {
        clearInterval(refresher);
        refresher = null;
      }
      releaseStreamLease(db, outcome.id).catch((err: unknown) =>
        logger.warn({ err: String(err) }, 'stream lease release failed'),
      );
    },
  };
}
