// Generation-record activities (task queue `video-io`).
import { finishGeneration, markGenerationStarted } from '../src/db/generations.js';
import { metrics } from '../src/metrics.js';
import type { GenerationOutcome } from '../src/shared.js';
import type { ActivityDeps } from './deps.js';

export function createRecordActivities({ db, catalog }: ActivityDeps) {
  return {
    async markStarted(generationId: string): Promise<void> {
      await markGenerationStarted(db, generationId);
    },

    /** Writes the terminal state and charges the tokens consumed, exactly once. */
    async finishGeneration(outcome: GenerationOutcome): Promise<void> {
      const engine = await finishGeneration(db, catalog, outcome);
      if (engine) metrics.generationsFinished.inc({ engine, status: outcome.status });
    },
  };
}

export type RecordActivities = ReturnType<typeof createRecordActivities>;
