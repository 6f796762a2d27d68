// The service's Temporal dynamic config (src/temporal/dynamic-config.json): fairness on, the render
// queue in one partition (fairness holds within a partition), and the CLI dev server given the same
// global settings.
import { expect, it } from 'vitest';
import { devServerDynamicConfigArgs, serviceDynamicConfig } from '../../src/temporal/dynamicConfig.js';
import { TASK_QUEUES } from '../../src/temporal/contract.js';

it('turns task-queue fairness on and keeps the render queue in one partition', () => {
  const config = serviceDynamicConfig();
  expect(config['matching.useNewMatcher']).toEqual([{ value: true }]);
  expect(config['matching.enableFairness']).toEqual([{ value: true }]);
  for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
    expect(config[key]).toEqual([{ value: 1, constraints: { taskQueueName: TASK_QUEUES.render } }]);
  }
  // Every constraint names one of our queues.
  const queues = Object.values(config).flatMap((values) =>
    values.map((v) => (v.constraints as { taskQueueName?: string } | undefined)?.taskQueueName).filter(Boolean),
  );
  for (const queue of queues) expect(Object.values(TASK_QUEUES)).toContain(queue);
});

it('gives the dev server the global settings as flags (it cannot constrain a flag to a queue)', () => {
  expect(devServerDynamicConfigArgs()).toEqual([
    '--dynamic-config-value',
    'matching.useNewMatcher=true',
    '--dynamic-config-value',
    'matching.enableFairness=true',
  ]);
});
