// Workflow step: get a valid composition from the orchestration providers. Deterministic routing:
// the providers of the plan are tried one at a time; a provider that is unavailable (timeout,
// connection error, 429, 5xx) hands over to the next; a rejected request or refused content ends the
// generation. On the provider that answers: optional prompt expansion, then composition, then up to
// `repairRounds` repairs while the engine finds errors. Tokens of every call are summed.
import { ActivityFailure, ApplicationFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import { FINAL_PROVIDER_FAILURES, PROVIDER_FAILURE } from '../src/providers/errors.js';
import type { Finding, MediaAsset, TokenUsage } from '../src/shared.js';
import {
  PROVIDER_CALLS,
  type Composition,
  type CompositionDraft,
  type GenerationWorkflowInput,
  type RepairOf,
} from '../src/temporal/contract.js';
import { planning, providerCalls } from './activities.js';

/** Findings quoted in the error message of an invalid composition. */
const MAX_LISTED_FINDINGS = 10;

/**
 * Returns the composition and the provider that wrote it. Tokens of every call are added to `usage`
 * as they are reported, so the caller bills them however this step ends (success, failure, cancel).
 * `onCall` runs before every provider call, with the provider and the repair round (0: the first draft).
 */
export async function composeComposition(
  input: GenerationWorkflowInput,
  assets: MediaAsset[],
  usage: TokenUsage,
  onCall: (provider: string, repairRound: number) => Promise<void>,
): Promise<Composition> {
  const { generationId, request } = input;
  const plan = await planning.planRoute(request);
  const reasons: string[] = [];
  // Only a provider that was called has an answer in the logs (a skipped one was never asked).
  let called = false;
  let expandedPrompt: string | null = null;
  let draftNumber = 0;

  for (const attempt of plan.attempts) {
    const { provider } = attempt;
    if (attempt.skipped) {
      reasons.push(`${provider}: skipped, ${attempt.skipped}`);
      continue;
    }
    const calls = providerCalls(attempt);
    try {
      // One expansion per generation: a provider that takes over reuses it.
      if (request.expand_prompt && expandedPrompt === null) {
        await onCall(provider, 0);
        const expansion = await calls.expandPrompt({ provider, request, assets });
        add(usage, expansion.usage);
        expandedPrompt = expansion.text;
      }
      let repair: RepairOf | null = null;
      for (let round = 0; ; round++) {
        draftNumber += 1;
        await onCall(provider, round);
        const draft: CompositionDraft = await calls.writeComposition({
          generationId,
          provider,
          request,
          expandedPrompt,
          repair,
          draftNumber,
          assets,
        });
        add(usage, draft.usage);
        const errors = await planning.validateComposition({
          engine: request.engine,
          key: draft.key,
          width: request.width,
          height: request.height,
          durationSeconds: request.duration_seconds,
          assets,
        });
        if (errors.length === 0) return { key: draft.key, provider, storyboardKey: draft.storyboardKey ?? null };
        if (round >= plan.repairRounds) {
          throw fail(
            'invalid_composition',
            `The composition from ${provider} is still invalid after ${round} repair round(s): ${listFindings(errors)}`,
          );
        }
        repair = { draftKey: draft.key, findings: errors };
      }
    } catch (err) {
      const failure = providerFailure(err);
      if (!failure) throw err;
      called = true;
      add(usage, failure.usage);
      if (FINAL_PROVIDER_FAILURES.includes(failure.type)) {
        const earlier = reasons.length ? ` (earlier attempts: ${reasons.join('; ')})` : '';
        throw fail(failure.type, `${provider}: ${failure.message}${earlier}${inTheLogs(generationId)}`);
      }
      reasons.push(`${provider}: ${failure.message}`);
    }
  }
  throw fail(
    PROVIDER_FAILURE.unavailable,
    reasons.length
      ? `No provider could write the composition: ${reasons.join('; ')}${called ? inTheLogs(generationId) : ''}`
      : 'No provider is configured for this request',
  );
}

/** The provider a storyboard request's generation names: the storyboard itself, drawn as written. */
export const STORYBOARD_PROVIDER = 'storyboard';

/**
 * A storyboard request's composition: the stored storyboard drawn by the engine, no provider called
 * and no repair (the engines draw every storyboard the API admits). It counts as tokens like the
 * embedded composer's call: the storyboard in, the composition out.
 */
export async function drawStoryboardComposition(
  input: GenerationWorkflowInput,
  assets: MediaAsset[],
  usage: TokenUsage,
  onCall: (provider: string, repairRound: number) => Promise<void>,
): Promise<Composition> {
  const { generationId, request } = input;
  await onCall(STORYBOARD_PROVIDER, 0);
  const draft = await planning.drawStoryboard({ generationId, request, assets });
  add(usage, draft.usage);
  const errors = await planning.validateComposition({
    engine: request.engine,
    key: draft.key,
    width: request.width,
    height: request.height,
    durationSeconds: request.duration_seconds,
    assets,
  });
  if (errors.length > 0)
    throw fail('invalid_composition', `The storyboard's composition is invalid: ${listFindings(errors)}`);
  return { key: draft.key, provider: STORYBOARD_PROVIDER, storyboardKey: draft.storyboardKey ?? null };
}

/**
 * Provider failures reach the tenant as fixed words (src/providers/errors.ts PROVIDER_CAUSES); the
 * provider's own answer is in the worker's log under the generation id.
 */
const inTheLogs = (generationId: string) => `. The provider's answer is in the service's logs under ${generationId}`;

const fail = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

const PROVIDER_FAILURE_TYPES: readonly string[] = Object.values(PROVIDER_FAILURE);

type CallFailure = { type: string; message: string; usage: TokenUsage | null };

/** A failed provider call, classified; null for anything else (cancellation, validation, our own failures). */
function providerFailure(err: unknown): CallFailure | null {
  if (
    !(err instanceof ActivityFailure) ||
    !(PROVIDER_CALLS as readonly string[]).includes(err.activityType) ||
    isCancellation(err)
  )
    return null;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && PROVIDER_FAILURE_TYPES.includes(cause.type ?? '')) {
    const detail = cause.details?.[0] as { usage?: TokenUsage | null } | undefined;
    return { type: cause.type!, message: cause.message, usage: detail?.usage ?? null };
  }
  if (cause instanceof TimeoutFailure)
    return { type: PROVIDER_FAILURE.unavailable, message: 'the call did not finish in time', usage: null };
  // A crash of our own (not the provider's answer): its words are for the operator's log, which has them.
  return { type: PROVIDER_FAILURE.unavailable, message: 'the call failed unexpectedly', usage: null };
}

function add(total: TokenUsage, more: TokenUsage | null) {
  if (!more) return;
  total.input_tokens += more.input_tokens;
  total.output_tokens += more.output_tokens;
}

function listFindings(findings: Finding[]): string {
  const listed = findings
    .slice(0, MAX_LISTED_FINDINGS)
    .map((f) => `${f.code}${f.location ? ` at ${f.location}` : ''}: ${f.message}`)
    .join('; ');
  return findings.length > MAX_LISTED_FINDINGS
    ? `${listed}; and ${findings.length - MAX_LISTED_FINDINGS} more`
    : listed;
}
