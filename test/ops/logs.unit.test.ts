// What the logs say: request lines of status polls at debug, the Temporal SDK's chatter at debug, and
// the generation's id on the lines of code that takes no logger (renders) through the log context.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { Context as ActivityContext } from '@temporalio/activity';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../src/http/context.js';
import { requestLogMiddleware } from '../../src/http/requestLog.js';
import { contextLogger, type Logger } from '../../src/logger.js';
import { activityLogContext, temporalLogger } from '../../src/temporal/logger.js';

type Line = { level: number; msg: string; [field: string]: unknown };
const DEBUG = 20;
const INFO = 30;
const WARN = 40;

/** A logger at debug level whose lines land in `lines`. */
function capturingLogger() {
  const lines: Line[] = [];
  const log = pino(
    { level: 'debug' },
    { write: (s: string) => void lines.push(JSON.parse(s) as Line) },
  ) as unknown as Logger;
  return { log, lines };
}

describe('request log', () => {
  const { log, lines } = capturingLogger();
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(requestLogMiddleware(log, ['GET /v1/responses/:id', 'GET /healthz']));
    const router = new Router<AppState>();
    router.get('/healthz', (ctx) => void (ctx.body = { status: 'ok' }));
    router.post('/v1/responses', (ctx) => void (ctx.body = { id: 'gen_1' }));
    router.get('/v1/responses/:id', (ctx) => {
      if (ctx.params.id === 'missing') {
        ctx.status = 404;
        ctx.body = { error: { code: 'not_found' } };
      } else if (ctx.query.stream) {
        ctx.type = 'text/event-stream';
        ctx.body = 'data: {}\n\n';
      } else {
        ctx.body = { id: ctx.params.id, status: 'in_progress' };
      }
    });
    router.delete('/v1/responses/:id', (ctx) => void (ctx.body = { id: ctx.params.id, cancelled: true }));
    app.use(router.routes()).use(router.allowedMethods());
    const handle = app.callback();
    server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  /** The level the request line of `method path` was logged at. */
  async function levelOf(method: string, path: string): Promise<number> {
    lines.length = 0;
    await (await fetch(base + path, { method })).arrayBuffer();
    const line = lines.find((l) => l.msg === 'request');
    expect(line, `${method} ${path}`).toMatchObject({ method, status: expect.any(Number) });
    return line!.level;
  }

  it('a status poll (and a probe) logs at debug; creates, cancels and failed reads stay at info', async () => {
    expect(await levelOf('GET', '/v1/responses/gen_1')).toBe(DEBUG);
    expect(await levelOf('HEAD', '/v1/responses/gen_1')).toBe(DEBUG);
    expect(await levelOf('GET', '/healthz')).toBe(DEBUG);
    expect(await levelOf('POST', '/v1/responses')).toBe(INFO);
    expect(await levelOf('DELETE', '/v1/responses/gen_1')).toBe(INFO);
    expect(await levelOf('GET', '/v1/responses/missing')).toBe(INFO);
    expect(await levelOf('GET', '/nowhere')).toBe(INFO);
    // An event stream on the same route is a watch that begins, not a poll.
    expect(await levelOf('GET', '/v1/responses/gen_1?stream=1')).toBe(INFO);
  });
});

describe('Temporal SDK lines', () => {
  it('worker state changes and bundling go to debug; activity lines name their generation', () => {
    const { log, lines } = capturingLogger();
    const sdk = temporalLogger(log);
    sdk.info('Worker state changed', { state: 'RUNNING', taskQueue: 'video-io' });
    sdk.info('Workflow bundle created', { size: '1.65MB' });
    sdk.warn('Activity failed', { workflowId: 'gen_abc', activityType: 'renderComposition' });
    sdk.warn('Activity failed', { workflowId: 'evt_abc', activityType: 'attemptWebhookDelivery' });
    expect(lines.map((l) => [l.level, l.msg, l.generation_id])).toEqual([
      [DEBUG, 'Worker state changed', undefined],
      [DEBUG, 'Workflow bundle created', undefined],
      [WARN, 'Activity failed', 'gen_abc'],
      [WARN, 'Activity failed', undefined],
    ]);
  });

  it('an activity failing while the worker stops is info (its render got the same Ctrl-C); before, a warning', () => {
    const { log, lines } = capturingLogger();
    let stopping = false;
    const sdk = temporalLogger(log, () => stopping);
    sdk.warn('Activity failed', { workflowId: 'gen_abc' });
    stopping = true;
    sdk.warn('Activity failed', { workflowId: 'gen_abc' });
    sdk.warn('Some other warning', {});
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [WARN, 'Activity failed'],
      [INFO, 'Activity failed'],
      [WARN, 'Some other warning'],
    ]);
  });

  it(
    "the core's retries while Temporal is away: the first of a kind at its level, its repeats debug; " +
      'other kinds still show',
    () => {
      const { log, lines } = capturingLogger();
      const sdk = temporalLogger(log);
      const core = { sdkComponent: 'core', target: 'temporalio_client::retry' };
      sdk.warn('gRPC call poll_activity_task_queue retried 6 times', core);
      sdk.warn('gRPC call poll_activity_task_queue retried 7 times', core);
      sdk.warn('gRPC call poll_workflow_task_queue retried 6 times', core);
      sdk.warn('gRPC call poll_workflow_task_queue retried 7 times', core);
      // Lines of the TypeScript side are never folded.
      sdk.warn('Activity failed', { workflowId: 'gen_abc' });
      sdk.warn('Activity failed', { workflowId: 'gen_abc' });
      expect(lines.map((l) => l.level)).toEqual([WARN, DEBUG, WARN, DEBUG, WARN, WARN]);
    },
  );
});

describe('log context of activity calls', () => {
  /** The generation id a logger made deep inside an activity call carries. */
  function generationIdInside(workflowId: string, args: unknown[]) {
    const ctx = { info: { workflowExecution: { workflowId, runId: 'run' } } } as unknown as ActivityContext;
    const execute = activityLogContext(ctx).inbound!.execute!;
    return execute({ args, headers: {} }, async () => {
      await new Promise((r) => setTimeout(r, 1)); // across an await, as a render is
      const bindings = contextLogger({ render: 'r1' }).bindings();
      expect(bindings.render).toBe('r1');
      return bindings.generation_id;
    });
  }

  it(
    'carries the generation id of the call (its input, ' + 'else the generation workflow) to loggers made inside it',
    async () => {
      expect(await generationIdInside('gen_wf', [{ generationId: 'gen_input', engine: 'lottie' }])).toBe('gen_input');
      expect(await generationIdInside('gen_wf', ['gen_wf'])).toBe('gen_wf');
      expect(await generationIdInside('evt_1', [{ eventId: 'evt_1', attempt: 1 }])).toBeUndefined();
      expect(contextLogger().bindings().generation_id).toBeUndefined(); // nothing outside a call
    },
  );
});
