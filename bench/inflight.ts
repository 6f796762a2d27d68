// bench/inflight: in-flight poll latency (GET /v1/responses/{id} answered by the workflow query) of two
// checkouts side by side, e.g. before and after a change, on a machine whose load comes and goes.
//   npx tsx bench/inflight.ts --before <checkout> [--rate 50] [--blocks 8] [--block-seconds 5] [--generations 100]
// Each checkout (this one and --before, a worktree with node_modules) gets the stack bench/api.ts polls:
// its own Temporal dev server (in memory), PostgreSQL (embedded or DATABASE_URL), one API and an io-only
// worker, so `--generations` generations stay in flight once composed (no render worker). Then the same
// open-loop polling as bench/api.ts at `--rate` requests/s, in alternating blocks of `--block-seconds`
// (before, after, after, before, …: ABBA pairs cancel a load that rises or falls during a pair), so both
// sides see the same background load. Reported: p50 and p99 of each side over all its blocks, and the
// median over pairs of the after − before difference of block p50s.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  benchContext,
  benchServices,
  entryPoint,
  getOk,
  inFlightGenerations,
  loadAverage,
  openLoop,
  percentile,
  spawnService,
  today,
  waitFor,
  type BenchContext,
} from './support.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    rate: { type: 'string', default: '50' },
    blocks: { type: 'string', default: '8' },
    'block-seconds': { type: 'string', default: '5' },
    generations: { type: 'string', default: '100' },
  },
});
if (!values.before) throw new Error('--before <checkout> is required');
const rate = Number(values.rate);
const blocks = Number(values.blocks);
const blockSeconds = Number(values['block-seconds']);
const generations = Number(values.generations);
const createBody = JSON.stringify({
  model: 'gpt-4o-mini',
  input: 'Benchmark clip',
  engine: 'lottie',
  width: 160,
  height: 284,
});
const checkouts = { before: path.resolve(values.before), after: path.resolve(import.meta.dirname, '..') };
const contexts: BenchContext[] = [];

type Side = {
  name: keyof typeof checkouts;
  poll: (i: number) => Promise<void>;
  latencies: number[];
  blockP50: number[];
  errors: number;
};

try {
  process.stderr.write(`load average at the start ${loadAverage()}\n`);
  const sides: Side[] = await Promise.all(
    (Object.keys(checkouts) as (keyof typeof checkouts)[]).map(async (name) => {
      const ctx = benchContext(`inflight-${name}`);
      contexts.push(ctx);
      const { base, key, env } = await benchServices(ctx, 1_000_000, { RATE_LIMIT_ENABLED: 'false' });
      const root = checkouts[name];
      spawnService(ctx, path.join(root, entryPoint(root, 'api')), env, root);
      spawnService(ctx, path.join(root, entryPoint(root, 'worker')), { ...env, WORKER_QUEUES: 'io' }, root);
      await waitFor(async () => (await fetch(`${base}/readyz`)).ok);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const ids = await inFlightGenerations(base, headers, createBody, generations);
      return {
        name,
        poll: (i: number) => getOk(`${base}/v1/responses/${ids[i % ids.length]}`, headers),
        latencies: [],
        blockP50: [],
        errors: 0,
      };
    }),
  );
  // Warm-up (JIT, connection pools), not counted.
  for (const side of sides) await openLoop(rate, 2, side.poll);

  for (let b = 0; b < blocks; b++) {
    for (const side of b % 2 === 0 ? sides : [...sides].reverse()) {
      const { latencies, errors } = await openLoop(rate, blockSeconds, side.poll);
      side.latencies.push(...latencies);
      side.errors += errors;
      side.blockP50.push(
        percentile(
          [...latencies].sort((x, y) => x - y),
          50,
        ),
      );
    }
    process.stderr.write(
      `block ${b + 1}/${blocks}: ${sides
        .map((s) => `${s.name} p50 ${s.blockP50.at(-1)!.toFixed(1)} ms`)
        .join(', ')}; load average ${loadAverage()}\n`,
    );
  }

  const [before, after] = sides as [Side, Side];
  const differences = before.blockP50.map((p, i) => after.blockP50[i]! - p).sort((x, y) => x - y);
  console.log(
    `\nbench/inflight — ${today()}, ${rate} req/s, ${blocks} × ${blockSeconds} s blocks per side, ` +
      `${generations} generations in flight, ${os.cpus().length} cores, load average at the end ${loadAverage()}`,
  );
  console.log('| checkout | requests | p50 ms | p99 ms | block p50s ms | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const side of sides) {
    const sorted = [...side.latencies].sort((x, y) => x - y);
    const cells = [
      `${side.name} (${checkouts[side.name]})`,
      sorted.length,
      percentile(sorted, 50).toFixed(1),
      percentile(sorted, 99).toFixed(1),
      side.blockP50.map((p) => p.toFixed(1)).join(', '),
      side.errors,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log(
    `\nafter − before, block p50s: median ${percentile(differences, 50).toFixed(1)} ms ` +
      `(min ${differences[0]!.toFixed(1)}, max ${differences.at(-1)!.toFixed(1)})`,
  );
} finally {
  for (const ctx of contexts) await ctx.cleanup();
}
