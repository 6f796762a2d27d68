// The render slots of the cluster, as Temporal reports them: every render worker names its slots in
// its identity, and the render task queue's pollers are the render workers alive now (Temporal lists
// a poller for a few minutes after its last poll, so a worker that just died still counts briefly).
import os from 'node:os';
import type { Client } from '@temporalio/client';
import { TASK_QUEUES } from './contract.js';

const SLOTS = / render-slots=(\d+)$/;
/** temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY (the proto package is not ours to import). */
const ACTIVITY_QUEUE = 2;

/** The identity of a render worker running `slots` renders at once. */
export const renderWorkerIdentity = (slots: number) => `${process.pid}@${os.hostname()} render-slots=${slots}`;

/** Render slots of the workers polling the render queue (a worker that names none counts as one). */
export async function renderSlots(client: Client, namespace: string): Promise<number> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: TASK_QUEUES.render },
    taskQueueType: ACTIVITY_QUEUE,
  });
  const identities = new Set((pollers ?? []).map((p) => p.identity ?? ''));
  return [...identities].reduce((sum, identity) => sum + Number(SLOTS.exec(identity)?.[1] ?? 1), 0);
}
