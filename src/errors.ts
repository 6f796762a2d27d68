// One error type and one body shape for the whole API:
//   {"error": {"code": string, "message": string, "param"?: string}}
// Route code throws ApiError; the error middleware (src/api/middleware/errors.ts) renders it.

export type ErrorBody = { error: { code: string; message: string; param?: string } };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** Extra top-level fields merged into the body (e.g. the rate-limit body's `data`). */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  body(): ErrorBody & Record<string, unknown> {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    return { error, ...this.extra };
  }
}

export const badRequest = (message: string, param?: string, code = 'invalid_request') =>
  new ApiError(400, code, message, param);
export const unauthorized = (message = 'Missing or invalid API key') => new ApiError(401, 'unauthorized', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (message: string, code = 'conflict') => new ApiError(409, code, message);

