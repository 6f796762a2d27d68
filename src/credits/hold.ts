// The credit hold of a generation: the most its provider calls can cost, reserved at admission
// (src/db/generations.ts admitGeneration) and released when the workflow writes the generation's end
// (finishGeneration), where the exact cost is charged. The bound follows the calls the workflow can
// make (workflows/compose.ts): every provider of the planned order that can serve the model may be
// tried; on each, one prompt expansion (when asked for) and a first draft plus PROVIDER_REPAIR_ROUNDS
// repairs. Each call is counted at its largest (README, "Credits and holds"):
//   output ≤ the provider's max_output_tokens;
//   input  ≤ the engine's system prompt (contract + guide, counted with our tokenizer) + FRAMING_TOKENS
//          + the brand kit's lines, when the generation has one (counted)
//          + the request's text in UTF-8 bytes (a token is at least one byte)
//          + MEDIA_PART_TOKENS per image or video part
//          + the expanded prompt (≤ the largest max_output_tokens) when expansion is asked for
//          + on a repair, the previous draft (≤ the provider's max_output_tokens) + REPAIR_FINDINGS_TOKENS.
// Prices are per model and engine (the catalog), the same whichever provider answers. A storyboard
// request (extension) makes one call of the embedded composer: its storyboard's bytes in, at most
// STORYBOARD_LIMITS.outputTokens out (what it is billed at most). A generation with a voice (extension)
// reserves MAX_NARRATION_CHARACTERS more output tokens: speech is billed one output token per character said.
import type { Catalog } from '../catalog/index.js';
import { engineIds, getEngine } from '../engines/index.js';
import type { ProviderRegistry, SecretReader } from '../providers/registry.js';
import { brandGuide } from '../providers/prompts.js';
import { countTokens } from '../text/tokens.js';
import { speaks, type GenerationRequest, type TokenUsage } from '../shared.js';
import { MAX_NARRATION_CHARACTERS } from '../storyboard/narration.js';
import { STORYBOARD_LIMITS } from '../storyboard/schema.js';

/** Canvas, duration, reply-format and media-list lines around the engine's contract and guide. */
export const FRAMING_TOKENS = 1_000;
/** An attached image or video part (providers bill a large image at about 1 600 tokens). */
export const MEDIA_PART_TOKENS = 2_000;
/** The validator's findings sent back in one repair round (at most 20, each a line). */
export const REPAIR_FINDINGS_TOKENS = 4_000;

const systemTokens = new Map<string, number>();

/** The engine's contract and prompting guide in tokens: counted once per process. */
function engineSystemTokens(engine: string): number {
  let tokens = systemTokens.get(engine);
  if (tokens === undefined) {
    const { llm } = getEngine(engine);
    tokens = countTokens(llm.contract()) + countTokens(llm.guide()) + FRAMING_TOKENS;
    systemTokens.set(engine, tokens);
  }
  return tokens;
}

/**
 * Counts every engine's system prompt now (the tokenizer's tables load on first use, seconds on a busy
 * machine): the API calls it at start, so the first request after a start does not pay for it.
 */
export function warmHoldTokens(): void {
  for (const engine of engineIds()) engineSystemTokens(engine);
}

/** The largest number of tokens a generation's provider calls can use (see the head of this file). */
export function holdTokens(
  request: GenerationRequest,
  registry: ProviderRegistry,
  repairRounds: number,
  secret: SecretReader,
): TokenUsage {
  const calls = callTokens(request, registry, repairRounds, secret);
  // Speech (extension): every narration character counts as an output token, a video's narration at most
  // MAX_NARRATION_CHARACTERS (a minute at the fastest pace allowed).
  return speaks(request) ? { ...calls, output_tokens: calls.output_tokens + MAX_NARRATION_CHARACTERS } : calls;
}

function callTokens(
  request: GenerationRequest,
  registry: ProviderRegistry,
  repairRounds: number,
  secret: SecretReader,
): TokenUsage {
  // A storyboard request calls no provider: it counts as the embedded composer's one call, the
  // storyboard in (a token is at least one byte) and its composition out.
  if (request.storyboard)
    return { input_tokens: request.storyboard.bytes, output_tokens: STORYBOARD_LIMITS.outputTokens };
  const outputs = registry
    .plan(request.provider_order, request.model, secret)
    .filter((attempt) => !attempt.skipped)
    .map((attempt) => registry.get(attempt.provider)!.max_output_tokens);
  if (outputs.length === 0) return { input_tokens: 0, output_tokens: 0 };
  const parts = request.messages.flatMap((m) => m.content);
  const requestText = [request.instructions ?? '', ...parts.map((p) => (p.type === 'text' ? p.text : p.url))];
  const base =
    engineSystemTokens(request.engine) +
    // The brand kit's constraints in the system prompt (a few lines; its logo is listed, never attached).
    (request.brand ? countTokens(brandGuide(request.brand)) : 0) +
    requestText.reduce((sum, t) => sum + Buffer.byteLength(t, 'utf8'), 0) +
    parts.filter((p) => p.type !== 'text').length * MEDIA_PART_TOKENS;
  const expansion = request.expand_prompt ? Math.max(...outputs) : 0;
  const total = { input_tokens: 0, output_tokens: 0 };
  for (const output of outputs) {
    if (request.expand_prompt) {
      total.input_tokens += base;
      total.output_tokens += output;
    }
    for (let round = 0; round <= repairRounds; round++) {
      total.input_tokens += base + expansion + (round > 0 ? output + REPAIR_FINDINGS_TOKENS : 0);
      total.output_tokens += output;
    }
  }
  return total;
}

/** The hold in micro-dollars: holdTokens at the model's price on the engine. */
export function holdMicros(
  request: GenerationRequest,
  deps: { catalog: Catalog; registry: ProviderRegistry; repairRounds: number; secret: SecretReader },
): number {
  const tokens = holdTokens(request, deps.registry, deps.repairRounds, deps.secret);
  return deps.catalog.costMicros(request.engine, request.model, tokens.input_tokens, tokens.output_tokens);
}
