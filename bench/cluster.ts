// bench/cluster: the production topology (src/tooling/topology.ts) on this machine.
//   npx tsx bench/cluster.ts [--pickups 20] [--batch 6] [--engines hyperframes,lottie] [--skip-pickup]
//                            [--skip-throughput] [--skip-chunking] [--chunk-seconds 30] [--skip-fairness]
//                            [--fairness-burst 20]
// 1. Render pickup: `--pickups` small generations one after another (render workers idle, so nothing
//    waits for a slot), on the Temporal cluster (four partitions per task queue, the server's default)
//    and on the CLI's dev server (one partition), each with two render workers of one slot: the
//    schedule-to-start time of every render activity, read from the workflow histories.
// 2. Throughput: `--batch` generations of 1080x1920, 3 s videos at once per engine, with one and with
//    two render workers: generations per minute (first create to last completion), the CPU seconds the
//    machine spent per second of video (the capacity model's figure), and how long render slots sat
//    idle between renders (a task waiting in a partition no poller is on would show here).
// 3. Chunking: one `--chunk-seconds` 1080x1920 HyperFrames generation with two render workers, in one
//    piece (RENDER_CHUNKS_MAX=1) and split into a chunk per worker: its latency, the render phase
//    (render scheduled to render or join completed, from the history) and the machine's CPU seconds.
// 4. Fairness: organization A creates `--fairness-burst` small generations at once, organization B one
//    once A's renders have begun, with two render workers of one slot: each render's queue wait
//    (scheduled → started, from the histories) and how many of A's queued renders B's overtook.
// Needs the Temporal server and gofakes3 (built by `npm test`'s installer) and PostgreSQL (DATABASE_URL
// or embedded).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { createApiKey } from '../src/db/apiKeys.js';
import { createOrganization } from '../src/db/organizations.js';
import { freePorts } from '../src/tooling/ports.js';
import { startTopology, topologyUnavailable, type Topology } from '../src/tooling/topology.js';
import { dropClusterDatabases, postgresServerUrl } from '../src/tooling/temporalCluster.js';
import { benchContext, benchDatabase, loadAverage, percentile, today } from './support.js';

const { values } = parseArgs({
  options: {
    pickups: { type: 'string', default: '20' },
    batch: { type: 'string', default: '6' },
    engines: { type: 'string', default: 'hyperframes,lottie' },
    'skip-pickup': { type: 'boolean', default: false },
    'skip-throughput': { type: 'boolean', default: false },
    'skip-chunking': { type: 'boolean', default: false },
    'chunk-seconds': { type: 'string', default: '30' },
    'skip-fairness': { type: 'boolean', default: false },
    'fairness-burst': { type: 'string', default: '20' },
  },
});
const unavailable = topologyUnavailable();
if (unavailable) throw new Error(`bench/cluster needs ${unavailable}`);

type Headers = Record<string, string>;
/** `headers`: organization A's key; `otherHeaders`: organization B's. */
type Run = {
  topology: Topology;
  base: string[];
  headers: Headers;
  otherHeaders: Headers;
  temporal: Client;
  stop(): Promise<void>;
};

async function start(server: 'cluster' | 'dev', renderWorkers: number, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const ctx = benchContext(`cluster-${server}`);
  const { url, db } = await benchDatabase(ctx);
  const keyOf = async (name: string) =>
    (await createApiKey(db, (await createOrganization(db, name, 100_000_000)).id, 'bench')).key;
  const [key, otherKey] = [await keyOf('bench'), await keyOf('bench other')];
  const headersOf = (k: string) => ({ authorization: `Bearer ${k}`, 'content-type': 'application/json' });
  const [frontendPort, apiPort] = await freePorts(2);
  const temporalDatabase = `temporal_bench_${process.pid}_${server}_${renderWorkers}`;
  const topology = await startTopology({
    databaseUrl: url,
    temporalDatabase,
    dir: ctx.tmp,
    frontendPort: frontendPort!,
    apiPorts: [apiPort!],
    renderWorkers,
    namespace: 'default',
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', ...env },
    output: 'files',
    temporalServer: server,
  });
  ctx.defer(async () => {
    await topology.stop();
    // The cluster's own databases, on the same server as the bench database.
    await dropClusterDatabases(postgresServerUrl(url), temporalDatabase);
  });
  const temporal = new Client({ connection: await Connection.connect({ address: topology.temporal.address }) });
  ctx.defer(() => temporal.connection.close());
  // Workers bundle their workflows before they poll.
  await new Promise((r) => setTimeout(r, 5000));
  return {
    topology,
    base: topology.apis.map((a) => a.url!),
    headers: headersOf(key),
    otherHeaders: headersOf(otherKey),
    temporal,
    stop: () => ctx.cleanup(),
  };
}

async function create(run: Run, body: object, headers = run.headers): Promise<string> {
  const res = await fetch(`${run.base[0]}/v1/responses`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'gpt-4o-mini', ...body }),
  });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function view(run: Run, id: string, headers = run.headers) {
  return (await (await fetch(`${run.base[0]}/v1/responses/${id}`, { headers })).json()) as {
    status: string;
    completed_at: number | null;
    progress: { stage: string } | null;
  };
}

async function waitDone(run: Run, id: string, headers = run.headers): Promise<number> {
  for (;;) {
    const current = await view(run, id, headers);
    if (current.status === 'completed') return current.completed_at!;
    if (['failed', 'cancelled', 'incomplete'].includes(current.status)) throw new Error(`${id} ${current.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type RenderTimes = { scheduled: number; started: number; completed: number; worker: string };

/** When the render activity was scheduled, started (by which worker) and completed, from the workflow history. */
async function renderTimes(run: Run, id: string): Promise<RenderTimes> {
  const history = await run.temporal.workflow.getHandle(id).fetchHistory();
  const events = history.events ?? [];
  const scheduled = events.find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'renderComposition',
  );
  const of = (e: (typeof events)[number]) =>
    e.activityTaskStartedEventAttributes?.scheduledEventId ?? e.activityTaskCompletedEventAttributes?.scheduledEventId;
  const started = events.find(
    (e) => e.activityTaskStartedEventAttributes && String(of(e)) === String(scheduled?.eventId),
  );
  const completed = events.find(
    (e) => e.activityTaskCompletedEventAttributes && String(of(e)) === String(scheduled?.eventId),
  );
  if (!scheduled || !started || !completed) throw new Error(`${id}: no completed render activity in its history`);
  const ms = (t: typeof scheduled.eventTime) => Number(t!.seconds) * 1000 + Math.floor((t!.nanos ?? 0) / 1e6);
  return {
    scheduled: ms(scheduled.eventTime),
    started: ms(started.eventTime),
    completed: ms(completed.eventTime),
    worker: started.activityTaskStartedEventAttributes!.identity ?? '',
  };
}

/** Per render worker, the idle time between finishing one render and starting the next (a task no poller saw). */
function idleGapsMs(renders: RenderTimes[]): number[] {
  const gaps: number[] = [];
  for (const worker of new Set(renders.map((r) => r.worker))) {
    const own = renders.filter((r) => r.worker === worker).sort((a, b) => a.started - b.started);
    for (let i = 1; i < own.length; i++) gaps.push(own[i]!.started - own[i - 1]!.completed);
  }
  return gaps.sort((a, b) => a - b);
}

/**
 * CPU seconds the whole machine has been busy so far (/proc/stat: all but idle and iowait). Render
 * processes run in their own namespaces and control groups, so the machine's total is the honest
 * figure: the renders, plus the API, workers, Temporal and PostgreSQL around them.
 */
function machineBusySeconds(): number {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

const lines: string[] = [`bench/cluster ${today()} (load before: ${loadAverage()})`];
const say = (line: string) => {
  lines.push(line);
  console.log(line);
};

if (!values['skip-pickup']) {
  for (const server of ['dev', 'cluster'] as const) {
    const run = await start(server, 2);
    try {
      const waits: number[] = [];
      for (let i = 0; i < Number(values.pickups); i++) {
        const id = await create(run, {
          engine: 'lottie',
          input: `Pickup ${i}`,
          width: 160,
          height: 284,
          duration_seconds: 1,
        });
        await waitDone(run, id);
        const times = await renderTimes(run, id);
        waits.push(times.started - times.scheduled);
      }
      waits.sort((a, b) => a - b);
      say(
        `pickup ${server}: render schedule-to-start over ${waits.length} sequential generations ` +
          `(2 render workers x 1 slot): p50 ${percentile(waits, 50)} ms, p99 ${percentile(waits, 99)} ms, ` +
          `max ${waits.at(-1)} ms; all: ${waits.join(' ')}`,
      );
    } finally {
      await run.stop();
    }
  }
}

if (!values['skip-throughput']) {
  for (const engine of values.engines.split(',')) {
    for (const workers of [1, 2]) {
      const run = await start('cluster', workers);
      try {
        const cpuBefore = machineBusySeconds();
        const started = Date.now();
        const n = Number(values.batch);
        const ids = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            create(run, {
              engine,
              input: `Throughput ${i}: a launch teaser for Nimbus`,
              width: 1080,
              height: 1920,
              duration_seconds: 3,
            }),
          ),
        );
        const finished = Math.max(...(await Promise.all(ids.map((id) => waitDone(run, id)))));
        const cpu = machineBusySeconds() - cpuBefore;
        const minutes = (finished - started) / 60_000;
        const gaps = idleGapsMs(await Promise.all(ids.map((id) => renderTimes(run, id))));
        say(
          `throughput ${engine} 1080x1920 3 s, ${workers} render worker(s): ` +
            `${n} generations in ${(minutes * 60).toFixed(1)} s = ${(n / minutes).toFixed(2)} generations/min; ` +
            `machine CPU ${cpu.toFixed(1)} s = ${(cpu / (n * 3)).toFixed(2)} CPU-s per video-s; ` +
            `render slot idle between renders: p50 ${percentile(gaps, 50)} ms, max ${gaps.at(-1)} ms`,
        );
      } finally {
        await run.stop();
      }
    }
  }
}
/** From the first render step scheduled to the last render step completed (renderComposition, or chunks then join). */
async function renderPhaseMs(run: Run, id: string): Promise<{ ms: number; steps: string[] }> {
  const events = (await run.temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
  const render = new Map<string, string>();
  for (const e of events) {
    const type = e.activityTaskScheduledEventAttributes?.activityType?.name;
    if (type && ['renderComposition', 'renderChunk', 'joinChunks'].includes(type)) render.set(String(e.eventId), type);
  }
  const ms = (t: (typeof events)[number]['eventTime']) => Number(t!.seconds) * 1000 + Math.floor((t!.nanos ?? 0) / 1e6);
  const first = events.find((e) => render.has(String(e.eventId)));
  const last = events
    .filter((e) => render.has(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)))
    .at(-1);
  if (!first || !last) throw new Error(`${id}: no completed render in its history`);
  return { ms: ms(last.eventTime) - ms(first.eventTime), steps: [...render.values()] };
}

if (!values['skip-chunking']) {
  const seconds = Number(values['chunk-seconds']);
  for (const [name, env] of [
    ['one piece', { RENDER_CHUNKS_MAX: '1' }],
    ['chunked', {}],
  ] as const) {
    const run = await start('cluster', 2, env);
    try {
      const cpuBefore = machineBusySeconds();
      const started = Date.now();
      const id = await create(run, {
        engine: 'hyperframes',
        input: 'A launch teaser for Nimbus, the cloud notebook',
        width: 1080,
        height: 1920,
        duration_seconds: seconds,
      });
      const finished = await waitDone(run, id);
      const cpu = machineBusySeconds() - cpuBefore;
      const phase = await renderPhaseMs(run, id);
      const steps = phase.steps.reduce<Record<string, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});
      say(
        `chunking, hyperframes 1080x1920 ${seconds} s, 2 render workers x 1 slot, ${name}: ` +
          `latency ${((finished - started) / 1000).toFixed(1)} s, ` +
          `render phase ${(phase.ms / 1000).toFixed(1)} s (${Object.entries(steps)
            .map(([s, n]) => `${n} ${s}`)
            .join(', ')}), machine CPU ${cpu.toFixed(1)} s`,
      );
    } finally {
      await run.stop();
    }
  }
}
if (!values['skip-fairness']) {
  const burst = Number(values['fairness-burst']);
  const run = await start('cluster', 2);
  try {
    const small = { engine: 'lottie', width: 160, height: 284 };
    const a = await Promise.all(
      Array.from({ length: burst }, (_, i) => create(run, { ...small, input: `Shape study ${i}` })),
    );
    // B creates once A's renders have begun, so A has a render backlog.
    for (;;) {
      const views = await Promise.all(a.map((id) => view(run, id)));
      if (views.some((v) => v.progress?.stage === 'rendering' || v.status === 'completed')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const b = await create(run, { ...small, input: 'Shape study from another organization' }, run.otherHeaders);
    await Promise.all([...a.map((id) => waitDone(run, id)), waitDone(run, b, run.otherHeaders)]);
    const [timesB, ...timesA] = await Promise.all([b, ...a].map((id) => renderTimes(run, id)));
    const wait = (t: RenderTimes) => t.started - t.scheduled;
    const backlog = timesA.filter((t) => t.scheduled < timesB!.scheduled && t.started > timesB!.scheduled);
    const overtaken = backlog.filter((t) => t.started > timesB!.started);
    const waitsA = timesA.map(wait).sort((x, y) => x - y);
    say(
      `fairness (cluster, 2 render workers x 1 slot): ` +
        `B's render waited ${(wait(timesB!) / 1000).toFixed(1)} s; A's ${burst} waited median ` +
        `${(percentile(waitsA, 50) / 1000).toFixed(1)} s, max ${(waitsA.at(-1)! / 1000).toFixed(1)} s; ` +
        `B overtook ${overtaken.length} of the ${backlog.length} A renders queued before it`,
    );
  } finally {
    await run.stop();
  }
}
say(`load after: ${loadAverage()}`);
fs.writeFileSync(path.join('/tmp', `bench-cluster-${Date.now()}.txt`), lines.join('\n') + '\n');
