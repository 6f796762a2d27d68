// Request schemas of both shapes (interface 4.1 and 4.4). Limits the interface leaves open are
// chosen here and documented in the README.
import { z } from 'zod';
import { isStorableText, OUTPUT_FORMATS, STORABLE_TEXT_MESSAGE } from '../../shared.js';
import { GIF_COLOURS, GIF_MAX_FPS } from '../../video/index.js';
import { brandRequestSchema } from '../brand/schema.js';
import {
  defaultEngineId,
  engineIds,
  MAX_CANVAS_SIDE,
  MAX_DURATION_SECONDS,
  MIN_CANVAS_SIDE,
} from '../../engines/index.js';
import { storyboardSchema, variablesSchema } from '../../storyboard/schema.js';

export const LIMITS = {
  /** Messages in `input` / `messages`. */
  maxMessages: 64,
  /** Content parts in one message. */
  maxPartsPerMessage: 16,
  /** Characters of one text part, of `instructions`, and of all text together. */
  maxTextChars: 20_000,
  maxTotalTextChars: 40_000,
  maxUrlChars: 2048,
  /** Characters of a data: URL image (the 1 MiB body limit binds first). */
  maxDataUrlChars: 1_400_000,
  /** Image and video parts in the whole request (vision models cap images per call; each costs tokens). */
  maxMediaParts: 16,
  /** Provider slugs in provider.order. */
  maxProviders: 8,
  /** Audio parts in the whole request, and base64 characters of one (20 MiB of bytes: TRACK_LIMITS). */
  maxAudioParts: 4,
  maxAudioDataChars: 28_000_000,
} as const;

const text = z
  .string()
  .max(LIMITS.maxTextChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .describe(`Text, at most ${LIMITS.maxTextChars} characters`);
const httpUrl = z.url({ protocol: /^https?$/ }).max(LIMITS.maxUrlChars);
/**
 * A media part's URL: http(s) (checked against the URL policy when the request is served: public
 * HTTPS only), or a data: URL (decoded then; images only). Other schemes are refused here.
 */
const mediaUrl = z
  .string()
  .max(LIMITS.maxDataUrlChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .superRefine((value, ctx) => {
    if (/^data:/i.test(value)) return;
    const issue = httpUrl.safeParse(value).error?.issues[0];
    if (issue) ctx.addIssue({ code: 'custom', message: issue.message });
  })
  .describe(
    'A public https URL (at most 2048 characters), or for images a data: URL of a PNG, JPEG, GIF or WebP image.',
  );
/** Interface shape `{url}`; a bare string is accepted too (what OpenAI clients send for Responses images). */
const urlRef = z
  .union([mediaUrl, z.object({ url: mediaUrl }).describe('`{url}`, as in the interface')])
  .transform((v) => (typeof v === 'string' ? v : v.url))
  .describe('`{url}` or the URL itself');

const instructions = text.describe('Guidance kept apart from the prompt (tone, brand, constraints)');
const role = z
  .enum(['system', 'developer', 'user', 'assistant'])
  .describe('Who speaks; system and developer messages guide like `instructions`');

// The canvas limits are checked by resolveCanvas (one message for given and derived sides); the
// document states them.
const dimension = z.number().int().positive().meta({ minimum: MIN_CANVAS_SIDE, maximum: MAX_CANVAS_SIDE });
const aspectRatio = z
  .string()
  .regex(/^\d{1,4}:\d{1,4}$/, 'must be "<w>:<h>", for example "9:16"')
  .describe(
    '`<w>:<h>`, for example `9:16`. With one side given, the other is derived; alone, the long side is 1920 px',
  );
const provider = z
  .object({
    order: z
      .array(z.string().min(1).max(64).describe('Provider slug'))
      .min(1)
      .max(LIMITS.maxProviders)
      .optional()
      .describe(
        'Providers to try for the orchestration LLM, in this order (the next one on failure); default: ' +
          'the model’s own order',
      ),
  })
  .loose()
  .describe('Provider routing');
const webhookUrl = z
  .string()
  .max(LIMITS.maxUrlChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .describe(
    'Public HTTPS URL that receives this generation’s signed lifecycle events; localhost, ' +
      'private and link-local addresses are refused (400 `invalid_webhook_url`, also when empty)',
  );

/** Extension: the video's sound (README, Sound). Absent: a silent video, as before the extension. */
const audio = z
  .strictObject({
    voice: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'must be "auto", "none" or a voice id (letters, digits, . _ : -)')
      .default('auto')
      .describe(
        'Who reads the narration: `auto` (the first speech provider’s voice for the video’s language), `none` (no ' +
          'voice), or a voice id the speech provider knows (OpenAI: `alloy`, `nova`…; the embedded voice: a ' +
          'language such as `de`). Default `auto`',
      ),
    music: z
      .string()
      .max(LIMITS.maxUrlChars)
      .refine(isStorableText, STORABLE_TEXT_MESSAGE)
      .superRefine((value, ctx) => {
        if (value === 'auto' || value === 'none' || /^audio-[1-9]\d?$/.test(value)) return;
        if (!/^https:\/\//i.test(value) || !httpUrl.safeParse(value).success)
          ctx.addIssue({ code: 'custom', message: 'must be "auto", "none", "audio-<n>" or an https URL' });
      })
      .default('auto')
      .describe(
        'The music bed: `auto` (generated at render time to the look’s motion and the scene cuts), `none`, ' +
          '`audio-<n>` (the request’s n-th `input_audio` part) or an https URL of an audio file. Default `auto`',
      ),
    captions: z
      .enum(['none', 'sidecar', 'burned'])
      .default('none')
      .describe(
        '`sidecar`: a WebVTT file linked as `captions_url`; `burned`: the same cues drawn on the video, low in the ' +
          'frame (clear of a tall video’s overlays), and linked as `captions_url` too; default `none`',
      ),
  })
  .describe(
    'Extension: the video’s sound — a voice reading the narration, a music bed, captions. Absent: a silent video',
  );

/** Extension: a sound track for `audio.music` (`audio-1` names the first), in OpenAI's content-part shape. */
const inputAudio = z
  .strictObject({
    data: z
      .string()
      .min(1)
      .max(LIMITS.maxAudioDataChars)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
      .describe(`The track's bytes, base64 (at most ${LIMITS.maxAudioDataChars} characters)`),
    format: z
      .enum(['mp3', 'wav', 'aac', 'm4a', 'ogg', 'opus', 'flac'])
      .describe('The format the client says it is (the bytes decide: they are sniffed)'),
  })
  .describe('A sound track');

// Responses shape
const responsesPart = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('input_text').describe('`input_text`'), text }).describe('Text'),
    z
      .object({ type: z.literal('input_image').describe('`input_image`'), image_url: urlRef })
      .describe('An image the video may show'),
    z
      .object({ type: z.literal('input_video').describe('`input_video`'), video_url: urlRef })
      .describe('Extension: a video clip the video may show'),
    z
      .object({ type: z.literal('input_audio').describe('`input_audio`'), input_audio: inputAudio })
      .describe('Extension: a sound track `audio.music` may name (`audio-1`…)'),
  ])
  .describe('A content part');
const responsesMessage = z
  .object({
    type: z.literal('message').optional().describe('`message` (optional)'),
    role,
    content: z
      .union([text, z.array(responsesPart).min(1).max(LIMITS.maxPartsPerMessage)])
      .describe(`Text, or up to ${LIMITS.maxPartsPerMessage} parts`),
  })
  .describe('A message');
// Chat shape
const chatPart = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text').describe('`text`'), text }).describe('Text'),
    z
      .object({ type: z.literal('image_url').describe('`image_url`'), image_url: urlRef })
      .describe('An image the video may show'),
    z
      .object({ type: z.literal('video_url').describe('`video_url`'), video_url: urlRef })
      .describe('A video clip the video may show'),
    z
      .object({ type: z.literal('input_audio').describe('`input_audio`'), input_audio: inputAudio })
      .describe('Extension: a sound track `audio.music` may name (`audio-1`…)'),
  ])
  .describe('A content part');

/**
 * An optional field that also takes null for "not given": typed SDKs send unset optional fields as
 * null. The handler sees undefined (or the default) either way.
 */
function nullAsAbsent<T extends z.ZodType>(schema: T) {
  const wrapped = schema
    .nullable()
    .optional()
    .transform((v): z.output<T> | undefined => v ?? undefined);
  // The OpenAPI document reads the outermost schema's description.
  return schema.description ? wrapped.describe(schema.description) : wrapped;
}

/**
 * The request schemas of both shapes. Built, not constant: the `engine` enum is the engine registry's
 * at the time the app is created (plug-in engines register before).
 */
export function requestSchemas() {
  const common = {
    engine: nullAsAbsent(z.enum([...engineIds(), 'auto']))
      .transform((engine) => engine ?? defaultEngineId())
      // Named here: JSON Schema has no place for the default of a field that also takes null.
      .describe(
        `Rendering engine (see GET /v1/engines); \`auto\` lets the prompt decide; ` +
          `default (also for null) \`${defaultEngineId()}\``,
      ),
    model: z
      .string()
      .min(1)
      .max(100)
      .refine(isStorableText, STORABLE_TEXT_MESSAGE)
      .describe('Orchestration LLM id (see GET /v1/engines); not an engine id'),
    expand_prompt: z
      .boolean()
      .default(false)
      .describe(
        'First rewrite the prompt into a detailed brief with the engine’s prompting guide (one more LLM call, billed)',
      ),
    width: nullAsAbsent(dimension).describe(
      `Canvas width in pixels, ${MIN_CANVAS_SIDE}–${MAX_CANVAS_SIDE}, rounded to an even number; default 1080`,
    ),
    height: nullAsAbsent(dimension).describe(
      `Canvas height in pixels, ${MIN_CANVAS_SIDE}–${MAX_CANVAS_SIDE}, rounded to an even number; default 1920`,
    ),
    provider: provider.optional(),
    webhook_url: nullAsAbsent(webhookUrl),
    /** Extension: the video's length in seconds; without it, a length the prompt states, else the composition's own. */
    duration_seconds: z
      .number()
      .min(1)
      .max(MAX_DURATION_SECONDS)
      .optional()
      .describe(
        'Extension: the video length in seconds (1–60). Without it, a length the prompt states ("a 10-second ' +
          'teaser"), else the composition’s own.',
      ),
    brand: brandRequestSchema,
    storyboard: storyboardSchema
      .optional()
      .describe(
        'Extension: the video scene by scene, instead of (or with) a prompt. Rendered as written: ' +
          'nothing is planned or asked of an LLM; a prompt sent with it only supplies the images its scenes name ' +
          '(`image-1`…)',
      ),
    variables: variablesSchema.optional(),
    output_format: nullAsAbsent(z.enum(OUTPUT_FORMATS)).describe(
      'Extension: the video file: `mp4` (H.264, the default), `webm` (VP9) or `gif` (palette-optimised, at most ' +
        `${GIF_MAX_FPS} frames a second and ${GIF_COLOURS} colours); same size and length`,
    ),
    transparent: nullAsAbsent(z.boolean()).describe(
      'Extension: `true`: a WebM (VP9 with an alpha channel) whose background is transparent: the background and ' +
        'its ornament are left out, text, shapes and images kept. Implies `output_format` `webm` (any other is a 400)',
    ),
    audio: audio.optional(),
    stream: z
      .boolean()
      .default(false)
      .describe(
        'Extension: answer with server-sent events in OpenAI’s streaming format (status and progress until the video ' +
          'is done) instead of one JSON object.',
      ),
  };
  // Strict: an unknown field is a 400 naming it (as OpenAI answers), never silently ignored.
  const responsesRequest = z
    .strictObject({
      ...common,
      input: z
        .union([text.min(1), z.array(responsesMessage).min(1).max(LIMITS.maxMessages)])
        .optional()
        .describe(
          `The prompt: text, or up to ${LIMITS.maxMessages} messages with text, image and video parts. ` +
            `Required unless \`storyboard\` is given`,
        ),
      instructions: nullAsAbsent(instructions),
      aspect_ratio: nullAsAbsent(aspectRatio),
    })
    .describe('Create a generation from a prompt (Responses shape)');

  const chatRequest = z
    .strictObject({
      ...common,
      messages: z
        .array(
          z
            .object({
              role,
              content: z
                .union([text, z.array(chatPart).min(1).max(LIMITS.maxPartsPerMessage)])
                .describe(`Text, or up to ${LIMITS.maxPartsPerMessage} parts`),
            })
            .describe('A message'),
        )
        .min(1)
        .max(LIMITS.maxMessages)
        .optional()
        .describe(
          `The prompt: up to ${LIMITS.maxMessages} messages, at least one from the user. ` +
            `Required unless \`storyboard\` is given`,
        ),
      instructions: nullAsAbsent(instructions),
      aspectRatio: nullAsAbsent(aspectRatio),
      // Sent by OpenAI clients with `stream: true`; the final chunk carries usage either way.
      stream_options: z
        .object({
          include_usage: z
            .boolean()
            .optional()
            .describe('Accepted for OpenAI clients; the last chunk carries usage either way'),
        })
        .optional()
        .describe('OpenAI streaming options'),
    })
    .describe('Create a generation from chat messages (Chat Completions shape)');
  return { responsesRequest, chatRequest };
}

type RequestSchemas = ReturnType<typeof requestSchemas>;
export type ResponsesRequest = z.infer<RequestSchemas['responsesRequest']>;
export type ChatRequest = z.infer<RequestSchemas['chatRequest']>;
