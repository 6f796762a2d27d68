// Signing per interface 6.4–6.5, checked with the `standardwebhooks` library and by hand.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/ids.js';
import { signatureHeaders, WEBHOOK_HEADERS } from '../../src/webhooks/signing.js';
import { verifyDelivery } from './support/receiver.js';

const body = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  created: 1,
  type: 'video.generation.completed',
  data: { object: {} },
});

describe('webhook signing', () => {
  it('secrets are whsec_ + base64 of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('headers carry the id, the send time and a v1 signature that verifies; a tampered body does not', () => {
    const secret = newWebhookSecret();
    const sentAt = new Date();
    const headers = signatureHeaders([secret], 'evt_abc', sentAt, body);
    expect(Object.keys(headers).sort()).toEqual(Object.values(WEBHOOK_HEADERS).sort());
    expect(headers['service-webhook-id']).toBe('evt_abc');
    expect(headers['service-webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)));
    expect(headers['service-webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    expect(verifyDelivery(secret, { headers, body })).toEqual(JSON.parse(body));
    expect(() => verifyDelivery(secret, { headers, body: body.replace('completed', 'queued') })).toThrow(
      /No matching signature/,
    );
    expect(() => verifyDelivery(newWebhookSecret(), { headers, body })).toThrow(/No matching signature/);
    expect(() =>
      verifyDelivery(secret, { headers: { ...headers, 'service-webhook-id': 'evt_other' }, body }),
    ).toThrow();
  });

  it('matches the recipe of 6.5 computed by hand', () => {
    const secret = newWebhookSecret();
    const sentAt = new Date(1_700_000_000_000);
    const headers = signatureHeaders([secret], 'evt_x', sentAt, body);
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = crypto.createHmac('sha256', key).update(`evt_x.1700000000.${body}`).digest('base64');
    expect(headers['service-webhook-signature']).toBe(`v1,${expected}`);
  });

  it('during a rotation both secrets sign: receivers holding either one verify', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signatureHeaders([current, previous], 'evt_rot', new Date(), body);
    expect(headers['service-webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyDelivery(current, { headers, body })).toBeTruthy();
    expect(verifyDelivery(previous, { headers, body })).toBeTruthy();
    expect(() => verifyDelivery(newWebhookSecret(), { headers, body })).toThrow();
  });
});
