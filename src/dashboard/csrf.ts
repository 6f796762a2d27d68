// CSRF protection. Signed-in forms carry the session's synchronizer token (stored with the session
// server-side) in a hidden field; every POST must echo it. The sign-in form has no session yet, so it
// uses a double-submit token: a random value in a path-scoped cookie and in the form, compared on POST.
import crypto from 'node:crypto';
import { DomainError } from '../errors.js';
import { html, type SafeHtml } from './html.js';

export const CSRF_FIELD = '_csrf';

/** Constant-time equality of two tokens (hashed first, so lengths never leak or throw). */
export function sameToken(given: string | null | undefined, expected: string | null | undefined): boolean {
  if (!given || !expected) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

export function checkCsrf(form: URLSearchParams, expected: string | null | undefined): void {
  if (!sameToken(form.get(CSRF_FIELD), expected)) {
    throw new DomainError(
      'forbidden',
      'csrf_failed',
      'This form is stale or did not come from this dashboard. Reload the page and try again.',
    );
  }
}

export const newCsrfToken = () => crypto.randomBytes(32).toString('base64url');

export const csrfField = (token: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
