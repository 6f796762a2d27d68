// Why a delivery attempt got no answer, in fixed words. The attempt record keeps one of these and the
// dashboard shows it to every member of the organization; the cause itself (a DNS, TLS, socket or
// database error's own text) goes only to the worker's log, with the generation and event ids. Pure:
// the delivery workflow uses it too (deterministic sandbox).

export const ATTEMPT_FAILURES = {
  /** The URL policy refused the host or an address its name resolves to (checked again before every attempt). */
  notPublic: 'the address is not public',
  unresolved: 'the receiver’s name could not be resolved',
  tls: 'the TLS connection to the receiver failed',
  timeout: 'the receiver did not answer in time',
  unreachable: 'the receiver could not be reached',
  /** The attempt's activity itself failed (a lost worker, a timeout): whether it was sent is unknown. */
  incomplete: 'the attempt did not complete',
} as const;

export type AttemptFailure = (typeof ATTEMPT_FAILURES)[keyof typeof ATTEMPT_FAILURES];

const FIXED: ReadonlySet<string> = new Set(Object.values(ATTEMPT_FAILURES));

export const isAttemptFailure = (text: string): text is AttemptFailure => FIXED.has(text);
