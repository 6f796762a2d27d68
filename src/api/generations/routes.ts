// POST/GET/DELETE of both request shapes (interface 4.1–4.6). Each shape is a thin edge over the
// same service; translate.ts converts requests in and views out.
import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps, AppState } from '../../http/context.js';
import { idParams, validate } from '../../http/validate.js';
import type { BrandChoice } from '../../brand/kits.js';
import { ATTRIBUTION_WARNING_HEADER, readAppHeaders } from './appHeaders.js';
import { idempotencyOf } from './idempotency.js';
import { mountList } from './list.js';
import { requestSchemas } from './schema.js';
import { cancelGeneration, createGeneration, readGeneration } from './service.js';
import { streamGeneration, type StreamShape } from './stream.js';
import { takeStreamSlot } from '../../http/streamCaps.js';
import {
  fromChatRequest,
  fromResponsesRequest,
  toChatView,
  toResponsesView,
  type GenerationSnapshot,
  type TranslatedRequest,
} from './translate.js';

/** Extension: `?stream=true` attaches to the generation's event stream, after event `starting_after`. */
const readQuery = z.object({
  stream: z.enum(['true', 'false']).optional(),
  starting_after: z.coerce.number().int().min(0).optional(),
});

/** One request shape: its path, body schema, and the translations in and out of the service. */
type Shape<S extends z.ZodType<{ stream: boolean; brand?: BrandChoice }>> = {
  name: StreamShape;
  path: string;
  schema: S;
  translate: (body: z.output<S>) => TranslatedRequest;
  view: (generation: GenerationSnapshot) => unknown;
};

export function generationsRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  const { responsesRequest, chatRequest } = requestSchemas();

  const mount = <S extends z.ZodType<{ stream: boolean; brand?: BrandChoice }>>(shape: Shape<S>) => {
    router.post(
      shape.path,
      validate({ body: shape.schema }, async (ctx, { body }) => {
        const idempotency = idempotencyOf(ctx, shape.name, body);
        const { app, warnings } = readAppHeaders(ctx);
        const { organizationId, apiKeyId } = ctx.state.auth;
        // A stream past its cap is refused before anything is created.
        const slot = body.stream ? await takeStreamSlot(deps, organizationId, `key:${apiKeyId}`) : null;
        let created: Awaited<ReturnType<typeof createGeneration>>;
        try {
          created = await createGeneration(deps, ctx.state.auth, shape.translate(body), app, idempotency, body.brand);
        } catch (err) {
          slot?.release();
          throw err;
        }
        const { generation, replayed } = created;
        if (replayed) ctx.set('Idempotent-Replayed', 'true');
        if (warnings.length) ctx.set(ATTRIBUTION_WARNING_HEADER, warnings.join('; '));
        // A replayed create attaches to the generation's stream like a GET ?stream=true.
        if (slot)
          return streamGeneration(
            ctx,
            deps,
            { shape: shape.name, organizationId, id: generation.id, created: replayed ? undefined : generation },
            slot,
          );
        ctx.status = 200;
        ctx.body = shape.view(generation);
      }),
    );
    router.get(
      `${shape.path}/:id`,
      validate({ params: idParams, query: readQuery }, async (ctx, { params: { id }, query }) => {
        const { organizationId, apiKeyId } = ctx.state.auth;
        if (query.stream === 'true')
          return streamGeneration(
            ctx,
            deps,
            { shape: shape.name, organizationId, id, startingAfter: query.starting_after },
            await takeStreamSlot(deps, organizationId, `key:${apiKeyId}`),
          );
        ctx.body = shape.view(await readGeneration(deps, organizationId, id));
      }),
    );
    router.delete(
      `${shape.path}/:id`,
      validate({ params: idParams }, async (ctx, { params: { id } }) => {
        await cancelGeneration(deps, ctx.state.auth.organizationId, id);
        ctx.body = { id, cancelled: true };
      }),
    );
  };
  mount({
    name: 'responses',
    path: '/v1/responses',
    schema: responsesRequest,
    translate: (body) => fromResponsesRequest(body, deps),
    view: toResponsesView,
  });
  mount({
    name: 'chat',
    path: '/v1/chat/completions',
    schema: chatRequest,
    translate: (body) => fromChatRequest(body, deps),
    view: toChatView,
  });
  mountList(router, deps, { path: '/v1/responses', view: toResponsesView });
  mountList(router, deps, { path: '/v1/chat/completions', view: toChatView });
  return router;
}
