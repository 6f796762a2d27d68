// webhook_url (interface 6.6.5): a public HTTPS URL by the outbound policy (src/outbound/), refused
// as invalid input naming the field (`invalid_webhook_url`) at request time and before each attempt.
import type { Config } from '../config.js';
import { invalidInput } from '../errors.js';
import {
  NonPublicUrlError,
  urlPolicyFromConfig,
  vetPublicHttpsUrl,
  type HostResolver,
  type PublicTarget,
  type UrlPolicy,
} from '../outbound/urlPolicy.js';

export type WebhookTarget = PublicTarget;

const webhookRejected = (reason: string, param: string) =>
  invalidInput(`${param} must be a public HTTPS URL: ${reason}`, param, 'invalid_webhook_url');

/**
 * Request time: throws a DomainError (invalid input, `invalid_webhook_url`, naming `param`: `webhook_url`, or an
 * endpoint's `url`) saying why.
 */
export async function assertPublicWebhookUrl(
  url: string,
  config: Pick<Config, 'outbound'>,
  resolve?: HostResolver,
  param = 'webhook_url',
): Promise<WebhookTarget> {
  return vetWebhookUrl(url, urlPolicyFromConfig(config, resolve), param);
}

/** Parses and checks the URL, resolves its host and checks every address. Throws the same DomainError. */
export async function vetWebhookUrl(url: string, policy: UrlPolicy, param = 'webhook_url'): Promise<WebhookTarget> {
  try {
    return await vetPublicHttpsUrl(url, policy);
  } catch (err) {
    throw err instanceof NonPublicUrlError ? webhookRejected(err.message, param) : err;
  }
}
