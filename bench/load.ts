// bench/load: N generations in flight at once on this machine, with the worker's memory over time,
// and the time from a generation's terminal state to the first webhook attempt — the latter beside
// its bare baseline (one HTTPS POST to the same receiver), in one run.
//   npx tsx bench/load.ts [--generations 200] [--concurrency 16]
// Starts its own Temporal dev server, PostgreSQL (DATABASE_URL or embedded), the API and one worker
// as separate processes, and a local HTTPS webhook receiver (the unsafe loopback setting, bench only).
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { makeSelfSignedCert, startReceiver } from '../test/webhooks/support/receiver.js';
import { benchContext, benchServices, percentile, spawnService, today, waitFor } from './support.js';

const { values } = parseArgs({
  options: { generations: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '16' } },
});
const total = Number(values.generations);
const concurrency = Number(values.concurrency);
const ctx = benchContext('load');

try {
  const tls = makeSelfSignedCert();
  ctx.defer(async () => fs.rmSync(tls.dir, { recursive: true, force: true }));
  const receiver = await startReceiver(tls);
  receiver.respond(() => ({ status: 204 }));
  ctx.defer(() => receiver.close());

  const { base, key, env, db, organizationId } = await benchServices(ctx, 10_000_000, {
    RATE_LIMIT_ENABLED: 'false',
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
    OUTBOUND_UNSAFE_CA_FILE: tls.certFile,
  });

  spawnService(ctx, 'src/app/api.ts', env);
  const worker = spawnService(ctx, 'src/app/worker.ts', env);
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok);
  await new Promise((r) => setTimeout(r, 3000)); // the worker bundles its workflows
  const idleRss = treeRssBytes(worker.pid!);

  // N generations in flight at once.
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const started = Date.now();
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const res = await fetch(`${base}/v1/responses`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            model: 'gpt-4o-mini',
            engine: 'lottie',
            input: `Load ${i}`,
            width: 160,
            height: 284,
            webhook_url: receiver.url(`/g/${i}`),
          }),
        });
        if (res.status !== 200) throw new Error(`create ${i}: ${res.status} ${await res.text()}`);
        ids.push(((await res.json()) as { id: string }).id);
      }
    }),
  );
  const createdMs = Date.now() - started;

  const memory: Array<{ s: number; rssMb: number; terminal: number }> = [];
  let terminal = 0;
  while (terminal < total) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM generations
       WHERE organization_id = $1 AND status IN ('completed','failed','cancelled')`,
      [organizationId],
    );
    terminal = rows[0].n;
    memory.push({ s: Math.round((Date.now() - started) / 1000), rssMb: treeRssBytes(worker.pid!) / 2 ** 20, terminal });
    if (Date.now() - started > 30 * 60_000) throw new Error('not done after 30 minutes');
    await new Promise((r) => setTimeout(r, 1000));
  }
  const doneMs = Date.now() - started;
  const { rows: statuses } = await db.query(
    `SELECT status, count(*)::int AS n FROM generations WHERE organization_id = $1 GROUP BY status`,
    [organizationId],
  );

  // Terminal state → first webhook attempt, per generation.
  await waitFor(async () => receiver.requests.length >= total, 120_000);
  const { rows: done } = await db.query(`SELECT id, completed_at FROM generations WHERE organization_id = $1`, [
    organizationId,
  ]);
  const completedAt = new Map(done.map((r) => [r.id as string, (r.completed_at as Date).getTime()]));
  const firstArrival = new Map<string, number>();
  for (const req of receiver.requests) {
    const id = JSON.parse(req.body).data.object.id as string;
    if (!firstArrival.has(id)) firstArrival.set(id, req.receivedAtMs);
  }
  const lags = [...firstArrival].map(([id, at]) => at - completedAt.get(id)!).sort((a, b) => a - b);
  const bare = await bareHttpsPosts(receiver.url('/bare'), tls.cert, 50);

  const peak = Math.max(...memory.map((m) => m.rssMb));
  console.log(
    `\nbench/load — ${today()}, ${os.cpus().length} cores, ` +
      `${total} generations (lottie 160×284, local provider), ${concurrency} concurrent creators`,
  );
  console.log(
    `created all in ${(createdMs / 1000).toFixed(1)} s; ` +
      `all terminal after ${(doneMs / 1000).toFixed(1)} s (${((total / doneMs) * 1000).toFixed(2)} generations/s)`,
  );
  console.log(`statuses: ${statuses.map((r) => `${r.status} ${r.n}`).join(', ')}`);
  console.log(
    `worker process tree RSS: idle ${(idleRss / 2 ** 20).toFixed(0)} MB, peak ${peak.toFixed(0)} MB ` +
      `(peak/idle ${(peak / (idleRss / 2 ** 20)).toFixed(2)})`,
  );
  console.log('worker RSS over time (s → MB, terminal so far):');
  const step = Math.max(1, Math.floor(memory.length / 12));
  console.log(
    memory
      .filter((_, i) => i % step === 0 || i === memory.length - 1)
      .map((m) => `  ${m.s}s ${m.rssMb.toFixed(0)}MB ${m.terminal}/${total}`)
      .join('\n'),
  );
  console.log('| path | p50 ms | p99 ms |');
  console.log('|---|---|---|');
  console.log(
    `| terminal state → first webhook attempt received | ${percentile(lags, 50)} | ${percentile(lags, 99)} |`,
  );
  console.log(
    `webhook lags (ms): p90 ${percentile(lags, 90)}, max ${lags.at(-1)}, slowest ten ${lags.slice(-10).join(', ')}`,
  );
  console.log(
    `| bare HTTPS POST to the same receiver ` +
      `| ${percentile(bare, 50).toFixed(1)} | ${percentile(bare, 99).toFixed(1)} |`,
  );
  console.log(`webhook lag p50 / bare POST p50 = ${(percentile(lags, 50) / percentile(bare, 50)).toFixed(1)}`);
} finally {
  await ctx.cleanup();
}

/** Resident memory of a process and all its descendants (render children included), from /proc. */
function treeRssBytes(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      children.set(Number(fields[1]), [...(children.get(Number(fields[1])) ?? []), pid]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // the process ended while we looked
    }
  }
  let sum = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    sum += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return sum;
}

/** The floor of a delivery: one HTTPS POST (new TLS connection each, as deliveries make) to the receiver. */
async function bareHttpsPosts(url: string, ca: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = https.request(
        url,
        { method: 'POST', ca, agent: false, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}
