// The OpenAI Videos shape in the OpenAPI document (extension): /v1/videos and its operations, answered with
// OpenAI's bodies (errors included), and the `video.completed` / `video.failed` webhooks signed under the
// Standard Webhooks header names.
import { MAX_ID_CHARS } from '../../http/validate.js';
import { GIF_COLOURS, GIF_MAX_FPS, SPRITE_COLUMNS, SPRITE_ROWS, SPRITE_TILE_WIDTH } from '../../video/index.js';
import { OPENAI_VIDEO_MODELS } from '../videos/models.js';
import { VIDEO_DEFAULTS, VIDEO_LIST_LIMIT } from '../videos/schema.js';
import { videoExamples } from './examples.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const example = (value: unknown) => ({ examples: { example: { summary: 'example', value } } });

const ERROR_WORDS: Record<number, string> = {
  400: 'Invalid request: `error.param` names the field (`size`, `seconds`, `model`, `input_reference`…)',
  401: 'Missing, invalid, revoked or deleted API key',
  402: 'The balance does not cover this video’s credit hold (`insufficient_credits`)',
  404: 'No such video, another organization’s, or a deleted one (`not_found`)',
  409: 'The video is not completed yet, or ended without a video (`video_not_ready`, `video_not_completed`)',
  413: 'The body is larger than the image limit allows (`request_too_large`)',
  415: 'The body is neither JSON nor multipart/form-data (`unsupported_media_type`)',
  429: 'Rate limit of the key exceeded: wait Retry-After seconds (`RATE_LIMIT_EXCEEDED`)',
  503: 'A backing service is unavailable; retry shortly (`temporarily_unavailable`)',
};

export function videoPaths(serverUrl: string) {
  const ex = videoExamples(serverUrl);
  const errors = (...statuses: number[]) =>
    Object.fromEntries(
      statuses.map((s) => [
        String(s),
        {
          description: ERROR_WORDS[s],
          content: { 'application/json': { schema: ref('OpenAIError'), ...example(ex.errors[s]) } },
        },
      ]),
    );
  const ok = (description: string, schema: string, value: unknown, headers: object = {}) => ({
    '200': { description, headers, content: { 'application/json': { schema: ref(schema), ...example(value) } } },
  });
  const idParam = {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'string', maxLength: MAX_ID_CHARS },
    description: 'Video id (`gen_…`), as the create returned it',
    example: ex.completed.id,
  };
  const tags = ['Videos'];
  const models = Object.entries(OPENAI_VIDEO_MODELS)
    .map(([alias, model]) => `\`${alias}\` → \`${model}\``)
    .join(', ');
  const multipart = {
    type: 'object',
    required: ['prompt'],
    properties: {
      prompt: { type: 'string', description: 'What the video shows' },
      model: { type: 'string', description: '`sora-2` (default), `sora-2-pro`, or one of ours' },
      seconds: { type: 'string', description: `Whole seconds (default "${VIDEO_DEFAULTS.seconds}")` },
      size: { type: 'string', description: `\`<width>x<height>\` (default "${VIDEO_DEFAULTS.size}")` },
      input_reference: {
        type: 'string',
        format: 'binary',
        description: 'An image file (PNG, JPEG, GIF or WebP) the video shows; or `input_reference[image_url]`',
      },
      engine: { type: 'string', description: 'Extension: the rendering engine' },
      output_format: { type: 'string', enum: ['mp4', 'webm', 'gif'], description: 'Extension: the video file' },
      transparent: { type: 'string', enum: ['true', 'false'], description: 'Extension: a WebM with alpha' },
      webhook_url: { type: 'string', description: 'Extension: where this video’s events go' },
    },
  };
  return {
    '/v1/videos': {
      post: {
        tags,
        operationId: 'createVideo',
        summary: 'Create a video (OpenAI Videos shape)',
        description:
          'OpenAI’s `POST /v1/videos`: answers at once with the video queued. JSON, or multipart/form-data as the ' +
          `official SDKs send it (an \`input_reference\` image file part). Models: ${models}, on the default ` +
          'engine; our own model ids are accepted as they are. Keys, credits, rate limits and `Idempotency-Key` are ' +
          'the other shapes’.',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: ref('CreateVideoRequest'), example: ex.create },
            'multipart/form-data': { schema: multipart },
          },
        },
        responses: {
          ...ok('The video, queued', 'Video', ex.queued),
          ...errors(400, 401, 402, 409, 413, 415, 429, 503),
        },
      },
      get: {
        tags,
        operationId: 'listVideos',
        summary: 'List the organization’s videos',
        description:
          'OpenAI’s cursor page: the next page is `after=<last_id>` while `has_more` (the SDK’s auto-pagination ' +
          'reads exactly this). Every generation is listed, whichever shape created it; deleted ones are not.',
        parameters: [
          {
            name: 'after',
            in: 'query',
            required: false,
            schema: { type: 'string', maxLength: MAX_ID_CHARS },
            description: 'A video id: the page starts just after it',
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: VIDEO_LIST_LIMIT.max, default: VIDEO_LIST_LIMIT.default },
            description: 'Items per page',
          },
          {
            name: 'order',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
            description: '`desc`: newest first; `asc`: oldest first',
          },
        ],
        responses: { ...ok('A page of videos', 'VideoList', ex.list), ...errors(400, 401, 429, 503) },
      },
    },
    '/v1/videos/{id}': {
      get: {
        tags,
        operationId: 'retrieveVideo',
        summary: 'Retrieve a video',
        description:
          'While it is queued or in progress, `openai-poll-after-ms` says how long to wait before asking again.',
        parameters: [idParam],
        responses: {
          ...ok('The video', 'Video', ex.completed, {
            'openai-poll-after-ms': {
              description: 'While queued or in progress: milliseconds to wait before the next retrieve',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
          }),
          ...errors(400, 401, 404, 429, 503),
        },
      },
      delete: {
        tags,
        operationId: 'deleteVideo',
        summary: 'Delete a video and its media',
        description:
          'A video still being made is cancelled first. The video file, previews, composition, storyboard and images ' +
          'are removed; every view of it answers 404 from now on (its usage and charges stay counted).',
        parameters: [idParam],
        responses: { ...ok('Deleted', 'VideoDeleted', ex.deleted), ...errors(400, 401, 404, 429, 503) },
      },
    },
    '/v1/videos/{id}/content': {
      get: {
        tags,
        operationId: 'downloadVideoContent',
        summary: 'Download the video, its thumbnail or its sprite sheet',
        description:
          '`variant=video` (default): the file `output_format` asked for (MP4, WebM or GIF); `thumbnail`: a JPEG of ' +
          'the frame where the title is fully drawn, at the video’s size; `spritesheet`: a JPEG grid of ' +
          `${SPRITE_COLUMNS} × ${SPRITE_ROWS} evenly spaced frames, row by row from the top left, tile k at ` +
          `k × duration / ${SPRITE_COLUMNS * SPRITE_ROWS} s, each ${SPRITE_TILE_WIDTH} px wide.`,
        parameters: [
          idParam,
          {
            name: 'variant',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['video', 'thumbnail', 'spritesheet'], default: 'video' },
            description: 'Which file',
          },
        ],
        responses: {
          '200': {
            description: 'The bytes',
            content: Object.fromEntries(
              ['video/mp4', 'video/webm', 'image/gif', 'image/jpeg'].map((type) => [
                type,
                { schema: { type: 'string', format: 'binary' }, example: `<the ${type} bytes>` },
              ]),
            ),
          },
          ...errors(400, 401, 404, 409, 429, 503),
        },
      },
    },
    '/v1/videos/{id}/remix': {
      post: {
        tags,
        operationId: 'remixVideo',
        summary: 'Remix a completed video',
        description:
          'A new video from the original’s canvas, length, engine, model, file format, images and storyboard (its ' +
          'scenes and look, given to the composer), changed as the prompt asks; `remixed_from_video_id` names the ' +
          'original.',
        parameters: [idParam],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('RemixVideoRequest'), example: ex.remixRequest } },
        },
        responses: {
          ...ok('The new video, queued', 'Video', ex.remix),
          ...errors(400, 401, 402, 404, 409, 415, 429, 503),
        },
      },
    },
  };
}

/** `video.completed` and `video.failed`: OpenAI's events, for videos created on /v1/videos. */
export function videoWebhooks() {
  const header = (name: string, description: string, value: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
    example: value,
  });
  const parameters = [
    header('webhook-id', 'The event id: deduplicate deliveries by it', 'evt_000000000000000000000004'),
    header('webhook-timestamp', 'When this attempt was sent, Unix seconds', '1795000041'),
    header(
      'webhook-signature',
      'Space-separated `v1,<base64>` HMAC-SHA256 signatures of `<id>.<timestamp>.<raw body>` with the organization’s ' +
        'secret (`whsec_…`): what OpenAI’s SDKs verify with `client.webhooks.unwrap(body, headers, secret)`',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
  ];
  const event = (type: 'video.completed' | 'video.failed', description: string) => ({
    post: {
      tags: ['Webhooks'],
      operationId: type === 'video.completed' ? 'videoCompleted' : 'videoFailed',
      summary: type,
      description:
        `${description} Sent instead of \`video.generation.completed\` for a video created on /v1/videos with a ` +
        '`webhook_url`, signed with the organization’s secret under the Standard Webhooks header names, as OpenAI ' +
        'sends it. Retried like every event.',
      security: [],
      parameters,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('OpenAIVideoEvent'),
            example: {
              id: 'evt_000000000000000000000004',
              object: 'event',
              created_at: 1_795_000_041,
              type,
              data: { id: 'gen_0123456789abcdef01234567' },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Received (any 2xx): no retry' },
        '401': { description: 'Invalid signature: the receiver should refuse it' },
      },
    },
  });
  return {
    'video.completed': event('video.completed', 'The video is completed: retrieve it, download its content.'),
    'video.failed': event('video.failed', 'The video failed: its `error` says why.'),
  };
}

/** What the reference's introduction says of the drop-in and the outputs (Markdown). */
export const VIDEOS_INTRO = `## The OpenAI Videos drop-in (extension)

Apps written for OpenAI's Videos API work by changing the base URL: \`/v1/videos\` answers that protocol over the \
same generations, keys, credits, rate limits and idempotency.

\`\`\`ts
import OpenAI, { toFile } from 'openai';
const client = new OpenAI({ apiKey: process.env.VIDEO_API_KEY, baseURL: '<this server>/v1' });
let video = await client.videos.create({ prompt: 'Spring sale at Nimbus', model: 'sora-2', seconds: '8', \
size: '720x1280', input_reference: await toFile(fs.readFileSync('logo.png'), 'logo.png') });
while (video.status === 'queued' || video.status === 'in_progress') video = await client.videos.retrieve(video.id);
const mp4 = await client.videos.downloadContent(video.id);                 // the video
const poster = await client.videos.downloadContent(video.id, { variant: 'thumbnail' });
\`\`\`

## Outputs on every shape (extension)

\`output_format\`: \`mp4\` (default), \`webm\` (VP9) or \`gif\` (one palette, at most ${GIF_MAX_FPS} fps and \
${GIF_COLOURS} colours), same size and length. \`transparent: true\`: a WebM whose background is transparent \
(VP9 with alpha, both engines; the background and its ornament are left out, text, shapes and images kept). Every \
video has a thumbnail (\`thumbnail_url\`) and a sprite sheet (\`spritesheet_url\`: ${SPRITE_COLUMNS} × ${SPRITE_ROWS} \
frames, ${SPRITE_TILE_WIDTH} px wide each, tile k at k × duration / ${SPRITE_COLUMNS * SPRITE_ROWS} s).`;
