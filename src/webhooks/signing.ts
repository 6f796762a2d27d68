// Signing (interface 6.4–6.5): Standard Webhooks with the brand word `service` in the header names.
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_HEADERS = {
  id: 'service-webhook-id',
  timestamp: 'service-webhook-timestamp',
  signature: 'service-webhook-signature',
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
): Record<string, string> {
  if (secrets.length === 0) throw new Error('no signing secret');
  return {
    [WEBHOOK_HEADERS.id]: msgId,
    [WEBHOOK_HEADERS.timestamp]: String(Math.floor(sentAt.getTime() / 1000)),
    [WEBHOOK_HEADERS.signature]: secrets.map((s) => new Webhook(s).sign(msgId, sentAt, body)).join(' '),
  };
}
