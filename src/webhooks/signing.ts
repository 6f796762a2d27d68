// Signing (interface 6.4–6.5): Standard Webhooks with the brand word `service` in the header names.
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_HEADERS = {
  id: 'service-webhook-id',
  timestamp: 'service-webhook-timestamp',
  signature: 'service-webhook-signature',
} as const;

/**
 * The Standard Webhooks names, which OpenAI's events carry and its SDKs' `webhooks.unwrap()` read: the events of
 * videos created in the OpenAI Videos shape go out under them (same secret, same signature).
 */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/**
 * The three delivery headers of one attempt. Every active secret signs (the new one and, during a
 * rotation's grace period, the previous one), so receivers holding either secret verify.
 */
export function signatureHeaders(
  secrets: readonly string[],
  msgId: string,
  sentAt: Date,
  body: string,
  names: { id: string; timestamp: string; signature: string } = WEBHOOK_HEADERS,
): Record<string, string> {
  if (secrets.length === 0) throw new Error('no signing secret');
  return {
    [names.id]: msgId,
    [names.timestamp]: String(Math.floor(sentAt.getTime() / 1000)),
    [names.signature]: secrets.map((s) => new Webhook(s).sign(msgId, sentAt, body)).join(' '),
  };
}
