// What the reference shows: a request and an answer for every operation and status, in the shapes
// of ./schemas.ts (`redocly lint` in the tests checks each example against its schema). The ids,
// prices and URLs are made up; engine ids stay in src/engines/ (the catalog example is a placeholder).
import { MAX_WEBHOOK_ENDPOINTS } from '../../db/webhookEndpoints.js';
import { compositionKey, spritesheetKey, thumbnailKey, videoKey } from '../../storage/keys.js';

const ID = 'gen_0123456789abcdef01234567';
const CREATED = 1_795_000_000;
const media = (base: string, key: string) => ({
  url:
    `${base}/media/${key}?expires=${CREATED + 86_400}` +
    '&sig=3f1c0e5a9b7d2c4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e',
  expires_at: CREATED + 86_400,
});
const ENGINE = 'your-engine';
const MODEL = 'gpt-4o-mini';
const PROMPT = 'A 6-second launch teaser for Nimbus, the calm calendar. Sign up at nimbus.app';

/** Request bodies of the two creates: the examples the reference shows and its curl samples send. */
export const CREATE_REQUESTS: Record<string, unknown> = {
  '/v1/responses': { model: MODEL, input: PROMPT, engine: 'auto', width: 1080, height: 1920 },
  '/v1/chat/completions': { model: MODEL, messages: [{ role: 'user', content: PROMPT }], aspectRatio: '16:9' },
};
export const EXAMPLE_ID = ID;

const rendering = {
  stage: 'rendering',
  percent: 62,
  frames_rendered: 96,
  frames_total: 180,
  eta_seconds: 7,
  provider: null,
  repair_round: null,
};

export function generationExamples(base: string) {
  const video = media(base, videoKey(ID));
  const tokens = { input: 2_140, output: 3_415 };
  const responseCommon = {
    id: ID,
    object: 'response',
    model: MODEL,
    engine: ENGINE,
    created_at: CREATED,
    artifact_url: null,
    artifact_type: null,
    storyboard_url: null,
    thumbnail_url: null,
    spritesheet_url: null,
    captions_url: null,
  };
  const previews = { thumbnail_url: media(base, thumbnailKey(ID)), spritesheet_url: media(base, spritesheetKey(ID)) };
  const message = (status: string, content: unknown[]) => [
    { type: 'message', id: `${ID}_msg`, role: 'assistant', status, content },
  ];
  const response = {
    queued: {
      ...responseCommon,
      status: 'queued',
      provider: null,
      completed_at: null,
      output: message('in_progress', []),
      output_video_url: null,
      usage: null,
      latency_ms: null,
      error: null,
      progress: {
        stage: 'queued',
        percent: 0,
        frames_rendered: null,
        frames_total: null,
        eta_seconds: null,
        provider: null,
        repair_round: null,
      },
    },
    in_progress: {
      ...responseCommon,
      status: 'in_progress',
      provider: 'openai',
      completed_at: null,
      output: message('in_progress', []),
      output_video_url: null,
      usage: null,
      latency_ms: null,
      error: null,
      progress: rendering,
    },
    completed: {
      ...responseCommon,
      status: 'completed',
      provider: 'openai',
      completed_at: CREATED * 1000 + 41_250,
      output: message('completed', [{ type: 'output_video', video_url: video }]),
      output_video_url: video.url,
      usage: {
        input_tokens: tokens.input,
        output_tokens: tokens.output,
        total_tokens: tokens.input + tokens.output,
        cost_usd: 0.00237,
      },
      latency_ms: 41_250,
      error: null,
      artifact_url: media(base, compositionKey(ID, 1, 'html')),
      artifact_type: 'text/html',
      ...previews,
      progress: null,
    },
    failed: {
      ...responseCommon,
      status: 'failed',
      provider: 'openai',
      completed_at: CREATED * 1000 + 12_800,
      output: message('incomplete', []),
      output_video_url: null,
      usage: {
        input_tokens: tokens.input,
        output_tokens: tokens.output,
        total_tokens: tokens.input + tokens.output,
        cost_usd: 0.00237,
      },
      latency_ms: null,
      error: { code: 'render_failed', message: 'The composition could not be rendered: no visible frame' },
      progress: null,
    },
  };
  const chatCommon = {
    id: ID,
    object: 'chat.completion',
    model: MODEL,
    engine: ENGINE,
    created: CREATED,
    artifact_url: null,
    artifact_type: null,
    storyboard_url: null,
    thumbnail_url: null,
    spritesheet_url: null,
    captions_url: null,
  };
  const choice = (videoUrl: unknown, finish: string | null) => [
    { index: 0, message: { role: 'assistant', content: null, video_url: videoUrl }, finish_reason: finish },
  ];
  const chat = {
    pending: {
      ...chatCommon,
      status: 'pending',
      provider: null,
      completed_at: null,
      choices: choice(null, null),
      usage: null,
      latency_ms: null,
      error: null,
      progress: response.queued.progress,
    },
    processing: {
      ...chatCommon,
      status: 'processing',
      provider: 'openai',
      completed_at: null,
      choices: choice(null, null),
      usage: null,
      latency_ms: null,
      error: null,
      progress: rendering,
    },
    completed: {
      ...chatCommon,
      status: 'completed',
      provider: 'openai',
      completed_at: response.completed.completed_at,
      choices: choice(video, 'stop'),
      usage: {
        prompt_tokens: tokens.input,
        completion_tokens: tokens.output,
        total_tokens: tokens.input + tokens.output,
        cost_usd: 0.00237,
      },
      latency_ms: 41_250,
      error: null,
      artifact_url: response.completed.artifact_url,
      artifact_type: 'text/html',
      ...previews,
      progress: null,
    },
    cancelled: {
      ...chatCommon,
      status: 'cancelled',
      provider: 'openai',
      completed_at: CREATED * 1000 + 5_300,
      choices: choice(null, null),
      usage: null,
      latency_ms: null,
      error: { message: 'Generation was cancelled', type: 'cancelled' },
      progress: null,
    },
  };
  const list = <T extends { id: string }>(items: T[]) => ({
    object: 'list',
    data: items,
    first_id: items[0]!.id,
    last_id: items.at(-1)!.id,
    has_more: true,
  });
  return {
    response,
    chat,
    responseList: list([{ ...response.completed, progress: null }]),
    chatList: list([{ ...chat.completed, progress: null }]),
    webhook: webhookExamples(video.url),
  };
}

/** Server-sent events as the streams send them (the Responses events' `response` objects abridged). */
export function eventStreamExamples(base: string) {
  const video = media(base, videoKey(ID));
  const abridged = (status: string) => ({ id: ID, object: 'response', status, '…': '…' });
  const sse = (events: [string | null, unknown][]) =>
    events
      .map(
        ([event, data]) =>
          `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      )
      .join('');
  const chunk = (status: string, delta: object, finishReason: string | null, usage: unknown = null) => ({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    engine: ENGINE,
    provider: 'openai',
    status,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    usage,
  });
  return {
    responses: sse([
      ['response.created', { type: 'response.created', sequence_number: 0, response: abridged('queued') }],
      ['response.queued', { type: 'response.queued', sequence_number: 1, response: abridged('queued') }],
      ['response.in_progress', { type: 'response.in_progress', sequence_number: 2, response: abridged('in_progress') }],
      ['response.progress', { type: 'response.progress', sequence_number: 7, response_id: ID, progress: rendering }],
      ['response.completed', { type: 'response.completed', sequence_number: 12, response: abridged('completed') }],
    ]),
    chat: sse([
      [null, chunk('processing', { role: 'assistant', status: 'processing', progress: rendering }, null)],
      [
        null,
        chunk('completed', { status: 'completed', video_url: video }, 'stop', {
          prompt_tokens: 2_140,
          completion_tokens: 3_415,
          total_tokens: 5_555,
          cost_usd: 0.00237,
        }),
      ],
      [null, '[DONE]'],
    ]),
  };
}

function webhookExamples(videoUrl: string) {
  const object = { id: ID, object: 'video.generation', engine: ENGINE, model: MODEL };
  const event = (n: number, type: string, data: Record<string, unknown>) => ({
    id: `evt_00000000000000000000000${n}`,
    object: 'event',
    created: CREATED + n,
    type,
    data: { object: data },
  });
  return {
    'video.generation.queued': event(1, 'video.generation.queued', {
      ...object,
      status: 'queued',
      provider: null,
      output_url: null,
      error_message: null,
    }),
    'video.generation.started': event(2, 'video.generation.started', {
      ...object,
      status: 'in_progress',
      provider: 'openai',
      output_url: null,
      error_message: null,
    }),
    'video.generation.progress': event(3, 'video.generation.progress', {
      ...object,
      status: 'in_progress',
      provider: 'openai',
      output_url: null,
      error_message: null,
      progress: rendering,
    }),
    'video.generation.completed': event(4, 'video.generation.completed', {
      id: ID,
      object: 'video.generation',
      status: 'completed',
      output_url: videoUrl,
      error_message: null,
    }),
  };
}

const error = (code: string, message: string, param?: string) => ({
  error: { code, message, ...(param ? { param } : {}) },
});

/** Error bodies by status: each a few of the codes that status carries. */
export const ERROR_EXAMPLES: Record<number, Record<string, { summary: string; value: unknown }>> = {
  400: {
    missing_field: {
      summary: 'A required field is missing',
      value: error('invalid_request', 'model: Invalid input: expected string, received undefined', 'model'),
    },
    unknown_field: {
      summary: 'A field this API does not know',
      value: error('invalid_request', 'duration: Unrecognized key: "duration"', 'duration'),
    },
    invalid_webhook_url: {
      summary: 'webhook_url is not public HTTPS',
      value: error('invalid_webhook_url', 'webhook_url must be a public HTTPS URL: http is not https', 'webhook_url'),
    },
    invalid_brand_colour: {
      summary: 'Extension: a brand colour that is not #rrggbb',
      value: error('invalid_request', 'colors.background: must be a colour written #rrggbb', 'colors.background'),
    },
    invalid_json: {
      summary: 'The body is not JSON',
      value: error('invalid_json', 'Request body is not valid JSON: Unexpected token } in JSON at position 12'),
    },
  },
  401: {
    unauthorized: {
      summary: 'No key, or a revoked or deleted one',
      value: error('unauthorized', 'Missing or invalid API key'),
    },
  },
  403: {
    brand_not_allowed: {
      summary: 'The key may not change the brand kit',
      value: error(
        'brand_not_allowed',
        'This API key may not change the brand kit: use a key created with the right to manage it (dashboard, ' +
          'API keys), or the dashboard’s Brand page',
      ),
    },
  },
  402: {
    insufficient_credits: {
      summary: 'The balance does not cover the hold',
      value: error(
        'insufficient_credits',
        'This generation holds up to 14.0357 cents of credit while it runs (its worst-case cost) and the balance ' +
          'covers 3.2 cents beyond the holds of generations in flight; add credits or wait for those to finish',
      ),
    },
  },
  404: {
    not_found: {
      summary: 'No such generation in this organization',
      value: error('not_found', `Generation ${ID} not found`),
    },
  },
  413: {
    request_too_large: { summary: 'Body over 1 MiB', value: error('request_too_large', 'request entity too large') },
  },
  415: {
    unsupported_media_type: {
      summary: 'Body is not JSON',
      value: error('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json'),
    },
  },
  429: {
    rate_limited: {
      summary: 'Too many requests for this key',
      value: {
        ...error(
          'RATE_LIMIT_EXCEEDED',
          'Rate limit of 100 requests per 60 s exceeded for this API key; retry after 12 s',
        ),
        message: 'Rate limit of 100 requests per 60 s exceeded for this API key; retry after 12 s',
        data: { retry_after: 12 },
      },
    },
    stream_limit: {
      summary: 'Extension: too many event streams open for this key (or its organization)',
      value: {
        ...error(
          'STREAM_LIMIT_EXCEEDED',
          'At most 20 event streams may be open per API key; close one before opening another',
        ),
        message: 'At most 20 event streams may be open per API key; close one before opening another',
        data: { retry_after: 30 },
      },
    },
  },
  503: {
    temporarily_unavailable: {
      summary: 'A backing service is down',
      value: error('temporarily_unavailable', 'A backing service is unavailable; retry shortly'),
    },
  },
};

/** 409s differ by operation: a create's Idempotency-Key, a cancel's finished generation. */
export const CONFLICT_EXAMPLES = {
  create: {
    idempotency_key_reused: {
      summary: 'The key was used with a different body',
      value: error(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request in the last 24 hours; send a new key for a new request',
        'Idempotency-Key',
      ),
    },
    idempotency_key_in_use: {
      summary: 'The key’s first request is still running',
      value: error(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed; retry shortly',
      ),
    },
    media_quota_exceeded: {
      summary: 'Extension: the organization’s media storage is full',
      value: error(
        'media_quota_exceeded',
        "This organization's media storage is full: 10239.9 MiB of its 10240.0 MiB are used; the operator can " +
          'raise MEDIA_QUOTA_MB_PER_ORGANIZATION',
        'input',
      ),
    },
  },
  brand: {
    media_quota_exceeded: {
      summary: 'The organization’s media storage is full',
      value: error(
        'media_quota_exceeded',
        "This organization's media storage is full: 10239.9 MiB of its 10240.0 MiB are used; the operator can " +
          'raise MEDIA_QUOTA_MB_PER_ORGANIZATION',
        'logo',
      ),
    },
  },
  endpoint: {
    endpoint_limit_reached: {
      summary: 'The organization has as many endpoints as allowed',
      value: error(
        'endpoint_limit_reached',
        `The organization has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints already: delete one first`,
      ),
    },
  },
  cancel: {
    generation_finished: {
      summary: 'Too late to cancel',
      value: error('generation_finished', `Generation ${ID} already finished with status completed`),
    },
  },
};

export function catalogExample() {
  const pricing = {
    input_per_million_usd: 0.15,
    output_per_million_usd: 0.6,
    premium_multiplier: 1.2,
    effective_input_per_million_usd: 0.18,
    effective_output_per_million_usd: 0.72,
  };
  return {
    engines: [{ id: ENGINE, name: 'Your engine', supported_models: [{ id: MODEL, name: 'GPT-4o mini', pricing }] }],
  };
}

export function usageExample() {
  const day = { request_count: 12, completed_count: 11, failed_count: 1, total_cost_cents: 3.1 };
  return {
    credit_balance: 9_842.5,
    credit_held: 14.0357,
    totals: { total_requests: 57, completed_requests: 53, failed_requests: 4, total_cost_cents: 15.7 },
    daily_usage: [{ date: '2026-11-23', ...day, total_duration_seconds: 88 }],
    daily_usage_by_route: [
      {
        date: '2026-11-23',
        routes: [
          {
            engine: ENGINE,
            model: MODEL,
            provider: 'openai',
            ...day,
            total_prompt_tokens: 25_680,
            total_completion_tokens: 40_980,
            avg_latency_ms: 38_400,
          },
        ],
      },
    ],
    recent_requests: [
      {
        id: ID,
        status: 'completed',
        model_name: MODEL,
        engine: ENGINE,
        cost_cents: 0.24,
        latency_ms: 41_250,
        created_at: CREATED * 1000,
        completed_at: CREATED * 1000 + 41_250,
      },
    ],
  };
}

/** Extension: a brand kit as GET and PUT /v1/brand answer it. */
export function brandKitExample(serverUrl: string) {
  return {
    object: 'brand_kit',
    colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
    font: 'serif',
    logo: {
      url: `${serverUrl}/media/brand/org_0f3a/logo-5d41402abc4b2a76b9719d91.png?expires=1795003600&sig=…`,
      expires_at: 1_795_003_600,
      media_type: 'image/png',
      bytes: 18_342,
      width: 640,
      height: 200,
    },
    logo_on_closing: true,
    contrast: { text_on_background: 16.21, meets_wcag_aa: true },
    updated_at: '2026-11-23T09:12:44.000Z',
  };
}

/** Extension: a PUT /v1/brand body. */
export const BRAND_PUT_EXAMPLE = {
  colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
  font: 'serif',
  logo:
    'data:image/png;base64,' +
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/ZQ0GaQAAAABJRU5ErkJggg==',
  logo_on_closing: true,
};

/** The OpenAI Videos shape's answers (extension). */
export function videoExamples(base: string) {
  const common = {
    id: ID,
    object: 'video',
    model: 'sora-2',
    created_at: CREATED,
    expires_at: null,
    prompt: PROMPT,
    remixed_from_video_id: null,
    seconds: '8',
    size: '720x1280',
    engine: ENGINE,
  };
  const none = { video_url: null, thumbnail_url: null, spritesheet_url: null };
  const completed = {
    ...common,
    status: 'completed',
    progress: 100,
    completed_at: CREATED + 41,
    error: null,
    video_url: media(base, videoKey(ID)),
    thumbnail_url: media(base, thumbnailKey(ID)),
    spritesheet_url: media(base, spritesheetKey(ID)),
  };
  return {
    queued: { ...common, status: 'queued', progress: 0, completed_at: null, error: null, ...none },
    in_progress: { ...common, status: 'in_progress', progress: 62, completed_at: null, error: null, ...none },
    completed,
    failed: {
      ...common,
      status: 'failed',
      progress: 0,
      completed_at: CREATED + 13,
      error: { code: 'render_failed', message: 'The composition could not be rendered: no visible frame' },
      ...none,
    },
    remix: {
      ...common,
      id: 'gen_89abcdef0123456789abcdef',
      prompt: 'Make it a winter sale instead',
      remixed_from_video_id: ID,
      status: 'queued',
      progress: 0,
      completed_at: null,
      error: null,
      ...none,
    },
    list: { object: 'list', data: [completed], first_id: ID, last_id: ID, has_more: true },
    deleted: { id: ID, object: 'video.deleted', deleted: true },
    create: { prompt: PROMPT, model: 'sora-2', seconds: '8', size: '720x1280' },
    remixRequest: { prompt: 'Make it a winter sale instead' },
    errors: {
      400: {
        error: {
          message: 'size: must be "<width>x<height>", for example "720x1280"',
          type: 'invalid_request_error',
          param: 'size',
          code: 'invalid_request',
        },
      },
      401: { error: { message: 'Invalid API key', type: 'authentication_error', param: null, code: 'unauthorized' } },
      402: {
        error: {
          message: 'This generation holds up to 5 cents of credit while it runs; add credits',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_credits',
        },
      },
      404: {
        error: {
          message: `No generation with id ${ID}`,
          type: 'invalid_request_error',
          param: null,
          code: 'not_found',
        },
      },
      409: {
        error: {
          message: `Video ${ID} is in_progress: it has no content`,
          type: 'invalid_request_error',
          param: null,
          code: 'video_not_ready',
        },
      },
      413: {
        error: {
          message: 'Request body is larger than 10747904 bytes',
          type: 'invalid_request_error',
          param: null,
          code: 'request_too_large',
        },
      },
      415: {
        error: {
          message: 'Send the request body as JSON (Content-Type: application/json) or multipart/form-data',
          type: 'invalid_request_error',
          param: null,
          code: 'unsupported_media_type',
        },
      },
      429: {
        error: { message: 'Rate limit exceeded', type: 'rate_limit_error', param: null, code: 'RATE_LIMIT_EXCEEDED' },
      },
      503: {
        error: {
          message: 'A backing service is unavailable; retry shortly',
          type: 'server_error',
          param: null,
          code: 'temporarily_unavailable',
        },
      },
    } as Record<number, unknown>,
  };
}

/** An organization webhook endpoint (extension), as created and listed. */
export const endpointExample = {
  id: 'we_5d0c9a3e1f2b4c6d8e7f9a0b',
  object: 'webhook_endpoint' as const,
  url: 'https://example.com/webhooks/videos',
  created_at: 1764201600,
};
export const endpointListExample = { object: 'list' as const, data: [endpointExample] };
