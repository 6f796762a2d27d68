// bench/api: create and poll throughput and latency of the API, side by side in one run with bare
// Temporal client calls against the same server.
//   npx tsx bench/api.ts [--seconds 10] [--connections 16]      (BENCH_CPU_PROF=<dir>: profile the services)
// Starts its own Temporal dev server (in memory), PostgreSQL (DATABASE_URL or embedded) and two API
// processes. Creates (ours through the API, and bare `client.workflow.start` with the identical start)
// go to a namespace no worker polls, so only the start path is measured; both run closed loop with
// `--connections` callers (autocannon for HTTP). Polls go to a namespace with an io-only worker:
// generations left in flight (no render worker) are answered by the workflow query, finished ones
// from PostgreSQL. Poll latency is measured open loop at fixed rates (requests evenly spaced, as many
// clients polling every few seconds make them), next to bare `state` queries at the same rate;
// saturated throughput with autocannon, next to a bare Koa route returning the same body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Client, Connection } from '@temporalio/client';
import Koa from 'koa';
import { generationStartOptions } from '../src/api/generations/service.js';
import { fromResponsesRequest } from '../src/api/generations/translate.js';
import { Catalog } from '../src/catalog/index.js';
import { loadConfig } from '../src/config.js';
import { createApiKey } from '../src/db/apiKeys.js';
import { createOrganization } from '../src/db/organizations.js';
import { createNamespace } from '../src/tooling/temporalDevServer.js';
import { freePort } from '../src/tooling/ports.js';
import {
  benchContext,
  benchDatabase,
  benchTemporal,
  getOk,
  inFlightGenerations,
  openLoop,
  percentile,
  spawnService,
  today,
  waitFor,
} from './support.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '16' } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const ctx = benchContext('api');
const createBody = JSON.stringify({
  model: 'gpt-4o-mini',
  input: 'Benchmark clip',
  engine: 'lottie',
  width: 160,
  height: 284,
});
/** Clients poll every 2–5 s: 50 polls/s is 100–250 generations in flight, 200 polls/s 400–1000. */
const POLL_RATES = [50, 200];
const IN_FLIGHT = 100;

try {
  const [temporalAddress, { url: dbUrl, db }, createPort, pollPort] = await Promise.all([
    benchTemporal(ctx),
    benchDatabase(ctx),
    freePort(),
    freePort(),
  ]);
  const CREATE_NAMESPACE = 'bench-create';
  await createNamespace(temporalAddress, CREATE_NAMESPACE);
  const org = await createOrganization(db, 'bench', 1_000_000);
  const { key } = await createApiKey(db, org.id, 'bench');

  const env = {
    ...process.env,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    DATA_DIR: ctx.tmp,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
  };
  spawnService(ctx, 'src/app/api.ts', { ...env, PORT: String(createPort), TEMPORAL_NAMESPACE: CREATE_NAMESPACE });
  spawnService(ctx, 'src/app/api.ts', { ...env, PORT: String(pollPort) });
  spawnService(ctx, 'src/app/worker.ts', { ...env, WORKER_QUEUES: 'io', WORKER_METRICS_PORT: '0' });
  const createBase = `http://127.0.0.1:${createPort}`;
  const base = `http://127.0.0.1:${pollPort}`;
  await waitFor(async () => (await fetch(`${createBase}/readyz`)).ok && (await fetch(`${base}/readyz`)).ok);

  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  // Warm up (JIT, connection pools).
  await run('warm-up', { url: `${createBase}/v1/responses`, method: 'POST', headers, body: createBody, duration: 2 });

  const create = await run('API create (POST /v1/responses)', {
    url: `${createBase}/v1/responses`,
    method: 'POST',
    headers,
    body: createBody,
  });
  const bare = await bareWorkflowStarts(temporalAddress, CREATE_NAMESPACE);

  // Poll, saturated (autocannon, closed loop): one generation in flight (no render worker, so it
  // stays in flight) → the workflow query path.
  const inflight = (await (
    await fetch(`${base}/v1/responses`, { method: 'POST', headers, body: createBody })
  ).json()) as { id: string };
  await waitForStatus(base, headers, inflight.id, 'in_progress');
  const pollLive = await run('API poll, in flight (query)', { url: `${base}/v1/responses/${inflight.id}`, headers });

  // Poll latency at fixed rates, the way clients poll: IN_FLIGHT generations, each polled every few
  // seconds, requests evenly spaced (open loop). autocannon's rate mode sends each second's requests
  // in one burst per connection and weights slow answers, so it does not measure this.
  // Measured once every composition is written and only the render, which no worker picks up here, is
  // left: the composing would otherwise share the cores with the polls.
  const many = await inFlightGenerations(base, headers, createBody, IN_FLIGHT);
  const query = await queryClient(temporalAddress);
  const paced: [string, Figures][] = [];
  for (const rate of POLL_RATES) {
    paced.push([
      `API poll, in flight (query), ${rate} req/s`,
      await atRate(rate, (i) => getOk(`${base}/v1/responses/${many[i % many.length]}`, headers)),
    ]);
    // The query alone from a plain Temporal client: the floor of the in-flight poll.
    paced.push([`bare workflow query, ${rate} req/s`, await atRate(rate, (i) => query(many[i % many.length]!))]);
  }
  // The same generations once terminal → the PostgreSQL path.
  await Promise.all(many.map((id) => fetch(`${base}/v1/responses/${id}`, { method: 'DELETE', headers })));
  for (const rate of POLL_RATES) {
    paced.push([
      `API poll, terminal (PostgreSQL), ${rate} req/s`,
      await atRate(rate, (i) => getOk(`${base}/v1/responses/${many[i % many.length]}`, headers)),
    ]);
  }
  await query.close();
  const pollDone = await run('API poll, terminal (PostgreSQL)', { url: `${base}/v1/responses/${many[0]}`, headers });
  // The floor: a bare Koa route answering a constant JSON body of the same size, on the same machine.
  const body = await (await fetch(`${base}/v1/responses/${many[0]}`, { headers })).text();
  const bareKoa = await bareKoaRoute(body);

  const rows: [string, Figures][] = [
    ['bare client.workflow.start', bare],
    ['API create', create],
    ['API poll (in flight, query), saturated', pollLive],
    ['API poll (terminal, PostgreSQL), saturated', pollDone],
    ['bare Koa route (same body), saturated', bareKoa],
    ...paced,
  ];
  console.log(
    `\nbench/api — ${today()}, ${seconds} s per run, ${connections} connections ` +
      `(saturated runs), ${os.cpus().length} cores`,
  );
  console.log('| path | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of rows) console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  console.log(`\ncreate throughput / bare workflow starts = ${(create.rps / bare.rps).toFixed(2)} (target ≥ 0.80)`);
  for (const [name, r] of paced)
    if (name.startsWith('API poll')) console.log(`${name}: p99 ${r.p99} ms (target < 20 ms)`);
} finally {
  await ctx.cleanup();
}

async function bareKoaRoute(body: string): Promise<Figures> {
  const app = new Koa();
  app.use((c) => {
    c.type = 'json';
    c.body = body;
  });
  const handle = app.callback();
  // Koa's handler settles every request itself (errors go to ctx.onerror): nothing to await here.
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await run('bare Koa route', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
  } finally {
    server.close();
  }
}

type Figures = { rps: number; p50: number; p99: number; errors: number };

async function run(name: string, opts: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections, duration: seconds, ...opts });
  const errors = result.errors + result.non2xx;
  if (name !== 'warm-up')
    process.stderr.write(`${name}: ${result.requests.average} req/s, p99 ${result.latency.p99} ms\n`);
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** `state` queries straight from a Temporal client. */
async function queryClient(address: string) {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  return Object.assign((id: string) => client.workflow.getHandle(id).query('state'), {
    close: () => connection.close(),
  });
}

/** `call` at a fixed rate for the run's duration (support's openLoop). */
async function atRate(rate: number, call: (i: number) => Promise<unknown>): Promise<Figures> {
  const { latencies, errors, elapsedS } = await openLoop(rate, seconds, call);
  return { rps: latencies.length / elapsedS, ...percentiles(latencies), errors };
}

async function waitForStatus(base: string, headers: Record<string, string>, id: string, status: string) {
  await waitFor(
    async () =>
      ((await (await fetch(`${base}/v1/responses/${id}`, { headers })).json()) as { status: string }).status === status,
  );
}

function percentiles(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) };
}

/** The baseline: the same number of concurrent callers starting the same workflow directly. */
async function bareWorkflowStarts(address: string, namespace: string): Promise<Figures> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const started = Date.now();
  // The very start the API makes (same options, search attributes, memo and request), minus the API.
  const { request } = fromResponsesRequest(JSON.parse(createBody), { catalog: Catalog.load(), config: loadConfig({}) });
  const app = { name: null, referer: null, title: null };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          const input = {
            generationId: `gen_bare${process.pid}_${n++}`,
            organizationId: 'org_bench',
            request,
            createdAtMs: Date.now(),
          };
          await client.workflow.start('generationWorkflow', generationStartOptions(input, app));
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  await connection.close();
  process.stderr.write(`bare workflow.start: ${(latencies.length / elapsed).toFixed(0)} starts/s\n`);
  return { rps: latencies.length / elapsed, ...percentiles(latencies), errors };
}
