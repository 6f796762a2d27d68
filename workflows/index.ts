// Every workflow the worker registers, under the names and signatures of the Temporal contract
// (src/temporal/contract.ts). Bundled by the Temporal worker (deterministic sandbox).
import type { GenerationWorkflow, WebhookDeliveryWorkflow, WORKFLOW_TYPES } from '../src/temporal/contract.js';
import { generationWorkflow } from './generation.js';
import { webhookDeliveryWorkflow } from './webhooks.js';

export { generationWorkflow, webhookDeliveryWorkflow };

/** Each workflow type the contract names, with the contract's signature (checked by the compiler). */
type Registered = Record<(typeof WORKFLOW_TYPES)['generation'], GenerationWorkflow> &
  Record<(typeof WORKFLOW_TYPES)['webhookDelivery'], WebhookDeliveryWorkflow>;
void ({ generationWorkflow, webhookDeliveryWorkflow } satisfies Registered);
