// The OpenAPI 3.1 document, generated from the zod schemas the API validates requests with
// (src/api/generations/schema.ts) and the response schemas the tests hold responses to.
import { z } from 'zod';
import { listQuerySchema } from '../generations/list.js';
import { requestSchemas } from '../generations/schema.js';
import { toChatView, toResponsesView } from '../generations/translate.js';
import { cancelResult, chatList, chatView, enginesCatalog, errorBody, responsesList, responsesView, usageResource } from './schemas.js';

/**
 * A zod schema as JSON Schema for the document. zod writes ±MAX_SAFE_INTEGER as the bounds of every
 * unbounded integer: no bound at all says the same to a reader.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ jsonSchema: node }) => {
      if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
      if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    },
  }) as Record<string, unknown>;
  return rest;
}

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => ({ 'application/json': { schema: jsonSchema(schema, io) } });

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

const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  description:
    'Extension: makes the create safe to retry. Per organization, kept 24 h: the same key with the same body answers the original generation (started and charged once); with a different body, 409 `idempotency_key_reused`. A request that fails keeps no key.',
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

/** Extension: the listing of each shape (src/api/generations/list.ts), its query parameters read off the schema it validates with. */
function listOperation(tag: string) {
  const [query, list] = tag === 'Responses' ? [listQuerySchema(toResponsesView), responsesList] : [listQuerySchema(toChatView), chatList];
  const parameters = Object.entries(query.shape).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema, 'input');
    return { name, in: 'query', required: false, schema: rest, description };
  });
  return {
    tags: [tag],
    summary: 'List the organization’s generations (extension)',
    description: 'Newest first, as an OpenAI list object. Keyset pages: the next page is `after=<last_id>` of the previous one; `before=<first_id>` walks back up. Items come from the stored record (no live progress).',
    parameters,
    responses: { '200': { description: 'A page of generations', content: json(list) }, ...errors(400, 401, 429) },
  };
}

function generationPaths(base: string, tag: string, request: z.ZodType, view: z.ZodType) {
  return {
    [base]: {
      get: listOperation(tag),
      post: {
        tags: [tag],
        summary: `Create a generation (${tag} shape)`,
        parameters: [idempotencyKeyParam],
        requestBody: { required: true, content: json(request, 'input') },
        responses: {
          '200': {
            description: 'Accepted; the generation is queued (with `stream: true`: its events until it ends). A repeat with the same Idempotency-Key answers the original generation in its current state',
            headers: { 'Idempotent-Replayed': { description: '`true` when this answer is the generation an earlier request with the same Idempotency-Key started', schema: { type: 'string', enum: ['true'] } } },
            content: { ...json(view), ...eventStream(tag) },
          },
          ...errors(400, 401, 402, 413, 415, 429, 503),
          '409': { description: 'The Idempotency-Key was used with a different request in the last 24 h (`idempotency_key_reused`), or its first request is still being processed (`idempotency_key_in_use`)', content: json(errorBody) },
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

/** Request bodies of the two creates: the examples the reference shows and its curl samples send. */
const CREATE_EXAMPLES: Record<string, unknown> = {
  '/v1/responses': { model: 'gpt-4o-mini', input: 'A 6-second launch teaser for Nimbus, the calm calendar. Sign up at nimbus.app', engine: 'auto', width: 1080, height: 1920 },
  '/v1/chat/completions': { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'A 6-second launch teaser for Nimbus, the calm calendar. Sign up at nimbus.app' }], aspectRatio: '16:9' },
};

type OperationObject = { security?: unknown[]; requestBody?: { content: Record<string, { example?: unknown }> }; 'x-codeSamples'?: unknown[] };

/** A copyable curl command per operation (Redoc's `x-codeSamples`), and the create examples. */
function withExamples<D extends { paths: object }>(doc: D, serverUrl: string): D {
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, OperationObject>>)) {
    for (const [method, op] of Object.entries(operations)) {
      const url = serverUrl + path.replace('{id}', 'gen_0123456789abcdef01234567');
      const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${url}`];
      if (op.security?.length !== 0) lines.push('-H "Authorization: Bearer $VIDEO_API_KEY"');
      const example = method === 'post' ? CREATE_EXAMPLES[path] : undefined;
      if (example) {
        lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(example)}'`);
        const body = op.requestBody?.content['application/json'];
        if (body) body.example = example;
      }
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: lines.join(' \\\n  ') }];
    }
  }
  return doc;
}

export function openApiDocument(serverUrl: string) {
  const { responsesRequest, chatRequest } = requestSchemas();
  return withExamples({
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
  }, serverUrl);
}
