// Extension: GET /v1/responses and GET /v1/chat/completions list the organization's generations,
// newest first, each in that shape's view, as OpenAI list objects
// ({object: "list", data, first_id, last_id, has_more}). Keyset pages on (created_at, id)
// (src/db/generations.ts listGenerations): stable while generations are being created, never another
// organization's rows. Items come from the PostgreSQL record alone (no Temporal query per item).
import type Router from '@koa/router';
import { z } from 'zod';
import { listGenerations } from '../../db/generations.js';
import { invalidInput } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { MAX_ID_CHARS, validate } from '../../http/validate.js';
import { TERMINAL_STATUSES, type GenerationStatus } from '../../shared.js';
import { snapshot } from './service.js';
import type { GenerationSnapshot } from './translate.js';

export const LIST_LIMIT = { default: 20, max: 100 } as const;
/** Latest instant a `created_*` filter may name: 9999-12-31T23:59:59Z. */
const MAX_UNIX_SECONDS = 253_402_300_799;
const STORED_STATUSES: readonly GenerationStatus[] = ['queued', 'in_progress', ...TERMINAL_STATUSES];

type View = (generation: GenerationSnapshot) => { id: string; status: string };

/**
 * A view's status vocabulary, mapped back to the stored statuses each word shows (Chat `failed` is
 * stored `failed` or `incomplete`, `pending` is `queued`…). Read off the view function itself, so a
 * filter always keeps exactly the items that show that status.
 */
export function statusVocabulary(view: View): Map<string, GenerationStatus[]> {
  const words = new Map<string, GenerationStatus[]>();
  for (const status of STORED_STATUSES) {
    const word = view({ ...BLANK, status }).status;
    words.set(word, [...(words.get(word) ?? []), status]);
  }
  return words;
}
const BLANK: GenerationSnapshot = {
  id: '',
  status: 'queued',
  model: '',
  engine: '',
  provider: null,
  createdAtMs: 0,
  completedAtMs: null,
  video: null,
  artifact: null,
  artifactType: null,
  storyboard: null,
  thumbnail: null,
  spritesheet: null,
  captions: null,
  usage: null,
  latencyMs: null,
  error: null,
  progress: null,
};

const cursor = (description: string) => z.string().min(1).max(MAX_ID_CHARS).optional().describe(description);
const unixSeconds = (description: string) =>
  z.coerce.number().int().min(0).max(MAX_UNIX_SECONDS).optional().describe(description);

/** The query a listing accepts (unknown parameters are a 400 naming them); `status` in the view's words. */
export function listQuerySchema(view: View) {
  const statuses = [...statusVocabulary(view).keys()] as [string, ...string[]];
  return z.strictObject({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(LIST_LIMIT.max)
      .default(LIST_LIMIT.default)
      .describe(`Items per page, 1–${LIST_LIMIT.max} (default ${LIST_LIMIT.default})`),
    after: cursor('A generation id of this organization: the page starts just after it (older items)'),
    before: cursor(
      'A generation id of this organization: the page holds the items just newer than it, still newest first',
    ),
    status: z.enum(statuses).optional().describe('Only generations showing this status'),
    engine: z.string().min(1).max(64).optional().describe('Only generations of this engine'),
    model: z.string().min(1).max(100).optional().describe('Only generations of this orchestration model'),
    created_after: unixSeconds('Unix seconds: created at or after this second'),
    created_before: unixSeconds('Unix seconds: created before this second'),
  });
}

/** Registers `GET <path>` (the listing) on the shape's router. */
export function mountList(router: Router<AppState>, deps: AppDeps, shape: { path: string; view: View }): void {
  const words = statusVocabulary(shape.view);
  router.get(
    shape.path,
    validate({ query: listQuerySchema(shape.view) }, async (ctx, { query }) => {
      if (query.after !== undefined && query.before !== undefined)
        throw invalidInput('before: give either after or before, not both', 'before');
      const page = await listGenerations(deps.db, ctx.state.auth.organizationId, {
        limit: query.limit,
        after: query.after,
        before: query.before,
        filter: {
          statuses: query.status === undefined ? undefined : words.get(query.status),
          engine: query.engine,
          model: query.model,
          createdFrom: query.created_after === undefined ? undefined : new Date(query.created_after * 1000),
          createdUntil: query.created_before === undefined ? undefined : new Date(query.created_before * 1000),
        },
      });
      if (!page) {
        // Another organization's id answers exactly like an unknown one.
        const param = query.after !== undefined ? 'after' : 'before';
        throw invalidInput(`${param}: no generation with id ${query.after ?? query.before}`, param);
      }
      const data = await Promise.all(page.rows.map(async (row) => shape.view(await snapshot(deps, row, null))));
      ctx.body = {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: page.hasMore,
      };
    }),
  );
}
