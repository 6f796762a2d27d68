// Prometheus metrics (prom-client), one registry per process. The API serves it at /metrics; a
// worker serves its own on WORKER_METRICS_PORT (Temporal's SDK metrics come from the Temporal
// runtime's own exporter, see src/app/worker.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  httpRequests: new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  }),
  httpDuration: new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: seconds,
    registers: [registry],
  }),
  generationsCreated: new client.Counter({
    name: 'generations_created_total',
    help: 'Generations accepted by the API, by engine and model',
    labelNames: ['engine', 'model'] as const,
    registers: [registry],
  }),
  generationsFinished: new client.Counter({
    name: 'generations_finished_total',
    help: 'Generations that reached a terminal status, by engine and status',
    labelNames: ['engine', 'status'] as const,
    registers: [registry],
  }),
  renderDuration: new client.Histogram({
    name: 'render_duration_seconds',
    help: 'Wall time of successful renders, by engine',
    labelNames: ['engine'] as const,
    buckets: [0.5, 1, 2, 4, 8, 15, 30, 60, 120, 300],
    registers: [registry],
  }),
  renderFps: new client.Histogram({
    name: 'render_frames_per_second',
    help: 'Frames rendered per wall-clock second, by engine',
    labelNames: ['engine'] as const,
    buckets: [1, 5, 10, 20, 30, 45, 60, 90, 120, 240],
    registers: [registry],
  }),
  providerAttempts: new client.Counter({
    name: 'provider_attempts_total',
    help: 'Calls to orchestration providers, by provider and outcome (ok, retryable_error, error)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  }),
  webhookAttempts: new client.Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, rejected, gone, no_response)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  streamStateQueries: new client.Counter({
    name: 'stream_state_queries_total',
    help:
      'Workflow state queries made to feed live streams (one watcher per generation, ' +
      'whatever the number of streams)',
    registers: [registry],
  }),
  streamsOpen: new client.Gauge({
    name: 'streams_open',
    help: 'Server-sent event streams open now (API and dashboard)',
    registers: [registry],
  }),
  rateLimitRejections: new client.Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests rejected with 429 by the per-key rate limit',
    registers: [registry],
  }),
};

/** Serves the registry at /metrics on its own port (worker processes have no API to hang it on). */
export async function serveMetrics(port: number, host = '0.0.0.0'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    // Settled here: an async request listener's rejection would be unhandled (and end the process).
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

export const boundPort = (server: http.Server) => (server.address() as AddressInfo).port;
