// bench/ratelimit: what the per-key rate limiter costs a request. Two API processes on one database
// serve GET /v1/responses/{id} (polling a finished generation: the most frequent limited request),
// one with the limiter on (limit high enough never to refuse) and one with it off; autocannon
// measures them alternately, in one run:
//   - 1 connection (closed loop): the latency the limiter adds, as 1000 / req/s (µs-exact, unlike
//     autocannon's whole-millisecond histogram);
//   - N connections over N keys: throughput and p50/p99 under load;
//   - N connections on one key: the worst case, every request queues for the same key's row lock.
//   npx tsx bench/ratelimit.ts [--seconds 5] [--rounds 2] [--connections 16]
// Uses DATABASE_URL's server or an embedded PostgreSQL; no Temporal (the endpoint never reaches it).
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Catalog } from '../src/catalog/index.js';
import { createApiKey } from '../src/db/apiKeys.js';
import { admitGeneration, finishGeneration } from '../src/db/generations.js';
import { createOrganization } from '../src/db/organizations.js';
import { generationRequest } from '../test/support/fixtures.js';
import { freePort } from '../src/tooling/ports.js';
import { benchContext, benchDatabase, spawnService, today, waitFor } from './support.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const ctx = benchContext('ratelimit');

type Mode = 'off' | 'on';
type Figures = { rps: number; p50: number; p99: number; refused: number };

try {
  const [onPort, offPort] = await Promise.all([freePort(), freePort()]);
  const { url: dbUrl, db } = await benchDatabase(ctx);

  // One organization, `connections` keys, one finished generation to poll.
  const org = await createOrganization(db, 'bench', 1_000_000);
  const keys = await Promise.all(Array.from({ length: connections }, (_, i) => createApiKey(db, org.id, `bench ${i}`)));
  const generationId = `gen_bench${process.pid}`;
  await admitGeneration(db, {
    id: generationId,
    organizationId: org.id,
    apiKeyId: keys[0]!.id,
    request: generationRequest('lottie', 'gpt-4o-mini'),
    app: { name: null, referer: null, title: null },
    holdMicros: 0,
  });
  await finishGeneration(db, Catalog.load(), {
    generationId,
    status: 'completed',
    provider: 'local',
    usage: { input_tokens: 10, output_tokens: 2000 },
    rendered: {
      video: { key: 'bench/v.mp4', content_type: 'video/mp4' },
      artifact: { key: 'bench/a.json', content_type: 'application/json' },
      duration_seconds: 3,
    },
    error: null,
  });

  const baseEnv = {
    ...process.env,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: '127.0.0.1:1', // lazily connected, never used by this endpoint
    DATA_DIR: ctx.tmp,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const limiterEnv: Record<Mode, Record<string, string>> = {
    on: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_WINDOW: '1000000', RATE_LIMIT_WINDOW_SECONDS: '60' },
    off: { RATE_LIMIT_ENABLED: 'false' },
  };
  const bases: Record<Mode, string> = { on: `http://127.0.0.1:${onPort}`, off: `http://127.0.0.1:${offPort}` };
  for (const [mode, port] of [
    ['on', onPort],
    ['off', offPort],
  ] as const) {
    spawnService(ctx, 'src/app/api.ts', { ...baseEnv, ...limiterEnv[mode], PORT: String(port) });
  }
  await Promise.all(Object.values(bases).map((base) => waitFor(async () => (await fetch(`${base}/healthz`)).ok)));

  const pollPath = `/v1/responses/${generationId}`;
  const auth = (i: number) => `Bearer ${keys[i % keys.length]!.key}`;
  // The limiter is really on in one process and off in the other.
  const probe = async (mode: Mode) =>
    (await fetch(bases[mode] + pollPath, { headers: { authorization: auth(0) } })).headers.get('x-ratelimit-limit');
  if ((await probe('on')) !== '1000000' || (await probe('off')) !== null)
    throw new Error('limiter modes not as configured');

  const scenarios: Scenario[] = [
    { name: '1 connection, 1 key', conns: 1, keys: 1 },
    { name: `${connections} connections, ${connections} keys`, conns: connections, keys: connections },
    { name: `${connections} connections, 1 key (worst case)`, conns: connections, keys: 1 },
  ];
  for (const mode of ['off', 'on'] as const) await measure(bases[mode] + pollPath, auth, scenarios[1]!, 2); // warm-up

  const results = new Map<string, Figures[]>();
  for (const scenario of scenarios) {
    for (let round = 0; round < rounds; round++) {
      for (const mode of ['off', 'on'] as const) {
        const figures = await measure(bases[mode] + pollPath, auth, scenario, seconds);
        process.stderr.write(`${scenario.name}, limiter ${mode}: ${figures.rps.toFixed(0)} req/s\n`);
        results.set(`${scenario.name}/${mode}`, [...(results.get(`${scenario.name}/${mode}`) ?? []), figures]);
      }
    }
  }

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const summary = (scenario: Scenario, mode: Mode) => {
    const runs = results.get(`${scenario.name}/${mode}`)!;
    const rps = mean(runs.map((f) => f.rps));
    // Closed loop: with one connection, the time per request is exactly 1 / throughput.
    const ms = scenario.conns === 1 ? 1000 / rps : null;
    return {
      rps,
      ms,
      p50: mean(runs.map((f) => f.p50)),
      p99: mean(runs.map((f) => f.p99)),
      refused: runs.reduce((n, f) => n + f.refused, 0),
    };
  };

  console.log(
    `\nbench/ratelimit — ${today()}, ${os.cpus().length} cores, GET ${pollPath.replace(generationId, '{id}')} ` +
      `(finished generation), ${seconds} s × ${rounds} rounds per figure, limiter off/on alternating`,
  );
  console.log('| load | limiter | req/s | ms/request | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|');
  const lines: string[] = [];
  let refused = 0;
  for (const scenario of scenarios) {
    const off = summary(scenario, 'off');
    const on = summary(scenario, 'on');
    refused += on.refused + off.refused;
    for (const [mode, f] of [
      ['off', off],
      ['on', on],
    ] as const) {
      console.log(
        `| ${scenario.name} | ${mode} | ${f.rps.toFixed(0)} | ${f.ms?.toFixed(3) ?? '–'} | ${f.p50.toFixed(1)} ` +
          `| ${f.p99.toFixed(1)} |`,
      );
    }
    const change = `${(((on.rps - off.rps) / off.rps) * 100).toFixed(1)} % throughput`;
    lines.push(
      `${scenario.name}: ${
        on.ms !== null && off.ms !== null ? `+${(on.ms - off.ms).toFixed(3)} ms per request, ` : ''
      }${change}`,
    );
  }
  console.log(`\nlimiter cost:\n${lines.map((l) => `- ${l}`).join('\n')}`);
  console.log(`requests refused (429) or failed: ${refused} (must be 0)`);
} finally {
  await ctx.cleanup();
}

type Scenario = { name: string; conns: number; keys: number };

/** autocannon on one URL; requests take the scenario's keys in turn. */
async function measure(
  url: string,
  auth: (i: number) => string,
  scenario: Scenario,
  duration: number,
): Promise<Figures> {
  let n = 0;
  const r = await autocannon({
    url,
    connections: scenario.conns,
    duration,
    requests: [
      { setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: auth(n++ % scenario.keys) } }) },
    ],
  });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, refused: r.errors + r.non2xx };
}
