// Protocol `local`: the embedded offline composer as a provider. It reads the prompt, not a chat, so
// it implements the adapter directly. Tokens are counted with the real tokenizer (prompt in,
// composition out) and billed at the requested model's price, like any provider.
import type { TokenUsage } from '../../shared.js';
import { countTokens } from '../tokens.js';
import type { ProviderAdapter } from '../types.js';
import { composeLocally } from './composer.js';

const NOTHING: TokenUsage = { input_tokens: 0, output_tokens: 0 };

export const localAdapter: ProviderAdapter = {
  // The composer takes its headline from the prompt's first sentence: the prompt stays as written.
  async expand(task) {
    return { text: task.brief.text, usage: NOTHING };
  },
  async compose(task) {
    const prompt = [task.brief.instructions, task.brief.text].filter(Boolean).join('\n\n');
    const source = composeLocally({ engine: task.engine, prompt: task.brief.text, width: task.width, height: task.height });
    return { text: source, usage: { input_tokens: countTokens(prompt), output_tokens: countTokens(source) } };
  },
};
