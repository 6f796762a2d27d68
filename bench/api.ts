// bench/api: create and poll throughput and latency of the API, measured with autocannon, side by
// side in one run with bare `client.workflow.start` calls against the same Temporal server.
//   npx tsx bench/api.ts [--seconds 10] [--connections 16]
// Starts its own Temporal dev server (in memory), PostgreSQL (DATABASE_URL or embedded) and two API
// processes. Creates (ours and the bare starts) go to a namespace no worker polls, so only the start
// path is measured, as in the baseline. Polls go to a namespace with an io-only worker: a generation
// left in flight (no render worker) is answered by the workflow query path, a finished one from
// PostgreSQL; a bare Koa route returning the same body is the floor.
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
import { createNamespace } from '../src/temporal/devServer.js';
import { freePort } from '../test/support/ports.js';
import { benchContext, benchDatabase, benchTemporal, spawnService, today, waitFor } from './support.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const ctx = benchContext('api');
const createBody = JSON.stringify({ model: 'gpt-4o-mini', input: 'Benchmark clip', engine: 'lottie', width: 160, height: 284 });
/** Clients poll every 2–5 s: 50 polls/s is 100–250 generations in flight. */
const POLL_RATE = 50;
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
  spawnService(ctx, 'src/api/main.ts', { ...env, PORT: String(createPort), TEMPORAL_NAMESPACE: CREATE_NAMESPACE });
  spawnService(ctx, 'src/api/main.ts', { ...env, PORT: String(pollPort) });
  spawnService(ctx, 'src/worker/main.ts', { ...env, WORKER_QUEUES: 'io', WORKER_METRICS_PORT: '0' });
  const createBase = `http://127.0.0.1:${createPort}`;
  const base = `http://127.0.0.1:${pollPort}`;
  await waitFor(async () => (await fetch(`${createBase}/readyz`)).ok && (await fetch(`${base}/readyz`)).ok);

  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  // Warm up (JIT, connection pools).
  await run('warm-up', { url: `${createBase}/v1/responses`, method: 'POST', headers, body: createBody, duration: 2 });

  const create = await run('API create (POST /v1/responses)', { url: `${createBase}/v1/responses`, method: 'POST', headers, body: createBody });
  const bare = await bareWorkflowStarts(temporalAddress, CREATE_NAMESPACE);

  // Poll: one generation left in flight (no render worker) → workflow query path.
  const inflight = (await (await fetch(`${base}/v1/responses`, { method: 'POST', headers, body: createBody })).json()) as { id: string };
  await waitFor(async () => {
    const g = (await (await fetch(`${base}/v1/responses/${inflight.id}`, { headers })).json()) as { status: string };
    return g.status === 'in_progress';
  });
  const pollLive = await run('API poll, in flight (query)', { url: `${base}/v1/responses/${inflight.id}`, headers });
  // At a realistic rate: IN_FLIGHT generations in flight, polled POLL_RATE times a second in total.
  const many = await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => ((await (await fetch(`${base}/v1/responses`, { method: 'POST', headers, body: createBody })).json()) as { id: string }).id),
  );
  await waitFor(async () => {
    const g = (await (await fetch(`${base}/v1/responses/${many.at(-1)}`, { headers })).json()) as { status: string };
    return g.status === 'in_progress';
  });
  let turn = 0;
  const pollRealistic = await run(`API poll, in flight, ${POLL_RATE} req/s over ${IN_FLIGHT} generations`, {
    url: base,
    headers,
    overallRate: POLL_RATE,
    connections: 4,
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/responses/${many[turn++ % many.length]}` }) }],
  });
  // The query alone, from a plain client at the same rate over the same generations: the floor of the in-flight poll.
  const bareQuery = await bareQueries(temporalAddress, many);
  // …and a terminal one → PostgreSQL path.
  await fetch(`${base}/v1/responses/${inflight.id}`, { method: 'DELETE', headers });
  const pollDone = await run('API poll, terminal (PostgreSQL)', { url: `${base}/v1/responses/${inflight.id}`, headers });
  // The floor: a bare Koa route answering a constant JSON body of the same size, on the same machine.
  const body = await (await fetch(`${base}/v1/responses/${inflight.id}`, { headers })).text();
  const bareKoa = await bareKoaRoute(body);

  const rows = [
    ['bare client.workflow.start', bare],
    ['API create', create],
    ['API poll (in flight, query), saturated', pollLive],
    [`API poll (in flight, query), ${POLL_RATE} req/s over ${IN_FLIGHT} generations`, pollRealistic],
    [`bare workflow query, ${POLL_RATE} req/s over ${IN_FLIGHT} generations`, bareQuery],
    ['API poll (terminal, PostgreSQL)', pollDone],
    ['bare Koa route (same body)', bareKoa],
  ] as const;
  console.log(`\nbench/api — ${today()}, ${seconds} s per run, ${connections} connections, ${os.cpus().length} cores`);
  console.log('| path | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of rows) console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  console.log(`\ncreate throughput / bare workflow starts = ${(create.rps / bare.rps).toFixed(2)} (target ≥ 0.80)`);
  console.log(`poll p99 in flight at ${POLL_RATE} req/s = ${pollRealistic.p99} ms, saturated = ${pollLive.p99} ms; terminal = ${pollDone.p99} ms (target < 20 ms)`);
  console.log(`poll throughput / bare Koa route: in flight ${(pollLive.rps / bareKoa.rps).toFixed(2)}, terminal ${(pollDone.rps / bareKoa.rps).toFixed(2)}`);
} finally {
  await ctx.cleanup();
}

async function bareKoaRoute(body: string): Promise<Figures> {
  const app = new Koa();
  app.use((c) => {
    c.type = 'json';
    c.body = body;
  });
  const server = http.createServer(app.callback());
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
  if (name !== 'warm-up') process.stderr.write(`${name}: ${result.requests.average} req/s, p99 ${result.latency.p99} ms\n`);
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** `state` queries straight from a Temporal client, POLL_RATE a second spread over `ids`. */
async function bareQueries(address: string, ids: string[]): Promise<Figures> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const latencies: number[] = [];
  let errors = 0;
  const total = seconds * POLL_RATE;
  const started = Date.now();
  const queries: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    // Open loop at a fixed rate, like autocannon's overallRate: a slow answer does not delay the next query.
    await new Promise((r) => setTimeout(r, started + (i * 1000) / POLL_RATE - Date.now()));
    const t = performance.now();
    queries.push(
      client.workflow
        .getHandle(ids[i % ids.length]!)
        .query('state')
        .then(
          () => void latencies.push(performance.now() - t),
          () => void errors++,
        ),
    );
  }
  await Promise.all(queries);
  const elapsed = (Date.now() - started) / 1000;
  await connection.close();
  return { rps: latencies.length / elapsed, ...percentiles(latencies), errors };
}

const percentiles = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
  return { p50: pct(50), p99: pct(99) };
};

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
  const request = fromResponsesRequest(JSON.parse(createBody), { catalog: Catalog.load(), config: loadConfig({}) });
  const app = { name: null, referer: null, title: null };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          const input = { generationId: `gen_bare${process.pid}_${n++}`, organizationId: 'org_bench', request, createdAtMs: Date.now() };
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
