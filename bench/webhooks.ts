// bench/webhooks: how soon a webhook receiver hears that a generation completed, alone and under a
// burst, on `npm start` and on `npm run cluster`, and where the time goes.
//   npx tsx bench/webhooks.ts [--ns 1,10,40] [--cluster-ns 40] [--reps 2] [--before <checkout>]
//                             [--before-env K=V,…] [--after-env K=V,…] [--skip-start] [--skip-cluster]
// Each stack is the real command of its checkout (`src/tooling/start.ts`, `src/tooling/cluster.ts`) run as a
// subprocess on free ports with a fresh DATA_DIR (embedded PostgreSQL), the local-testing webhook
// switches on, and a stock HTTPS receiver on loopback in its own process (so the bench's own work never
// delays an arrival). After one warm-up generation per stack, N small Lottie generations (160×284,
// local provider) are created at once, each with a webhook_url; the figure is the delay from each
// generation's `completed_at` (PostgreSQL) to the arrival of its `video.generation.completed` event.
// With `--before <checkout>` the same runs go to that checkout's stack too, interleaved A B B A, both
// stacks up at once, so both see the same background load; `--before-env` alone compares this
// checkout with itself under other settings (e.g. `--after-env RENDER_CONCURRENCY=1`).
// Also printed, per run: the I/O worker's event-loop lag (its prom-client metrics, sampled every
// 500 ms: the worst interval's max and p99), the backlog of the I/O task queues (DescribeTaskQueue),
// the schedule-to-start latencies from the Temporal SDK's own metrics (npm start only: its
// TEMPORAL_METRICS_BIND), and the completion → arrival path split into its steps from the workflow
// histories (the generation's and its completed event's delivery workflow).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultPayloadConverter } from '@temporalio/common';
import { makeSelfSignedCert } from '../test/webhooks/support/receiver.js';
import { ms, startReceiver, startStack, type HistoryEvent, type Stack } from './stack.js';
import { loadAverage, percentile, today } from './support.js';

const { values } = parseArgs({
  options: {
    ns: { type: 'string', default: '1,10,40' },
    'cluster-ns': { type: 'string', default: '40' },
    reps: { type: 'string', default: '2' },
    before: { type: 'string' },
    'before-env': { type: 'string', default: '' },
    'after-env': { type: 'string', default: '' },
    'skip-start': { type: 'boolean', default: false },
    'skip-cluster': { type: 'boolean', default: false },
  },
});
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reps = Number(values.reps);
const say = (line: string) => process.stderr.write(`${line}\n`);

// ---- metrics ------------------------------------------------------------------------------------------

/** Prometheus text → samples (name with labels → value). */
async function scrape(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Every 500 ms while `until` is pending: the worker's event-loop lag and the I/O task queues' backlogs. */
async function sample(stack: Stack, until: Promise<unknown>) {
  const lagMax: number[] = [];
  const lagP99: number[] = [];
  const backlog = { workflow: 0, activity: 0 };
  let done = false;
  void until.finally(() => (done = true));
  await scrape(stack.workerMetrics).catch(() => null); // resets the lag histogram
  while (!done) {
    await new Promise((r) => setTimeout(r, 500));
    const [metrics, workflowQueue, activityQueue] = await Promise.all([
      scrape(stack.workerMetrics).catch(() => null),
      backlogOf(stack, 1),
      backlogOf(stack, 2),
    ]);
    if (metrics) {
      lagMax.push((metrics.get('nodejs_eventloop_lag_max_seconds') ?? 0) * 1000);
      lagP99.push((metrics.get('nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000);
    }
    backlog.workflow = Math.max(backlog.workflow, workflowQueue);
    backlog.activity = Math.max(backlog.activity, activityQueue);
  }
  return { lagMax: Math.max(0, ...lagMax), lagP99Median: median(lagP99), lagP99Max: Math.max(0, ...lagP99), backlog };
}

/** Tasks backlogged on the I/O task queue (type 1: workflow, 2: activity), as the server reports them. */
async function backlogOf(stack: Stack, taskQueueType: number): Promise<number> {
  try {
    const { stats } = await stack.temporal.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: 'video-io' },
      taskQueueType,
      reportStats: true,
    });
    return Number(stats?.approximateBacklogCount ?? 0);
  } catch {
    return 0;
  }
}

/** Schedule-to-start latencies from the SDK's histograms, between two scrapes: mean and count per key. */
function scheduleToStart(before: Map<string, number>, after: Map<string, number>): string[] {
  const rows: string[] = [];
  for (const [name, value] of after) {
    const m = /^temporal_(activity|workflow_task)_schedule_to_start_latency(?:_seconds)?_sum\{(.*)\}$/.exec(name);
    if (!m) continue;
    const countName = name.replace('_sum{', '_count{');
    const count = (after.get(countName) ?? 0) - (before.get(countName) ?? 0);
    if (count <= 0) continue;
    const sum = value - (before.get(name) ?? 0);
    const labels = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    const unit = name.includes('_seconds') ? 1000 : 1;
    const extra = Object.entries(labels)
      .filter(([k]) => !['namespace', 'service_name', 'task_queue'].includes(k))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const what = `${m[1] === 'activity' ? 'activity' : 'workflow task'}${extra ? ` (${extra})` : ''}`;
    rows.push(`${what} on ${labels.task_queue ?? '?'}: mean ${((sum / count) * unit).toFixed(0)} ms over ${count}`);
  }
  return rows.sort();
}

// ---- histories -------------------------------------------------------------------------------------

/** The steps from the record to the arrival, in ms, for one generation. */
type Steps = Record<(typeof STEPS)[number], number>;
const STEPS = [
  'record → its activity completed',
  'parent workflow task (starts the delivery)',
  'delivery workflow start → first task started',
  'first task started → attempt scheduled',
  'prepare: scheduled → started',
  'prepare: started → completed',
  'prepare completed → attempt scheduled',
  'attempt: scheduled → started',
  'attempt started → arrival',
  'sent with the record: record started → arrival',
] as const;

async function stepsOf(
  stack: Stack,
  generationId: string,
  completedAtMs: number,
  arrivalMs: number,
): Promise<Steps | null> {
  const events = (await stack.temporal.workflow.getHandle(generationId).fetchHistory()).events ?? [];
  const activity = (list: HistoryEvent[], type: string, last = false) => {
    const scheduledAll = list.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type);
    const scheduled = last ? scheduledAll.at(-1) : scheduledAll[0];
    if (!scheduled) return null;
    const of = (e: HistoryEvent) =>
      String(
        e.activityTaskStartedEventAttributes?.scheduledEventId ??
          e.activityTaskCompletedEventAttributes?.scheduledEventId ??
          '',
      );
    const started = list.find((e) => e.activityTaskStartedEventAttributes && of(e) === String(scheduled.eventId));
    const completed = list.find((e) => e.activityTaskCompletedEventAttributes && of(e) === String(scheduled.eventId));
    return { scheduled: ms(scheduled), started: ms(started), completed: ms(completed) };
  };
  const finish = activity(events, 'finishGeneration', true);
  // `attempted`: the name of `prepared` before issue 40 (a --before checkout may be older).
  type ChildInput = { facts: { type: string }; prepared?: { result?: unknown }; attempted?: { result?: unknown } };
  const childInput = (e: HistoryEvent) =>
    defaultPayloadConverter.fromPayload<ChildInput>(
      e.startChildWorkflowExecutionInitiatedEventAttributes!.input!.payloads![0]!,
    );
  const initiated = events
    .filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
    .find((e) => childInput(e).facts.type === 'video.generation.completed');
  if (!finish || !initiated) return null;
  const { prepared, attempted } = childInput(initiated);
  if ((prepared ?? attempted)?.result) {
    // Issue 35: the terminal record's activity made the first attempt; its delivery workflow came after.
    const none = Object.fromEntries(STEPS.map((step) => [step, NaN])) as Steps;
    return {
      ...none,
      'record → its activity completed': finish.completed - completedAtMs,
      'sent with the record: record started → arrival': arrivalMs - finish.started,
    };
  }
  const childEvents =
    (
      await stack.temporal.workflow
        .getHandle(initiated.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!)
        .fetchHistory()
    ).events ?? [];
  const childStarted = childEvents.find((e) => e.workflowExecutionStartedEventAttributes);
  const firstTask = childEvents.find((e) => e.workflowTaskStartedEventAttributes);
  // An activity before issue 35's local-activity preparation; a marker in the first task since.
  const prepare = activity(childEvents, 'prepareWebhookEvent') ?? { scheduled: NaN, started: NaN, completed: NaN };
  const attempt = activity(childEvents, 'attemptWebhookDelivery');
  if (!childStarted || !firstTask || !attempt) return null;
  return {
    'record → its activity completed': finish.completed - completedAtMs,
    'parent workflow task (starts the delivery)': ms(initiated) - finish.completed,
    'delivery workflow start → first task started': ms(firstTask) - ms(initiated),
    'first task started → attempt scheduled': attempt.scheduled - ms(firstTask),
    'prepare: scheduled → started': prepare.started - prepare.scheduled,
    'prepare: started → completed': prepare.completed - prepare.started,
    'prepare completed → attempt scheduled': attempt.scheduled - prepare.completed,
    'attempt: scheduled → started': attempt.started - attempt.scheduled,
    'attempt started → arrival': arrivalMs - attempt.started,
    'sent with the record: record started → arrival': NaN,
  };
}

// ---- a burst ----------------------------------------------------------------------------------------

type Result = {
  stack: string;
  topology: string;
  n: number;
  delays: number[];
  steps: Steps[];
  lag: Awaited<ReturnType<typeof sample>>;
  sdk: string[];
  wallS: number;
  loadBefore: string;
  loadAfter: string;
  statuses: string;
};

let bursts = 0;

async function burst(stack: Stack, receiver: Awaited<ReturnType<typeof startReceiver>>, n: number): Promise<Result> {
  const tag = `/${stack.label}/${++bursts}/`;
  const loadBefore = loadAverage();
  const sdkBefore = stack.sdkMetrics ? await scrape(stack.sdkMetrics) : null;
  const started = Date.now();
  const ids = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${stack.base}/v1/responses`, {
        method: 'POST',
        headers: stack.headers,
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          engine: 'lottie',
          input: `Webhook bench ${bursts}.${i}: launch day`,
          width: 160,
          height: 284,
          webhook_url: receiver.url(`${tag}${i}`),
        }),
      });
      if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    }),
  );
  const wanted = new Set(ids);
  const completedArrivals = () =>
    receiver.arrivals.filter((a) => a.type === 'video.generation.completed' && wanted.has(a.generation));
  const allArrived = (async () => {
    const deadline = Date.now() + 20 * 60_000;
    while (new Set(completedArrivals().map((a) => a.generation)).size < n) {
      if (Date.now() > deadline) throw new Error(`${stack.label}: not every completed event arrived in 20 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const lag = await sample(stack, allArrived);
  await allArrived;
  const wallS = (Date.now() - started) / 1000;
  const loadAfter = loadAverage();
  const sdk = sdkBefore ? scheduleToStart(sdkBefore, await scrape(stack.sdkMetrics!)) : [];

  const { rows } = await stack.db.query(
    `SELECT id, status, completed_at, error_code, error_message FROM generations WHERE id = ANY($1)`,
    [ids],
  );
  const failed = rows.find((r) => r.status !== 'completed');
  if (failed)
    say(
      `${stack.label}: generation ${failed.id as string} ${failed.status as string}: ` +
        `${failed.error_code as string}: ${failed.error_message as string} ` +
        '(figures of failed generations are not comparable)',
    );
  const statusCounts = new Map<string, number>();
  for (const r of rows) statusCounts.set(r.status as string, (statusCounts.get(r.status as string) ?? 0) + 1);
  const firstArrival = new Map<string, number>();
  for (const a of completedArrivals()) if (!firstArrival.has(a.generation)) firstArrival.set(a.generation, a.at);
  const delays: number[] = [];
  const steps: Steps[] = [];
  for (const r of rows) {
    const completedAt = (r.completed_at as Date).getTime();
    const arrival = firstArrival.get(r.id as string)!;
    delays.push(arrival - completedAt);
    const s = await stepsOf(stack, r.id as string, completedAt, arrival).catch(() => null);
    if (s) steps.push(s);
  }
  delays.sort((a, b) => a - b);
  return {
    stack: stack.label,
    topology: stack.topology,
    n,
    delays,
    steps,
    lag,
    sdk,
    wallS,
    loadBefore,
    loadAfter,
    statuses: [...statusCounts].map(([s, c]) => `${s} ${c}`).join(', '),
  };
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]! : 0);

function report(r: Result) {
  const q = (p: number) => percentile(r.delays, p);
  say(
    `${r.topology} ${r.stack} N=${r.n}: p50 ${q(50)} ms, p90 ${q(90)}, p99 ${q(99)}, max ${r.delays.at(-1)}; ` +
      `event-loop lag max ${r.lag.lagMax.toFixed(0)} ms ` +
      `(interval p99s: median ${r.lag.lagP99Median.toFixed(0)}, max ${r.lag.lagP99Max.toFixed(0)}); ` +
      `I/O queue backlog max: workflow ${r.lag.backlog.workflow}, activity ${r.lag.backlog.activity}; ` +
      `${r.statuses}; ${r.wallS.toFixed(0)} s; load ${r.loadBefore} → ${r.loadAfter}`,
  );
}

// ---- the runs ---------------------------------------------------------------------------------------

const tls = makeSelfSignedCert();
const receiver = await startReceiver(tls);
const results: Result[] = [];
const stacks: Stack[] = [];
try {
  const envOf = (list: string) =>
    Object.fromEntries(
      list
        .split(',')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  const compare = Boolean(values.before || values['before-env']);
  const checkouts: Array<{ label: string; root: string; env: NodeJS.ProcessEnv }> = [
    ...(compare
      ? [{ label: 'before', root: path.resolve(values.before ?? here), env: envOf(values['before-env']) }]
      : []),
    { label: compare ? 'after' : 'this', root: here, env: envOf(values['after-env']) },
  ];
  const plan: Array<{ topology: Stack['topology']; ns: number[] }> = [
    ...(values['skip-start'] ? [] : [{ topology: 'npm start' as const, ns: values.ns.split(',').map(Number) }]),
    ...(values['skip-cluster']
      ? []
      : [{ topology: 'npm run cluster' as const, ns: values['cluster-ns'].split(',').map(Number) }]),
  ];
  for (const { topology, ns } of plan) {
    say(
      `starting ${topology} of ${checkouts
        .map((c) => `${c.label} (${c.root}${Object.keys(c.env).length ? `, ${JSON.stringify(c.env)}` : ''})`)
        .join(' and ')}; load ${loadAverage()}`,
    );
    const running = await Promise.all(checkouts.map((c) => startStack(c.root, c.label, topology, tls.certFile, c.env)));
    stacks.push(...running);
    // Warm-up: first-use costs (bundles, tokenizer, schema).
    for (const stack of running) await burst(stack, receiver, 1);
    for (const n of ns) {
      for (let rep = 0; rep < reps; rep++) {
        // A B B A: alternate which stack goes first, so both share the drift of the background load.
        const order = rep % 2 === 0 ? running : [...running].reverse();
        for (const stack of order) {
          const r = await burst(stack, receiver, n);
          report(r);
          results.push(r);
        }
      }
    }
    for (const stack of running) await stack.stop();
    stacks.length = 0;
  }
} finally {
  for (const stack of stacks) await stack.stop().catch(() => {});
  await receiver.stop();
  fs.rmSync(tls.dir, { recursive: true, force: true });
}

console.log(
  `\nbench/webhooks — ${today()}, ${os.cpus().length} cores; completed_at → arrival of video.generation.completed ` +
    `(Lottie 160×284, local provider, one warm-up generation per stack)`,
);
console.log(
  '| topology | code | N | p50 ms | p90 ms | p99 ms | max ms | I/O worker event-loop lag max ms ' +
    '| I/O backlog max (wf / act) | load before → after |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const q = (p: number) => percentile(r.delays, p);
  console.log(
    `| ${r.topology} | ${r.stack} | ${r.n} | ${q(50)} | ${q(90)} | ${q(99)} | ${r.delays.at(-1)} ` +
      `| ${r.lag.lagMax.toFixed(0)} | ${r.lag.backlog.workflow} / ${r.lag.backlog.activity} ` +
      `| ${r.loadBefore} → ${r.loadAfter} |`,
  );
}
console.log('\nWhere the time goes (from the histories; p50 / p99 ms over the generations of each run):');
console.log(`| topology | code | N | ${STEPS.join(' | ')} |`);
console.log(`|---|---|---|${STEPS.map(() => '---').join('|')}|`);
for (const r of results) {
  if (!r.steps.length) continue;
  const cells = STEPS.map((step) => {
    const xs = r.steps
      .map((s) => s[step])
      .filter((x) => !Number.isNaN(x))
      .sort((a, b) => a - b);
    return xs.length ? `${percentile(xs, 50)} / ${percentile(xs, 99)}` : '–';
  });
  console.log(`| ${r.topology} | ${r.stack} | ${r.n} | ${cells.join(' | ')} |`);
}
const sdkRuns = results.filter((r) => r.sdk.length);
if (sdkRuns.length) {
  console.log('\nSchedule-to-start, from the Temporal SDK metrics of the worker (npm start):');
  for (const r of sdkRuns) console.log(`${r.stack} N=${r.n}:\n  ${r.sdk.join('\n  ')}`);
}
