import type { Config } from '../config.js';

/** A generation's workflow in the Temporal UI (its workflow id is the generation id), when configured. */
export function workflowUrl(config: Pick<Config, 'dashboard' | 'temporal'>, generationId: string): string | null {
  const ui = config.dashboard.temporalUiUrl;
  return ui
    ? `${ui}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(generationId)}`
    : null;
}
