// Protocol `local`: the engines' embedded offline composers as a provider. It reads the prompt, not a chat, so
// it implements the adapter directly. Tokens are counted with the real tokenizer (prompt in,
// composition out) and billed at the requested model's price, like any provider.
import { z } from 'zod';
import type { TokenUsage } from '../../shared.js';
import { composeOffThread } from '../../threads/pool.js';
import type { ProviderProtocol } from '../protocol.js';
import type { ProviderAdapter } from '../types.js';

const NOTHING: TokenUsage = { input_tokens: 0, output_tokens: 0 };

const localAdapter: ProviderAdapter = {
  // The composer takes its headline from the prompt's first sentence: the prompt stays as written.
  async expand(task) {
    return { text: task.brief.text, usage: NOTHING };
  },
  // Composing and counting tokens is synchronous CPU work: off the worker's event loop (src/threads).
  // The composition is stored exactly as drawn, so a storyboard request drawing the same storyboard
  // stores the same bytes (an LLM reply's extraction would trim the document's final newline).
  async compose(task) {
    const prompt = [task.brief.instructions, task.brief.text].filter(Boolean).join('\n\n');
    const spec = {
      prompt: task.brief.text,
      instructions: task.brief.instructions,
      width: task.width,
      height: task.height,
      durationSeconds: task.durationSeconds,
      narrate: task.narrate ?? false,
      assets: task.brief.assets ?? [],
      brand: task.brief.brand ?? null,
      ...(task.transparent ? { transparent: true } : {}),
    };
    const { source, usage, storyboard } = await composeOffThread(task.engine, spec, prompt);
    return { text: source, usage, verbatim: true, storyboard };
  },
};

// The embedded offline composer serves every catalog model (it is the stand-in for all of them).
// Its compositions stay well below the default max_output_tokens whatever the prompt; the credit hold
// counts each call at that size. Its timeout is the chat providers' default: a worker that has just
// (re)started warms its composer threads first, which on a loaded machine outlasted a shorter bound and
// failed generations that only had to wait (a dead worker is still noticed by the call's heartbeat).
const entry = z
  .object({
    models: z.literal('*').default('*'),
    timeout_seconds: z.number().positive().max(900).default(120),
    max_output_tokens: z.number().int().min(256).max(200_000).default(65_536),
  })
  .strict();

export const localProtocol: ProviderProtocol<z.infer<typeof entry>> = {
  id: 'local',
  entry,
  // The last resort: a real model writes better compositions.
  triedLast: true,
  connect: () => localAdapter,
};
