// Workflow step: get a valid composition from the orchestration providers. Deterministic routing:
// the providers of the plan are tried one at a time; a provider that is unavailable (timeout,
// connection error, 429, 5xx) hands over to the next; a rejected request or refused content ends the
// generation. On the provider that answers: optional prompt expansion, then composition, then up to
// `repairRounds` repairs while the engine finds errors. Tokens of every call are summed.
import { ActivityCancellationType, ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, TimeoutFailure } from '@temporalio/workflow';
import type { ProviderActivities } from '../activities/providers.js';
import { FINAL_PROVIDER_FAILURES, PROVIDER_FAILURE } from '../src/providers/errors.js';
import {
  TASK_QUEUES,
  type Composition,
  type CompositionDraft,
  type Finding,
  type GenerationWorkflowInput,
  type MediaAsset,
  type PlannedAttempt,
  type RepairOf,
  type TokenUsage,
} from '../src/shared.js';

/** Planning and validation: quick, local, safe to retry. */
const planning = proxyActivities<ProviderActivities>({
  taskQueue: TASK_QUEUES.io,
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/** Time beyond the provider's own HTTP timeout before Temporal gives a call up (queueing, extraction). */
const CALL_GRACE_MS = 15_000;
const PROVIDER_CALLS = ['expandPrompt', 'writeComposition'];
/** Findings quoted in the error message of an invalid composition. */
const MAX_LISTED_FINDINGS = 10;

/**
 * Activities of one provider: the timeout follows the provider's HTTP timeout. Provider failures come
 * back classified and final (the fallback to the next provider is the retry); Temporal retries only
 * what the provider did not answer, a lost worker or a crash.
 */
function callsTo(attempt: PlannedAttempt) {
  return proxyActivities<ProviderActivities>({
    taskQueue: TASK_QUEUES.io,
    startToCloseTimeout: attempt.timeoutMs + CALL_GRACE_MS,
    heartbeatTimeout: '30 seconds',
    // A cancelled generation waits for the call to stop: no activity is left pending behind it.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: '1 second', maximumAttempts: 2 },
  });
}

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
  const fail = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });
  try {
    return await route(input, assets, usage, fail, onCall);
  } catch (err) {
    if (isCancellation(err) || err instanceof ApplicationFailure) throw err;
    // Anything else (a validation activity that kept failing) becomes a composition failure.
    const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
    throw fail('composition_failed', cause instanceof Error ? cause.message : String(cause));
  }
}

async function route(
  input: GenerationWorkflowInput,
  assets: MediaAsset[],
  usage: TokenUsage,
  fail: (type: string, message: string) => ApplicationFailure,
  onCall: (provider: string, repairRound: number) => Promise<void>,
): Promise<Composition> {
  const { generationId, request } = input;
  const plan = await planning.planRoute(request);
  const reasons: string[] = [];
  let expandedPrompt: string | null = null;
  let draftNumber = 0;

  for (const attempt of plan.attempts) {
    const { provider } = attempt;
    if (attempt.skipped) {
      reasons.push(`${provider}: skipped, ${attempt.skipped}`);
      continue;
    }
    const calls = callsTo(attempt);
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
        const draft: CompositionDraft = await calls.writeComposition({ generationId, provider, request, expandedPrompt, repair, draftNumber, assets });
        add(usage, draft.usage);
        const errors = await planning.validateComposition({
          engine: request.engine,
          key: draft.key,
          width: request.width,
          height: request.height,
          durationSeconds: request.duration_seconds,
          assets,
        });
        if (errors.length === 0) return { key: draft.key, provider };
        if (round >= plan.repairRounds) {
          throw fail('invalid_composition', `The composition from ${provider} is still invalid after ${round} repair round(s): ${listFindings(errors)}`);
        }
        repair = { draftKey: draft.key, findings: errors };
      }
    } catch (err) {
      const failure = providerFailure(err);
      if (!failure) throw err;
      add(usage, failure.usage);
      if (FINAL_PROVIDER_FAILURES.includes(failure.type)) {
        const earlier = reasons.length ? ` (earlier attempts: ${reasons.join('; ')})` : '';
        throw fail(failure.type, `${provider}: ${failure.message}${earlier}`);
      }
      reasons.push(`${provider}: ${failure.message}`);
    }
  }
  throw fail(
    PROVIDER_FAILURE.unavailable,
    reasons.length ? `No provider could write the composition: ${reasons.join('; ')}` : 'No provider is configured for this request',
  );
}

type CallFailure = { type: string; message: string; usage: TokenUsage | null };

/** A failed provider call, classified; null for anything else (cancellation, validation, our own failures). */
function providerFailure(err: unknown): CallFailure | null {
  if (!(err instanceof ActivityFailure) || !PROVIDER_CALLS.includes(err.activityType) || isCancellation(err)) return null;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure) {
    const detail = cause.details?.[0] as { usage?: TokenUsage | null } | undefined;
    return { type: cause.type ?? PROVIDER_FAILURE.unavailable, message: cause.message, usage: detail?.usage ?? null };
  }
  if (cause instanceof TimeoutFailure) return { type: PROVIDER_FAILURE.unavailable, message: 'the call did not finish in time', usage: null };
  return { type: PROVIDER_FAILURE.unavailable, message: cause?.message ?? err.message, usage: null };
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
  return findings.length > MAX_LISTED_FINDINGS ? `${listed}; and ${findings.length - MAX_LISTED_FINDINGS} more` : listed;
}
