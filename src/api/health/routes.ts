import crypto from 'node:crypto';
import net from 'node:net';
import Router from '@koa/router';
import type { Context } from 'koa';
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

/** Headers a proxy adds: a request carrying one came through it, whatever the socket's address. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Whether /readyz may show the backends' own error text (host names, addresses, user names): to a
 * request from this machine that no proxy forwarded, or one that carries the operator token
 * (`Authorization: Bearer <OPERATOR_TOKEN>`). Anyone else learns which dependency is down, not why.
 */
function mayReadDetail(ctx: Context, operatorToken: string | undefined): boolean {
  if (isLoopback(ctx.req.socket.remoteAddress) && !FORWARDING_HEADERS.some((h) => ctx.get(h))) return true;
  const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
  if (!operatorToken || !given) return false;
  const [a, b] = [crypto.hash('sha256', given, 'buffer'), crypto.hash('sha256', operatorToken, 'buffer')];
  return crypto.timingSafeEqual(a, b);
}

/**
 * GET /healthz: the process is up. GET /readyz: PostgreSQL and Temporal answer, else 503; under
 * `npm start` also the state of every process it runs, `degraded` (still 200: this API serves, work
 * queues in Temporal) while one of them is not up, e.g. a worker restarting.
 * GET /metrics: Prometheus metrics of this API process.
 */
export function healthRoutes({ db, temporal, config, logger }: AppDeps) {
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
    const detail = mayReadDetail(ctx, config.operatorToken);
    const report = Object.fromEntries(
      Object.keys(checks).map((name, i) => {
        const r = results[i]!;
        if (r.status === 'fulfilled') return [name, 'ok'];
        const reason = (r.reason as Error)?.message ?? String(r.reason);
        if (!detail) logger.warn({ check: name, reason }, 'readiness check failed');
        return [name, detail ? `unavailable: ${reason}` : 'unavailable'];
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
