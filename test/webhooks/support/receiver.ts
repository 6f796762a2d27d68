// A real HTTPS webhook receiver for tests: a self-signed certificate made with openssl in a temp dir,
// every request recorded with its raw body, answers chosen by the test, and signature verification
// with the `standardwebhooks` library (our header names mapped to the standard ones).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { checkWebhook, record } from '../../support/contract.js';

export type TlsFiles = { dir: string; certFile: string; keyFile: string; cert: string; key: string };

/** A self-signed certificate for 127.0.0.1, ::1, localhost and receiver.test. */
export function makeSelfSignedCert(): TlsFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=receiver.test',
      '-addext',
      'subjectAltName=DNS:receiver.test,DNS:localhost,IP:127.0.0.1,IP:::1',
    ],
    { stdio: 'ignore' },
  );
  return { dir, certFile, keyFile, cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
}

export type ReceivedRequest = {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAtMs: number;
  servername: string | null;
};

export type Answer = { status: number; headers?: Record<string, string>; body?: string; hang?: boolean };
export type Responder = (req: ReceivedRequest, index: number) => Answer;

export type Receiver = {
  port: number;
  url(pathname?: string): string;
  requests: ReceivedRequest[];
  /** TLS connections accepted (a request the policy refused never opens one). */
  connections: number;
  respond(fn: Responder): void;
  /** Stops listening (the port stays known, so the test can bring it back with listen()). */
  close(): Promise<void>;
  listen(): Promise<void>;
  /** Resolves once `n` requests to `pathname` (any when omitted) have arrived. */
  waitFor(n: number, pathname?: string, timeoutMs?: number): Promise<ReceivedRequest[]>;
};

export async function startReceiver(tls: TlsFiles, opts: { host?: string; port?: number } = {}): Promise<Receiver> {
  const host = opts.host ?? '127.0.0.1';
  let responder: Responder = () => ({ status: 200, body: 'ok' });
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        path: req.url ?? '/',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAtMs: Date.now(),
        servername: (req.socket as import('node:tls').TLSSocket).servername || null,
      };
      receiver.requests.push(received);
      record(checkWebhook(received.headers, received.body));
      const answer = responder(received, receiver.requests.length - 1);
      if (answer.hang) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  server.on('secureConnection', () => receiver.connections++);
  const sockets = new Set<import('node:stream').Duplex>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  let port = opts.port ?? 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const receiver: Receiver = {
    get port() {
      return port;
    },
    url: (pathname = '/hook') => `https://${host.includes(':') ? `[${host}]` : host}:${port}${pathname}`,
    requests: [],
    connections: 0,
    respond(fn) {
      responder = fn;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
    listen,
    async waitFor(n, pathname, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.requests.filter((r) => !pathname || r.path === pathname);
        if (matching.length >= n) return matching;
        if (Date.now() > deadline) {
          throw new Error(`expected ${n} requests to ${pathname ?? 'any path'}, got ${matching.length}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  return receiver;
}

/** Verifies a delivery as a receiver would: standardwebhooks, our header names mapped. Returns the parsed body. */
export function verifyDelivery(secret: string, req: Pick<ReceivedRequest, 'headers' | 'body'>): unknown {
  return new Webhook(secret).verify(req.body, {
    'webhook-id': req.headers['service-webhook-id'] ?? '',
    'webhook-timestamp': req.headers['service-webhook-timestamp'] ?? '',
    'webhook-signature': req.headers['service-webhook-signature'] ?? '',
  });
}
