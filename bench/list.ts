// bench/list: latency of listing an organization's generations (GET /v1/responses, GET
// /v1/chat/completions) with `--generations` finished generations in it: page 1 and a page deep in
// the list (an `after` cursor `--deep` items down), open loop at `--rate` requests/s.
//   npx tsx bench/list.ts [--generations 10000] [--deep 9000] [--rate 50] [--seconds 10] [--limit 20]
// Starts a Temporal dev server (in memory), PostgreSQL (DATABASE_URL or embedded) and one API process.
// The generations are written straight into PostgreSQL as completed records with their videos'
// storage keys (listing reads only the record: no workflow is involved), one every second of the
// past, so each list item signs its video and artifact URLs as a real one does.
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  benchContext,
  benchServices,
  getOk,
  loadAverage,
  openLoop,
  percentile,
  spawnService,
  today,
  waitFor,
} from './support.js';

const { values } = parseArgs({
  options: {
    generations: { type: 'string', default: '10000' },
    deep: { type: 'string', default: '9000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    limit: { type: 'string', default: '20' },
  },
});
const total = Number(values.generations);
const deep = Number(values.deep);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const limit = Number(values.limit);
const ctx = benchContext('list');

try {
  const { base, key, organizationId, db, env } = await benchServices(ctx, 1_000_000, { RATE_LIMIT_ENABLED: 'false' });
  // Completed generations, newest `total` seconds ago … now, in one statement.
  await db.query(
    `INSERT INTO generations (id, organization_id, status, model, engine, provider, request,
                              created_at, started_at, completed_at, video_key, artifact_key, artifact_type,
                              input_tokens, output_tokens, cost_micros, latency_ms, duration_seconds)
     SELECT 'gen_bench' || lpad(i::text, 8, '0'), $1, 'completed', 'gpt-4o-mini', 'lottie', 'local',
            jsonb_build_object('model', 'gpt-4o-mini', 'engine', 'lottie', 'input', 'Benchmark clip ' || i),
            now() - make_interval(secs => $2 - i), now() - make_interval(secs => $2 - i),
            now() - make_interval(secs => $2 - i - 0.5),
            'generations/gen_bench' || lpad(i::text, 8, '0') || '/video.mp4',
            'generations/gen_bench' || lpad(i::text, 8, '0') || '/compositions/1.json',
            'application/json', 20, 900, 1500, 4000, 3
     FROM generate_series(1, $2) AS i`,
    [organizationId, total],
  );
  await db.query('ANALYZE generations');
  spawnService(ctx, 'src/app/api.ts', env);
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok);
  const headers = { authorization: `Bearer ${key}` };

  // The cursor `deep` items down: the id at that position, newest first.
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM generations WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
    [organizationId, deep - 1],
  );
  const cursor = rows[0]!.id;
  const cases = [
    ['Responses, page 1', `/v1/responses?limit=${limit}`],
    [`Responses, after the ${deep}th`, `/v1/responses?limit=${limit}&after=${cursor}`],
    ['Chat, page 1', `/v1/chat/completions?limit=${limit}`],
    [`Chat, after the ${deep}th`, `/v1/chat/completions?limit=${limit}&after=${cursor}`],
    [
      'Responses, page 1, status=completed&engine=lottie',
      `/v1/responses?limit=${limit}&status=completed&engine=lottie`,
    ],
  ] as const;
  for (const [, path] of cases) await openLoop(rate, 2, () => getOk(base + path, headers)); // warm-up

  console.log(
    `bench/list — ${today()}, ${total} generations in the organization, limit ${limit}, ` +
      `${rate} req/s for ${seconds} s each, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  console.log('| request | requests | p50 ms | p99 ms | max ms | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, path] of cases) {
    const { latencies, errors } = await openLoop(rate, seconds, () => getOk(base + path, headers));
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `| ${name} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} ` +
        `| ${sorted.at(-1)!.toFixed(1)} | ${errors} |`,
    );
  }
  console.log(`\nload average at the end ${loadAverage()}`);
} finally {
  await ctx.cleanup();
}
