// Webhook delivery activities (task queue `video-io`), driven by workflows/webhooks.ts: the steps of
// the delivery module (src/webhooks/delivery.ts) as Temporal activities.
import { ApplicationFailure } from '@temporalio/activity';
import type { WebhookDelivery } from '../src/webhooks/delivery.js';
import type { WebhookActivities } from '../src/temporal/contract.js';

export function createWebhookActivities(delivery: WebhookDelivery): WebhookActivities {
  return {
    webhookEventEnabled: ({ organizationId, type }) => delivery.isEnabled(organizationId, type),

    webhookEndpointsFor: ({ organizationId, generationId }) => delivery.endpointsFor(organizationId, generationId),

    prepareWebhookEvent: (input) => delivery.prepare(input),

    /** One signed POST. Never throws for the receiver's sake: every outcome is a result to record. */
    async attemptWebhookDelivery({ eventId, attempt }) {
      const result = await delivery.attempt(eventId, attempt);
      if (!result) throw ApplicationFailure.nonRetryable(`webhook event ${eventId} is gone`, 'webhook_event_missing');
      return result;
    },

    recordWebhookAttempt: (result, status) => delivery.record(result, status),
  };
}
