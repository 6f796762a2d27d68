// Request schemas of both shapes (interface 4.1 and 4.4). Limits the interface leaves open are
// chosen here and documented in the README.
import { z } from 'zod';
import { defaultEngineId, engineIds, MAX_CANVAS_SIDE, MAX_DURATION_SECONDS, MIN_CANVAS_SIDE } from '../../engines/index.js';

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

/** Text stored as-is in PostgreSQL (jsonb), which cannot hold NUL or unpaired surrogates. */
const storable = (s: string) => !s.includes('\u0000') && s.isWellFormed();
const storableMessage = 'must not contain NUL characters or unpaired surrogates';
const text = z.string().max(LIMITS.maxTextChars).refine(storable, storableMessage);
const httpUrl = z.url({ protocol: /^https?$/ }).max(LIMITS.maxUrlChars);
/**
 * A media part's URL: http(s) (checked against the URL policy when the request is served: public
 * HTTPS only), or a data: URL (decoded then; images only). Other schemes are refused here.
 */
const mediaUrl = z
  .string()
  .max(LIMITS.maxDataUrlChars)
  .superRefine((value, ctx) => {
    if (/^data:/i.test(value)) return;
    const issue = httpUrl.safeParse(value).error?.issues[0];
    if (issue) ctx.addIssue({ code: 'custom', message: issue.message });
  })
  .describe('A public https URL (at most 2048 characters), or for images a data: URL of a PNG, JPEG, GIF or WebP image.');
/** Interface shape `{url}`; a bare string is accepted too (what OpenAI clients send for Responses images). */
const urlRef = z.union([mediaUrl, z.object({ url: mediaUrl })]).transform((v) => (typeof v === 'string' ? v : v.url));

const role = z.enum(['system', 'developer', 'user', 'assistant']);

// The canvas limits are checked by resolveCanvas (one message for given and derived sides); the
// document states them.
const dimension = z.number().int().positive().meta({ minimum: MIN_CANVAS_SIDE, maximum: MAX_CANVAS_SIDE, description: `Pixels, ${MIN_CANVAS_SIDE}–${MAX_CANVAS_SIDE}, rounded to an even number` });
const aspectRatio = z.string().regex(/^\d{1,4}:\d{1,4}$/, 'must be "<w>:<h>", for example "9:16"');
const provider = z
  .object({ order: z.array(z.string().min(1).max(64)).min(1).max(LIMITS.maxProviders).optional() })
  .loose();
const webhookUrl = z.string().max(LIMITS.maxUrlChars);

// Responses shape
const responsesPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_text'), text }),
  z.object({ type: z.literal('input_image'), image_url: urlRef }),
  z.object({ type: z.literal('input_video'), video_url: urlRef }),
]);
const responsesMessage = z.object({
  type: z.literal('message').optional(),
  role,
  content: z.union([text, z.array(responsesPart).min(1).max(LIMITS.maxPartsPerMessage)]),
});
// Chat shape
const chatPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text }),
  z.object({ type: z.literal('image_url'), image_url: urlRef }),
  z.object({ type: z.literal('video_url'), video_url: urlRef }),
]);

/**
 * The request schemas of both shapes. Built, not constant: the `engine` enum is the engine registry's
 * at the time the app is created (plug-in engines register before).
 */
export function requestSchemas() {
  const common = {
    engine: z.enum([...engineIds(), 'auto']).default(defaultEngineId()),
    model: z.string().min(1).max(100).refine(storable, storableMessage),
    expand_prompt: z.boolean().default(false),
    width: dimension.optional(),
    height: dimension.optional(),
    provider: provider.optional(),
    webhook_url: webhookUrl.optional(),
    /** Extension: the video's length in seconds; without it, a length the prompt states, else the composition's own. */
    duration_seconds: z
      .number()
      .min(1)
      .max(MAX_DURATION_SECONDS)
      .optional()
      .describe('Extension: the video length in seconds (1–60). Without it, a length the prompt states ("a 10-second teaser"), else the composition’s own.'),
    stream: z
      .boolean()
      .default(false)
      .describe('Extension: answer with server-sent events in OpenAI’s streaming format (status and progress until the video is done) instead of one JSON object.'),
  };
  // Strict: an unknown field is a 400 naming it (as OpenAI answers), never silently ignored.
  const responsesRequest = z.strictObject({
    ...common,
    input: z.union([text.min(1), z.array(responsesMessage).min(1).max(LIMITS.maxMessages)]),
    instructions: text.optional(),
    aspect_ratio: aspectRatio.optional(),
  });

  const chatRequest = z.strictObject({
    ...common,
    messages: z
      .array(z.object({ role, content: z.union([text, z.array(chatPart).min(1).max(LIMITS.maxPartsPerMessage)]) }))
      .min(1)
      .max(LIMITS.maxMessages),
    instructions: text.optional(),
    aspectRatio: aspectRatio.optional(),
    // Sent by OpenAI clients with `stream: true`; the final chunk carries usage either way.
    stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
  });
  return { responsesRequest, chatRequest };
}

type RequestSchemas = ReturnType<typeof requestSchemas>;
export type ResponsesRequest = z.infer<RequestSchemas['responsesRequest']>;
export type ChatRequest = z.infer<RequestSchemas['chatRequest']>;
