// The production topology (src/tooling/topology.ts, what `npm run cluster` starts): a Temporal cluster on
// PostgreSQL with its four services as separate processes and four partitions per task queue, two API
// processes, one I/O worker, two render workers with one render slot each, S3 storage on gofakes3.
// Skipped, saying why, when the Temporal server or gofakes3 cannot be built here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Db } from '../../src/db/pool.js';
import { probeVideo } from '../../src/video/index.js';
import { freePorts } from '../../src/tooling/ports.js';
import { startTopology, type Topology } from '../../src/tooling/topology.js';
import { dropClusterDatabases, postgresServerUrl } from '../../src/tooling/temporalCluster.js';
import {
  createDrillGeneration,
  expectSettled,
  orgWithWebhooks,
  startDrillReceiver,
  type DrillReceiver,
} from '../support/drills.js';
import { rendering, waitUntil } from '../support/media.js';
import { api, createOrgWithKey, testEnv, waitForTerminal } from '../support/stack.js';
import { skipWithout } from '../support/tools.js';

describe.skipIf(
  skipWithout(
    'the production topology tests (test/cluster)',
    'the Temporal server (Go-built)',
    'gofakes3 (Go-built S3 server)',
  ),
)('production topology: Temporal cluster on PostgreSQL, 2 APIs, separate I/O and render workers, S3', () => {
  const temporalDatabase = `temporal_${crypto.randomBytes(4).toString('hex')}`;
  let topology: Topology;
  let db: Db;
  let drill: DrillReceiver;
  let dir: string;
  let temporal: Client;

  beforeAll(async () => {
    drill = await startDrillReceiver();
    db = createPool(inject('databaseUrl'), 4);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-test-'));
    const [frontendPort, ...apiPorts] = await freePorts(3);
    topology = await startTopology({
      databaseUrl: inject('databaseUrl'),
      temporalDatabase,
      dir,
      frontendPort: frontendPort!,
      apiPorts,
      renderWorkers: 2,
      namespace: 'default',
      env: testEnv({ ...drill.env, LOG_LEVEL: 'info' }),
      output: 'files',
    });
    temporal = new Client({ connection: await Connection.connect({ address: topology.temporal.address }) });
  }, 300_000);

  afterAll(async () => {
    await temporal?.connection.close();
    await topology?.stop();
    await db?.end();
    await drill?.close();
    await dropClusterDatabases(postgresServerUrl(inject('databaseUrl')), temporalDatabase);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  const apiUrl = (i: number) => topology.apis[i % topology.apis.length]!.url!;

  it(
    '8 generations across both shapes, both engines and both APIs complete, their videos in S3; ' +
      'operators find them by search attribute',
    { timeout: 600_000 },
    async () => {
      const { org, key } = await createOrgWithKey(db);
      const created = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const shape = i % 2 === 0 ? '/v1/responses' : '/v1/chat/completions';
          const prompt =
            shape === '/v1/responses'
              ? { input: `Cluster ${i}` }
              : { messages: [{ role: 'user', content: `Cluster ${i}` }] };
          const engine = i % 4 === 0 ? 'hyperframes' : 'lottie';
          const res = await api(apiUrl(i), shape, {
            method: 'POST',
            key,
            json: { model: 'gpt-4o-mini', engine, ...prompt, width: 160, height: 284, duration_seconds: 1 },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return { id: res.body.id as string, shape };
        }),
      );
      for (const [i, { id, shape }] of created.entries()) {
        const done = await waitForTerminal(apiUrl(i + 1), key, id, 480_000, shape);
        expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
        const url: string =
          shape === '/v1/responses' ? done.body.output_video_url : done.body.choices[0].message.video_url.url;
        expect(url.startsWith(topology.s3.endpoint)).toBe(true);
        const video = Buffer.from(await (await fetch(url)).arrayBuffer());
        expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
      }

      // As an operator would: the CLI against the cluster's visibility store (eventually consistent).
      const query = `OrganizationId="${org.id}" AND GenerationStatus="completed"`;
      const cli = (await import('../../src/tooling/install.mjs')).findTemporalCli()!;
      let listed: string[] = [];
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) {
        const { stdout } = await promisify(execFile)(cli, [
          'workflow',
          'list',
          '--address',
          topology.temporal.address,
          '--query',
          query,
          '--output',
          'json',
        ]);
        listed = (JSON.parse(stdout || '[]') as Array<{ execution: { workflowId: string } }>).map(
          (w) => w.execution.workflowId,
        );
        if (listed.length >= created.length) break;
      }
      expect(listed.sort()).toEqual(created.map((c) => c.id).sort());
    },
  );

  /** A 9 s HyperFrames video: past the chunking threshold, so two chunks, one per render slot. */
  const longVideo = { engine: 'hyperframes', width: 270, height: 480, duration_seconds: 9 };

  /** Waits until both chunks are under way (a render process on each worker); returns the chunk that started last. */
  async function bothChunksRendering(id: string) {
    for (const worker of topology.renderWorkers)
      await waitUntil(`a render on worker ${worker.child.pid}`, () => rendering(worker.child.pid!), 180_000);
    const { raw } = await temporal.workflow.getHandle(id).describe();
    const chunks = (raw.pendingActivities ?? []).filter(
      (a) => a.activityType?.name === 'renderChunk' && a.lastWorkerIdentity,
    );
    expect(chunks).toHaveLength(2);
    return chunks.sort((a, b) => Number(b.lastStartedTime?.seconds ?? 0) - Number(a.lastStartedTime?.seconds ?? 0))[0]!;
  }

  /** Events of the generation's workflow history about one activity type. */
  async function activityEvents(id: string, type: string) {
    const events = (await temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    const scheduled = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type)
        .map((e) => String(e.eventId)),
    );
    const of = (scheduledEventId: unknown) => scheduled.has(String(scheduledEventId));
    return {
      scheduled: scheduled.size,
      started: events
        .filter((e) => of(e.activityTaskStartedEventAttributes?.scheduledEventId))
        .map((e) => e.activityTaskStartedEventAttributes!),
      completed: events.filter((e) => of(e.activityTaskCompletedEventAttributes?.scheduledEventId)).length,
      cancelled: events.filter((e) => of(e.activityTaskCanceledEventAttributes?.scheduledEventId)).length,
    };
  }

  it(
    'cancelled mid-chunk: every chunk is aborted, no render process left on either worker',
    { timeout: 300_000 },
    async () => {
      const { key } = await orgWithWebhooks(db);
      // Long chunks (12 s each): on an idle machine a 4.5 s chunk can finish in the seconds a cancellation
      // takes to reach it (the next heartbeat).
      const { id } = await createDrillGeneration(apiUrl(0), key, drill.receiver, {
        ...longVideo,
        duration_seconds: 24,
      });
      await bothChunksRendering(id);
      const del = await api(apiUrl(1), `/v1/responses/${id}`, { method: 'DELETE', key });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      expect((await waitForTerminal(apiUrl(0), key, id, 60_000)).body.status).toBe('cancelled');
      expect(await activityEvents(id, 'renderChunk')).toMatchObject({ scheduled: 2, completed: 0, cancelled: 2 });
      expect(await activityEvents(id, 'joinChunks')).toMatchObject({ scheduled: 0 });
      for (const worker of topology.renderWorkers)
        await waitUntil(
          `render processes of worker ${worker.child.pid} gone`,
          async () => !(await rendering(worker.child.pid!)),
          10_000,
        );
    },
  );

  it(
    'a 9 s video renders as one chunk on each render worker; one SIGKILLed during its chunk: ' +
      'that chunk is retried on the other, the video has every frame',
    { timeout: 300_000 },
    async () => {
      const { key } = await orgWithWebhooks(db);
      const { id } = await createDrillGeneration(apiUrl(0), key, drill.receiver, longVideo);
      // The chunk with more left to draw: still running when its worker dies.
      const chunk = await bothChunksRendering(id);
      // Clients see the frames of the whole video, summed over the chunks (once the first are captured).
      await waitUntil(
        'frames reported',
        async () => (await api(apiUrl(1), `/v1/responses/${id}`, { key })).body.progress?.frames_total != null,
        60_000,
      );
      expect((await api(apiUrl(1), `/v1/responses/${id}`, { key })).body.progress).toMatchObject({
        stage: 'rendering',
        frames_total: 270,
      });
      const victim = topology.renderWorkers.find((w) => chunk.lastWorkerIdentity!.startsWith(`${w.child.pid}@`));
      expect(victim, `no render worker is ${chunk.lastWorkerIdentity}`).toBeDefined();
      await victim!.kill('SIGKILL');
      await expectSettled(db, apiUrl(1), key, drill.receiver, id);
      victim!.start();
      const chunks = await activityEvents(id, 'renderChunk');
      expect(chunks).toMatchObject({ scheduled: 2, completed: 2 });
      // The killed chunk's retry is the attempt that completed it (history records the last attempt of each).
      expect(chunks.started.map((e) => e.attempt).sort()).toEqual([1, 2]);
      expect(await activityEvents(id, 'joinChunks')).toMatchObject({ scheduled: 1, completed: 1 });
      const file = path.join(dir, `${id}.mp4`);
      const done = await api(apiUrl(0), `/v1/responses/${id}`, { key });
      fs.writeFileSync(file, Buffer.from(await (await fetch(done.body.output_video_url)).arrayBuffer()));
      const probed = await probeVideo('ffmpeg', file, { countPackets: true });
      expect(probed).toMatchObject({ codec: 'h264', width: 270, height: 480, fps: 30, frames: 270 });
      expect(probed.durationSeconds).toBeCloseTo(9, 2);
    },
  );

  it(
    'history and matching restarted mid-flight: nothing lost, charged once, webhooks under stable ids',
    { timeout: 300_000 },
    async () => {
      const { key } = await orgWithWebhooks(db);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++)
        ids.push((await createDrillGeneration(apiUrl(i), key, drill.receiver, { input: `Restart ${i}` })).id);
      /** The generations of this drill not yet ended, as their records say. */
      const inFlight = async () =>
        (
          await db.query<{ id: string }>(
            `SELECT id FROM generations WHERE id = ANY($1) AND status IN ('queued', 'in_progress')`,
            [ids],
          )
        ).rows.map((r) => r.id);
      // Mid-flight: each service restarts while generations of the drill are still running.
      await waitUntil(
        'a generation of the drill in progress',
        async () =>
          (await db.query(`SELECT 1 FROM generations WHERE id = ANY($1) AND status = 'in_progress'`, [ids])).rowCount! >
          0,
      );
      for (const service of ['history', 'matching'] as const) {
        expect((await inFlight()).length, `generations in flight when ${service} restarts`).toBeGreaterThan(0);
        await topology.temporal.restart(service);
      }
      for (const [i, id] of ids.entries()) await expectSettled(db, apiUrl(i), key, drill.receiver, id);
    },
  );

  it('one API process stopped: clients of the other continue', { timeout: 300_000 }, async () => {
    const { key } = await orgWithWebhooks(db);
    const { id } = await createDrillGeneration(apiUrl(0), key, drill.receiver, {
      engine: 'hyperframes',
      width: 360,
      height: 640,
      duration_seconds: 2,
    });
    await topology.apis[0]!.stop();
    await expectSettled(db, apiUrl(1), key, drill.receiver, id);
    const next = await createDrillGeneration(apiUrl(1), key, drill.receiver);
    await expectSettled(db, apiUrl(1), key, drill.receiver, next.id);
  });
});
