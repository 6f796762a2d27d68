// The one mapping of failures to HTTP answers (src/http/errors.ts): domain kinds, client errors that
// libraries raise, and backing services that are down, however the driver reports it.
import { describe, expect, it } from 'vitest';
import { conflict, DomainError, invalidInput, notFound, unauthenticated } from '../../src/errors.js';
import { ApiError, toApiError } from '../../src/http/errors.js';
import { nestingDepth } from '../../src/http/jsonBody.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('toApiError', () => {
  it('maps every domain kind to its status, keeping code, message and param', () => {
    expect(toApiError(invalidInput('bad width', 'width')).body()).toEqual({
      error: { code: 'invalid_request', message: 'bad width', param: 'width' },
    });
    expect(toApiError(invalidInput('bad width', 'width')).status).toBe(400);
    expect(toApiError(unauthenticated('no key')).status).toBe(401);
    expect(toApiError(new DomainError('payment_required', 'insufficient_credits', 'broke')).status).toBe(402);
    expect(toApiError(new DomainError('forbidden', 'csrf_failed', 'stale')).status).toBe(403);
    expect(toApiError(notFound('gone')).status).toBe(404);
    expect(toApiError(conflict('done', 'generation_finished')).status).toBe(409);
    expect(toApiError(new DomainError('unavailable', 'temporarily_unavailable', 'down')).status).toBe(503);
  });

  it('passes an ApiError through with its extra body and headers', () => {
    const err = new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      'slow down',
      undefined,
      { data: { retry_after: 3 } },
      { 'Retry-After': '3' },
    );
    expect(toApiError(err)).toBe(err);
    expect(err.body()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' },
      data: { retry_after: 3 },
    });
  });

  it.each([
    ['refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['database host not resolvable', withCode('getaddrinfo ENOTFOUND postgres', 'ENOTFOUND')],
    ['dropped connection', new Error('Connection terminated unexpectedly')],
    ['dead pooled client', new Error('Client has encountered a connection error and is not queryable')],
    ['pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    [
      'wrapped cause',
      new Error('Connection attempt failed', { cause: withCode('connect EHOSTUNREACH', 'EHOSTUNREACH') }),
    ],
    ['server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['server crashed', withCode('terminating connection because of crash of another server process', '57P02')],
    ['connection exception class', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    [
      'Temporal unreachable',
      new Error('Failed to query workflow', { cause: new Error('14 UNAVAILABLE: No connection established') }),
    ],
  ])('a backing service that is down (%s) is a 503', (_name, err) => {
    const apiError = toApiError(err);
    expect(apiError.status).toBe(503);
    expect(apiError.code).toBe('temporarily_unavailable');
  });

  it('keeps client errors client errors, whatever their message says', () => {
    const bad = Object.assign(new Error('Unexpected token U in "{"a": UNAVAILABLE}"'), { status: 400 });
    expect(toApiError(bad).status).toBe(400);
    expect(toApiError(bad).code).toBe('invalid_request');
    expect(toApiError(Object.assign(new Error('request entity too large'), { status: 413 })).code).toBe(
      'request_too_large',
    );
  });

  it('hides anything else behind a generic 500', () => {
    const apiError = toApiError(withCode('duplicate key value violates unique constraint "x"', '23505'));
    expect(apiError.status).toBe(500);
    expect(apiError.body()).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } });
  });
});

describe('nestingDepth (the scan before JSON.parse)', () => {
  it('counts brackets outside strings only, escaped quotes included, and stops reading past the bound', () => {
    expect(nestingDepth('{"a":[1,{"b":[]}]}', 32)).toBe(4);
    expect(nestingDepth('{"a":"[[[[{{{{","b":"\\"[[[["}', 32)).toBe(1);
    expect(nestingDepth('"[[[["', 32)).toBe(0);
    expect(nestingDepth('['.repeat(1_000_000), 32)).toBe(33);
  });
});
