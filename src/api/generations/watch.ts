// Live updates of generations for streams (API SSE and the dashboard): one watcher per generation
// per process, however many streams follow it. A watcher queries its workflow a few times a second
// while anyone listens, tells every listener when the state's `seq` changed, and reads the record
// once the generation has ended. Streams therefore cost no Temporal queries of their own.
import type { GenerationRow } from '../../db/generations.js';
import type { AppDeps } from '../../http/context.js';
import { metrics } from '../../metrics.js';
import { TERMINAL_STATUSES } from '../../shared.js';
import { findOwned, queryLiveState, snapshot } from './service.js';
import type { GenerationSnapshot } from './translate.js';

/** How often a watched generation's workflow is asked for its state. */
const POLL_MS = 500;

/** One state of a generation: `seq` numbers it (the workflow's counter; the record's at the end). */
export type LiveUpdate = { snapshot: GenerationSnapshot; seq: number; terminal: boolean };
export type Listener = (update: LiveUpdate) => void;

type Watcher = { row: GenerationRow; listeners: Set<Listener>; latest: LiveUpdate | null; running: boolean };

export class GenerationWatchers {
  private readonly watchers = new Map<string, Watcher>();

  constructor(private readonly deps: AppDeps) {}

  /**
   * Follows a generation the caller owns (404 otherwise): `listener` gets the latest state at once,
   * then every change, the terminal state last. Returns the unsubscribe function.
   */
  async subscribe(organizationId: string, id: string, listener: Listener): Promise<() => void> {
    const row = await findOwned(this.deps, organizationId, id);
    let watcher = this.watchers.get(id);
    if (!watcher) {
      watcher = { row, listeners: new Set(), latest: null, running: false };
      this.watchers.set(id, watcher);
    }
    watcher.listeners.add(listener);
    if (watcher.latest) listener(watcher.latest);
    if (!watcher.running) void this.run(id, watcher);
    return () => {
      watcher.listeners.delete(listener);
    };
  }

  /** Streams open now (a gauge for operators and the bench). */
  get listenerCount(): number {
    let n = 0;
    for (const w of this.watchers.values()) n += w.listeners.size;
    return n;
  }

  private async run(id: string, watcher: Watcher): Promise<void> {
    watcher.running = true;
    try {
      while (watcher.listeners.size > 0) {
        const update = await this.poll(watcher);
        if (update && update.seq !== watcher.latest?.seq) {
          watcher.latest = update;
          for (const listener of watcher.listeners) listener(update);
        }
        if (update?.terminal) return;
        await new Promise((r) => setTimeout(r, POLL_MS).unref());
      }
    } catch (err) {
      this.deps.logger.warn({ err, generation_id: id }, 'watching a generation failed');
    } finally {
      watcher.running = false;
      // A finished generation's watcher stays only while its last listeners are being told.
      if (watcher.listeners.size === 0 || watcher.latest?.terminal) this.watchers.delete(id);
    }
  }

  private async poll(watcher: Watcher): Promise<LiveUpdate | null> {
    const { row } = watcher;
    if (!TERMINAL_STATUSES.includes(row.status)) {
      metrics.streamStateQueries.inc();
      // A busy worker answers late; the watcher simply asks again.
      const live = await queryLiveState(this.deps, row.id, 'debug');
      if (live && !TERMINAL_STATUSES.includes(live.status)) {
        return { snapshot: await snapshot(this.deps, row, live), seq: live.seq, terminal: false };
      }
    }
    // Ended (or the workflow cannot be asked): the record says how, with its final number.
    const fresh = await findOwned(this.deps, row.organization_id, row.id);
    if (!TERMINAL_STATUSES.includes(fresh.status)) return null;
    watcher.row = fresh;
    const seq = Math.max(fresh.event_seq ?? 0, (watcher.latest?.seq ?? 0) + 1);
    return { snapshot: await snapshot(this.deps, fresh, null), seq, terminal: true };
  }
}

const hubs = new WeakMap<AppDeps, GenerationWatchers>();

/** The watchers of a process (one per set of app dependencies). */
export function generationWatchers(deps: AppDeps): GenerationWatchers {
  let hub = hubs.get(deps);
  if (!hub) {
    hub = new GenerationWatchers(deps);
    hubs.set(deps, hub);
  }
  return hub;
}
