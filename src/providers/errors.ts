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

export class ProviderError extends Error {
  constructor(
    readonly type: ProviderFailureType,
    message: string,
    /** Tokens the provider reported for the failed call (a refusal is billed), when it answered at all. */
    readonly usage: TokenUsage | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
