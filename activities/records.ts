// Generation-record activities (task queue `video-io`).
import { Context } from '@temporalio/activity';
import { finishGeneration, markGenerationStarted } from '../src/db/generations.js';
import { metrics } from '../src/metrics.js';
import type {
  GenerationOutcome,
  PreparedDelivery,
  RecordActivities,
  WebhookDeliveryInput,
} from '../src/temporal/contract.js';
import type { WebhookDelivery } from '../src/webhooks/delivery.js';
import type { ActivityDeps } from './deps.js';

/** `webhooks`: the worker's webhook delivery, which sends the completed event the terminal record is given. */
export function createRecordActivities(
  { db, catalog, logger }: ActivityDeps,
  webhooks: WebhookDelivery,
): RecordActivities {
  return {
    async markStarted(generationId: string): Promise<void> {
      await markGenerationStarted(db, generationId);
    },

    /**
     * Writes the terminal state and charges the tokens consumed, exactly once; then prepares the
     * completed event, when given, and makes its first attempt (its receiver hears of the outcome
     * without waiting for a workflow task).
     */
    async finishGeneration(
      outcome: GenerationOutcome,
      completedEvent?: WebhookDeliveryInput,
    ): Promise<PreparedDelivery | undefined> {
      const engine = await finishGeneration(db, catalog, outcome);
      // Not when already written (by an earlier attempt, which counted and logged it).
      if (engine) {
        metrics.generationsFinished.inc({ engine, status: outcome.status });
        const fields = { generation_id: outcome.generationId, engine, provider: outcome.provider };
        // An internal error's cause is for the operator alone: clients got a fixed message naming the generation.
        if (outcome.internalCause !== undefined)
          logger.error(
            { ...fields, error: outcome.error, cause: outcome.internalCause },
            'generation failed on an internal error',
          );
        else if (outcome.status === 'failed') logger.warn({ ...fields, error: outcome.error }, 'generation failed');
        else logger.info(fields, `generation ${outcome.status}`);
      }
      return completedEvent
        ? webhooks.prepareAndAttemptFirst(completedEvent, Context.current().info.attempt > 1)
        : undefined;
    },
  };
}
