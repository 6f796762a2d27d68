// One delivery attempt against a real HTTPS receiver with a self-signed certificate: address pinning
// (DNS rebinding), no redirects, timeout, bounded response, Retry-After, TLS trust.
import fs from 'node:fs';
import tls from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ATTEMPT_FAILURES } from '../../src/webhooks/attemptFailures.js';
import { sendWebhook, type SendOptions } from '../../src/webhooks/send.js';
import type { HostResolver } from '../../src/outbound/urlPolicy.js';
import { vetWebhookUrl } from '../../src/webhooks/webhookUrl.js';
import { makeSelfSignedCert, startReceiver, type Receiver, type TlsFiles } from './support/receiver.js';

let cert: TlsFiles;
let receiver: Receiver;
let receiver6: Receiver;

beforeAll(async () => {
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  receiver6 = await startReceiver(cert, { host: '::1' });
});
afterAll(async () => {
  await receiver.close();
  await receiver6.close();
  fs.rmSync(cert.dir, { recursive: true, force: true });
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.connections = 0;
  receiver.respond(() => ({ status: 200, body: 'ok' }));
});

const noDns: HostResolver = async (h) => {
  throw new Error(`unexpected resolution of ${h}`);
};
/** The local-testing setup: loopback allowed, the receiver's certificate trusted. */
const local = (resolve: HostResolver = noDns): SendOptions => ({
  allowLoopback: true,
  resolve,
  ca: [...tls.rootCertificates, cert.cert],
});
const request = (url: string) => ({ url, body: '{"hello":"world"}', headers: { 'service-webhook-id': 'evt_test' } });

describe('sendWebhook', () => {
  it('posts the exact body and headers and reports the status', async () => {
    const outcome = await sendWebhook(request(receiver.url('/hook?x=1')), local());
    expect(outcome).toMatchObject({
      statusCode: 200,
      error: null,
      cause: null,
      responseExcerpt: 'ok',
      retryAfterMs: null,
    });
    const [got] = receiver.requests;
    expect(got).toMatchObject({ path: '/hook?x=1', body: '{"hello":"world"}' });
    expect(got!.headers).toMatchObject({ 'service-webhook-id': 'evt_test', 'content-type': 'application/json' });
  });

  it('works over IPv6 loopback too', async () => {
    expect(await sendWebhook(request(receiver6.url()), local())).toMatchObject({ statusCode: 200 });
  });

  it('connects to the vetted address only, with SNI and Host still the name (resolved once per attempt)', async () => {
    let calls = 0;
    const resolve: HostResolver = async (host) => {
      calls++;
      expect(host).toBe('receiver.test');
      return ['127.0.0.1'];
    };
    const outcome = await sendWebhook(request(`https://receiver.test:${receiver.port}/named`), local(resolve));
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(calls).toBe(1); // the HTTP stack did no lookup of its own (receiver.test exists nowhere else)
    expect(receiver.requests[0]).toMatchObject({ servername: 'receiver.test' });
    expect(receiver.requests[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
  });

  it('DNS rebinding: an answer that turned private at delivery is refused before any connection', async () => {
    const answers = [['93.184.215.14'], ['10.0.0.1']];
    let calls = 0;
    const rebinding: HostResolver = async () => answers[Math.min(calls++, 1)]!;
    const options = { ...local(rebinding), allowLoopback: false };
    const url = `https://rebind.example.com:${receiver.port}/`;
    // Request time saw a public address; the delivery resolves again.
    await expect(vetWebhookUrl(url, options)).resolves.toMatchObject({ address: '93.184.215.14' });
    const outcome = await sendWebhook(request(url), options);
    expect(outcome.statusCode).toBeNull();
    // Fixed words for the record; the reason, with the address, for the log alone.
    expect(outcome.error).toBe(ATTEMPT_FAILURES.notPublic);
    expect(outcome.cause).toContain('rejected before connecting');
    expect(outcome.cause).toContain('resolves to 10.0.0.1');
    expect(receiver.connections).toBe(0);
  });

  it('without the unsafe setting a loopback receiver is never contacted', async () => {
    const outcome = await sendWebhook(request(receiver.url()), { ...local(), allowLoopback: false });
    expect(outcome.error).toBe(ATTEMPT_FAILURES.notPublic);
    expect(outcome.cause).toContain('loopback address');
    expect(receiver.connections).toBe(0);
  });

  it('without the extra CA a self-signed receiver fails TLS', async () => {
    const outcome = await sendWebhook(request(receiver.url()), { ...local(), ca: undefined });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toBe(ATTEMPT_FAILURES.tls);
    expect(outcome.cause).toMatch(/self[- ]signed/i);
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not follow redirects', async () => {
    receiver.respond((r) =>
      r.path === '/hook' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 },
    );
    const outcome = await sendWebhook(request(receiver.url()), local());
    expect(outcome.statusCode).toBe(302);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('gives up after the timeout', async () => {
    receiver.respond(() => ({ status: 200, hang: true }));
    const outcome = await sendWebhook(request(receiver.url()), { ...local(), timeoutMs: 400 });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toBe(ATTEMPT_FAILURES.timeout);
    expect(outcome.cause).toBe('no response within 0.4 s');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(390);
    expect(outcome.durationMs).toBeLessThan(3000);
  });

  it('reads only a bounded part of a huge response', async () => {
    receiver.respond(() => ({ status: 200, body: 'x'.repeat(8 * 1024 * 1024) }));
    const outcome = await sendWebhook(request(receiver.url()), local());
    expect(outcome.statusCode).toBe(200);
    expect(outcome.responseExcerpt).toHaveLength(1024);
  });

  it('reads Retry-After as seconds or as a date', async () => {
    receiver.respond(() => ({ status: 429, headers: { 'retry-after': '7' } }));
    expect(await sendWebhook(request(receiver.url()), local())).toMatchObject({ statusCode: 429, retryAfterMs: 7000 });
    const at = new Date(Date.now() + 60_000).toUTCString();
    receiver.respond(() => ({ status: 503, headers: { 'retry-after': at } }));
    const outcome = await sendWebhook(request(receiver.url()), local());
    expect(outcome.statusCode).toBe(503);
    expect(outcome.retryAfterMs).toBeGreaterThan(55_000);
    expect(outcome.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it(
    'a closed port is a failed attempt: ' + 'the receiver could not be reached (the connection error is the cause)',
    async () => {
      const gone = await startReceiver(cert);
      const url = gone.url();
      await gone.close();
      const outcome = await sendWebhook(request(url), local());
      expect(outcome).toMatchObject({ statusCode: null, error: ATTEMPT_FAILURES.unreachable });
      expect(outcome.cause).toContain('ECONNREFUSED');
    },
  );

  it('a name that does not resolve: refused before connecting, in its own fixed words', async () => {
    const nowhere: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const outcome = await sendWebhook(request('https://nowhere.example/hook'), {
      ...local(nowhere),
      allowLoopback: false,
    });
    expect(outcome).toMatchObject({ statusCode: null, error: ATTEMPT_FAILURES.unresolved });
    expect(outcome.cause).toContain('ENOTFOUND');
  });
});
