// The OpenAI Videos shape's webhooks on the real stack: a video created on /v1/videos with a `webhook_url` sends
// OpenAI's `video.completed` (or `video.failed`) event, signed with the organization's secret under the Standard
// Webhooks header names, and the official SDK's `client.webhooks.unwrap()` verifies it. The receiver is a real
// HTTPS server on loopback (its self-signed certificate trusted through the unsafe local-testing settings).
// Organization endpoints, added by the API or on the dashboard, receive the same events for every video of
// the organization made in this shape.
import fs from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS } from '../../src/db/webhookEndpoints.js';
import { getWebhookSettings } from '../../src/db/webhooks.js';
import { createTestMember, DashboardClient } from '../dashboard/support.js';
import { api, createOrgWithKey, startStack, type TestStack } from '../support/stack.js';
import { makeSelfSignedCert, startReceiver, type Receiver, type TlsFiles } from '../webhooks/support/receiver.js';

const RENDER_WAIT_MS = 240_000;

let cert: TlsFiles;
let receiver: Receiver;
let stack: TestStack;
let client: OpenAI;
let secret: string;
let key: string;
let organizationId: string;
beforeAll(async () => {
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  receiver.respond(() => ({ status: 200, body: 'ok' }));
  stack = await startStack({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true', OUTBOUND_UNSAFE_CA_FILE: cert.certFile });
  const created = await createOrgWithKey(stack.db);
  ({ key } = created);
  organizationId = created.org.id;
  secret = (await getWebhookSettings(stack.db, organizationId))!.signing_secret;
  client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0, webhookSecret: secret });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  if (cert) fs.rmSync(cert.dir, { recursive: true, force: true });
});

describe('OpenAI Videos webhooks', () => {
  it(
    'video.completed and video.failed, verified by the SDK’s webhooks.unwrap()',
    { timeout: RENDER_WAIT_MS + 30_000 },
    async () => {
      const extra = { engine: 'lottie', webhook_url: receiver.url('/videos') };
      const good = await client.videos.create({
        prompt: 'Nimbus. The calm calendar.',
        seconds: '2',
        size: '180x320' as OpenAI.Videos.VideoSize,
        ...extra,
      } as unknown as OpenAI.Videos.VideoCreateParams);
      // An image that cannot be fetched (nothing listens on port 1) fails the video (media_unavailable).
      const bad = await client.videos.create({
        prompt: 'A video with a missing picture.',
        seconds: '2',
        size: '180x320' as OpenAI.Videos.VideoSize,
        input_reference: { image_url: 'https://127.0.0.1:1/missing.png' },
        ...extra,
      } as unknown as OpenAI.Videos.VideoCreateParams);

      const deliveries = await receiver.waitFor(2, '/videos', RENDER_WAIT_MS);
      const events = new Map<string, { type: string; data: { id: string } }>();
      for (const req of deliveries) {
        // Standard Webhooks names only: OpenAI's SDKs read these.
        expect(req.headers['webhook-id']).toMatch(/^evt_/);
        expect(req.headers['service-webhook-id']).toBeUndefined();
        const event = (await client.webhooks.unwrap(req.body, req.headers)) as unknown as {
          id: string;
          object: string;
          created_at: number;
          type: string;
          data: { id: string };
        };
        expect(event).toEqual({
          id: req.headers['webhook-id'],
          object: 'event',
          created_at: expect.any(Number),
          type: expect.stringMatching(/^video\.(completed|failed)$/),
          data: { id: expect.any(String) },
        });
        events.set(event.data.id, event);
      }
      expect(events.get(good.id)?.type).toBe('video.completed');
      expect(events.get(bad.id)?.type).toBe('video.failed');
      expect((await client.videos.retrieve(good.id)).status).toBe('completed');
      const failed = await client.videos.retrieve(bad.id);
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'media_unavailable' } });

      // A wrong secret does not verify.
      await expect(
        client.webhooks.unwrap(
          deliveries[0]!.body,
          deliveries[0]!.headers,
          `whsec_${Buffer.alloc(32).toString('base64')}`,
        ),
      ).rejects.toThrow();
    },
  );

  it(
    'organization endpoints (API and dashboard): every /v1/videos video sends its event to each, verified by unwrap()',
    { timeout: RENDER_WAIT_MS + 30_000 },
    async () => {
      const endpoints = (method: string, path = '', json?: unknown) =>
        api(stack.url, `/v1/webhook_endpoints${path}`, { method, key, ...(json ? { json } : {}) });
      // Added by the API (the same URL twice gives one endpoint) and by a member on the dashboard.
      const added = await endpoints('POST', '', { url: receiver.url('/org-endpoint') });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body).toEqual({
        id: expect.stringMatching(/^we_/),
        object: 'webhook_endpoint',
        url: receiver.url('/org-endpoint'),
        created_at: expect.any(Number),
      });
      expect((await endpoints('POST', '', { url: receiver.url('/org-endpoint') })).body.id).toBe(added.body.id);
      const member = await createTestMember(stack.db, organizationId);
      const dashboard = new DashboardClient(stack.url);
      await dashboard.signIn(member.email, member.password);
      await dashboard.get('/dashboard/webhooks');
      const viaDashboard = await dashboard.post('/dashboard/webhooks/endpoints', { url: receiver.url('/org-second') });
      expect(viaDashboard.status).toBe(303);
      expect((await dashboard.get('/dashboard/webhooks')).body).toContain(receiver.url('/org-second'));
      const listed = await endpoints('GET');
      expect(listed.body.data.map((e: { url: string }) => e.url)).toEqual([
        receiver.url('/org-endpoint'),
        receiver.url('/org-second'),
      ]);
      // Not public HTTPS: a 400 naming `url`, on the API and on the page.
      const refused = await endpoints('POST', '', { url: 'http://example.com/hook' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_webhook_url', param: 'url' });
      expect((await dashboard.post('/dashboard/webhooks/endpoints', { url: 'http://example.com/hook' })).status).toBe(
        400,
      );

      // A video without a webhook_url: OpenAI's event goes to both endpoints, signed with the organization's secret.
      const video = await client.videos.create({
        prompt: 'Nimbus. Notes that sync.',
        seconds: '2',
        size: '180x320' as OpenAI.Videos.VideoSize,
        engine: 'lottie',
      } as unknown as OpenAI.Videos.VideoCreateParams);
      for (const path of ['/org-endpoint', '/org-second']) {
        // The organization's other videos (the tests before this one, still finishing) reach its endpoints too.
        for (let seen = 0; ; seen++) {
          const delivery = (await receiver.waitFor(seen + 1, path, RENDER_WAIT_MS))[seen]!;
          const event = (await client.webhooks.unwrap(delivery.body, delivery.headers)) as unknown as {
            type: string;
            data: { id: string };
          };
          if (event.data.id !== video.id) continue;
          expect(event.type).toBe('video.completed');
          break;
        }
      }

      // Removed: 404 the second time; at most the cap, then 409.
      const second = listed.body.data[1].id as string;
      const removed = await endpoints('DELETE', `/${second}`);
      expect(removed.body).toEqual({ id: second, object: 'webhook_endpoint.deleted', deleted: true });
      expect((await endpoints('DELETE', `/${second}`)).status).toBe(404);
      for (let i = 1; i < MAX_WEBHOOK_ENDPOINTS; i++)
        expect((await endpoints('POST', '', { url: receiver.url(`/more-${i}`) })).status).toBe(200);
      const full = await endpoints('POST', '', { url: receiver.url('/one-too-many') });
      expect(full.status).toBe(409);
      expect(full.body.error.code).toBe('endpoint_limit_reached');
    },
  );
});
