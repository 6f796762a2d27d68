// The one validation middleware: zod schemas for body, path params and query; the first problem
// becomes a 400 naming the field (`param`, dotted path) in the API's error shape.
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { ApiError, badRequest } from '../../errors.js';
import type { AppState } from '../context.js';

type Schemas = { body?: z.ZodType; params?: z.ZodType; query?: z.ZodType };

export function validate(schemas: Schemas): Middleware<AppState> {
  return async (ctx, next) => {
    if (schemas.body && ctx.request.length && !ctx.request.is('application/json')) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json');
    }
    if (schemas.body) ctx.state.body = parse(schemas.body, (ctx.request as { body?: unknown }).body, 'body');
    if (schemas.params) ctx.state.params = parse(schemas.params, (ctx as unknown as { params: unknown }).params, 'path');
    if (schemas.query) ctx.state.query = parse(schemas.query, ctx.query, 'query');
    await next();
  };
}

function parse(schema: z.ZodType, value: unknown, where: string): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = mostSpecific(result.error.issues[0]!);
  const param = issue.path.map(String).join('.');
  const message = param ? `${param}: ${issue.message}` : `Invalid request ${where}: ${issue.message}`;
  throw badRequest(message, param || undefined);
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * For a value that matched no member of a union, report the member that got furthest (the longest
 * path), so `input.0.content.1.image_url` is named rather than just `input`.
 */
function mostSpecific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const candidates = issue.errors.filter((e) => e.length > 0).map((e) => mostSpecific(e[0]!));
  const best = candidates.reduce<Issue | undefined>((a, b) => (!a || b.path.length > a.path.length ? b : a), undefined);
  return best && best.path.length > 0 ? { ...best, path: [...issue.path, ...best.path] } : issue;
}
