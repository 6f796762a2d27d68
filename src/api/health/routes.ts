import Router from '@koa/router';
import { supervisedProcesses } from '../../supervision/protocol.js';
import { registry } from '../../metrics.js';
import type { AppDeps, AppState } from '../../http/context.js';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

/**
 * GET /healthz: the process is up. GET /readyz: PostgreSQL and Temporal answer, else 503; under
 * `npm start` also the state of every process it runs, `degraded` (still 200: this API serves, work
 * queues in Temporal) while one of them is not up, e.g. a worker restarting.
 * GET /metrics: Prometheus metrics of this API process.
 */
export function healthRoutes({ db, temporal }: AppDeps) {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  router.get('/readyz', async (ctx) => {
    const checks = {
      database: withTimeout(db.query('SELECT 1'), CHECK_TIMEOUT_MS),
      temporal: withTimeout(temporal.workflowService.getSystemInfo({}), CHECK_TIMEOUT_MS),
    };
    const results = await Promise.allSettled(Object.values(checks));
    const report = Object.fromEntries(
      Object.keys(checks).map((name, i) => {
        const r = results[i]!;
        return [name, r.status === 'fulfilled' ? 'ok' : `unavailable: ${(r.reason as Error).message}`];
      }),
    );
    const failing = Object.entries(report).filter(([, v]) => v !== 'ok');
    const processes = supervisedProcesses();
    const supervised = processes ? { processes } : {};
    if (failing.length === 0) {
      const degraded = Object.values(processes ?? {}).some((p) => p.state !== 'up');
      ctx.body = { status: degraded ? 'degraded' : 'ready', checks: report, ...supervised };
      return;
    }
    ctx.status = 503;
    ctx.body = {
      error: { code: 'not_ready', message: failing.map(([k, v]) => `${k} ${v}`).join('; ') },
      checks: report,
      ...supervised,
    };
  });
  return router;
}
