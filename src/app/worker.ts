// Worker process entry point: `npm run worker` (or spawned by `npm start`).
// WORKER_QUEUES selects the task queues this process serves (default both), so render workers can
// run on their own machines: WORKER_QUEUES=render on the big boxes, WORKER_QUEUES=io elsewhere.
import { temporalConnectionOptions } from '../temporal/connection.js';
import { fileURLToPath } from 'node:url';
import { siblingModule } from '../engines/modulePath.js';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ActivityDeps } from '../../activities/deps.js';
import { createMediaActivities } from '../../activities/media.js';
import { createProviderActivities } from '../../activities/providers.js';
import { createRecordActivities } from '../../activities/records.js';
import { createRenderActivities, createRenderPlanActivities } from '../../activities/render.js';
import { createSoundMixActivities, createSpeechActivities } from '../../activities/sound.js';
import { createWebhookActivities } from '../../activities/webhooks.js';
import { Catalog } from '../catalog/index.js';
import { loadConfigOrExit } from '../config.js';
import { tellSupervisorReady } from '../supervision/protocol.js';
import { checkEngineSettingsOrExit, registerEnginePlugins, renderTools } from '../engines/index.js';
import { closeRenderProcesses } from '../engines/isolation/renderProcess.js';
import { checkSandbox } from '../engines/isolation/sandbox.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { logger } from '../logger.js';
import { boundPort, serveMetrics } from '../metrics.js';
import { TASK_QUEUES } from '../temporal/contract.js';
import { closeThreads } from '../threads/pool.js';
import { createStorage } from '../storage/index.js';
import { activityLogContext, temporalLogger } from '../temporal/logger.js';
import { renderWorkerIdentity } from '../temporal/renderSlots.js';
import { createWebhookDelivery } from '../webhooks/delivery.js';
import { warmUp } from './warmUp.js';

const config = loadConfigOrExit();
for (const deprecation of config.deprecations) logger.warn(deprecation);
await registerEnginePlugins(config.enginePlugins);
const tools = renderTools(config);
if (config.workerQueues.includes('render')) {
  // Each engine's own settings, read now: a bad value stops the worker naming the variable.
  checkEngineSettingsOrExit(tools);
  // Renders run compositions written from user prompts: a sandbox that cannot be had stops the worker.
  try {
    for (const warning of checkSandbox(config.render.sandbox)) logger.warn(warning);
  } catch (err) {
    logger.fatal((err as Error).message);
    process.exit(1);
  }
}
// Set by the first SIGTERM/SIGINT (below); read by the SDK's log lines too.
let stopping = false;
Runtime.install({
  logger: temporalLogger(logger, () => stopping),
  // One signal handler, below: beside the SDK's own, the second signal of a Ctrl-C on `npm start`
  // (SIGINT, then SIGTERM from start.ts) asked stopped workers to shut down again and crashed.
  shutdownSignals: [],
  telemetryOptions: {
    // The SDK core's own lines (a lost connection to Temporal…) through our JSON logger too, not as
    // coloured text on stderr.
    logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} },
    // The Temporal SDK's own metrics (task slots, poll latency, activity/workflow outcomes).
    ...(config.temporalMetricsBind && { metrics: { prometheus: { bindAddress: config.temporalMetricsBind } } }),
  },
});

// SIGTERM/SIGINT: stop polling, let in-flight activities finish within SHUTDOWN_GRACE_SECONDS
// (then they are cancelled; Temporal retries them on another worker). Later signals change nothing;
// one that comes while starting ends the process at once (nothing is in flight yet).
let workers: Worker[] = []; // none until created
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    if (workers.length === 0) process.exit(0);
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  });
}

const metricsServer = await serveMetrics(config.workerMetricsPort);
const db = createPool(config.databaseUrl, config.databasePoolSize);
await migrate(db);
const deps: ActivityDeps = {
  config,
  renderTools: tools,
  db,
  catalog: Catalog.load(),
  storage: createStorage(config),
  logger,
};
const connection = await NativeConnection.connect(temporalConnectionOptions(config));
const common = {
  connection,
  namespace: config.temporal.namespace,
  shutdownGraceTime: config.shutdownGraceMs,
  interceptors: { activity: [activityLogContext] },
};

/** The I/O queue's activities: records, media, provider calls, webhooks, render planning. */
function ioActivities() {
  const webhooks = createWebhookDelivery(deps);
  return {
    ...createRecordActivities(deps, webhooks),
    ...createMediaActivities(deps),
    ...createProviderActivities(deps),
    ...createWebhookActivities(webhooks),
    ...createRenderPlanActivities(deps),
    ...createSpeechActivities(deps),
  };
}

// Warmed while the workers are made (bundling the workflows takes seconds too), before the worker says
// it is ready and polls: the first generation after a start does not pay for cold engines (warmUp.ts).
const warming = config.workerWarmUp ? warmUp(config.workerQueues, tools, logger) : Promise.resolve(null);
workers = await Promise.all(
  config.workerQueues.map((queue) =>
    queue === 'io'
      ? Worker.create({
          ...common,
          taskQueue: TASK_QUEUES.io,
          // Half of the workflow task pollers on the shared queue (the SDK's default is a fifth): every
          // webhook event starts a new workflow, whose first task comes from there. With two pollers,
          // first tasks waited up to 10 s under load (bench/load, 200 generations: webhook p99 20.5 s →
          // 1.1–1.9 s).
          nonStickyToStickyPollRatio: 1,
          workflowsPath: fileURLToPath(siblingModule(import.meta.url, '../../workflows/index')),
          activities: ioActivities(),
        })
      : Worker.create({
          ...common,
          taskQueue: TASK_QUEUES.render,
          activities: { ...createRenderActivities(deps), ...createSoundMixActivities(deps) },
          // Names its slots, which decide how many chunks a long video is split into (renderSlots.ts).
          identity: renderWorkerIdentity(config.renderConcurrency),
          // Rendering is CPU-bound: a bounded number of renders at once.
          maxConcurrentActivityTaskExecutions: config.renderConcurrency,
        }),
  ),
);
const warmed = await warming;
if (warmed) logger.info(warmed, 'worker warmed');
logger.info(
  { queues: config.workerQueues, namespace: config.temporal.namespace, metrics_port: boundPort(metricsServer) },
  'worker running',
);
tellSupervisorReady();
await Promise.all(workers.map((w) => w.run()));
await closeRenderProcesses(); // the idle spare render processes kept warm between renders
await closeThreads(); // the I/O activities' CPU threads (src/threads)
await connection.close();
await db.end();
metricsServer.close();
logger.info('worker stopped');
