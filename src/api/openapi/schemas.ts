// Zod schemas of what the API answers and what its webhooks deliver. They feed the OpenAPI document
// (every field described: units included), and the tests hold real responses and deliveries to them
// (strict objects), so the document cannot drift from the behaviour.
import { z } from 'zod';

const unixSeconds = (what: string) => z.number().int().describe(`${what}, Unix time in seconds`);
const unixMs = (what: string) => z.number().int().describe(`${what}, Unix time in milliseconds`);

export const signedUrl = z
  .strictObject({
    url: z.string().describe('Download URL, signed: works without the API key until `expires_at`'),
    expires_at: unixSeconds('When the signature expires'),
  })
  .describe('A signed download URL. Fetch the generation again for a fresh one');

export const errorBody = z
  .looseObject({
    error: z
      .strictObject({
        code: z
          .string()
          .describe('Stable, machine-readable reason, for example `invalid_request` or `insufficient_credits`'),
        message: z.string().describe('What went wrong, for a person'),
        param: z
          .string()
          .optional()
          .describe('The offending field, parameter or header, as a dotted path (`input.0.content.1.image_url`)'),
      })
      .describe('The failure'),
  })
  .describe('The one error shape of the API (every 4xx and 5xx)');

/** 429: the error shape plus the fields of interface section 7's rate-limit body. */
export const rateLimitBody = z
  .strictObject({
    error: errorBody.shape.error,
    message: z.string().describe('Same as `error.message`'),
    data: z
      .strictObject({
        retry_after: z.number().int().describe('Seconds to wait before retrying (also the Retry-After header)'),
      })
      .describe('Retry hint'),
  })
  .describe('The error shape, plus `message` and `data.retry_after` (interface section 7)');

/** Extension: where an in-flight generation is; null once terminal. */
export const progress = z
  .strictObject({
    stage: z
      .enum(['queued', 'composing', 'rendering', 'encoding', 'storing'])
      .describe('What is happening now: waiting, the LLM writing the composition, frames, the MP4, upload'),
    percent: z.number().int().min(0).max(100).describe('Percent of the whole generation done; never decreases'),
    frames_rendered: z.number().int().nullable().describe('Frames rendered so far (rendering and encoding); else null'),
    frames_total: z.number().int().nullable().describe('Frames the video has (rendering and encoding); else null'),
    eta_seconds: z
      .number()
      .int()
      .nullable()
      .describe('Estimated seconds left, from the render pace; null until frames are rendered'),
    provider: z.string().nullable().describe('While composing: the provider being called'),
    repair_round: z
      .number()
      .int()
      .nullable()
      .describe(
        'While composing: 0 for the first draft, then 1, 2… for each repair of a composition the engine refused',
      ),
  })
  .describe('Extension: live progress of a generation in flight');
const progressField = progress
  .nullable()
  .describe(
    'Extension: live progress while in flight (`GET` reads it from the running workflow); ' +
      'null once terminal and in lists',
  );

const usageOf = (input: string, output: string) =>
  z
    .strictObject({
      [input]: z.number().int().describe('Tokens the orchestration LLM read (prompt, instructions, repairs)'),
      [output]: z.number().int().describe('Tokens the orchestration LLM wrote (the composition)'),
      total_tokens: z.number().int().describe('Sum of both'),
      cost_usd: z.number().describe('What the generation cost, in US dollars (the balance is debited in cents)'),
    })
    .nullable()
    .describe('Tokens and cost, once the LLM answered; null before');

const common = {
  id: z.string().describe('Generation id, prefixed `gen_`'),
  model: z.string().describe('Orchestration LLM id (see GET /v1/engines)'),
  engine: z.string().describe('Rendering engine id (see GET /v1/engines)'),
  provider: z.string().nullable().describe('Provider that served the LLM call; null until one answered'),
  completed_at: z
    .number()
    .int()
    .nullable()
    .describe('When it reached a terminal status, Unix time in milliseconds; null before'),
  latency_ms: z
    .number()
    .int()
    .nullable()
    .describe(
      'Milliseconds from creation to the terminal status, set on every terminal status (completed, failed, ' +
        'cancelled); null while in flight',
    ),
  artifact_url: signedUrl
    .nullable()
    .describe('The engine’s own artifact (for example the Lottie JSON) when produced; else null'),
  artifact_type: z
    .string()
    .nullable()
    .describe('Media type of the artifact (`application/json`, `text/html`); null without one'),
  storyboard_url: signedUrl
    .nullable()
    .describe(
      'Extension: the storyboard the video draws (JSON, the `storyboard` request field’s form), ' +
        'when the embedded composer planned it or the request sent it; null otherwise (an LLM’s composition, ' +
        'or before it is known). Change it and send it back as `storyboard` to make the same video with that change',
    ),
  thumbnail_url: signedUrl
    .nullable()
    .describe(
      'Extension: the completed video’s thumbnail, a JPEG of the frame where the title is fully drawn (not frame 0), ' +
        'at the video’s size; null until completed',
    ),
  spritesheet_url: signedUrl
    .nullable()
    .describe(
      'Extension: the completed video’s sprite sheet, a JPEG grid of 5 × 5 evenly spaced frames, row by row from the ' +
        'top left, tile k at k × duration / 25 s, each 160 px wide; null until completed',
    ),
  captions_url: signedUrl
    .nullable()
    .describe(
      'Extension: the narration’s captions (WebVTT, one cue per spoken phrase) when the request asked for ' +
        '`audio.captions` `"sidecar"` or `"burned"` (drawn on the video as well) and the generation completed; ' +
        'null otherwise',
    ),
  progress: progressField,
};

export const responsesView = z
  .strictObject({
    id: common.id,
    object: z.literal('response').describe('Always `response`'),
    status: z
      .enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete'])
      .describe(
        '`queued` → `in_progress` → `completed`, `failed` or `cancelled`. `incomplete` is in the interface’s ' +
          'vocabulary (terminal, counted as failed); this service does not produce it today',
      ),
    model: common.model,
    engine: common.engine,
    provider: common.provider,
    created_at: unixSeconds('When it was created'),
    completed_at: common.completed_at,
    output: z
      .array(
        z
          .strictObject({
            type: z.literal('message').describe('Always `message`'),
            id: z.string().describe('`<generation id>_msg`'),
            role: z.literal('assistant').describe('Always `assistant`'),
            status: z
              .enum(['in_progress', 'completed', 'incomplete'])
              .describe(
                '`in_progress` while running, `completed` once the video is there, `incomplete` when the generation ' +
                  'failed or was cancelled',
              ),
            content: z
              .array(
                z
                  .strictObject({
                    type: z.literal('output_video').describe('Always `output_video`'),
                    video_url: signedUrl,
                  })
                  .describe('The video'),
              )
              .describe('Empty until completed; then the video'),
          })
          .describe('The assistant message that carries the video'),
      )
      .describe('One output message'),
    output_video_url: z
      .string()
      .nullable()
      .describe('The finished MP4 (same URL as in `output`); null until completed'),
    usage: usageOf('input_tokens', 'output_tokens'),
    latency_ms: common.latency_ms,
    error: z
      .strictObject({
        code: z.string().describe('Stable reason, for example `render_failed`'),
        message: z.string().describe('Details for a person'),
      })
      .nullable()
      .describe('Why it failed or was cancelled; null otherwise'),
    artifact_url: common.artifact_url,
    artifact_type: common.artifact_type,
    storyboard_url: common.storyboard_url,
    thumbnail_url: common.thumbnail_url,
    spritesheet_url: common.spritesheet_url,
    captions_url: common.captions_url,
    progress: common.progress,
  })
  .describe('A generation in the Responses view');

export const chatView = z
  .strictObject({
    id: common.id,
    object: z.literal('chat.completion').describe('Always `chat.completion`'),
    status: z
      .enum(['pending', 'processing', 'completed', 'failed', 'cancelled'])
      .describe('`pending` (= queued) → `processing` (= in_progress) → `completed`, `failed` or `cancelled`'),
    model: common.model,
    engine: common.engine,
    provider: common.provider,
    created: unixSeconds('When it was created'),
    completed_at: common.completed_at,
    choices: z
      .array(
        z
          .strictObject({
            index: z.literal(0).describe('Always 0'),
            message: z
              .strictObject({
                role: z.literal('assistant').describe('Always `assistant`'),
                content: z.null().describe('Always null: the answer is the video'),
                video_url: signedUrl.nullable().describe('The finished MP4; null until completed'),
              })
              .describe('The assistant message'),
            finish_reason: z.literal('stop').nullable().describe('`stop` once completed; else null'),
          })
          .describe('The one choice'),
      )
      .describe('One choice'),
    usage: usageOf('prompt_tokens', 'completion_tokens'),
    latency_ms: common.latency_ms,
    error: z
      .strictObject({
        message: z.string().describe('Details for a person'),
        type: z.string().describe('Stable reason, for example `render_failed` or `cancelled`'),
      })
      .nullable()
      .describe('Why it failed or was cancelled; null otherwise'),
    artifact_url: common.artifact_url,
    artifact_type: common.artifact_type,
    storyboard_url: common.storyboard_url,
    thumbnail_url: common.thumbnail_url,
    spritesheet_url: common.spritesheet_url,
    captions_url: common.captions_url,
    progress: common.progress,
  })
  .describe('A generation in the Chat Completions view');

/** Extension: a page of the organization's generations, newest first (OpenAI's list object). */
const listOf = <T extends z.ZodType>(item: T, shape: string) =>
  z
    .strictObject({
      object: z.literal('list').describe('Always `list`'),
      data: z.array(item).describe('The generations of this page, newest first'),
      first_id: z
        .string()
        .nullable()
        .describe('Id of the first (newest) item: `before` of the previous page; null when the page is empty'),
      last_id: z
        .string()
        .nullable()
        .describe('Id of the last (oldest) item: `after` of the next page; null when the page is empty'),
      has_more: z.boolean().describe('More items beyond this page in the direction read (older; with `before`, newer)'),
    })
    .describe(`Extension: a page of generations in the ${shape} view`);
export const responsesList = listOf(responsesView, 'Responses');
export const chatList = listOf(chatView, 'Chat Completions');

export const cancelResult = z
  .strictObject({ id: z.string().describe('The generation id'), cancelled: z.literal(true).describe('Always true') })
  .describe('The generation is cancelled (status `cancelled` from now on)');

const perMillion = (what: string) => z.number().describe(`${what}, US dollars per million tokens`);
const pricing = z
  .strictObject({
    input_per_million_usd: perMillion('Base price of input tokens'),
    output_per_million_usd: perMillion('Base price of output tokens'),
    premium_multiplier: z.number().describe('Factor applied to the base prices'),
    effective_input_per_million_usd: perMillion('What input tokens cost: base × multiplier'),
    effective_output_per_million_usd: perMillion('What output tokens cost: base × multiplier'),
  })
  .describe('Token pricing');
export const enginesCatalog = z
  .strictObject({
    engines: z
      .array(
        z
          .strictObject({
            id: z.string().describe('Engine id: the `engine` field of a create'),
            name: z.string().describe('Display name'),
            supported_models: z
              .array(
                z
                  .strictObject({
                    id: z.string().describe('Model id: the `model` field of a create'),
                    name: z.string().describe('Display name'),
                    pricing,
                  })
                  .describe('An orchestration model'),
              )
              .describe('Orchestration LLMs that write compositions for this engine'),
          })
          .describe('A rendering engine'),
      )
      .describe('Every engine this deployment offers'),
  })
  .describe('The public catalog');

// Fractional cents: the ledger is integer micro-dollars, and a cheap generation costs a fraction of a cent.
const cents = (what: string) =>
  z.number().describe(`${what}, in US cents with up to 4 decimals (exact micro-dollars, never rounded)`);
const count = (what: string) => z.number().describe(what);
const dayCounts = {
  request_count: count('Generations created'),
  completed_count: count('Of those, completed'),
  failed_count: count('Of those, failed'),
  total_cost_cents: cents('What they cost'),
};
export const usageResource = z
  .strictObject({
    credit_balance: cents('Current credit balance'),
    credit_held: cents(
      'Extension: credit reserved by the generations in flight, each its worst-case cost (README, ' +
        '"Credits and holds"); a create is admitted while `credit_balance` − `credit_held` covers its own hold',
    ),
    totals: z
      .strictObject({
        total_requests: count('Generations created'),
        completed_requests: count('Of those, completed'),
        failed_requests: count('Of those, failed'),
        total_cost_cents: cents('What they cost'),
      })
      .describe('All time'),
    daily_usage: z
      .array(
        z
          .strictObject({
            date: z.string().describe('Day (UTC), `YYYY-MM-DD`'),
            ...dayCounts,
            total_duration_seconds: z.number().describe('Seconds of video produced'),
          })
          .describe('One day'),
      )
      .describe('Per day (UTC), oldest first, ending today'),
    daily_usage_by_route: z
      .array(
        z
          .strictObject({
            date: z.string().describe('Day (UTC), `YYYY-MM-DD`'),
            routes: z
              .array(
                z
                  .strictObject({
                    engine: z.string().describe('Engine id'),
                    model: z.string().describe('Orchestration model id'),
                    provider: z.string().describe('Provider slug (`none` when no provider answered)'),
                    ...dayCounts,
                    total_prompt_tokens: count('Input tokens'),
                    total_completion_tokens: count('Output tokens'),
                    avg_latency_ms: z
                      .number()
                      .describe(
                        'Mean creation-to-completion time of the completed ones, milliseconds (0 when none completed)',
                      ),
                  })
                  .describe('One engine, model and provider'),
              )
              .describe('Routes used that day'),
          })
          .describe('One day'),
      )
      .describe('Per day (UTC) that had generations, and per route'),
    recent_requests: z
      .array(
        z
          .strictObject({
            id: z.string().describe('Generation id'),
            status: z.string().describe('Status (Responses vocabulary)'),
            model_name: z.string().describe('Orchestration model id'),
            engine: z.string().describe('Engine id'),
            cost_cents: cents('What it cost'),
            latency_ms: z.number().nullable().describe('Creation to completion, milliseconds; null while in flight'),
            created_at: unixMs('When it was created'),
            completed_at: unixMs('When it finished')
              .nullable()
              .describe('When it finished, Unix time in milliseconds; null while in flight'),
          })
          .describe('A generation'),
      )
      .describe('Latest generations, newest first'),
  })
  .describe('Credit balance and usage of the organization');

/** Webhook deliveries (interface section 6): the envelope and `data.object`. */
export const webhookEvent = z
  .strictObject({
    id: z.string().describe('Unique event id, prefixed `evt_`'),
    object: z.literal('event').describe('Always `event`'),
    created: unixSeconds('When the event happened'),
    type: z
      .enum([
        'video.generation.queued',
        'video.generation.started',
        'video.generation.completed',
        'video.generation.progress',
      ])
      .describe('Event type; `video.generation.progress` is an extension'),
    data: z
      .strictObject({
        object: z
          .strictObject({
            id: z.string().describe('Generation id (as returned by the create)'),
            object: z.literal('video.generation').describe('Always `video.generation`'),
            status: z
              .enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled'])
              .describe('`completed` or `failed` on the completed event'),
            engine: z.string().optional().describe('Engine id; on queued, started and progress events'),
            model: z.string().optional().describe('Orchestration model id; on queued, started and progress events'),
            provider: z
              .string()
              .nullable()
              .optional()
              .describe('Provider slug (null before one answered); on queued, started and progress events'),
            output_url: z.string().nullable().describe('The MP4 (signed) when completed; else null'),
            error_message: z.string().nullable().describe('Why it failed; else null'),
            progress: progress.optional().describe('Extension: progress events only'),
          })
          .describe('The generation that changed'),
      })
      .describe('Payload'),
  })
  .describe('A signed lifecycle event, POSTed to the request’s `webhook_url`');

const brandColour = (what: string) => z.string().nullable().describe(`${what}, \`#rrggbb\`; null: the composer’s own`);

/** Extension: GET and PUT /v1/brand. */
export const brandKit = z
  .strictObject({
    object: z.literal('brand_kit').describe('`brand_kit`'),
    colors: z
      .strictObject({
        background: brandColour('Background'),
        text: brandColour('Text colour'),
        accent: brandColour('Accent'),
      })
      .describe('Up to three colours'),
    font: z
      .enum(['sans', 'serif', 'mono', 'rounded'])
      .nullable()
      .describe('Type style from the installed families; null: the composer’s own'),
    logo: z
      .strictObject({
        url: z.string().describe('The logo, signed: works without the API key until `expires_at`'),
        expires_at: unixSeconds('When the signature expires'),
        media_type: z.string().describe('`image/png`, `image/jpeg`, `image/gif` or `image/webp` (judged by its bytes)'),
        bytes: z.number().int().describe('Size in bytes'),
        width: z.number().int().describe('Width in pixels'),
        height: z.number().int().describe('Height in pixels'),
      })
      .nullable()
      .describe('The logo; null: none'),
    logo_on_closing: z.boolean().describe('Whether the closing scene shows the logo'),
    contrast: z
      .strictObject({
        text_on_background: z
          .number()
          .nullable()
          .describe('WCAG contrast ratio of the text colour on the background (1–21); null unless both are set'),
        meets_wcag_aa: z
          .boolean()
          .nullable()
          .describe(
            'Whether it reaches 4.5:1 (WCAG AA for body text); a kit below is kept, ' +
              'but flagged here and on the dashboard',
          ),
      })
      .describe('Legibility of the text on the background'),
    updated_at: z.string().nullable().describe('When the kit was last set (ISO 8601); null: never'),
  })
  .describe(
    'Extension: the organization’s brand kit, applied to every generation unless the request opts out (`brand: false`)',
  );

// ---- The OpenAI Videos shape (extension: /v1/videos) ----------------------------------------------------------

/** Errors on /v1/videos: OpenAI's body, which its SDKs read into their APIError. */
export const openAiErrorBody = z
  .looseObject({
    error: z
      .strictObject({
        message: z.string().describe('What went wrong, for a person'),
        type: z
          .string()
          .describe(
            'OpenAI’s error type: `invalid_request_error`, `authentication_error`, `insufficient_quota`, ' +
              '`permission_error`, `rate_limit_error` or `server_error`',
          ),
        param: z.string().nullable().describe('The offending field or parameter (`size`, `seconds`); null when none'),
        code: z
          .string()
          .describe('Stable, machine-readable reason, the other shapes’ `error.code` (`invalid_request`, `not_found`)'),
      })
      .describe('The failure'),
  })
  .describe('Extension: the error body of /v1/videos, OpenAI’s shape');

export const videoObject = z
  .strictObject({
    id: z.string().describe('Video id: the generation id, prefixed `gen_` (every generation is a video here)'),
    object: z.literal('video').describe('Always `video`'),
    model: z.string().describe('The model as the create named it (`sora-2`), or the generation’s own model'),
    status: z
      .enum(['queued', 'in_progress', 'completed', 'failed'])
      .describe('`queued` → `in_progress` → `completed` or `failed` (a cancelled generation is `failed`)'),
    progress: z.number().int().min(0).max(100).describe('Percent done: 100 once completed, 0 when failed'),
    created_at: unixSeconds('When it was created'),
    completed_at: unixSeconds('When it completed or failed').nullable().describe('Unix seconds; null before'),
    expires_at: z.null().describe('Always null: the media are kept until the video is deleted'),
    error: z
      .strictObject({
        code: z.string().describe('Stable reason (`render_failed`, `cancelled`)'),
        message: z.string().describe('Details for a person'),
      })
      .nullable()
      .describe('Why it failed; null otherwise'),
    prompt: z.string().nullable().describe('The prompt (a generation of another shape: its user text)'),
    remixed_from_video_id: z.string().nullable().describe('The video this one remixes; null otherwise'),
    seconds: z
      .string()
      .nullable()
      .describe('Length in whole seconds, a string (`"4"`); null: not fixed by the request'),
    size: z.string().describe('Canvas `<width>x<height>`'),
    engine: z.string().describe('Extension: the rendering engine'),
    video_url: signedUrl.nullable().describe('Extension: the video file (as `variant=video`), signed; null before'),
    thumbnail_url: common.thumbnail_url,
    spritesheet_url: common.spritesheet_url,
  })
  .describe('Extension: a generation as OpenAI’s Video object');

export const videoList = z
  .strictObject({
    object: z.literal('list').describe('Always `list`'),
    data: z.array(videoObject).describe('The videos of this page, in the order asked for (`order`)'),
    first_id: z.string().nullable().describe('Id of the first item; null when the page is empty'),
    last_id: z.string().nullable().describe('Id of the last item: `after` of the next page; null when empty'),
    has_more: z.boolean().describe('More items after this page'),
  })
  .describe('Extension: a page of videos (OpenAI’s cursor page: the SDK pages on `last_id` and `has_more`)');

export const videoDeleted = z
  .strictObject({
    id: z.string().describe('The deleted video'),
    object: z.literal('video.deleted').describe('Always `video.deleted`'),
    deleted: z.literal(true).describe('Always true'),
  })
  .describe('Extension: the video and its media are gone; every read of it answers 404 from now on');

/** The event a video created on /v1/videos sends (OpenAI's event shape). */
export const openAiVideoEvent = z
  .strictObject({
    id: z.string().describe('Unique event id, prefixed `evt_` (also the `webhook-id` header)'),
    object: z.literal('event').describe('Always `event`'),
    created_at: unixSeconds('When the event happened'),
    type: z.enum(['video.completed', 'video.failed']).describe('`video.completed` or `video.failed`'),
    data: z
      .strictObject({ id: z.string().describe('The video id: retrieve it for its status and media') })
      .describe('The video'),
  })
  .describe('Extension: OpenAI’s video event, for videos created on /v1/videos');
