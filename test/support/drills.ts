// What the failure drills (test/ops/faults.test.ts, test/cluster/) check of every generation: the
// right terminal status, exactly one ledger charge, and each lifecycle webhook event delivered
// under one stable id (retries allowed). Webhooks go to a real HTTPS receiver on loopback.
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Db } from '../../src/db/pool.js';
import { setEnabledWebhookEvents } from '../../src/db/webhooks.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared.js';
import { makeSelfSignedCert, startReceiver, type Receiver, type TlsFiles } from '../webhooks/support/receiver.js';
import { api, createOrgWithKey, waitForTerminal } from './stack.js';

/** The lifecycle events, each sent once per generation (progress events, an extension, are many). */
export const LIFECYCLE_EVENTS = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'video.generation.progress');

export type DrillReceiver = { tls: TlsFiles; receiver: Receiver; env: Record<string, string>; close(): Promise<void> };

/** A receiver answering 200, and the settings that let the service deliver to it (tests only). */
export async function startDrillReceiver(): Promise<DrillReceiver> {
  const tls = makeSelfSignedCert();
  const receiver = await startReceiver(tls);
  receiver.respond(() => ({ status: 200 }));
  return {
    tls,
    receiver,
    env: {
      OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true',
      OUTBOUND_UNSAFE_CA_FILE: tls.certFile,
      WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,2s,2s,5s',
    },
    async close() {
      await receiver.close();
      fs.rmSync(tls.dir, { recursive: true, force: true });
    },
  };
}

/** An organization with a key and every lifecycle event enabled. */
export async function orgWithWebhooks(db: Db) {
  const org = await createOrgWithKey(db);
  expect(await setEnabledWebhookEvents(db, org.org.id, { enable: LIFECYCLE_EVENTS })).not.toBeNull();
  return org;
}

/** Starts a generation (Responses shape) whose webhooks go to a path of their own on the receiver. */
export async function createDrillGeneration(
  base: string,
  key: string,
  receiver: Receiver,
  body: Record<string, unknown> = {},
  path = '/v1/responses',
) {
  const prompt =
    path === '/v1/responses' ? { input: 'Fault drill' } : { messages: [{ role: 'user', content: 'Fault drill' }] };
  const res = await api(base, path, {
    method: 'POST',
    key,
    json: {
      model: 'gpt-4o-mini',
      engine: 'lottie',
      ...prompt,
      width: 160,
      height: 284,
      ...body,
      webhook_url: receiver.url(`/hooks/${Math.random().toString(36).slice(2)}`),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id as string };
}

/** Every generation: the expected terminal status, one ledger charge, one stable id per event type. */
export async function expectSettled(
  db: Db,
  base: string,
  key: string,
  receiver: Receiver,
  id: string,
  status = 'completed',
) {
  const done = await waitForTerminal(base, key, id, 180_000);
  expect(done.body.status).toBe(status);
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM credit_ledger WHERE generation_id = $1 AND kind = 'generation_charge'`,
    [id],
  );
  expect(rows[0].n).toBe(1);
  // Each event type arrives (possibly more than once), always under one id.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const byType = new Map<string, Set<string>>();
    for (const r of receiver.requests) {
      const event = JSON.parse(r.body);
      if (event.data.object.id !== id) continue;
      expect(r.headers['service-webhook-id']).toBe(event.id);
      byType.set(event.type, (byType.get(event.type) ?? new Set()).add(event.id));
    }
    if (LIFECYCLE_EVENTS.every((t: string) => byType.has(t))) {
      for (const ids of byType.values()) expect(ids.size).toBe(1);
      return done;
    }
    if (Date.now() > deadline) throw new Error(`webhooks of ${id}: got ${[...byType.keys()].join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
