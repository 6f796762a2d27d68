// Webhooks on the real stack (Temporal dev server, worker process, API over HTTP, PostgreSQL) to a
// real HTTPS receiver with a self-signed certificate, trusted through the unsafe local-testing
// settings. The retry schedule is shortened by configuration. Every delivery is verified with the
// `standardwebhooks` library.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitGeneration } from '../../src/db/generations.js';
import {
  getWebhookSettings,
  listWebhookAttempts,
  listWebhookEvents,
  setEnabledWebhookEvents,
  type WebhookEventRow,
} from '../../src/db/webhooks.js';
import { newId } from '../../src/ids.js';
import { TASK_QUEUES } from '../../src/temporal/contract.js';
import { generationRequest } from '../support/fixtures.js';
import { emittedEvents } from '../workflows/harness.js';
import { createTemporalClient } from '../../src/temporal/client.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared.js';
import { ATTEMPT_FAILURES, isAttemptFailure } from '../../src/webhooks/attemptFailures.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';
import type { GenerationEventFacts, WebhookDeliveryInput, WebhookDeliveryResult } from '../../src/temporal/contract.js';
import { api, createOrgWithKey, startStack, waitForTerminal, type TestStack } from '../support/stack.js';
import { createTestMember, DashboardClient } from '../dashboard/support.js';
import {
  makeSelfSignedCert,
  startReceiver,
  verifyDelivery,
  type Answer,
  type Receiver,
  type ReceivedRequest,
  type TlsFiles,
} from './support/receiver.js';

/** Four attempts: at once, then after 1 s, 1 s and 2 s. */
const SCHEDULE = '0,1s,1s,2s';

let cert: TlsFiles;
let receiver: Receiver;
let stack: TestStack;
let temporal: Client;
/** Answers by path, so each test has its own endpoint on the one receiver. */
const answers = new Map<string, (req: ReceivedRequest, indexOnPath: number) => Answer>();

beforeAll(async () => {
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  receiver.respond((req) => {
    const index = receiver.requests.filter((r) => r.path === req.path).length - 1;
    return answers.get(req.path)?.(req, index) ?? { status: 200, body: 'ok' };
  });
  stack = await startStack({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
    OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
    OUTBOUND_UNSAFE_CA_FILE: cert.certFile,
    // HyperFrames renders fail on this stack (no Chrome there): the failed-generation case. Lottie needs no Chrome.
    CHROME_PATH: '/nonexistent/chromium-headless-shell',
    // Makes the built-in `ollama` provider usable (nothing listens on its port: it is unavailable, and
    // the generation falls back to `local`), for a provider.order that names it first.
    OLLAMA_API_KEY: 'unused',
  });
  temporal = createTemporalClient(stack.config);
});

afterAll(async () => {
  await temporal?.connection.close().catch(() => {});
  await stack?.close();
  await receiver?.close();
  if (cert) fs.rmSync(cert.dir, { recursive: true, force: true });
});

const secretOf = async (orgId: string) => (await getWebhookSettings(stack.db, orgId))!.signing_secret;

/** Verifies every request with the org secret and returns the events by type. */
function verifiedEvents(secret: string, requests: ReceivedRequest[]): Map<string, WebhookEvent> {
  const events = new Map<string, WebhookEvent>();
  for (const req of requests) {
    const event = verifyDelivery(secret, req) as WebhookEvent;
    expect(req.headers['service-webhook-id']).toBe(event.id);
    expect(events.has(event.type), `one ${event.type}`).toBe(false);
    events.set(event.type, event);
  }
  return events;
}

function expectEnvelope(event: WebhookEvent, type: string, generationId: string) {
  expect(event).toMatchObject({
    object: 'event',
    type,
    data: { object: { id: generationId, object: 'video.generation' } },
  });
  expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
  expect(Math.abs(event.created - Date.now() / 1000)).toBeLessThan(120);
  expect(Number.isInteger(event.created)).toBe(true);
}

async function eventRows(generationId: string, orgId: string): Promise<WebhookEventRow[]> {
  return listWebhookEvents(stack.db, orgId, { generationId });
}

async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- End to end: real generations through the API --------------------------------------------

/** The interface's three lifecycle events (progress events, an extension, are tested on their own). */
const LIFECYCLE_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'video.generation.progress');

describe('lifecycle events of real generations', () => {
  type Started = { id: string; orgId: string; key: string; path: string };
  const started: Record<'success' | 'failure' | 'defaults' | 'none' | 'firstFails', Promise<Started>> = {} as never;

  const create = async (
    path: string | null,
    engine: 'lottie' | 'hyperframes',
    allEvents: boolean,
    extra: object = {},
  ): Promise<Started> => {
    const { org, key } = await createOrgWithKey(stack.db);
    if (allEvents) await setEnabledWebhookEvents(stack.db, org.id, { enable: [...LIFECYCLE_TYPES] });
    const res = await api(stack.url, '/v1/responses', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-4o-mini',
        engine,
        input: `A tiny ${engine} test clip`,
        width: 160,
        height: 284,
        ...(path ? { webhook_url: receiver.url(path) } : {}),
        ...extra,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.id, orgId: org.id, key, path: path ?? '' };
  };

  beforeAll(() => {
    // All four generations run at once; each test awaits its own.
    started.success = create('/e2e/success', 'lottie', true);
    started.failure = create('/e2e/failure', 'hyperframes', true, {
      model: 'llama-3.1-8b',
      provider: { order: ['ollama', 'local'] },
    });
    started.defaults = create('/e2e/defaults', 'lottie', false);
    started.none = create(null, 'lottie', true);
    answers.set('/e2e/first-fails', (_r, i) => (i === 0 ? { status: 500, body: 'busy' } : { status: 200 }));
    started.firstFails = create('/e2e/first-fails', 'lottie', false);
    for (const p of Object.values(started)) p.catch(() => {});
  });

  it('a successful generation: queued, started and completed, signed, with the 6.2/6.3 shapes', async () => {
    const g = await started.success;
    const final = await waitForTerminal(stack.url, g.key, g.id);
    expect(final.body.status).toBe('completed');
    const secret = await secretOf(g.orgId);
    const requests = await receiver.waitFor(3, g.path);
    const events = verifiedEvents(secret, requests);
    expect([...events.keys()].sort()).toEqual([...LIFECYCLE_TYPES].sort());
    // A receiver rejects a delivery whose body was tampered with.
    const tampered = { ...requests[0]!, body: requests[0]!.body.replace(g.id, 'gen_forged') };
    expect(() => verifyDelivery(secret, tampered)).toThrow(/No matching signature/);

    const queued = events.get('video.generation.queued')!;
    expectEnvelope(queued, 'video.generation.queued', g.id);
    expect(queued.data.object).toEqual({
      id: g.id,
      object: 'video.generation',
      status: 'queued',
      engine: 'lottie',
      model: 'gpt-4o-mini',
      // The provider it will try first: the head of the default order (the only usable one here).
      provider: 'local',
      output_url: null,
      error_message: null,
    });
    const startedEvent = events.get('video.generation.started')!;
    expectEnvelope(startedEvent, 'video.generation.started', g.id);
    // Processing begins with the first provider called: the embedded `local` one here.
    expect(startedEvent.data.object).toEqual({
      id: g.id,
      object: 'video.generation',
      status: 'in_progress',
      engine: 'lottie',
      model: 'gpt-4o-mini',
      provider: 'local',
      output_url: null,
      error_message: null,
    });

    const completed = events.get('video.generation.completed')!;
    expectEnvelope(completed, 'video.generation.completed', g.id);
    expect(completed.data.object).toEqual({
      id: g.id,
      object: 'video.generation',
      status: 'completed',
      output_url: expect.stringMatching(/^https?:\/\//),
      error_message: null,
    });
    // The same signed storage object the API hands out.
    const signed = new URL(completed.data.object.output_url!);
    expect(signed.pathname).toBe(new URL(final.body.output_video_url).pathname);
    expect(signed.searchParams.get('sig')).toBeTruthy();
    const media = await fetch(stack.url + signed.pathname + signed.search);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toContain('video/mp4');

    const rows = await waitUntil('3 delivered rows', async () => {
      const r = await eventRows(g.id, g.orgId);
      return r.length === 3 && r.every((e) => e.status === 'delivered') && r;
    });
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect((await listWebhookAttempts(stack.db, row.id)).map((a) => a.status_code)).toEqual([200]);
    }
  });

  it('a failed generation: the completed event says failed, with error_message and no output_url', async () => {
    const g = await started.failure;
    const final = await waitForTerminal(stack.url, g.key, g.id, 110_000);
    expect(final.body.status).toBe('failed');
    const events = verifiedEvents(await secretOf(g.orgId), await receiver.waitFor(3, g.path));
    // provider.order names ollama first: queued says so, and processing begins with it (it is down; local takes over).
    expect(events.get('video.generation.queued')!.data.object).toMatchObject({
      status: 'queued',
      engine: 'hyperframes',
      provider: 'ollama',
    });
    expect(events.get('video.generation.started')!.data.object).toMatchObject({
      status: 'in_progress',
      engine: 'hyperframes',
      provider: 'ollama',
    });
    const completed = events.get('video.generation.completed')!;
    expectEnvelope(completed, 'video.generation.completed', g.id);
    expect(completed.data.object).toEqual({
      id: g.id,
      object: 'video.generation',
      status: 'failed',
      output_url: null,
      error_message: final.body.error.message,
    });
    expect(completed.data.object.error_message).toBeTruthy();
  }, 120_000);

  it(
    'progress events (extension, turned on): signed, at most one per 10 points, rising, ' +
      'before the completed event',
    async () => {
      const { org, key } = await createOrgWithKey(stack.db);
      await setEnabledWebhookEvents(stack.db, org.id, { enable: ['video.generation.progress'] });
      const res = await api(stack.url, '/v1/responses', {
        method: 'POST',
        key,
        // Lottie: this stack's Chrome is missing on purpose (the failed-generation test).
        json: {
          model: 'gpt-4o-mini',
          engine: 'lottie',
          input: 'A rocket launch countdown',
          width: 160,
          height: 284,
          duration_seconds: 4,
          webhook_url: receiver.url('/e2e/progress'),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const final = (await waitForTerminal(stack.url, key, res.body.id)).body;
      expect(final.status, JSON.stringify(final.error)).toBe('completed');
      const rows = await waitUntil('progress and completed rows delivered', async () => {
        const r = await eventRows(res.body.id, org.id);
        return r.some((e) => e.type === 'video.generation.completed') && r.every((e) => e.status === 'delivered') && r;
      });
      const secret = await secretOf(org.id);
      const received = (await receiver.waitFor(rows.length, '/e2e/progress')).map(
        (req) => verifyDelivery(secret, req) as WebhookEvent,
      );
      const progress = received.filter((e) => e.type === 'video.generation.progress');
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress.length).toBeLessThanOrEqual(10);
      for (const event of progress) {
        expectEnvelope(event, 'video.generation.progress', res.body.id);
        expect(event.data.object).toMatchObject({
          status: 'in_progress',
          progress: { stage: expect.any(String), percent: expect.any(Number) },
        });
      }
      const decades = progress.map((e) => Math.floor(e.data.object.progress!.percent / 10)).sort((a, b) => a - b);
      expect(new Set(decades).size).toBe(decades.length);
      expect(received.map((e) => e.type)).toContain('video.generation.completed');
    },
    120_000,
  );

  it('default toggles: only the completed event is sent', async () => {
    const g = await started.defaults;
    await waitForTerminal(stack.url, g.key, g.id);
    const [only] = await receiver.waitFor(1, g.path);
    expect((verifyDelivery(await secretOf(g.orgId), only!) as WebhookEvent).type).toBe('video.generation.completed');
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests.filter((r) => r.path === g.path)).toHaveLength(1);
    expect((await eventRows(g.id, g.orgId)).map((e) => e.type)).toEqual(['video.generation.completed']);
  });

  it(
    'the completed event is sent by the activity that records the outcome; a failed first attempt is retried by its ' +
      'delivery workflow',
    async () => {
      const g = await started.firstFails;
      expect((await waitForTerminal(stack.url, g.key, g.id)).body.status).toBe('completed');
      const requests = await receiver.waitFor(2, g.path);
      const [event] = await waitUntil('the event delivered', async () => {
        const rows = await eventRows(g.id, g.orgId);
        return rows[0]?.status === 'delivered' && rows;
      });
      expect(event).toMatchObject({ type: 'video.generation.completed', attempts: 2 });
      expect(requests.map((r) => r.headers['service-webhook-id'])).toEqual([event!.id, event!.id]);
      expect((await listWebhookAttempts(stack.db, event!.id)).map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 200],
      ]);
      // Attempt 1 came from the terminal record (an activity of the generation's workflow), which started
      // the delivery workflow with its result; that workflow recorded nothing before it and made attempt 2 alone.
      const completed = (await emittedEvents(temporal.workflow.getHandle(g.id))).find(
        (e) => e.facts.type === 'video.generation.completed',
      );
      expect(completed?.prepared).toMatchObject({
        status: 'pending',
        result: { eventId: event!.id, attempt: 1, statusCode: 500 },
      });
      const delivery = temporal.workflow.getHandle(event!.id);
      expect(await delivery.result()).toEqual({ status: 'delivered', attempts: 2 });
      const history = (await delivery.fetchHistory()).events ?? [];
      expect(history.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [])).toEqual([
        'attemptWebhookDelivery',
        'recordWebhookAttempt',
      ]);
      const markers = history.filter((e) => e.markerRecordedEventAttributes);
      expect(markers, 'no local preparation').toEqual([]);
    },
  );

  it('no webhook_url: no event at all, whatever the toggles', async () => {
    const g = await started.none;
    expect((await waitForTerminal(stack.url, g.key, g.id)).body.status).toBe('completed');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await eventRows(g.id, g.orgId)).toEqual([]);
    const children = temporal.workflow.list({
      query: `WorkflowType = 'webhookDeliveryWorkflow' AND ParentWorkflowId = '${g.id}'`,
    });
    for await (const child of children) throw new Error(`unexpected delivery workflow ${child.workflowId}`);
  });

  it(
    'a non-public or non-HTTPS webhook_url is refused with 400 invalid_webhook_url, ' + 'and nothing is created',
    async () => {
      const { key, org } = await createOrgWithKey(stack.db);
      for (const [webhook_url, reason] of [
        ['http://127.0.0.1:9/hook', 'scheme http is not https'],
        ['https://10.0.0.1/hook', 'private address'],
        ['https://0x7f.1@169.254.169.254/', 'credentials'],
        ['https://[::ffff:a9fe:a9fe]/', 'link-local address'],
      ]) {
        const res = await api(stack.url, '/v1/responses', {
          method: 'POST',
          key,
          json: { model: 'gpt-4o-mini', engine: 'lottie', input: 'x', width: 160, height: 284, webhook_url },
        });
        expect(res.status, webhook_url).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_webhook_url', param: 'webhook_url' });
        expect(res.body.error.message).toContain(reason);
      }
      const { rows } = await stack.db.query('SELECT count(*)::int AS n FROM generations WHERE organization_id = $1', [
        org.id,
      ]);
      expect(rows[0].n).toBe(0);
    },
  );
});

// ---- Delivery and retries: the delivery workflow driven directly ------------------------------

/** A generation row and one delivery workflow for it (a failed completion: needs no stored video). */
async function deliver(webhookUrl: string, opts: { orgId?: string; facts?: Partial<GenerationEventFacts> } = {}) {
  const orgId = opts.orgId ?? (await createOrgWithKey(stack.db)).org.id;
  const generationId = newId('gen');
  const request = generationRequest('lottie', 'gpt-4o-mini', {
    content: [{ type: 'text', text: 'x' }],
    webhook_url: webhookUrl,
  });

  const app = { name: null, referer: null, title: null };
  await admitGeneration(stack.db, {
    id: generationId,
    organizationId: orgId,
    apiKeyId: 'key_test',
    request,
    app,
    holdMicros: 0,
  });
  const eventId = newId('evt', 16);
  const input: WebhookDeliveryInput = {
    eventId,
    generationId,
    organizationId: orgId,
    webhookUrl,
    engine: 'lottie',
    model: 'gpt-4o-mini',
    facts: {
      type: 'video.generation.completed',
      status: 'failed',
      provider: 'local',
      errorMessage: 'boom',
      videoKey: null,
      ...opts.facts,
    },
  };
  const handle = await temporal.workflow.start('webhookDeliveryWorkflow', {
    workflowId: eventId,
    taskQueue: TASK_QUEUES.io,
    args: [input],
  });
  return { eventId, orgId, generationId, result: handle.result() as Promise<WebhookDeliveryResult> };
}

const onPath = (path: string) => receiver.requests.filter((r) => r.path === path);

/** The worker's log lines (JSON) about one event, of what it still holds of its output. */
function workerLog(eventId: string): Array<Record<string, unknown>> {
  return stack.worker
    .output()
    .split('\n')
    .filter((line) => line.includes(`"event_id":"${eventId}"`))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return []; // the first line of the held output may be cut
      }
    });
}
const timestampOf = (r: ReceivedRequest) => Number(r.headers['service-webhook-timestamp']);

describe('delivery retries (schedule shortened to 0,1s,1s,2s)', () => {
  it('500, 500, then 200: three attempts, one message id, fresh timestamps, each recorded', async () => {
    answers.set('/retry/500', (_r, i) => (i < 2 ? { status: 500, body: 'not yet' } : { status: 200 }));
    const d = await deliver(receiver.url('/retry/500'));
    expect(await d.result).toEqual({ status: 'delivered', attempts: 3 });
    const requests = onPath('/retry/500');
    expect(requests).toHaveLength(3);
    const secret = await secretOf(d.orgId);
    for (const r of requests) {
      expect(r.headers['service-webhook-id']).toBe(d.eventId);
      expect(verifyDelivery(secret, r)).toMatchObject({
        id: d.eventId,
        data: { object: { status: 'failed', error_message: 'boom', output_url: null } },
      });
      // The timestamp is whole seconds, floored when the attempt is signed: it is at most
      // one second plus the delivery latency behind the receiver's clock, never ahead of it.
      const lagSeconds = r.receivedAtMs / 1000 - timestampOf(r);
      expect(lagSeconds).toBeGreaterThanOrEqual(0);
      expect(lagSeconds).toBeLessThan(5);
      expect(r.body).toBe(requests[0]!.body);
    }
    expect(timestampOf(requests[1]!)).toBeGreaterThan(timestampOf(requests[0]!));
    expect(timestampOf(requests[2]!)).toBeGreaterThan(timestampOf(requests[1]!));

    const attempts = await listWebhookAttempts(stack.db, d.eventId);
    expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(attempts[0]).toMatchObject({ error: null, response_excerpt: 'not yet' });
    for (const a of attempts) expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    const [event] = await listWebhookEvents(stack.db, d.orgId);
    expect(event).toMatchObject({ id: d.eventId, status: 'delivered', attempts: 3 });
    expect(event!.finished_at).toBeInstanceOf(Date);
  });

  it('a receiver that is down for a while, then up: delivered by a later attempt', async () => {
    const down = await startReceiver(cert);
    const url = down.url('/down');
    const port = down.port;
    await down.close();
    const d = await deliver(url);
    await waitUntil('a refused attempt', async () => (await listWebhookAttempts(stack.db, d.eventId)).length >= 1);
    const back = await startReceiver(cert, { port });
    try {
      const result = await d.result;
      expect(result.status).toBe('delivered');
      expect(result.attempts).toBeGreaterThanOrEqual(2);
      const attempts = await listWebhookAttempts(stack.db, d.eventId);
      // Fixed words members may read; the connection error itself went to the worker's log.
      expect(attempts[0]).toMatchObject({ status_code: null, error: ATTEMPT_FAILURES.unreachable });
      expect(workerLog(d.eventId).find((l) => l.msg === 'webhook attempt failed' && l.attempt === 1)).toMatchObject({
        generation_id: d.generationId,
        error: ATTEMPT_FAILURES.unreachable,
        cause: expect.stringContaining('ECONNREFUSED'),
      });
      expect(attempts.at(-1)).toMatchObject({ status_code: 200, error: null });
      expect(back.requests).toHaveLength(1);
      verifyDelivery(await secretOf(d.orgId), back.requests[0]!);
    } finally {
      await back.close();
    }
  });

  it('410 Gone stops retrying', async () => {
    answers.set('/retry/410', () => ({ status: 410 }));
    const d = await deliver(receiver.url('/retry/410'));
    expect(await d.result).toEqual({ status: 'gone', attempts: 1 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(onPath('/retry/410')).toHaveLength(1);
    expect((await listWebhookEvents(stack.db, d.orgId))[0]).toMatchObject({ status: 'gone', attempts: 1 });
  });

  it('Retry-After on 429 is honoured over the shorter schedule', async () => {
    answers.set('/retry/429', (_r, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 },
    );
    const d = await deliver(receiver.url('/retry/429'));
    expect(await d.result).toEqual({ status: 'delivered', attempts: 2 });
    const [first, second] = onPath('/retry/429');
    expect(second!.receivedAtMs - first!.receivedAtMs).toBeGreaterThanOrEqual(3000);
  });

  it('every attempt failing: the event ends failed after the whole schedule', async () => {
    answers.set('/retry/always', () => ({ status: 503 }));
    const d = await deliver(receiver.url('/retry/always'));
    expect(await d.result).toEqual({ status: 'failed', attempts: 4 });
    expect(onPath('/retry/always')).toHaveLength(4);
    expect((await listWebhookAttempts(stack.db, d.eventId)).map((a) => a.status_code)).toEqual([503, 503, 503, 503]);
  });

  it(
    'an address that is not public at delivery: every attempt recorded in fixed words, ' +
      'and the deliveries page shows only those',
    async () => {
      const { org } = await createOrgWithKey(stack.db);
      const member = await createTestMember(stack.db, org.id);
      // Refused at request time too; started here as if its name had turned private since (rebinding).
      const d = await deliver('https://10.20.30.40/hook', { orgId: org.id });
      expect(await d.result).toEqual({ status: 'failed', attempts: 4 });
      const attempts = await listWebhookAttempts(stack.db, d.eventId);
      expect(attempts.map((a) => [a.status_code, a.error])).toEqual(Array(4).fill([null, ATTEMPT_FAILURES.notPublic]));
      // The reason, with the address, is the operator's: in the worker's log with the event and generation.
      expect(workerLog(d.eventId).filter((l) => l.msg === 'webhook attempt failed')[0]).toMatchObject({
        generation_id: d.generationId,
        error: ATTEMPT_FAILURES.notPublic,
        cause: expect.stringContaining('10.20.30.40 is not public (private address)'),
      });
      const dashboard = new DashboardClient(stack.url);
      expect((await dashboard.signIn(member.email, member.password)).status).toBe(303);
      for (const path of ['/dashboard/webhooks', `/dashboard/generations/${d.generationId}`]) {
        const page = await dashboard.get(path);
        expect(page.status, path).toBe(200);
        expect(page.body, path).toContain(ATTEMPT_FAILURES.notPublic);
        expect(page.body, path).not.toMatch(/private address|rejected before connecting|10\.20\.30\.40 is/);
      }
    },
  );

  it('attempts recorded before the fixed words (raw error text) are given them by migration 0013', async () => {
    const d = await deliver(receiver.url('/legacy'));
    await d.result;
    const raw = [
      ['no response within 15 s', ATTEMPT_FAILURES.timeout],
      [
        'rejected before connecting: webhook_url must be a public HTTPS URL: host a.example could not be ' +
          'resolved (ENOTFOUND)',
        ATTEMPT_FAILURES.unresolved,
      ],
      [
        'rejected before connecting: webhook_url must be a public HTTPS URL: host a.example resolves to 10.0.0.1, ' +
          'which is not public (private address)',
        ATTEMPT_FAILURES.notPublic,
      ],
      ['attempt did not complete: activity StartToClose timeout', ATTEMPT_FAILURES.incomplete],
      ['self-signed certificate', ATTEMPT_FAILURES.tls],
      ['connect ECONNREFUSED 10.1.2.3:443', ATTEMPT_FAILURES.unreachable],
      ['password authentication failed for user "video"', ATTEMPT_FAILURES.unreachable],
    ] as const;
    for (const [i, [error]] of raw.entries()) {
      await stack.db.query(
        `INSERT INTO webhook_attempts (event_id, attempt, attempted_at, status_code, duration_ms, error)
         VALUES ($1, $2, now(), NULL, 1, $3)`,
        [d.eventId, 10 + i, error],
      );
    }
    await stack.db.query(
      fs.readFileSync(new URL('../../src/db/migrations/0013_webhook_attempt_messages.sql', import.meta.url), 'utf8'),
    );
    const stored = (await listWebhookAttempts(stack.db, d.eventId)).filter((a) => a.attempt >= 10);
    expect(stored.map((a) => a.error)).toEqual(raw.map(([, fixed]) => fixed));
    for (const a of await listWebhookAttempts(stack.db, d.eventId))
      expect(a.error === null || isAttemptFailure(a.error)).toBe(true);
  });

  it('a worker killed between attempts: the next worker carries on and delivers', async () => {
    answers.set('/retry/restart', (_r, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const d = await deliver(receiver.url('/retry/restart'));
    // Killed while the workflow sleeps on its timer before attempt 2 (Temporal keeps the timer).
    await waitUntil('the timer before attempt 2', async () => {
      const history = await temporal.workflow.getHandle(d.eventId).fetchHistory();
      return history.events?.some((e) => e.timerStartedEventAttributes);
    });
    expect(onPath('/retry/restart')).toHaveLength(1);
    await stack.restartWorker('SIGKILL');
    expect(await d.result).toEqual({ status: 'delivered', attempts: 2 });
    expect(onPath('/retry/restart').map((r) => r.headers['service-webhook-id'])).toEqual([d.eventId, d.eventId]);
  }, 90_000);

  it('an event type the organization turned off is not sent or recorded', async () => {
    const d = await deliver(receiver.url('/toggles/off'), {
      facts: { type: 'video.generation.started', status: 'in_progress', errorMessage: null },
    });
    expect(await d.result).toEqual({ status: 'disabled', attempts: 0 });
    expect(onPath('/toggles/off')).toHaveLength(0);
    expect(await listWebhookEvents(stack.db, d.orgId)).toEqual([]);
  });
});

// ---- Admin CLI: toggles and secret rotation ------------------------------------------------------

const execFileAsync = promisify(execFile);

async function admin(...args: string[]): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
    env: stack.env,
  });
  return JSON.parse(stdout);
}

describe('admin CLI', () => {
  it('sets toggles, shows the secret, and rotates it with a grace period in which both secrets sign', async () => {
    const { org } = await createOrgWithKey(stack.db);
    expect(await admin('webhook-settings', '--org', org.id)).toMatchObject({
      enabled_events: ['video.generation.completed'],
    });
    const toggled = await admin(
      'webhook-settings',
      '--org',
      org.id,
      '--enable',
      'video.generation.queued,video.generation.started',
      '--disable',
      'video.generation.completed',
    );
    expect(toggled.enabled_events).toEqual(['video.generation.queued', 'video.generation.started']);
    expect((await getWebhookSettings(stack.db, org.id))!.enabled_events).toEqual(toggled.enabled_events);
    await setEnabledWebhookEvents(stack.db, org.id, { enable: ['video.generation.completed'] });

    const shown = await admin('webhook-secret', '--org', org.id);
    expect(shown).toMatchObject({
      organization_id: org.id,
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_signing_secret: null,
    });
    const rotated = await admin('rotate-webhook-secret', '--org', org.id);
    expect(rotated.previous_signing_secret).toBe(shown.signing_secret);
    expect(rotated.signing_secret).not.toBe(shown.signing_secret);
    const graceEnds = new Date(rotated.previous_secret_expires_at).getTime();
    expect(Math.abs(graceEnds - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);

    answers.set('/cli/rotated', () => ({ status: 200 }));
    const d = await deliver(receiver.url('/cli/rotated'), { orgId: org.id });
    expect(await d.result).toMatchObject({ status: 'delivered' });
    const [req] = onPath('/cli/rotated');
    expect(req!.headers['service-webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyDelivery(rotated.signing_secret, req!)).toBeTruthy();
    expect(verifyDelivery(shown.signing_secret, req!)).toBeTruthy();
  });

  it('refuses unknown event types and organizations', async () => {
    const bad = await execFileAsync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/admin/cli.ts',
        'webhook-settings',
        '--org',
        'org_nope',
        '--enable',
        'video.generation.exploded',
      ],
      { env: stack.env },
    ).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe('usage');
    const unknown = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'src/admin/cli.ts', 'webhook-secret', '--org', 'org_nope'],
      { env: stack.env },
    ).catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr).error.message).toContain('unknown organization org_nope');
  });
});
