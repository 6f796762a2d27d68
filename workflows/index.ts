// Every workflow the worker registers. Bundled by the Temporal worker (deterministic sandbox).
export { generationWorkflow, stateQuery } from './generation.js';
export { webhookDeliveryWorkflow } from './webhooks.js';
