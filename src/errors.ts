// Domain errors: what engines, providers, webhooks, storage and services throw when a request cannot
// be served. They say WHAT went wrong (kind, stable code, message, the offending field), never HOW
// it is answered: the HTTP layer maps every kind to a status in one place (src/http/errors.ts).

export type DomainErrorKind =
  | 'invalid_input' // the caller sent something unusable (400)
  | 'unauthenticated' // no or bad credentials (401)
  | 'payment_required' // not enough credit (402)
  | 'forbidden' // valid credentials, not allowed (403)
  | 'not_found' // unknown or another organization's resource (404)
  | 'conflict' // the resource's state forbids it (409)
  | 'unavailable'; // a backing service is down; retry later (503)

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** Stable, machine-readable: the API error body's `code`. */
    readonly code: string,
    message: string,
    /** The offending field as a dotted path, when there is one. */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string, param?: string, code = 'invalid_request') =>
  new DomainError('invalid_input', code, message, param);
export const notFound = (message: string) => new DomainError('not_found', 'not_found', message);
export const conflict = (message: string, code = 'conflict') => new DomainError('conflict', code, message);

/** No, or bad, credentials; the body's code is the API's `unauthorized`. */
export const unauthenticated = (message: string) => new DomainError('unauthenticated', 'unauthorized', message);
