// The OpenAI Videos shape's webhooks on the real stack: a video created on /v1/videos with a `webhook_url` sends
// OpenAI's `video.completed` (or `video.failed`) event, signed with the organization's secret under the Standard
// Webhooks header names, and the official SDK's `client.webhooks.unwrap()` verifies it. The receiver is a real
// HTTPS server on loopback (its self-signed certificate trusted through the unsafe local-testing settings).
import fs from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWebhookSettings } from '../../src/db/webhooks.js';
import { createOrgWithKey, startStack, type TestStack } from '../support/stack.js';
import { makeSelfSignedCert, startReceiver, type Receiver, type TlsFiles } from '../webhooks/support/receiver.js';

const RENDER_WAIT_MS = 240_000;

let cert: TlsFiles;
let receiver: Receiver;
let stack: TestStack;
let client: OpenAI;
let secret: string;
beforeAll(async () => {
  cert = makeSelfSignedCert();
  receiver = await startReceiver(cert);
  receiver.respond(() => ({ status: 200, body: 'ok' }));
  stack = await startStack({ OUTBOUND_UNSAFE_ALLOW_LOOPBACK: 'true', OUTBOUND_UNSAFE_CA_FILE: cert.certFile });
  const { org, key } = await createOrgWithKey(stack.db);
  secret = (await getWebhookSettings(stack.db, org.id))!.signing_secret;
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
});
