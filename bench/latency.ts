// bench/latency: how long a user waits for one 8-second embedded-composer video on `npm start`, step by
// step, and what the whole stack spends in CPU for it.
//   npx tsx bench/latency.ts [--engines lottie,hyperframes] [--sizes 1080x1920,1920x1080,1080x1080]
//                            [--reps 5] [--quick] [--before <checkout>] [--env K=V,…] [--before-env K=V,…]
// Per engine, the stack (the checkout's real `npm start`, bench/stack.ts) is started afresh, so its
// first video is the first after a start (reported apart: item 4 of issue 45); then `--reps` videos per
// canvas, one at a time, alternating canvases. Each video: POST /v1/responses (local provider, the prompt
// below, with a webhook_url on a loopback receiver) → the completed webhook's arrival. `--quick`: 2 runs
// per canvas. With `--before` the same runs go to that checkout too, stacks one after the other.
//
// The breakdown, from the client's clock, the generation's Temporal history and the worker's
// `render steps` log line (all on this machine's one clock):
//   admission       POST sent → the workflow's start event (auth, validation, records, start call)
//   workflow start  start event → markStarted completed (first workflow task, the queued record)
//   media           markStarted completed → first planning activity scheduled (the user's media; none here)
//   plan            first planning activity scheduled → render activity scheduled (route, storyboard,
//                   composition, validation, render plan)
//   render queue    render activity scheduled → started (a render slot picks it up)
//   render + encode render activity started → the video stored (frames drawn and encoded by one streamed
//                   pipeline in the render process; validation and ffprobe included)
//   upload          storing the video; poster: cutting and storing the poster frame
//   record          render activity's end → completed_at (the terminal record; includes the activity's
//                   remaining bookkeeping and the workflow task between)
//   webhook         completed_at → the completed event's arrival
// CPU: every process of the stack (supervisor, API, worker, render processes, Chrome, ffmpeg, Temporal
// dev server, PostgreSQL), sampled from /proc every 250 ms from the POST until 2 s after the arrival
// (so the warm spare started after a render is counted), divided by the video's length. The whole
// machine's CPU (/proc/stat) over the same window is printed beside it: it equals the stack's only on
// an otherwise idle machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listProcesses } from '../src/engines/isolation/processTree.js';
import { makeSelfSignedCert } from '../test/webhooks/support/receiver.js';
import { ms, startReceiver, startStack, type HistoryEvent, type Stack } from './stack.js';
import { loadAverage, today } from './support.js';

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'lottie,hyperframes' },
    sizes: { type: 'string', default: '1080x1920,1920x1080,1080x1080' },
    reps: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    before: { type: 'string' },
    env: { type: 'string', default: '' },
    'before-env': { type: 'string', default: '' },
    prompt: { type: 'string' },
  },
});
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reps = values.quick ? 2 : Number(values.reps);
const say = (line: string) => process.stderr.write(`${line}\n`);
const PROMPT =
  values.prompt ??
  'An 8-second ad for Harbor Coffee. Fresh beans roasted every morning by the harbour. ' +
    'Open every day from 7 to 18. Order your first bag today.';

const STEPS = [
  'admission',
  'workflow start',
  'media',
  'plan',
  'render queue',
  'render + encode',
  'upload',
  'poster',
  'record',
  'webhook',
] as const;
type Step = (typeof STEPS)[number];

type Run = {
  checkout: string;
  engine: string;
  size: string;
  first: boolean;
  /** POST sent → completed_at; → the completed webhook's arrival (ms). */
  completedMs: number;
  webhookMs: number;
  steps: Record<Step, number>;
  videoSeconds: number;
  framesSkipped: number | null;
  stackCpuSeconds: number;
  machineCpuSeconds: number;
  load: string;
};

// ---- CPU -------------------------------------------------------------------------------------------

/** CPU seconds of the whole machine so far (every CPU's busy time, /proc/stat). */
function machineCpuSeconds(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
  const busy = cpu.slice(0, 8).reduce((a, b) => a + b, 0) - cpu[3]! - cpu[4]!;
  return busy / 100;
}

/**
 * CPU seconds every process under `root` spends while `fn` runs: each process's CPU time at its last
 * sample, less what it had at the first (0 for processes started meanwhile).
 */
async function stackCpu<T>(root: number, fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let initial = true;
  const sample = () => {
    const all = listProcesses('-');
    const byParent = new Map<number, typeof all>();
    for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
    const stack = all.filter((p) => p.pid === root);
    while (stack.length) {
      const p = stack.pop()!;
      if (!first.has(p.pid)) first.set(p.pid, initial ? p.cpuSeconds : 0);
      last.set(p.pid, p.cpuSeconds);
      stack.push(...(byParent.get(p.pid) ?? []));
    }
    initial = false;
  };
  sample();
  const timer = setInterval(sample, 250);
  try {
    const value = await fn();
    sample();
    let seconds = 0;
    for (const [pid, cpu] of last) seconds += cpu - (first.get(pid) ?? 0);
    return { value, seconds };
  } finally {
    clearInterval(timer);
  }
}

// ---- one video ---------------------------------------------------------------------------------------

/** The worker's `render steps` line of a generation (waited for: the log is written asynchronously). */
async function renderSteps(logFile: string, generationId: string) {
  type Line = { msg?: string; generation_id?: string; upload_ms: number; poster_ms: number; frames_skipped?: number };
  for (let i = 0; i < 50; i++) {
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n').reverse()) {
      if (!line.includes('"render steps"') || !line.includes(generationId)) continue;
      return JSON.parse(line) as Line;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

function activitySpans(events: HistoryEvent[]) {
  const spans = new Map<number, { type: string; scheduled: number; started: number; completed: number }>();
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled)
      spans.set(Number(e.eventId), {
        type: scheduled.activityType!.name!,
        scheduled: ms(e),
        started: NaN,
        completed: NaN,
      });
    const started = e.activityTaskStartedEventAttributes;
    if (started) spans.get(Number(started.scheduledEventId))!.started = ms(e);
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) spans.get(Number(completed.scheduledEventId))!.completed = ms(e);
  }
  return [...spans.values()];
}

const RENDER_ACTIVITIES = ['renderComposition', 'renderChunk', 'joinChunks'];
const PLANNING_ACTIVITIES = ['planRoute', 'drawStoryboard', 'expandPrompt', 'writeComposition', 'planRender'];

async function oneVideo(
  stack: Stack,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  checkout: string,
  engine: string,
  size: string,
  first: boolean,
): Promise<Run> {
  const [width, height] = size.split('x').map(Number);
  const load = loadAverage();
  const machineBefore = machineCpuSeconds();
  const postedAt = Date.now();
  const {
    value: { id, arrival, postAnswered },
    seconds: stackCpuSeconds,
  } = await stackCpu(stack.pid, async () => {
    const res = await fetch(`${stack.base}/v1/responses`, {
      method: 'POST',
      headers: stack.headers,
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        engine,
        input: PROMPT,
        width,
        height,
        webhook_url: receiver.url(`/${checkout}/${engine}/${size}/${postedAt}`),
      }),
    });
    if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
    const postAnswered = Date.now();
    const id = ((await res.json()) as { id: string }).id;
    const deadline = Date.now() + 15 * 60_000;
    let arrival: number | undefined;
    while (arrival === undefined) {
      const a = receiver.arrivals.find((x) => x.generation === id && x.type?.startsWith('video.generation.'));
      if (a && a.type !== 'video.generation.queued' && a.type !== 'video.generation.in_progress') {
        if (a.type !== 'video.generation.completed') throw new Error(`${id}: ${a.type}`);
        arrival = a.at;
      }
      if (Date.now() > deadline) throw new Error(`${id}: no completed event in 15 minutes`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 2000));
    return { id, arrival, postAnswered };
  });
  const machineCpu = machineCpuSeconds() - machineBefore;
  const { rows } = await stack.db.query(`SELECT completed_at, duration_seconds FROM generations WHERE id = $1`, [id]);
  const completedAt = (rows[0].completed_at as Date).getTime();
  const events = (await stack.temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
  const started = ms(events.find((e) => e.workflowExecutionStartedEventAttributes));
  const spans = activitySpans(events);
  const markStarted = spans.find((s) => s.type === 'markStarted')!;
  const planning = spans.filter((s) => PLANNING_ACTIVITIES.includes(s.type));
  const renders = spans.filter((s) => RENDER_ACTIVITIES.includes(s.type));
  const renderScheduled = Math.min(...renders.map((s) => s.scheduled));
  const renderStarted = Math.min(...renders.map((s) => s.started));
  const renderCompleted = Math.max(...renders.map((s) => s.completed));
  const log = await renderSteps(stack.logFile, id);
  const upload = log?.upload_ms ?? NaN;
  const poster = log?.poster_ms ?? NaN;
  const steps: Record<Step, number> = {
    admission: started - postedAt,
    'workflow start': markStarted.completed - started,
    media: Math.min(...planning.map((s) => s.scheduled)) - markStarted.completed,
    plan: renderScheduled - Math.min(...planning.map((s) => s.scheduled)),
    'render queue': renderStarted - renderScheduled,
    // A checkout without the `render steps` line (before issue 45): upload and poster stay inside.
    'render + encode': renderCompleted - renderStarted - (log ? upload + poster : 0),
    upload,
    poster,
    record: completedAt - renderCompleted,
    webhook: arrival - completedAt,
  };
  say(
    `${checkout} ${engine} ${size}${first ? ' (first after start)' : ''}: completed ${completedAt - postedAt} ms, ` +
      `webhook ${arrival - postedAt} ms (POST answered in ${postAnswered - postedAt}); ` +
      STEPS.map((s) => `${s} ${steps[s]}`).join(', ') +
      `; stack CPU ${stackCpuSeconds.toFixed(1)} s, machine ${machineCpu.toFixed(1)} s; load ${load}`,
  );
  // Each activity in order: waited for a worker (scheduled → started) + ran (started → completed), ms.
  say(
    '  activities: ' + spans.map((a) => `${a.type} ${a.started - a.scheduled}+${a.completed - a.started}`).join(', '),
  );
  return {
    checkout,
    engine,
    size,
    first,
    completedMs: completedAt - postedAt,
    webhookMs: arrival - postedAt,
    steps,
    videoSeconds: Number(rows[0].duration_seconds),
    framesSkipped: log?.frames_skipped ?? null,
    stackCpuSeconds,
    machineCpuSeconds: machineCpu,
    load,
  };
}

// ---- the runs ------------------------------------------------------------------------------------------

const envOf = (list: string) =>
  Object.fromEntries(
    list
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const checkouts = [
  ...(values.before ? [{ label: 'before', root: path.resolve(values.before), env: envOf(values['before-env']) }] : []),
  { label: values.before ? 'after' : 'this', root: here, env: envOf(values.env) },
];
const engines = values.engines.split(',');
const sizes = values.sizes.split(',');
const tls = makeSelfSignedCert();
const receiver = await startReceiver(tls);
const runs: Run[] = [];
const readiness: Array<{ checkout: string; engine: string; readyMs: number }> = [];
try {
  for (const checkout of checkouts) {
    for (const engine of engines) {
      say(`starting npm start of ${checkout.label} (${checkout.root}) for ${engine}; load ${loadAverage()}`);
      const stack = await startStack(checkout.root, checkout.label, 'npm start', tls.certFile, checkout.env);
      readiness.push({ checkout: checkout.label, engine, readyMs: stack.readyMs });
      try {
        runs.push(await oneVideo(stack, receiver, checkout.label, engine, sizes[0]!, true));
        for (let rep = 0; rep < reps; rep++)
          for (const size of sizes) runs.push(await oneVideo(stack, receiver, checkout.label, engine, size, false));
      } finally {
        await stack.stop();
      }
    }
  }
} finally {
  await receiver.stop();
  fs.rmSync(tls.dir, { recursive: true, force: true });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sec = (x: number) => (x / 1000).toFixed(2);

console.log(
  `\nbench/latency — ${today()}, ${os.cpus().length} cores; one 8 s embedded-composer video at a time on npm start; ` +
    `median / worst of ${reps} (first video after start apart); prompt: ${JSON.stringify(PROMPT)}`,
);
console.log(
  '| code | engine | canvas | runs | POST → completed s | POST → webhook s | ' +
    `${STEPS.join(' s | ')} s | not render/encode s | frames skipped | load (first run) |`,
);
console.log(`|---|---|---|---|---|---|${STEPS.map(() => '---').join('|')}|---|---|---|`);
const groups = new Map<string, Run[]>();
for (const r of runs) {
  const key = `${r.checkout}|${r.engine}|${r.size}|${r.first}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
for (const [, rs] of groups) {
  const r0 = rs[0]!;
  const both = (xs: number[]) => (rs.length > 1 ? `${sec(median(xs))} / ${sec(Math.max(...xs))}` : sec(xs[0]!));
  const rest = rs.map((r) =>
    STEPS.filter((s) => s !== 'render + encode').reduce((a, s) => a + (Number.isNaN(r.steps[s]) ? 0 : r.steps[s]), 0),
  );
  const skipped = rs.map((r) => r.framesSkipped).filter((x): x is number => x !== null);
  console.log(
    `| ${r0.checkout} | ${r0.engine} | ${r0.size}${r0.first ? ' (first after start)' : ''} | ${rs.length} ` +
      `| ${both(rs.map((r) => r.completedMs))} | ${both(rs.map((r) => r.webhookMs))} | ` +
      STEPS.map((s) => both(rs.map((r) => r.steps[s]))).join(' | ') +
      ` | ${both(rest)} | ${skipped.length ? median(skipped) : '–'} | ${r0.load} |`,
  );
}
console.log('\nCPU-seconds per video-second, whole pipeline (median / worst over the runs; first video apart):');
console.log(
  '| code | engine | canvas | video s | stack CPU s per video s | machine CPU s per video s | load (first run) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [, rs] of groups) {
  const r0 = rs[0]!;
  const per = (f: (r: Run) => number) => {
    const xs = rs.map((r) => f(r) / r.videoSeconds);
    return rs.length > 1 ? `${median(xs).toFixed(2)} / ${Math.max(...xs).toFixed(2)}` : xs[0]!.toFixed(2);
  };
  console.log(
    `| ${r0.checkout} | ${r0.engine} | ${r0.size}${r0.first ? ' (first after start)' : ''} | ${r0.videoSeconds} ` +
      `| ${per((r) => r.stackCpuSeconds)} | ${per((r) => r.machineCpuSeconds)} | ${r0.load} |`,
  );
}
console.log(
  '\nnpm start → ready (s): ' + readiness.map((r) => `${r.checkout} ${r.engine} ${sec(r.readyMs)}`).join(', '),
);
