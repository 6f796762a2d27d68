// Composition activities (task queue `video-io`): plan the provider route, call one provider once
// (expansion, composition or repair), validate a composition with its engine. The workflow
// (workflows/compose.ts) strings them together; every provider call is its own activity.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { getEngine } from '../src/engines/index.js';
import {
  expandPrompt,
  FINAL_PROVIDER_FAILURES,
  ProviderError,
  registryOf,
  writeComposition,
} from '../src/providers/index.js';
import type { Finding, GenerationRequest } from '../src/shared.js';
import { compositionKey, storyboardKey } from '../src/storage/keys.js';
import type {
  CompositionCall,
  CompositionDraft,
  ExpansionCall,
  ExpansionResult,
  ProviderActivities,
  RoutePlan,
  StoryboardActivities,
  StoryboardDrawCall,
  ValidationInput,
} from '../src/temporal/contract.js';
import { metrics } from '../src/metrics.js';
import { drawStoryboardOffThread, validateOffThread } from '../src/threads/pool.js';
import type { ActivityDeps } from './deps.js';

/**
 * Every draft of a generation is stored under its own key, written once by the activity that got it
 * from the provider; validation, repair and render read it by key. The rendered one is the artifact.
 */
const draftKey = (generationId: string, engine: string, draftNumber: number) =>
  compositionKey(generationId, draftNumber, getEngine(engine).artifact.extension);

/** Heartbeats carry cancellation to a running provider call (its fetch is aborted). */
const HEARTBEAT_INTERVAL_MS = 5000;

export function createProviderActivities({
  config,
  logger,
  storage,
}: ActivityDeps): ProviderActivities & StoryboardActivities {
  const { secret, repairRounds } = config.providers;
  // Read now: a broken registry file stops the worker at start-up rather than failing generations.
  const registry = registryOf(config);
  const env = (signal: AbortSignal) => ({ registry, secret, signal });

  /** Runs one provider call; a ProviderError becomes a final ApplicationFailure carrying the tokens it used. */
  async function providerCall<T>(provider: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctx = Context.current();
    const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_INTERVAL_MS);
    try {
      const result = await run(ctx.cancellationSignal);
      metrics.providerAttempts.inc({ provider, outcome: 'ok' });
      return result;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      metrics.providerAttempts.inc({
        provider,
        outcome: FINAL_PROVIDER_FAILURES.includes(err.type) ? 'error' : 'retryable_error',
      });
      logger.warn(
        { generation_id: ctx.info.workflowExecution?.workflowId, provider, type: err.type, reason: err.detail },
        'provider call failed',
      );
      throw ApplicationFailure.create({
        type: err.type,
        message: err.message,
        nonRetryable: true,
        details: [{ usage: err.usage }],
      });
    } finally {
      clearInterval(beat);
    }
  }

  return {
    async planRoute(request: GenerationRequest): Promise<RoutePlan> {
      const attempts = registry.plan(request.provider_order, request.model, secret);
      const skipped = attempts.filter((a) => a.skipped);
      if (skipped.length)
        logger.info(
          {
            generation_id: Context.current().info.workflowExecution?.workflowId,
            skipped: skipped.map((a) => ({ ...a, api_key_env: registry.get(a.provider)?.api_key_env ?? null })),
          },
          'providers skipped',
        );
      return { attempts, repairRounds };
    },

    async expandPrompt(call: ExpansionCall): Promise<ExpansionResult> {
      return providerCall(call.provider, (signal) => expandPrompt(env(signal), call));
    },

    /** Writes (or repairs) the composition and stores it: only its key goes back to the workflow. */
    async writeComposition(call: CompositionCall): Promise<CompositionDraft> {
      const { generationId, provider, request, expandedPrompt, repair, draftNumber, assets } = call;
      const previous = repair && { previous: await storage.getText(repair.draftKey), findings: repair.findings };
      const written = await providerCall(provider, (signal) =>
        writeComposition(env(signal), { provider, request, expandedPrompt, repair: previous, assets }),
      );
      const key = draftKey(generationId, request.engine, draftNumber);
      await storage.putText(key, written.source, getEngine(request.engine).artifact.mediaType);
      // The embedded composer's plan, kept beside the composition: the generation links it (storyboard_url).
      if (!written.storyboard) return { key, usage: written.usage };
      await storage.putText(storyboardKey(generationId), written.storyboard, 'application/json');
      return { key, usage: written.usage, storyboardKey: storyboardKey(generationId) };
    },

    /** A storyboard request: its stored storyboard drawn by the engine (no provider), the composition stored. */
    async drawStoryboard({ generationId, request, assets }: StoryboardDrawCall): Promise<CompositionDraft> {
      const storyboard = await storage.getText(storyboardKey(generationId));
      const { source, usage } = await drawStoryboardOffThread(
        request.engine,
        storyboard,
        {
          width: request.width,
          height: request.height,
          assets,
          ...(request.output?.transparent ? { transparent: true } : {}),
        },
        request.brand ?? null,
      );
      const key = draftKey(generationId, request.engine, 1);
      await storage.putText(key, source, getEngine(request.engine).artifact.mediaType);
      return { key, usage, storyboardKey: storyboardKey(generationId) };
    },

    /** The engine's error findings about a stored composition (warnings do not block a render). */
    async validateComposition(input: ValidationInput): Promise<Finding[]> {
      const source = await storage.getText(input.key);
      // Parsing and linting is synchronous CPU work: off the worker's event loop (src/threads).
      const findings = await validateOffThread(input.engine, source, {
        width: input.width,
        height: input.height,
        durationSeconds: input.durationSeconds,
        assets: input.assets ?? [],
      });
      return findings.filter((f) => f.severity === 'error');
    },
  };
}
