// POST/GET/DELETE of both request shapes (interface 4.1–4.6). Each shape is a thin edge over the
// same service; translate.ts converts requests in and views out.
import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps, AppState } from '../context.js';
import { validate } from '../middleware/validate.js';
import { readAppHeaders } from './appHeaders.js';
import { chatRequest, responsesRequest, type ChatRequest, type ResponsesRequest } from './schema.js';
import { cancelGeneration, createGeneration, readGeneration } from './service.js';
import { fromChatRequest, fromResponsesRequest, toChatView, toResponsesView } from './translate.js';

const idParams = z.object({ id: z.string().min(1) });

export function generationsRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  const shapes = [
    { path: '/v1/responses', schema: responsesRequest, translate: (b: unknown) => fromResponsesRequest(b as ResponsesRequest, deps), view: toResponsesView },
    { path: '/v1/chat/completions', schema: chatRequest, translate: (b: unknown) => fromChatRequest(b as ChatRequest, deps), view: toChatView },
  ];
  for (const shape of shapes) {
    router.post(shape.path, validate({ body: shape.schema }), async (ctx) => {
      const request = shape.translate(ctx.state.body);
      const generation = await createGeneration(deps, ctx.state.auth, request, readAppHeaders(ctx));
      ctx.status = 200;
      ctx.body = shape.view(generation);
    });
    router.get(`${shape.path}/:id`, validate({ params: idParams }), async (ctx) => {
      const { id } = ctx.state.params as z.infer<typeof idParams>;
      ctx.body = shape.view(await readGeneration(deps, ctx.state.auth.organizationId, id));
    });
    router.delete(`${shape.path}/:id`, validate({ params: idParams }), async (ctx) => {
      const { id } = ctx.state.params as z.infer<typeof idParams>;
      await cancelGeneration(deps, ctx.state.auth.organizationId, id);
      ctx.body = { id, cancelled: true };
    });
  }
  return router;
}
