// The OpenAPI 3.1 document, generated from the zod schemas the API validates requests with
// (src/api/generations/schema.ts) and the response schemas the tests hold responses to (./schemas.ts),
// with the examples of ./examples.ts. Served at /openapi.json and rendered at /docs.
import { z } from 'zod';
import { MAX_ID_CHARS } from '../../http/validate.js';
import { listQuerySchema } from '../generations/list.js';
import { requestSchemas } from '../generations/schema.js';
import { storyboardSchema } from '../../storyboard/schema.js';
import { toChatView, toResponsesView } from '../generations/translate.js';
import { brandPutSchema } from '../brand/schema.js';
import { MAX_WEBHOOK_ENDPOINTS } from '../../db/webhookEndpoints.js';
import {
  webhookEndpointCreateSchema,
  webhookEndpointDeleted,
  webhookEndpointList,
  webhookEndpointSchema,
} from '../webhookEndpoints/schema.js';
import { videoRequestSchemas } from '../videos/schema.js';
import { videoPaths, videoWebhooks, VIDEOS_INTRO } from './videos.js';
import {
  BRAND_PUT_EXAMPLE,
  CONFLICT_EXAMPLES,
  CREATE_REQUESTS,
  ERROR_EXAMPLES,
  EXAMPLE_ID,
  brandKitExample,
  catalogExample,
  endpointExample,
  endpointListExample,
  eventStreamExamples,
  generationExamples,
  usageExample,
} from './examples.js';
import {
  brandKit,
  cancelResult,
  chatList,
  chatView,
  enginesCatalog,
  errorBody,
  openAiErrorBody,
  openAiVideoEvent,
  progress,
  rateLimitBody,
  responsesList,
  responsesView,
  signedUrl,
  usageResource,
  videoDeleted,
  videoList,
  videoObject,
  webhookEvent,
} from './schemas.js';

type JsonSchema = Record<string, unknown>;

/**
 * Named schemas as JSON Schema, referring to each other by `#/components/schemas/<name>`. zod writes
 * ±MAX_SAFE_INTEGER as the bounds of every unbounded integer: no bound at all says the same to a
 * reader; and a stated minimum replaces `.positive()`'s exclusive one.
 */
function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: tidy,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
}

/** One schema inlined (a query parameter's). */
function inlineSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: tidy,
  }) as JsonSchema;
  return rest;
}

function tidy({ jsonSchema: node }: { jsonSchema: JsonSchema }) {
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (
    typeof node.minimum === 'number' &&
    typeof node.exclusiveMinimum === 'number' &&
    node.minimum > node.exclusiveMinimum
  )
    delete node.exclusiveMinimum;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const examplesOf = (named: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(named).map(([name, value]) => [name, { summary: name.replace(/_/g, ' '), value }]));
const jsonOf = (schema: string, examples: Record<string, unknown>) => ({
  'application/json': { schema: ref(schema), examples: examplesOf(examples) },
});

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

/** Error answers by status: the one error shape (429 adds its retry fields), examples of the codes each carries. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'Invalid request: `error.param` names the field, parameter or header (`path` for a path that is not UTF-8 text ' +
      'without control characters, e.g. `%00`, `%FF`). Codes: `invalid_request`, `invalid_json` (also a body nested ' +
      'deeper than 32 levels), `invalid_webhook_url`, `invalid_media_url`',
  },
  401: { name: 'Unauthorized', description: 'Missing, invalid, revoked or deleted API key (`unauthorized`)' },
  403: {
    name: 'Forbidden',
    description: 'Extension: the key lacks the right this operation needs (`brand_not_allowed`)',
  },
  402: {
    name: 'PaymentRequired',
    description:
      "The balance does not cover the credit holds of the organization's generations in flight plus this one's " +
      'worst-case cost (`insufficient_credits`)',
  },
  404: { name: 'NotFound', description: 'No such generation, or another organization’s (`not_found`)' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 1 MiB (`request_too_large`)' },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'The body is not sent as JSON, or with a Content-Encoding other than gzip, deflate, ' +
      'br (`unsupported_media_type`)',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Rate limit of the key exceeded, or of the client address for requests without a valid key ' +
      '(`RATE_LIMIT_EXCEEDED`): wait Retry-After seconds. Extension: an event stream (`stream: true`, ' +
      '`?stream=true`) past the cap of open streams per key or per organization (`STREAM_LIMIT_EXCEEDED`; ' +
      'streams already open go on): close one, or wait Retry-After seconds',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A backing service (PostgreSQL, Temporal) is unavailable; retry shortly (`temporarily_unavailable`)',
  },
};

function componentResponses() {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        ...(status === '429'
          ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_LIMIT_HEADERS } }
          : {}),
        content: {
          'application/json': {
            schema: ref(status === '429' ? 'RateLimitError' : 'Error'),
            examples: ERROR_EXAMPLES[Number(status)],
          },
        },
      },
    ]),
  );
}
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/${ERROR_RESPONSES[s]!.name}` }]));
const conflict = (description: string, examples: Record<string, { summary: string; value: unknown }>) => ({
  '409': { description, content: { 'application/json': { schema: ref('Error'), examples } } },
});

const ok = (description: string, content: object, rateLimited = true) => ({
  '200': { description, ...(rateLimited ? { headers: RATE_LIMIT_HEADERS } : {}), content },
});

const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: MAX_ID_CHARS },
  description: 'Generation id (`gen_…`), as the create returned it',
  example: EXAMPLE_ID,
};
const streamParams = [
  {
    name: 'stream',
    in: 'query',
    required: false,
    schema: { type: 'string', enum: ['true', 'false'] },
    description:
      'Extension: `true` answers with the generation’s server-sent events (from now until it ends) instead ' +
      'of one object',
  },
  {
    name: 'starting_after',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description:
      'Extension, with `stream=true`: only events numbered after this `sequence_number` (resume a dropped stream)',
  },
];
const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  description:
    'Extension: makes the create safe to retry. Per organization, kept 24 h: the same key with the same body answers ' +
    'the original generation (started and charged once) with `Idempotent-Replayed: true`; with a different body, ' +
    '409 `idempotency_key_reused`. A request that fails keeps no key.',
  example: 'order-7421-teaser',
};

type Shape = {
  tag: 'Responses' | 'Chat Completions';
  base: string;
  /** operationId stem: createResponse, listResponses… */
  noun: string;
  schema: string;
  streamExample: string;
  streamDescription: string;
  examples: { created: unknown; inFlight: Record<string, unknown>; list: unknown; cancelled: unknown };
};

function generationPaths(shape: Shape) {
  const { tag, base, noun, schema } = shape;
  const eventStream = {
    'text/event-stream': {
      schema: { type: 'string', description: shape.streamDescription },
      example: shape.streamExample,
    },
  };
  const query = listQuerySchema(tag === 'Responses' ? toResponsesView : toChatView);
  const listParameters = Object.entries(query.shape).map(([name, s]) => {
    const { description, ...rest } = inlineSchema(s);
    return { name, in: 'query', required: false, schema: rest, description };
  });
  return {
    [base]: {
      post: {
        tags: [tag],
        operationId: `create${noun}`,
        summary: `Create a generation (${tag} shape)`,
        description:
          'Starts a generation and answers at once with it queued; the video is made in the background. ' +
          'Poll the generation every 2–5 s, stream it (`stream: true`), or give a `webhook_url`. ' +
          'Its worst-case cost is held from the organization’s credit while it runs; the tokens it used are charged ' +
          'when it ends.',
        parameters: [idempotencyKeyParam],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(`Create${noun}Request`), example: CREATE_REQUESTS[base] } },
        },
        responses: {
          '200': {
            description:
              'Accepted: the generation, queued (with `stream: true`: its events until it ends). ' +
              'A repeat with the same Idempotency-Key answers the original generation in its current state',
            headers: {
              'Idempotent-Replayed': {
                description:
                  'Extension: `true` when this answer is the generation an earlier request with the same ' +
                  'Idempotency-Key started',
                schema: { type: 'string', enum: ['true'] },
              },
              'X-Attribution-Warning': {
                description:
                  'Extension: an attribution header (Referer, X-Title, X-App-Name and their aliases) could not be ' +
                  'kept as sent and was dropped or trimmed; names each one and why, ' +
                  'e.g. `Referer dropped: not an http or https URL`. Attribution never rejects a create',
                schema: { type: 'string' },
              },
              ...RATE_LIMIT_HEADERS,
            },
            content: {
              'application/json': { schema: ref(schema), examples: examplesOf({ queued: shape.examples.created }) },
              ...eventStream,
            },
          },
          ...errors(400, 401, 402),
          ...conflict(
            'The Idempotency-Key was used with a different request in the last 24 h (`idempotency_key_reused`), ' +
              'or its first request is still being processed (`idempotency_key_in_use`). Extension: the images ' +
              'sent as data: URLs would take the organization past its media storage quota (`media_quota_exceeded`)',
            CONFLICT_EXAMPLES.create,
          ),
          ...errors(413, 415, 429, 503),
        },
      },
      get: {
        tags: [tag],
        operationId: `list${noun}s`,
        summary: 'List the organization’s generations (extension)',
        description:
          'Newest first, as an OpenAI list object. Keyset pages, stable while generations are being created: ' +
          'the next page is `after=<last_id>` of the previous one; `before=<first_id>` walks back. ' +
          'Items come from the stored record (`progress` is null).',
        parameters: listParameters,
        responses: {
          ...ok('A page of generations', jsonOf(`${noun}List`, { page: shape.examples.list })),
          ...errors(400, 401, 429, 503),
        },
      },
    },
    [`${base}/{id}`]: {
      get: {
        tags: [tag],
        operationId: `retrieve${noun}`,
        summary: 'Retrieve a generation (poll every 2–5 s until terminal, or stream)',
        description:
          'The generation with live progress while in flight. Terminal statuses are `completed`, ' +
          '`failed` and `cancelled` (Responses: also `incomplete`).',
        parameters: [idParam, ...streamParams],
        responses: {
          ...ok('The generation (with `stream=true`: its events)', {
            'application/json': { schema: ref(schema), examples: examplesOf(shape.examples.inFlight) },
            ...eventStream,
          }),
          ...errors(400, 401, 404, 429, 503),
        },
      },
      delete: {
        tags: [tag],
        operationId: `cancel${noun}`,
        summary: 'Cancel an in-flight generation',
        description:
          'Stops the generation’s workflow; its status becomes `cancelled`. A generation that already finished ' +
          'answers 409.',
        parameters: [idParam],
        responses: {
          ...ok('Cancelled', jsonOf('CancelResult', { cancelled: shape.examples.cancelled })),
          ...errors(400, 401, 404),
          ...conflict('The generation already finished (`generation_finished`)', CONFLICT_EXAMPLES.cancel),
          ...errors(429, 503),
        },
      },
    },
  };
}

/** Webhooks (OpenAPI 3.1 `webhooks`): what this service POSTs to a request's `webhook_url`. */
function webhooks(examples: Record<string, unknown>) {
  const header = (name: string, description: string, schema: object, example: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
    example,
  });
  const parameters = [
    header(
      'service-webhook-id',
      'Unique message id (the event id): deduplicate deliveries by it',
      { type: 'string' },
      'evt_000000000000000000000004',
    ),
    header(
      'service-webhook-timestamp',
      'When this attempt was sent, Unix time in seconds: reject ones older than 5 minutes',
      { type: 'string', pattern: '^[0-9]+$' },
      '1795000041',
    ),
    header(
      'service-webhook-signature',
      'Space-separated `v1,<base64>` entries: HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed with the ' +
        'base64-decoded signing secret (without `whsec_`); valid when any entry matches',
      { type: 'string' },
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
  ];
  const when: Record<string, string> = {
    'video.generation.queued': 'The request was accepted and waits for a worker (status `queued`).',
    'video.generation.started': 'Processing began with the provider (status `in_progress`).',
    'video.generation.progress':
      'Extension: at most one per 10 percentage points of progress (status `in_progress`, with `progress`).',
    'video.generation.completed':
      'The generation finished: status `completed` with `output_url`, or `failed` with `error_message`.',
  };
  return Object.fromEntries(
    Object.entries(when).map(([type, description]) => [
      type,
      {
        post: {
          tags: ['Webhooks'],
          operationId: type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()),
          summary: type,
          description:
            `${description} Delivered only when the request named a \`webhook_url\` and the organization ` +
            `enabled the type in the dashboard (\`video.generation.completed\` is on by default). ` +
            `Retried with exponential backoff for about 24 hours until the receiver answers 2xx within 15 seconds; ` +
            `the same event may arrive more than once.`,
          security: [],
          parameters,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('WebhookEvent'), example: examples[type] } },
          },
          responses: {
            '200': { description: 'Received (any 2xx): no retry' },
            '401': { description: 'Invalid signature: the receiver should refuse it (it is retried like any non-2xx)' },
          },
        },
      },
    ]),
  );
}

// Markdown; a backslash ending a line continues it (no line break in the text: paragraphs and table rows stay whole).
const REFERENCE_INTRO = `Prompts in, MP4s out: an orchestration LLM writes a composition, \
an engine renders it into a video.

Generations are asynchronous: a create answers at once with the generation queued; poll it every 2–5 s until a \
terminal status, stream it with \`stream: true\` (or \`GET …?stream=true\`), or receive signed webhooks at \
\`webhook_url\`. Two request shapes reach the same generations: the Responses shape and the Chat Completions shape, \
each with its own view and status words.

**Authentication**: \`Authorization: Bearer <API key>\` on every \`/v1\` endpoint except the catalog. \
Keys are made in the dashboard or with the admin CLI.

**Units**: \`created_at\`/\`created\` and \`expires_at\` are Unix seconds; \`completed_at\` is Unix milliseconds; \
\`latency_ms\` milliseconds; money in \`cost_usd\` (dollars) and \`*_cents\` (cents).

**Extensions** to the base interface are marked *Extension*: \`Idempotency-Key\`, listing, \`progress\`, \`stream\`, \
\`duration_seconds\`, \`video.generation.progress\` events, the health endpoints, storyboards (\`storyboard\`, \
\`variables\`, \`storyboard_url\`), brand kits (\`/v1/brand\`, a create's \`brand\`), the OpenAI Videos shape \
(\`/v1/videos\`), \`output_format\`, \`transparent\`, \`thumbnail_url\`, \`spritesheet_url\` and sound (a \
create's \`audio\`, a storyboard scene's \`narration\`, \`captions_url\`).

## Sound (extension)

A create may ask for sound with \`audio\`: a voice reading the narration, a music bed, captions. \
Absent \`audio\`, the video is silent, as before. Defaults: \`voice: "auto"\`, \`music: "auto"\`, \
\`captions: "none"\`. The voice reads each scene's \`narration\` (the embedded composer writes it from the \
scene's own words; an LLM's composition: the prompt). Speech is billed one output token per character said.

\`\`\`json
{"model": "gpt-4o-mini",
 "input": "Fresh bread every morning. Our bakery opens on Monday.",
 "audio": {"voice": "auto", "music": "auto", "captions": "sidecar"}}
\`\`\`

The completed generation's video has one AAC-LC stream (48 kHz, stereo) mastered to −14 LUFS, true peak \
≤ −1 dBTP; \`captions_url\` links the WebVTT captions (one cue per spoken phrase). A storyboard scene's \
\`narration\` that cannot be said in its seconds at 1.2× the voice's pace is a 400 naming it.

## Storyboards (extension)

A create may send a \`storyboard\` (schema \`Storyboard\`) instead of a prompt, or with one for its images: \
the video scene by scene, rendered as written — nothing is planned and no LLM is asked. \
\`variables\` fill its \`{{name}}\` placeholders; a missing one is a 400 naming it (\`variables.name\`); \
a storyboard that cannot be drawn is a 400 naming its path (\`storyboard.scenes.2.value\`). \
It is billed as the embedded composer's call: the storyboard in, the composition out, at the model's price.

\`\`\`json
{"model": "gpt-4o-mini",
 "storyboard": {"scenes": [
   {"kind": "title", "title": "Welcome, {{name}}"},
   {"kind": "counter", "value": "{{points}}", "suffix": "+", "label": "points this year", "seconds": 3},
   {"kind": "cta", "text": "See you on {{date}}", "link": "nimbus.app", "date": "{{date}}"}],
  "look": {"name": "midnight", "palette": {"accent": "#14b8a6"}}},
 "variables": {"name": "Ana", "points": "1,250", "date": "Friday 21 June"}}
\`\`\`

**The edit loop**: a generation the embedded composer planned links its storyboard as \`storyboard_url\` \
(signed like \`artifact_url\`). Fetch it, change one figure, and send it back as \`storyboard\`: \
unchanged it makes the byte-identical composition; changed, only that scene differs.

1. \`POST /v1/responses\` with \`input\` (a prompt) → the generation, completed, with \`storyboard_url\`;
2. \`GET storyboard_url.url\` → the storyboard (JSON);
3. change \`scenes[i].value\`;
4. \`POST /v1/responses\` with \`storyboard\` → the same video with that change.

| kind | fields | Lottie | HyperFrames |
|---|---|---|---|
| \`title\` | \`title\`, \`subtitle\`?, \`image\`? | ![title, Lottie](/docs/pictures/lottie-title.png) \
| ![title, HyperFrames](/docs/pictures/hyperframes-title.png) |
| \`statement\` | \`text\` | ![statement, Lottie](/docs/pictures/lottie-statement.png) \
| ![statement, HyperFrames](/docs/pictures/hyperframes-statement.png) |
| \`counter\` | \`value\`, \`prefix\`?, \`suffix\`?, \`label\`, \`qualifier\`? \
| ![counter, Lottie](/docs/pictures/lottie-counter.png) \
| ![counter, HyperFrames](/docs/pictures/hyperframes-counter.png) |
| \`progress\` | \`value\` (0–100), \`prefix\`?, \`suffix\`? (default %), \`label\` \
| ![progress, Lottie](/docs/pictures/lottie-progress.png) \
| ![progress, HyperFrames](/docs/pictures/hyperframes-progress.png) |
| \`bars\` | \`label\`?, \`items\` [{\`label\`, \`value\`, \`prefix\`?, \`suffix\`?}] \
| ![bars, Lottie](/docs/pictures/lottie-bars.png) | ![bars, HyperFrames](/docs/pictures/hyperframes-bars.png) |
| \`list\` | \`heading\`?, \`items\` | ![list, Lottie](/docs/pictures/lottie-list.png) \
| ![list, HyperFrames](/docs/pictures/hyperframes-list.png) |
| \`steps\` | \`heading\`?, \`items\` (text or {\`marker\`?, \`text\`}) \
| ![steps, Lottie](/docs/pictures/lottie-steps.png) | ![steps, HyperFrames](/docs/pictures/hyperframes-steps.png) |
| \`countdown\` | \`numbers\`, \`payoff\`? | ![countdown, Lottie](/docs/pictures/lottie-countdown.png) \
| ![countdown, HyperFrames](/docs/pictures/hyperframes-countdown.png) |
| \`quote\` | \`quote\`, \`attribution\`? | ![quote, Lottie](/docs/pictures/lottie-quote.png) \
| ![quote, HyperFrames](/docs/pictures/hyperframes-quote.png) |
| \`cta\` | \`text\`, \`link\`?, \`date\`?, \`price\`? | ![cta, Lottie](/docs/pictures/lottie-cta.png) \
| ![cta, HyperFrames](/docs/pictures/hyperframes-cta.png) |
| \`image\` | \`asset\` (\`image-1\`…), \`caption\`? | ![image, Lottie](/docs/pictures/lottie-image.png) \
| ![image, HyperFrames](/docs/pictures/hyperframes-image.png) |`;

export function openApiDocument(serverUrl: string) {
  const { responsesRequest, chatRequest } = requestSchemas();
  const videoRequests = videoRequestSchemas();
  const ex = generationExamples(serverUrl);
  const streams = eventStreamExamples(serverUrl);
  const schemas = {
    ...componentSchemas(
      {
        CreateResponseRequest: responsesRequest,
        CreateChatCompletionRequest: chatRequest,
        PutBrandKitRequest: brandPutSchema,
        CreateWebhookEndpointRequest: webhookEndpointCreateSchema,
        Storyboard: storyboardSchema,
        CreateVideoRequest: videoRequests.create,
        RemixVideoRequest: videoRequests.remix,
      },
      'input',
    ),
    ...componentSchemas(
      {
        Response: responsesView,
        ResponseList: responsesList,
        ChatCompletion: chatView,
        ChatCompletionList: chatList,
        CancelResult: cancelResult,
        EngineCatalog: enginesCatalog,
        Usage: usageResource,
        BrandKit: brandKit,
        WebhookEndpoint: webhookEndpointSchema,
        WebhookEndpointList: webhookEndpointList,
        WebhookEndpointDeleted: webhookEndpointDeleted,
        Progress: progress,
        SignedUrl: signedUrl,
        Error: errorBody,
        RateLimitError: rateLimitBody,
        WebhookEvent: webhookEvent,
        Video: videoObject,
        VideoList: videoList,
        VideoDeleted: videoDeleted,
        OpenAIError: openAiErrorBody,
        OpenAIVideoEvent: openAiVideoEvent,
      },
      'output',
    ),
  };
  const header = (description: string) => ({ description, schema: { type: 'integer' } });
  const health = (operationId: string, summary: string, description: string, responses: object) => ({
    get: { tags: ['Operations'], operationId, summary, description, security: [], responses },
  });
  const healthBody = (properties: object, example: object) => ({
    'application/json': { schema: { type: 'object', properties, required: Object.keys(properties) }, example },
  });
  const checks = {
    type: 'object',
    description: 'Each backing service: `ok` or `unavailable: <reason>`',
    additionalProperties: { type: 'string' },
  };
  const processes = {
    type: 'object',
    description:
      'Only under `npm start`: each process it runs (`postgres` and `temporal` when embedded, `worker`, ' +
      '`api`) and its state',
    additionalProperties: {
      type: 'object',
      properties: {
        state: {
          type: 'string',
          enum: ['starting', 'up', 'restarting', 'stopping'],
          description: '`restarting`: it exited unexpectedly and is waiting out its backoff or starting again',
        },
        pid: { type: ['integer', 'null'] },
        restarts: { type: 'integer', description: 'Restarts since `npm start` began, the one under way included' },
        last_exit: {
          type: ['string', 'null'],
          description: 'How it last ended unexpectedly (`signal SIGKILL`, `exit code 1`, `failed to start: …`)',
        },
        since: { type: 'string', format: 'date-time', description: 'When it entered this state' },
      },
      required: ['state', 'pid', 'restarts', 'last_exit', 'since'],
    },
  };
  const upProcess = { state: 'up', pid: 4242, restarts: 0, last_exit: null, since: '2026-01-01T00:00:00.000Z' };

  return withGuardAnswers(
    withCurlSamples(
      {
        openapi: '3.1.0',
        info: { title: 'Video generation API', version: '1.0.0', description: `${REFERENCE_INTRO}\n\n${VIDEOS_INTRO}` },
        servers: [{ url: serverUrl, description: 'This deployment' }],
        tags: [
          {
            name: 'Responses',
            description: 'Generations in the Responses shape (`POST /v1/responses`), as OpenAI’s Responses API',
          },
          {
            name: 'Chat Completions',
            description: 'Generations in the Chat Completions shape, for clients that speak OpenAI’s chat API',
          },
          {
            name: 'Videos',
            description:
              'Extension: OpenAI’s Videos API (`/v1/videos`) over the same generations, a drop-in for its SDKs; ' +
              'errors in OpenAI’s body',
          },
          { name: 'Usage', description: 'Credit and usage of the key’s organization' },
          {
            name: 'Brand',
            description:
              'Extension: the organization’s brand kit (logo, colours, type style), applied to every generation',
          },
          {
            name: 'Webhook endpoints',
            description:
              'Extension: the organization’s endpoints for OpenAI’s `video.completed` / `video.failed` events of ' +
              'every video made on `/v1/videos`, signed with the organization’s secret',
          },
          { name: 'Catalog', description: 'Engines, orchestration models and prices (public)' },
          { name: 'Operations', description: 'Extension: probes for load balancers and orchestrators (public)' },
          {
            name: 'Webhooks',
            description:
              'Signed events this service POSTs to a generation’s `webhook_url` (Standard Webhooks; ' +
              'the brand word is `service`)',
          },
        ],
        security: [{ bearer: [] }],
        paths: {
          ...generationPaths({
            tag: 'Responses',
            base: '/v1/responses',
            noun: 'Response',
            schema: 'Response',
            streamExample: streams.responses,
            streamDescription:
              'Events `response.created`, `response.queued`, `response.in_progress`, ' +
              '`response.progress` ({response_id, progress}), then `response.completed` / `response.failed` / ' +
              '`response.cancelled` / `response.incomplete` with the whole generation; ' +
              'each has `type` and `sequence_number`',
            examples: {
              created: ex.response.queued,
              inFlight: {
                in_progress: ex.response.in_progress,
                completed: ex.response.completed,
                failed: ex.response.failed,
              },
              list: ex.responseList,
              cancelled: { id: EXAMPLE_ID, cancelled: true },
            },
          }),
          ...generationPaths({
            tag: 'Chat Completions',
            base: '/v1/chat/completions',
            noun: 'ChatCompletion',
            schema: 'ChatCompletion',
            streamExample: streams.chat,
            streamDescription:
              '`chat.completion.chunk` objects: `choices[0].delta` carries status and progress; ' +
              'the last carries `video_url` (or `error`), `finish_reason` (`stop`, `error` or `cancelled`) and ' +
              'usage, then `data: [DONE]`',
            examples: {
              created: ex.chat.pending,
              inFlight: { processing: ex.chat.processing, completed: ex.chat.completed, cancelled: ex.chat.cancelled },
              list: ex.chatList,
              cancelled: { id: EXAMPLE_ID, cancelled: true },
            },
          }),
          ...videoPaths(serverUrl),
          '/v1/usage': {
            get: {
              tags: ['Usage'],
              operationId: 'getUsage',
              summary: 'Credit balance and usage statistics of the key’s organization',
              description: 'Balance, all-time totals, the last days per day and per route, and the latest generations.',
              responses: { ...ok('Usage', jsonOf('Usage', { usage: usageExample() })), ...errors(401, 429, 503) },
            },
          },
          '/v1/brand': {
            get: {
              tags: ['Brand'],
              operationId: 'getBrandKit',
              summary: 'The organization’s brand kit (extension)',
              description:
                'Logo, colours, type style and whether the closing scene shows the logo. ' +
                'Every generation of the organization applies it unless its request says `brand: false` ' +
                '(or overrides fields with a `brand` object). Any key may read it.',
              responses: {
                ...ok(
                  'The brand kit (all null until one is set)',
                  jsonOf('BrandKit', { kit: brandKitExample(serverUrl) }),
                ),
                ...errors(401, 429, 503),
              },
            },
            put: {
              tags: ['Brand'],
              operationId: 'putBrandKit',
              summary: 'Replace the organization’s brand kit (extension)',
              description:
                'Replaces the whole kit; an absent `logo` keeps the stored one, `null` removes it. ' +
                'Only keys created with the right to manage the brand may call it (dashboard, API keys; ' +
                'admin CLI `create-key --manage-brand`): the kit restyles every video of the organization, ' +
                'so a key that only makes videos cannot change it. Members change it on the dashboard’s Brand page. ' +
                'A text/background pair below WCAG AA 4.5:1 is accepted and flagged in `contrast`. ' +
                'Generations already created keep the kit they started with.',
              requestBody: {
                required: true,
                content: { 'application/json': { schema: ref('PutBrandKitRequest'), example: BRAND_PUT_EXAMPLE } },
              },
              responses: {
                ...ok('The kit as stored', jsonOf('BrandKit', { kit: brandKitExample(serverUrl) })),
                ...errors(400, 401, 403),
                ...conflict(
                  'The new logo would take the organization past its media storage quota (`media_quota_exceeded`); ' +
                    'the kit is unchanged',
                  CONFLICT_EXAMPLES.brand,
                ),
                ...errors(413, 415, 429, 503),
              },
            },
          },
          '/v1/webhook_endpoints': {
            get: {
              tags: ['Webhook endpoints'],
              operationId: 'listWebhookEndpoints',
              summary: 'The organization’s webhook endpoints (extension)',
              description:
                'Any key of the organization may list them; members see them on the dashboard’s Webhooks page.',
              responses: {
                ...ok('The endpoints, oldest first', jsonOf('WebhookEndpointList', { list: endpointListExample })),
                ...errors(401, 429, 503),
              },
            },
            post: {
              tags: ['Webhook endpoints'],
              operationId: 'createWebhookEndpoint',
              summary: 'Add a webhook endpoint (extension)',
              description:
                'Every video the organization makes on `/v1/videos` then sends OpenAI’s `video.completed` or ' +
                '`video.failed` event to it (beside a request’s own `webhook_url`), signed with the organization’s ' +
                'secret under the Standard Webhooks header names, so `client.webhooks.unwrap()` verifies it. The URL ' +
                'must be public HTTPS. The same URL again gives the endpoint already there; ' +
                `at most ${MAX_WEBHOOK_ENDPOINTS}.`,
              requestBody: {
                required: true,
                content: {
                  'application/json': {
                    schema: ref('CreateWebhookEndpointRequest'),
                    example: { url: 'https://example.com/webhooks/videos' },
                  },
                },
              },
              responses: {
                ...ok('The endpoint', jsonOf('WebhookEndpoint', { endpoint: endpointExample })),
                ...errors(400, 401),
                ...conflict(
                  `The organization has ${MAX_WEBHOOK_ENDPOINTS} endpoints already (\`endpoint_limit_reached\`)`,
                  CONFLICT_EXAMPLES.endpoint,
                ),
                ...errors(413, 415, 429, 503),
              },
            },
          },
          '/v1/webhook_endpoints/{id}': {
            delete: {
              tags: ['Webhook endpoints'],
              operationId: 'deleteWebhookEndpoint',
              summary: 'Remove a webhook endpoint (extension)',
              description: 'Events already on their way to it are still delivered; no further event goes there.',
              parameters: [
                {
                  name: 'id',
                  in: 'path',
                  required: true,
                  schema: { type: 'string', maxLength: 64 },
                  description: 'Endpoint id (`we_…`)',
                  example: endpointExample.id,
                },
              ],
              responses: {
                ...ok(
                  'Removed: it receives no further events',
                  jsonOf('WebhookEndpointDeleted', {
                    deleted: { id: endpointExample.id, object: 'webhook_endpoint.deleted', deleted: true },
                  }),
                ),
                ...errors(400, 401, 404, 429, 503),
              },
            },
          },
          '/v1/engines': {
            get: {
              tags: ['Catalog'],
              operationId: 'listEngines',
              summary: 'Public catalog of engines and orchestration models with token pricing',
              description: 'No key needed. The `engine` and `model` of a create come from here.',
              security: [],
              responses: {
                ...ok('Catalog', jsonOf('EngineCatalog', { catalog: catalogExample() }), false),
                ...errors(503),
              },
            },
          },
          '/healthz': health('getHealth', 'Liveness (extension)', 'The process answers.', {
            '200': {
              description: 'Up',
              content: healthBody(
                { status: { type: 'string', const: 'ok', description: 'Always `ok`' } },
                { status: 'ok' },
              ),
            },
          }),
          '/readyz': health(
            'getReadiness',
            'Readiness (extension)',
            'PostgreSQL and Temporal answer within 2 s. Under `npm start`, also the state of every process it runs: ' +
              '`degraded` while one is not up (a worker restarting), still 200 since this API serves and work queues ' +
              'in Temporal.',
            {
              '200': {
                description: 'Ready',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        status: {
                          type: 'string',
                          enum: ['ready', 'degraded'],
                          description: '`degraded`: a process `npm start` runs is not up (see `processes`)',
                        },
                        checks,
                        processes,
                      },
                      required: ['status', 'checks'],
                    },
                    example: {
                      status: 'degraded',
                      checks: { database: 'ok', temporal: 'ok' },
                      processes: {
                        postgres: upProcess,
                        temporal: { ...upProcess, pid: 4243 },
                        worker: {
                          state: 'restarting',
                          pid: null,
                          restarts: 1,
                          last_exit: 'signal SIGKILL',
                          since: '2026-01-01T00:10:00.000Z',
                        },
                        api: { ...upProcess, pid: 4245 },
                      },
                    },
                  },
                },
              },
              '503': {
                description: 'A backing service does not answer (`not_ready`)',
                content: {
                  'application/json': {
                    schema: ref('Error'),
                    example: {
                      error: { code: 'not_ready', message: 'temporal unavailable: timed out after 2000 ms' },
                      checks: { database: 'ok', temporal: 'unavailable: timed out after 2000 ms' },
                    },
                  },
                },
              },
            },
          ),
        },
        webhooks: { ...webhooks(ex.webhook), ...videoWebhooks() },
        components: {
          schemas,
          responses: componentResponses(),
          headers: {
            'Retry-After': header('Seconds to wait before retrying'),
            'X-RateLimit-Limit': header('Requests this key may make per window (when rate limiting is on)'),
            'X-RateLimit-Remaining': header('Requests left in the current window'),
            'X-RateLimit-Reset': header('When a slot frees up, Unix time in seconds'),
          },
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`vg_…`) as a bearer token' },
          },
        },
      },
      serverUrl,
    ),
  );
}

type OperationObject = {
  security?: unknown[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, unknown>;
  'x-codeSamples'?: unknown[];
};

/**
 * Answers every operation can give before it runs (src/http/requestGuard.ts): 400 for a path or
 * query value that is not UTF-8 text without control characters; behind the key gate also 401 and
 * the per-address 429 of requests without a valid key.
 */
function withGuardAnswers<D extends { paths: object }>(doc: D): D {
  for (const operations of Object.values(doc.paths as Record<string, Record<string, OperationObject>>)) {
    for (const op of Object.values(operations)) {
      const statuses = [400, ...(op.security?.length !== 0 ? [401, 429] : [])];
      for (const status of statuses) op.responses[String(status)] ??= errors(status)[String(status)];
    }
  }
  return doc;
}

/** A copyable curl command per operation (Redoc's `x-codeSamples`). */
function withCurlSamples<D extends { paths: object }>(doc: D, serverUrl: string): D {
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, OperationObject>>)) {
    for (const [method, op] of Object.entries(operations)) {
      const url = serverUrl + path.replace('{id}', EXAMPLE_ID);
      const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${url}`];
      if (op.security?.length !== 0) lines.push('-H "Authorization: Bearer $VIDEO_API_KEY"');
      const example = op.requestBody?.content['application/json']?.example;
      if (example) lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(example)}'`);
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: lines.join(' \\\n  ') }];
    }
  }
  return doc;
}
