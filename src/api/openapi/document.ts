// The OpenAPI 3.1 document, generated from the zod schemas the API validates requests with
// (src/api/generations/schema.ts) and the response schemas the tests hold responses to.
import { z } from 'zod';
import { requestSchemas } from '../generations/schema.js';
import { cancelResult, chatView, enginesCatalog, errorBody, responsesView, usageResource } from './schemas.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return { 'application/json': { schema: rest } };
};

const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: ERROR_DESCRIPTIONS[s], content: json(errorBody) }]));

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request; `error.param` names the field',
  401: 'Missing, invalid, revoked or deleted API key',
  402: 'No credit left (`insufficient_credits`)',
  404: 'Unknown generation, or another organization’s',
  409: 'The generation already finished (`generation_finished`)',
  413: 'Body larger than 1 MiB',
  415: 'Body is not JSON',
  429: 'Rate limit exceeded (`RATE_LIMIT_EXCEEDED`; also `message` and `data.retry_after`); see Retry-After',
  503: 'Temporarily unavailable',
};

const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Generation id' }];
const streamParams = [
  { name: 'stream', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: 'Extension: `true` answers with the generation’s server-sent events instead of one object' },
  { name: 'starting_after', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: 'Extension, with stream=true: only events numbered after this `sequence_number`' },
];

/** What `stream: true` answers (the README's "Streaming" section describes the events). */
const eventStream = (tag: string) => ({
  'text/event-stream': {
    schema: { type: 'string' },
    description:
      tag === 'Responses'
        ? 'Events response.created, response.queued, response.in_progress, response.progress ({response_id, progress}), then response.completed / response.failed / response.cancelled with the whole object; each has type and sequence_number'
        : 'chat.completion.chunk objects: choices[0].delta carries status and progress; the last carries video_url (or error) and finish_reason (stop, error or cancelled), then data: [DONE]',
  },
});

function generationPaths(base: string, tag: string, request: z.ZodType, view: z.ZodType) {
  return {
    [base]: {
      post: {
        tags: [tag],
        summary: `Create a generation (${tag} shape)`,
        requestBody: { required: true, content: json(request, 'input') },
        responses: {
          '200': { description: 'Accepted; the generation is queued (with `stream: true`: its events until it ends)', content: { ...json(view), ...eventStream(tag) } },
          ...errors(400, 401, 402, 413, 415, 429, 503),
        },
      },
    },
    [`${base}/{id}`]: {
      get: {
        tags: [tag],
        summary: 'Retrieve a generation (poll every 2–5 s until terminal, or stream)',
        parameters: tag === 'Responses' ? [...idParam, ...streamParams] : idParam,
        responses: { '200': { description: 'The generation', content: tag === 'Responses' ? { ...json(view), ...eventStream(tag) } : json(view) }, ...errors(400, 401, 404, 429) },
      },
      delete: {
        tags: [tag],
        summary: 'Cancel an in-flight generation',
        parameters: idParam,
        responses: { '200': { description: 'Cancelled', content: json(cancelResult) }, ...errors(401, 404, 409, 429) },
      },
    },
  };
}

export function openApiDocument(serverUrl: string) {
  const { responsesRequest, chatRequest } = requestSchemas();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Video generation API',
      version: '1.0.0',
      description: 'Prompts in, MP4s out: an orchestration LLM writes a composition, an engine renders it.',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (vg_…)' } } },
    security: [{ bearer: [] }],
    paths: {
      ...generationPaths('/v1/responses', 'Responses', responsesRequest, responsesView),
      ...generationPaths('/v1/chat/completions', 'Chat Completions', chatRequest, chatView),
      '/v1/usage': {
        get: {
          tags: ['Usage'],
          summary: 'Credit balance and usage statistics of the key’s organization',
          responses: { '200': { description: 'Usage', content: json(usageResource) }, ...errors(401, 429) },
        },
      },
      '/v1/engines': {
        get: {
          tags: ['Catalog'],
          summary: 'Public catalog of engines and orchestration models with token pricing',
          security: [],
          responses: { '200': { description: 'Catalog', content: json(enginesCatalog) } },
        },
      },
    },
  };
}
