// The one error type of provider calls, and the failure types the composition workflow routes on.
// Kept free of Node imports: workflows/compose.ts (Temporal's deterministic sandbox) imports it.
import type { TokenUsage } from '../shared.js';

/**
 * Failure types, also the generation's `error.code` when one ends it:
 * - unavailable: timeout, connection error, 429, 5xx, unusable answer → the next provider is tried;
 * - rejected: the provider refused the request as malformed (400-class) → the generation fails;
 * - refused: the provider refused the content (content policy) → the generation fails.
 */
export const PROVIDER_FAILURE = {
  unavailable: 'provider_unavailable',
  rejected: 'provider_rejected',
  refused: 'content_refused',
} as const;

export type ProviderFailureType = (typeof PROVIDER_FAILURE)[keyof typeof PROVIDER_FAILURE];

/** Failures that end the generation: another provider would get the same request and refuse it too. */
export const FINAL_PROVIDER_FAILURES: readonly string[] = [PROVIDER_FAILURE.rejected, PROVIDER_FAILURE.refused];

/**
 * What a tenant is told about a failed provider call: fixed words naming the cause class. The
 * provider's own answer (an upstream organization id, a masked key, a quota text) is not the
 * tenant's to read; it goes to the operator's log as the error's `detail`.
 */
export const PROVIDER_CAUSES = {
  key: 'the provider refused the key',
  rateLimited: 'the provider is limiting requests',
  serverError: 'the provider failed with a server error',
  timeout: 'the provider did not answer in time',
  unreachable: 'the provider could not be reached',
  unusableAnswer: 'the provider answered with an unusable body',
  rejected: 'the provider rejected the request',
  refused: 'the provider refused the content',
  other: 'the provider failed',
} as const;

export type ProviderCause = (typeof PROVIDER_CAUSES)[keyof typeof PROVIDER_CAUSES];

export class ProviderError extends Error {
  constructor(
    readonly type: ProviderFailureType,
    /** The fixed words for the tenant (PROVIDER_CAUSES). */
    message: ProviderCause,
    /** Tokens the provider reported for the failed call (a refusal is billed), when it answered at all. */
    readonly usage: TokenUsage | null = null,
    /** The provider's own words (status, body excerpt, socket error) for the operator's log only. */
    readonly detail: string = message,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
