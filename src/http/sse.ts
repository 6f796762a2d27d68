// Server-sent events on a Koa response: the stream outlives the handler, keep-alive comments keep
// idle proxies from closing it, and a client that goes away only ends this stream (never the work
// it watches).
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { metrics } from '../metrics.js';

export type EventStream = {
  /** One event; `event` names it (omitted: the default "message" type, as chat chunks use). */
  send(data: unknown, event?: string): void;
  /** A raw data line (`[DONE]`). */
  sendRaw(data: string): void;
  end(): void;
  /** Resolves when the stream ended, from either side. */
  closed: Promise<void>;
};

export function openEventStream(ctx: Context, heartbeatMs: number): EventStream {
  const body = new PassThrough();
  ctx.status = 200;
  ctx.set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.body = body;
  metrics.streamsOpen.inc();

  let ended = false;
  let closedResolve: () => void = () => {};
  const closed = new Promise<void>((r) => (closedResolve = r));
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
  heartbeat.unref();
  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    metrics.streamsOpen.dec();
    body.end();
    closedResolve();
  };
  const write = (chunk: string) => {
    if (!ended) body.write(chunk);
  };
  ctx.req.on('close', finish);
  ctx.res.on('close', finish);

  return {
    send: (data, event) => write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
    sendRaw: (data) => write(`data: ${data}\n\n`),
    end: finish,
    closed,
  };
}
