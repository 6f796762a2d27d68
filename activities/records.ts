// Generation-record activities (task queue `video-io`).
import { finishGeneration, markGenerationStarted } from '../src/db/generations.js';
import { metrics } from '../src/metrics.js';
import type { GenerationOutcome, RecordActivities } from '../src/temporal/contract.js';
import type { ActivityDeps } from './deps.js';

export function createRecordActivities({ db, catalog, logger }: ActivityDeps): RecordActivities {
  return {
    async markStarted(generationId: string): Promise<void> {
      await markGenerationStarted(db, generationId);
    },

    /** Writes the terminal state and charges the tokens consumed, exactly once. */
    async finishGeneration(outcome: GenerationOutcome): Promise<void> {
      const engine = await finishGeneration(db, catalog, outcome);
      if (!engine) return; // already written (by an earlier attempt, which counted and logged it)
      metrics.generationsFinished.inc({ engine, status: outcome.status });
      const fields = { generation_id: outcome.generationId, engine, provider: outcome.provider };
      // An internal error's cause is for the operator alone: clients got a fixed message naming the generation.
      if (outcome.internalCause !== undefined) logger.error({ ...fields, error: outcome.error, cause: outcome.internalCause }, 'generation failed on an internal error');
      else if (outcome.status === 'failed') logger.warn({ ...fields, error: outcome.error }, 'generation failed');
      else logger.info(fields, `generation ${outcome.status}`);
    },
  };
}
