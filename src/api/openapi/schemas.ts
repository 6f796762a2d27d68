// Zod schemas of what the API answers. They feed the OpenAPI document, and the tests parse real
// responses with them (strict objects), so the document cannot drift from the behaviour.
import { z } from 'zod';

const signedUrl = z.strictObject({ url: z.string(), expires_at: z.number().int().describe('Unix seconds') });

export const errorBody = z
  .looseObject({
    error: z.strictObject({ code: z.string(), message: z.string(), param: z.string().optional() }),
  })
  .describe('The one error shape of the API');

/** Extension: where an in-flight generation is; null once terminal. */
export const progress = z
  .strictObject({
    stage: z.enum(['queued', 'composing', 'rendering', 'encoding', 'storing']),
    percent: z.number().int().min(0).max(100).describe('The whole generation; never decreases'),
    frames_rendered: z.number().int().nullable(),
    frames_total: z.number().int().nullable(),
    eta_seconds: z.number().int().nullable().describe('Estimated seconds left (rendering and encoding)'),
    provider: z.string().nullable().describe('While composing: the provider being called'),
    repair_round: z.number().int().nullable().describe('While composing: 0 for the first draft, then each repair'),
  })
  .nullable()
  .describe('Extension: live progress while in flight; null once terminal');

export const responsesView = z.strictObject({
  id: z.string().describe('Generation id, prefixed gen_'),
  object: z.literal('response'),
  status: z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete']),
  model: z.string(),
  engine: z.string(),
  provider: z.string().nullable(),
  created_at: z.number().int().describe('Unix seconds'),
  completed_at: z.number().int().nullable().describe('Unix milliseconds'),
  output: z.array(
    z.strictObject({
      type: z.literal('message'),
      id: z.string(),
      role: z.literal('assistant'),
      status: z.enum(['in_progress', 'completed', 'incomplete']),
      content: z.array(z.strictObject({ type: z.literal('output_video'), video_url: signedUrl })),
    }),
  ),
  output_video_url: z.string().nullable(),
  usage: z
    .strictObject({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int(), cost_usd: z.number() })
    .nullable(),
  latency_ms: z.number().int().nullable(),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  artifact_url: signedUrl.nullable(),
  artifact_type: z.string().nullable(),
  progress,
});

export const chatView = z.strictObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']),
  model: z.string(),
  engine: z.string(),
  provider: z.string().nullable(),
  created: z.number().int().describe('Unix seconds'),
  completed_at: z.number().int().nullable().describe('Unix milliseconds'),
  choices: z.array(
    z.strictObject({
      index: z.literal(0),
      message: z.strictObject({ role: z.literal('assistant'), content: z.null(), video_url: signedUrl.nullable() }),
      finish_reason: z.literal('stop').nullable(),
    }),
  ),
  usage: z
    .strictObject({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int(), cost_usd: z.number() })
    .nullable(),
  latency_ms: z.number().int().nullable(),
  error: z.strictObject({ message: z.string(), type: z.string() }).nullable(),
  artifact_url: signedUrl.nullable(),
  artifact_type: z.string().nullable(),
  progress,
});

/** Extension: a page of the organization's generations, newest first (OpenAI's list object). */
const listOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    object: z.literal('list'),
    data: z.array(item),
    first_id: z.string().nullable().describe('Id of the first (newest) item; null when the page is empty'),
    last_id: z.string().nullable().describe('Id of the last (oldest) item: `after` of the next page'),
    has_more: z.boolean().describe('More items beyond this page in the direction read (older; with `before`, newer)'),
  });
export const responsesList = listOf(responsesView);
export const chatList = listOf(chatView);

export const cancelResult = z.strictObject({ id: z.string(), cancelled: z.literal(true) });

const pricing = z.strictObject({
  input_per_million_usd: z.number(),
  output_per_million_usd: z.number(),
  premium_multiplier: z.number(),
  effective_input_per_million_usd: z.number(),
  effective_output_per_million_usd: z.number(),
});
export const enginesCatalog = z.strictObject({
  engines: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      supported_models: z.array(z.strictObject({ id: z.string(), name: z.string(), pricing })),
    }),
  ),
});

const dayCounts = {
  request_count: z.number(),
  completed_count: z.number(),
  failed_count: z.number(),
  total_cost_cents: z.number(),
};
export const usageResource = z.strictObject({
  credit_balance: z.number().describe('Cents'),
  totals: z.strictObject({
    total_requests: z.number(),
    completed_requests: z.number(),
    failed_requests: z.number(),
    total_cost_cents: z.number(),
  }),
  daily_usage: z.array(z.strictObject({ date: z.string(), ...dayCounts, total_duration_seconds: z.number() })),
  daily_usage_by_route: z.array(
    z.strictObject({
      date: z.string(),
      routes: z.array(
        z.strictObject({
          engine: z.string(),
          model: z.string(),
          provider: z.string(),
          ...dayCounts,
          total_prompt_tokens: z.number(),
          total_completion_tokens: z.number(),
          avg_latency_ms: z.number(),
        }),
      ),
    }),
  ),
  recent_requests: z.array(
    z.strictObject({
      id: z.string(),
      status: z.string(),
      model_name: z.string(),
      engine: z.string(),
      cost_cents: z.number(),
      latency_ms: z.number(),
      created_at: z.number().describe('Unix milliseconds'),
      completed_at: z.number().describe('Unix milliseconds'),
    }),
  ),
});
