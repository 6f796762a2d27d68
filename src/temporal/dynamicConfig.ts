// The Temporal dynamic config this service runs with, whatever the server (CLI dev server, the
// cluster of `npm run cluster`, docker-compose, which mounts dynamic-config.json): task-queue fairness,
// so one organization's backlog cannot starve another's. Generations start with their organization as
// fairness key (src/api/generations/service.ts) and their tasks are dispatched round-robin across keys
// on every queue; self-hosted servers need both settings on (README "Fairness between organizations").
// Fairness holds within a task-queue partition: the render queue, whose backlog is the one that
// matters, has a single partition (a partition dispatches far more tasks than renders can start).
// A JSON file is also YAML, the format Temporal reads.
import fs from 'node:fs';

const FILE = new URL('./dynamic-config.json', import.meta.url);

/** Key → constrained values, as Temporal's dynamic config file has them. */
export type DynamicConfig = Record<string, Array<{ value: unknown; constraints?: object }>>;

export function serviceDynamicConfig(): DynamicConfig {
  return JSON.parse(fs.readFileSync(FILE, 'utf8')) as DynamicConfig;
}

/**
 * The unconstrained settings as the dev server's `--dynamic-config-value key=<JSON>` flags (its flags
 * cannot name a task queue; it runs one partition per queue anyway: src/tooling/temporalDevServer.ts).
 */
export function devServerDynamicConfigArgs(config: DynamicConfig = serviceDynamicConfig()): string[] {
  return Object.entries(config).flatMap(([key, values]) => {
    const global = values.find((v) => !v.constraints);
    return global ? ['--dynamic-config-value', `${key}=${JSON.stringify(global.value)}`] : [];
  });
}
