// Request schemas of both shapes (interface 4.1 and 4.4). Limits the interface leaves open are
// chosen here and documented in the README.
import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from '../../shared.js';
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
