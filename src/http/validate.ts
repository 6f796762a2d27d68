// The one validation step of route handlers: zod schemas for body, path params and query; the first
// problem becomes a 400 naming the field (`param`, dotted path) in the API's error shape. The handler
// gets the parsed parts typed by their schemas (`input.body` is the body schema's output type).
// Path parameters that fail their schema name no resource: 404, before any lookup.
import type { RouterContext, RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { invalidInput, notFound } from '../errors.js';
import type { AppState } from './context.js';
import { ApiError } from './errors.js';

/** Longest id a path or cursor may carry: the service's ids are 28 characters (`gen_` + 24 hex). */
export const MAX_ID_CHARS = 64;
/** `/:id` of every route that names one resource (API and dashboard): anything longer names nothing. */
export const idParams = z.object({ id: z.string().min(1).max(MAX_ID_CHARS) });

type Schemas = { body?: z.ZodType; params?: z.ZodType; query?: z.ZodType };

/** The request parts a route declared, each as its schema's output. */
export type Input<S extends Schemas> = { [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never };

/**
 * A route handler that runs only on valid input: `validate({ params }, async (ctx, { params }) => …)`.
 * `ctx` carries AppState; a handler of a router with more state annotates it (`ctx: DashboardContext`).
 */
export function validate<S extends Schemas, State extends AppState = AppState>(
  schemas: S,
  handler: (ctx: RouterContext<State>, input: Input<S>) => unknown,
): RouterMiddleware<State> {
  return async (ctx) => {
    if (schemas.body && ctx.request.length && !ctx.request.is('application/json')) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send the request body as JSON with Content-Type: application/json',
      );
    }
    const input: Partial<Record<keyof Schemas, unknown>> = {};
    if (schemas.body) input.body = parse(schemas.body, (ctx.request as { body?: unknown }).body, 'body');
    if (schemas.params) input.params = parse(schemas.params, ctx.params, 'path');
    if (schemas.query) input.query = parse(schemas.query, ctx.query, 'query');
    // Each part present was parsed by its own schema just above.
    await handler(ctx, input as Input<S>);
  };
}

/**
 * One request part parsed by its schema, or the 400 naming the field (404 for a path). For routes that read
 * a part themselves (a multipart/form-data body, src/api/videos/).
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'path' | 'query'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data as z.output<S>;
  const issue = mostSpecific(result.error.issues[0]!);
  // An unknown field is named by its own path (`duration`), not its parent's.
  const path = issue.code === 'unrecognized_keys' && issue.keys?.length ? [...issue.path, issue.keys[0]!] : issue.path;
  const param = path.map(String).join('.');
  const message = param ? `${param}: ${issue.message}` : `Invalid request ${where}: ${issue.message}`;
  if (where === 'path') throw notFound(`Nothing at this path (${message})`);
  throw invalidInput(message, param || undefined);
}

type Issue = { path: PropertyKey[]; message: string; code?: string; keys?: string[]; errors?: Issue[][] };

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
