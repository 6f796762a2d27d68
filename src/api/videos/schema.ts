// Request schemas of the OpenAI Videos shape (/v1/videos): the fields OpenAI's reference names, with its
// defaults (sora-2, 4 seconds, 720x1280), and our extensions (engine, webhook_url). Unknown fields are a
// 400 naming them, as OpenAI answers.
import { z } from 'zod';
import { defaultEngineId, engineIds, MAX_DURATION_SECONDS } from '../../engines/index.js';
import { MEDIA_LIMITS } from '../../media/limits.js';
import { isStorableText, OUTPUT_FORMATS, STORABLE_TEXT_MESSAGE } from '../../shared.js';
import { LIMITS } from '../generations/schema.js';
import { DEFAULT_VIDEO_MODEL } from './models.js';

/** OpenAI's defaults for a create that names neither. */
export const VIDEO_DEFAULTS = { seconds: '4', size: '720x1280' } as const;

/** An optional field that also takes null for "not given" (typed SDKs send unset fields as null). */
const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v): z.output<T> | undefined => v ?? undefined)
    .describe(schema.description ?? '');

const prompt = z
  .string()
  .min(1)
  .max(LIMITS.maxTextChars)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .refine((text) => text.trim() !== '', 'the prompt has no text')
  .describe(`What the video shows, at most ${LIMITS.maxTextChars} characters`);

/** Whole seconds as OpenAI sends them (a string: "4", "8", "12"); a JSON number is taken too. */
const seconds = z
  .union([z.string().regex(/^\d{1,3}$/, 'must be whole seconds, for example "8"'), z.number().int()])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1).max(MAX_DURATION_SECONDS))
  .transform(String)
  .describe(
    `Length in whole seconds, as a string: "4" (default), "8", "12", or any other from 1 to ${MAX_DURATION_SECONDS}`,
  );

/** `WxH`; the canvas limits are checked with the other shapes' (resolveCanvas), naming `size`. */
const size = z
  .string()
  .regex(/^\d{1,5}x\d{1,5}$/, 'must be "<width>x<height>", for example "720x1280"')
  .describe(
    'Canvas `<width>x<height>`: "720x1280" (default), "1280x720", "1024x1792", "1792x1024", or any size we render',
  );

const imageUrl = z
  .string()
  // A multipart file part arrives here as a data: URL (multipart.ts); JSON bodies stay within their 1 MiB.
  .max(Math.ceil((MEDIA_LIMITS.maxBytes.image * 4) / 3) + 64)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .describe(
    'A public https URL of an image (checked like every media URL), or a data: URL of a PNG, JPEG, GIF or WebP',
  );

const inputReference = z
  .strictObject({
    image_url: imageUrl.optional(),
    file_id: z.string().max(256).optional().describe('Not supported: this service keeps no uploaded files'),
  })
  .describe('An image the video shows: `{image_url}` in JSON, or an image file part of a multipart/form-data request');

export function videoRequestSchemas() {
  const engine = optional(z.enum([...engineIds(), 'auto']))
    .transform((e) => e ?? defaultEngineId())
    .describe(`Extension: the rendering engine (default \`${defaultEngineId()}\`; \`auto\` lets the prompt decide)`);
  const create = z
    .strictObject({
      prompt,
      model: optional(z.string().min(1).max(100).refine(isStorableText, STORABLE_TEXT_MESSAGE))
        .transform((m) => m ?? DEFAULT_VIDEO_MODEL)
        .describe('`sora-2` (default), `sora-2-pro` (and their dated ids), or one of our models (GET /v1/engines)'),
      seconds: optional(seconds).transform((s) => s ?? VIDEO_DEFAULTS.seconds),
      size: optional(size).transform((s) => s ?? VIDEO_DEFAULTS.size),
      input_reference: optional(inputReference),
      engine,
      output_format: optional(z.enum(OUTPUT_FORMATS)).describe(
        'Extension: `mp4` (default), `webm` (VP9) or `gif`; `variant=video` downloads this file',
      ),
      // Multipart fields are text: "true" and "false" are the booleans.
      transparent: optional(z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])).describe(
        'Extension: `true`: a WebM with an alpha channel and no background (implies `output_format` `webm`)',
      ),
      webhook_url: optional(
        z
          .string()
          .max(LIMITS.maxUrlChars)
          .refine(isStorableText, STORABLE_TEXT_MESSAGE)
          .describe('Extension: a public HTTPS URL for this video’s lifecycle events (as on the other shapes)'),
      ),
    })
    .describe('Create a video (OpenAI Videos shape)');
  const remix = z
    .strictObject({ prompt: prompt.describe('What to change in the original video') })
    .describe('Remix a completed video');
  return { create, remix };
}

export const VIDEO_LIST_LIMIT = { default: 20, max: 100 } as const;

export const videoListQuery = z.strictObject({
  after: z.string().min(1).max(64).optional().describe('A video id: the page starts just after it'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(VIDEO_LIST_LIMIT.max)
    .default(VIDEO_LIST_LIMIT.default)
    .describe(`Items per page, 1–${VIDEO_LIST_LIMIT.max} (default ${VIDEO_LIST_LIMIT.default})`),
  order: z.enum(['asc', 'desc']).default('desc').describe('`desc` (default): newest first; `asc`: oldest first'),
});

export const VIDEO_VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
export type VideoVariant = (typeof VIDEO_VARIANTS)[number];

export const videoContentQuery = z.strictObject({
  variant: z.enum(VIDEO_VARIANTS).default('video').describe('`video` (default), `thumbnail` or `spritesheet`'),
});

type Schemas = ReturnType<typeof videoRequestSchemas>;
export type VideoCreateRequest = z.output<Schemas['create']>;
