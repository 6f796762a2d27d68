// bench/streams: what live progress (issue 14) costs the API — many server-sent event streams held
// for whole renders: the API process's CPU and the Temporal state queries its watchers make, next to
// what the same clients cost polling GET, and the API's idle CPU over as long.
//   npx tsx bench/streams.ts [--streams 200] [--duration 20] [--many 20] [--many-duration 3] [--poll-every 2]
// Starts its own Temporal dev server (in memory), PostgreSQL (DATABASE_URL or embedded), the API and a
// worker (io and render queues) as separate processes; the renders are real (HyperFrames, 540×960,
// composed by the offline `local` provider). Runs, one after the other:
//  1. `--streams` streams (GET /v1/responses/{id}?stream=true) on one generation of `--duration` s,
//     opened as soon as it is created and held until it ends;
//  2. as many streams spread evenly over `--many` generations of `--many-duration` s (all created at
//     once, so most wait in the render queue while their streams are open);
//  3. for comparison, the clients of run 1 polling GET every `--poll-every` s instead (evenly spaced,
//     open loop), until a poll sees the end;
// each followed by an idle window of the same length (no streams, nothing in flight).
// Figures per run, over the wall time from opening the streams to the last one closing: the API
// process's CPU seconds (/proc utime + stime; of the bench's /metrics scrapes only the one reading
// `streams_open` falls inside) and CPU % of one core; Temporal state queries per second (for streams:
// `stream_state_queries_total` from the API's /metrics; for polls: GETs answered in flight, one query
// each); the queries the streaming clients would have caused by polling every `--poll-every` s over the
// same holds; how many streams received their final event (polls: how many GETs failed). Each run's
// row is printed when it ends.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { TERMINAL_STATUSES, type GenerationStatus } from '../src/shared.js';
import {
  benchContext,
  benchServices,
  loadAverage,
  percentile,
  processCpuSeconds,
  spawnService,
  today,
  waitFor,
} from './support.js';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    many: { type: 'string', default: '20' },
    'many-duration': { type: 'string', default: '3' },
    'poll-every': { type: 'string', default: '2' },
  },
});
const clients = Number(values.streams);
const duration = Number(values.duration);
const many = Number(values.many);
const manyDuration = Number(values['many-duration']);
const pollEveryS = Number(values['poll-every']);
const ctx = benchContext('streams');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FINAL_EVENTS = ['response.completed', 'response.failed', 'response.cancelled', 'response.incomplete'];

/** A run gives up (and the bench fails) when its generations have not ended after this long. */
const GIVE_UP_MS = 30 * 60_000;

type Run = {
  name: string;
  wallS: number;
  cpuS: number;
  idleCpuS: number;
  queries: number;
  /** Queries the same clients would have caused by polling every `pollEveryS` over the same time. */
  pollingQueries: number;
  /** Streams: how many received the final event (`response.completed`); polls: GETs made and failed. */
  outcome: string;
  eventsPerStream?: number[];
  peakOpen?: number;
};

/** One table row per run, printed as soon as the run (and its idle window) is over. */
function report(r: Run) {
  const ev = r.eventsPerStream;
  const cells = [
    r.name,
    r.wallS.toFixed(1),
    r.cpuS.toFixed(2),
    ((100 * r.cpuS) / r.wallS).toFixed(1),
    ((100 * r.idleCpuS) / r.wallS).toFixed(1),
    (r.queries / r.wallS).toFixed(1),
    (r.pollingQueries / r.wallS).toFixed(1),
    r.outcome,
    ev ? `${ev[0]} / ${percentile(ev, 50)} / ${ev.at(-1)}` : '–',
    r.peakOpen ?? '–',
  ];
  console.log(`| ${cells.join(' | ')} |`);
}

try {
  const { base, key, env } = await benchServices(ctx, 100_000_000, { RATE_LIMIT_ENABLED: 'false' });
  const api = spawnService(ctx, 'src/app/api.ts', env);
  spawnService(ctx, 'src/app/worker.ts', env);
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok);
  await sleep(3000); // the worker bundles its workflows
  const auth = { authorization: `Bearer ${key}` };

  const create = (n: number, seconds: number, label: string) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`${base}/v1/responses`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'gpt-4o-mini',
            input: `A product launch teaser, ${label} ${i}`,
            engine: 'hyperframes',
            width: 540,
            height: 960,
            duration_seconds: seconds,
          }),
        });
        if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { id: string }).id;
      }),
    );

  const metric = async (name: string) => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  };

  /** `work` timed, with the API's CPU and the stream queries it caused, then an idle window as long. */
  const measure = async <T>(work: () => Promise<T>) => {
    const queries0 = await metric('stream_state_queries_total');
    const cpu0 = processCpuSeconds(api.pid!);
    const t0 = performance.now();
    const result = await work();
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = processCpuSeconds(api.pid!) - cpu0;
    const queries = (await metric('stream_state_queries_total')) - queries0;
    const idle0 = processCpuSeconds(api.pid!);
    await sleep(wallS * 1000);
    return { result, wallS, cpuS, queries, idleCpuS: processCpuSeconds(api.pid!) - idle0 };
  };

  /** `clients` streams spread evenly over `ids`, held until each ends. */
  const holdStreams = async (ids: string[]) => {
    let open = 0;
    const streams = Array.from({ length: clients }, (_, i) =>
      holdStream(`${base}/v1/responses/${ids[i % ids.length]}?stream=true`, auth, () => open++),
    );
    // Every stream open at once, as the API counts them (one scrape inside the window).
    await waitFor(async () => open === clients, 120_000);
    const peakOpen = await metric('streams_open');
    const settled = await Promise.allSettled(streams);
    const held = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of settled) if (s.status === 'rejected') process.stderr.write(`stream failed: ${String(s.reason)}\n`);
    return { held, peakOpen };
  };

  console.log(`bench/streams — ${today()}, ${os.cpus().length} cores, load average at the start ${loadAverage()}`);
  console.log(
    `| run | wall s | API CPU s | API CPU % | idle CPU % (as long) | state queries/s | polling every ${pollEveryS} ` +
      `s: queries/s | outcome | events per stream (min / median / max) | streams_open |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let failed = false;
  const streamRun = async (name: string, n: number, seconds: number) => {
    process.stderr.write(`${name}: load average ${loadAverage()}\n`);
    const ids = await create(n, seconds, name);
    const { result, ...m } = await measure(() => holdStreams(ids));
    const { held, peakOpen } = result;
    const completed = held.filter((s) => s.last === 'response.completed').length;
    failed ||= completed !== clients;
    report({
      name,
      ...m,
      pollingQueries: held.reduce((sum, s) => sum + s.seconds / pollEveryS, 0),
      outcome: `${completed} / ${clients} streams got response.completed`,
      eventsPerStream: held.map((s) => s.events).sort((a, b) => a - b),
      peakOpen,
    });
    const frames = Math.max(0, ...held.map((s) => s.framesTotal));
    process.stderr.write(
      `${name}: ${m.wallS.toFixed(1)} s, largest frames_total ${frames}, load average ${loadAverage()}\n`,
    );
  };

  await streamRun(`${clients} streams on 1 generation (${duration} s video)`, 1, duration);
  await streamRun(
    `${clients} streams on ${many} generations (${clients / many} each, ${manyDuration} s videos)`,
    many,
    manyDuration,
  );

  // The clients of run 1 polling instead: `clients` GETs every `pollEveryS`, evenly spaced.
  const pollName = `${clients} clients polling GET every ${pollEveryS} s, 1 generation (${duration} s video)`;
  process.stderr.write(`${pollName}: load average ${loadAverage()}\n`);
  const [id] = await create(1, duration, 'poll');
  const { result: polls, ...polled } = await measure(() =>
    pollUntilEnd(`${base}/v1/responses/${id}`, auth, clients / pollEveryS),
  );
  failed ||= polls.errors > 0;
  report({
    name: pollName,
    ...polled,
    queries: polls.inFlight,
    pollingQueries: polls.inFlight,
    outcome: `${polls.requests} GETs, ${polls.errors} failed`,
  });
  console.log(`\nload average at the end ${loadAverage()}`);
  if (failed) process.exitCode = 1;
} finally {
  await ctx.cleanup();
}

/** One event stream read to its end: events received, the last one's type, how long it was open. */
async function holdStream(url: string, headers: Record<string, string>, opened: () => void) {
  const t0 = performance.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(GIVE_UP_MS) });
  if (!res.ok || !res.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`stream: HTTP ${res.status}`);
  opened();
  const decoder = new TextDecoder();
  let buffer = '';
  let events = 0;
  let last: string | null = null;
  let framesTotal = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.+)$/m.exec(block)?.[1];
      if (!type) continue; // a keep-alive comment
      events++;
      last = type;
      framesTotal = Math.max(framesTotal, Number(/"frames_total":(\d+)/.exec(block)?.[1] ?? 0));
    }
  }
  if (!last || !FINAL_EVENTS.includes(last))
    process.stderr.write(`stream ended after ${events} events, last ${last}\n`);
  return { events, last, framesTotal, seconds: (performance.now() - t0) / 1000 };
}

/** GETs `rate` times a second, evenly spaced (a slow answer never delays the next), until one sees the end. */
async function pollUntilEnd(url: string, headers: Record<string, string>, rate: number) {
  let ended = false;
  let inFlight = 0;
  let errors = 0;
  const calls: Promise<void>[] = [];
  const started = Date.now();
  for (let i = 0; !ended; i++) {
    if (Date.now() - started > GIVE_UP_MS)
      throw new Error(`polled for ${GIVE_UP_MS / 60_000} minutes: the generation has not ended`);
    await sleep(started + (i * 1000) / rate - Date.now());
    calls.push(
      (async () => {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const { status } = (await res.json()) as { status: GenerationStatus };
        if (TERMINAL_STATUSES.includes(status)) ended = true;
        else inFlight++;
      })().catch(() => void errors++),
    );
  }
  await Promise.all(calls);
  return { requests: calls.length, inFlight, errors };
}
