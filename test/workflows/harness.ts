// Runs the real workflows (workflows/index.ts, bundled by the worker) on the real Temporal dev server,
// with stub activities scripted per execution: no LLM, database, storage or render. One harness = one
// fresh namespace and two in-process workers (`video-io` with the workflows, `video-render`).
// Stubs are looked up by generation id (the generation workflow's id; a webhook event's
// input.generationId), so tests of one file can run concurrently on the same workers.
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Client, Connection, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure as FailureOf, CancelledFailure } from '@temporalio/common';
import { defaultPayloadConverter } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { GenerationRequest, MediaAsset, MediaPart, TokenUsage } from '../../src/shared.js';
import { chunkKey, compositionKey, videoKey } from '../../src/storage/keys.js';
import {
  SEARCH_ATTRIBUTES,
  stateQuery,
  TASK_QUEUES,
  WORKFLOW_TYPES,
  type GenerationEventFacts,
  type GenerationLiveState,
  type GenerationOutcome,
  type GenerationWorkflow,
  type GenerationWorkflowInput,
  type MediaActivities,
  type PlannedAttempt,
  type ProviderActivities,
  type RecordActivities,
  type RenderActivities,
  type RenderPlanActivities,
  type WebhookActivities,
  type WebhookAttemptResult,
  type WebhookDeliveryInput,
  type WebhookDeliveryWorkflow,
} from '../../src/temporal/contract.js';
import { createNamespace } from '../../src/tooling/temporalDevServer.js';
import { ATTEMPT_FAILURES } from '../../src/webhooks/attemptFailures.js';
import { generationRequest } from '../support/fixtures.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export type AllActivities = ProviderActivities &
  RecordActivities &
  MediaActivities &
  RenderPlanActivities &
  RenderActivities &
  WebhookActivities;
export type Name = keyof AllActivities;
/** What a trace keeps of a call: the argument, or the argument list of a multi-argument activity. */
export type Input<K extends Name> =
  Parameters<AllActivities[K]> extends [infer Only] ? Only : Parameters<AllActivities[K]>;

/** How one execution's activities behave: any activity left out runs its default below. */
export type Script = Partial<AllActivities>;

/** One stub invocation, in the order they started. `event` marks what a stub observed (e.g. its cancellation). */
export type Call =
  { activity: Name; input: unknown; attempt: number } | { event: string; activity: Name; attempt: number };

/** The calls of one execution, with a way to wait for the next one. */
export class Trace {
  readonly calls: Call[] = [];
  private waiters: { match: (c: Call) => boolean; resolve: (c: Call) => void }[] = [];

  push(call: Call) {
    this.calls.push(call);
    this.waiters = this.waiters.filter((w) => (w.match(call) ? (w.resolve(call), false) : true));
  }

  /** Inputs of the completed-or-running calls of one activity (every attempt). */
  inputs<K extends Name>(activity: K): Input<K>[] {
    return this.calls
      .filter((c) => c.activity === activity && !('event' in c))
      .map((c) => (c as { input: unknown }).input as Input<K>);
  }

  /** Resolves when the nth call (1-based) of `activity` has started, or `event` (e.g. 'cancelled') was seen. */
  waitFor(activity: Name, opts: { nth?: number; event?: string } = {}): Promise<Call> {
    const nth = opts.nth ?? 1;
    const matches = (c: Call) =>
      c.activity === activity && (opts.event ? 'event' in c && c.event === opts.event : !('event' in c));
    let seen = this.calls.filter(matches).length;
    if (seen >= nth) return Promise.resolve(this.calls.filter(matches)[nth - 1]!);
    return new Promise((resolve) =>
      this.waiters.push({
        match: (c) => matches(c) && ++seen === nth,
        resolve,
      }),
    );
  }

  /**
   * The outcome the workflow wrote with finishGeneration (exactly one call is expected), without the completed event it
   * may carry.
   */
  get outcome(): GenerationOutcome {
    const outcomes = this.inputs('finishGeneration');
    if (outcomes.length !== 1)
      throw new Error(`finishGeneration called ${outcomes.length} times: ${JSON.stringify(this.calls)}`);
    const [outcome] = outcomes as unknown as [GenerationOutcome | [GenerationOutcome, unknown]];
    return Array.isArray(outcome) ? outcome[0] : outcome;
  }
}

// ---- scripting helpers ---------------------------------------------------------------------------

export const usage = (input_tokens: number, output_tokens: number): TokenUsage => ({ input_tokens, output_tokens });

/** What a provider activity throws for a classified failure (as activities/providers.ts does). */
export function providerFailure(type: string, message: string, used: TokenUsage | null = null): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, details: [{ usage: used }] });
}

/** workflows/compose.ts gives a provider call its `timeoutMs` plus this grace as start-to-close timeout. */
export const CALL_GRACE_MS = 15_000;
/** Compressed: a provider call that hangs times out after this (with its one retry: ~3 s in all). */
export const CALL_TIMEOUT_MS = 1000;

/**
 * A planned provider. `timeoutMs` defaults to CALL_TIMEOUT_MS - CALL_GRACE_MS (negative: no real plan
 * has that), so the workflow's timeout for each call comes out at CALL_TIMEOUT_MS.
 */
export function attempt(
  provider: string,
  skipped: string | null = null,
  timeoutMs = CALL_TIMEOUT_MS - CALL_GRACE_MS,
): PlannedAttempt {
  return { provider, skipped, timeoutMs };
}

/**
 * Blocks the calling stub until Temporal cancels it (worker shutdown included), recording the
 * cancellation in the trace. With `heartbeat: false` it never heartbeats, so it never learns of a
 * cancellation from the server, and Temporal's heartbeat timeout ends the attempt instead.
 */
export async function hang({ heartbeat = true } = {}): Promise<never> {
  const ctx = Context.current();
  const beat = heartbeat ? setInterval(() => ctx.heartbeat(), 50) : undefined;
  if (heartbeat) ctx.heartbeat();
  try {
    return await ctx.cancelled;
  } catch (err) {
    const { key, activity } = current.get(ctx) ?? {};
    if (key && activity) traceOf(key).push({ event: 'cancelled', activity, attempt: ctx.info.attempt });
    throw err;
  } finally {
    clearInterval(beat);
  }
}

/** Asks the state until it satisfies `ok` (the signal is handled asynchronously). */
export async function stateWhen(
  h: Harness,
  id: string,
  ok: (s: GenerationLiveState) => boolean,
): Promise<GenerationLiveState> {
  const handle = h.client.workflow.getHandle(id);
  for (;;) {
    const state = await handle.query(stateQuery);
    if (ok(state)) return state;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A promise the test opens when it wants a stub to go on. */
export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** The result of one webhook attempt answered with `statusCode` (null: no response). */
export function attemptResult(
  req: { eventId: string; attempt: number },
  statusCode: number | null,
  extra: Partial<WebhookAttemptResult> = {},
): WebhookAttemptResult {
  return {
    eventId: req.eventId,
    attempt: req.attempt,
    attemptedAtMs: Date.now(),
    statusCode,
    durationMs: 1,
    error: statusCode === null ? ATTEMPT_FAILURES.unreachable : null,
    retryAfterMs: null,
    responseExcerpt: null,
    ...extra,
  };
}

// ---- the stub activities --------------------------------------------------------------------------

const scripts = new Map<string, Script>();
const traces = new Map<string, Trace>();
const eventToGeneration = new Map<string, string>();
const current = new WeakMap<Context, { key: string; activity: Name }>();

export function traceOf(key: string): Trace {
  let t = traces.get(key);
  if (!t) traces.set(key, (t = new Trace()));
  return t;
}

export const draftKey = (generationId: string, draftNumber: number) =>
  compositionKey(generationId, draftNumber, 'html');

/** The asset the default fetchMedia stub describes for a part: a 320×180 PNG image, or a 2-second MP4 video. */
export function stubAsset(part: MediaPart): MediaAsset {
  return part.kind === 'image'
    ? {
        name: `image-${part.number}.png`,
        kind: 'image',
        mediaType: 'image/png',
        bytes: 1234,
        width: 320,
        height: 180,
        durationSeconds: null,
      }
    : {
        name: `video-${part.number}.mp4`,
        kind: 'video',
        mediaType: 'video/mp4',
        bytes: 56_789,
        width: 320,
        height: 180,
        durationSeconds: 2,
      };
}

/** What an activity does when the execution's script does not say otherwise: everything succeeds. */
export const defaults = {
  async planRoute() {
    return { attempts: [attempt('p1')], repairRounds: 1 };
  },
  async expandPrompt(call) {
    return { text: `expanded by ${call.provider}`, usage: usage(1, 2) };
  },
  async writeComposition(call) {
    return { key: draftKey(call.generationId, call.draftNumber), usage: usage(10, 20) };
  },
  async validateComposition() {
    return [];
  },
  async markStarted() {},
  async fetchMedia(call) {
    return call.parts.map(stubAsset);
  },
  async finishGeneration() {},
  // One piece, as for every short video.
  async planRender() {
    return { chunks: [] };
  },
  async renderComposition(input) {
    return {
      video: { key: videoKey(input.generationId), content_type: 'video/mp4' },
      artifact: { key: input.compositionKey, content_type: 'text/html' },
      duration_seconds: 2,
    };
  },
  async renderChunk({ generationId, chunk }) {
    return { index: chunk.index, key: chunkKey(generationId, chunk.index), frames: chunk.end - chunk.start };
  },
  async joinChunks(input) {
    return {
      video: { key: videoKey(input.generationId), content_type: 'video/mp4' },
      artifact: { key: input.compositionKey, content_type: 'text/html' },
      duration_seconds: input.chunks.reduce((sum, c) => sum + c.frames, 0) / 30,
    };
  },
  // Optional event types (progress) are off, as for an organization that never changed its toggles.
  async webhookEventEnabled() {
    return false;
  },
  // No organization webhook endpoints (those of the OpenAI Videos shape are test/videos/webhooks.test.ts's).
  async webhookEndpointsFor() {
    return [];
  },
  async prepareWebhookEvent() {
    return { retryScheduleMs: [0, 200] };
  },
  async attemptWebhookDelivery(req) {
    return attemptResult(req, 200);
  },
  async recordWebhookAttempt() {},
} satisfies AllActivities;

const workflowKey = () => Context.current().info.workflowExecution?.workflowId ?? '';

/** A stub with the real activity's name and type: records the call, then runs the script or the default. */
function stub<K extends Name>(activity: K, keyOf: (...args: Parameters<AllActivities[K]>) => string): AllActivities[K] {
  const run = async (...args: Parameters<AllActivities[K]>) => {
    const key = keyOf(...args);
    const ctx = Context.current();
    current.set(ctx, { key, activity });
    traceOf(key).push({ activity, input: args.length === 1 ? args[0] : args, attempt: ctx.info.attempt });
    const impl = (scripts.get(key)?.[activity] ?? defaults[activity]) as (
      ...a: Parameters<AllActivities[K]>
    ) => unknown;
    return impl(...args);
  };
  return run as unknown as AllActivities[K];
}

export const stubActivities = {
  planRoute: stub('planRoute', workflowKey),
  expandPrompt: stub('expandPrompt', workflowKey),
  writeComposition: stub('writeComposition', (call) => call.generationId),
  validateComposition: stub('validateComposition', workflowKey),
  markStarted: stub('markStarted', (generationId) => generationId),
  fetchMedia: stub('fetchMedia', (call) => call.generationId),
  finishGeneration: stub('finishGeneration', (outcome, completedEvent) => {
    // The completed event it may be given is recorded there, as prepareWebhookEvent records the others.
    if (completedEvent) eventToGeneration.set(completedEvent.eventId, outcome.generationId);
    return outcome.generationId;
  }),
  planRender: stub('planRender', (input) => input.generationId),
  renderComposition: stub('renderComposition', (input) => input.generationId),
  renderChunk: stub('renderChunk', (input) => input.generationId),
  joinChunks: stub('joinChunks', (input) => input.generationId),
  webhookEventEnabled: stub('webhookEventEnabled', workflowKey),
  webhookEndpointsFor: stub('webhookEndpointsFor', (input) => input.generationId),
  prepareWebhookEvent: stub('prepareWebhookEvent', (input) => {
    eventToGeneration.set(input.eventId, input.generationId);
    return input.generationId;
  }),
  attemptWebhookDelivery: stub('attemptWebhookDelivery', (req) => eventToGeneration.get(req.eventId) ?? req.eventId),
  recordWebhookAttempt: stub(
    'recordWebhookAttempt',
    (result) => eventToGeneration.get(result.eventId) ?? result.eventId,
  ),
} satisfies AllActivities;

const { renderComposition, renderChunk, joinChunks, ...ioActivities } = stubActivities;

// ---- requests and executions ----------------------------------------------------------------------

export function request(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return generationRequest('hyperframes', 'test-model', {
    content: [{ type: 'text', text: 'A bold product launch teaser' }],
    width: 540,
    height: 960,
    ...overrides,
  });
}

export type GenerationRun = { id: string; handle: WorkflowHandle<GenerationWorkflow>; trace: Trace };
export type WebhookRun = { eventId: string; handle: WorkflowHandle<WebhookDeliveryWorkflow>; trace: Trace };

export type Harness = {
  namespace: string;
  client: Client;
  /** Starts the generation workflow (id = generation id) as the API does, its activities following `script`. */
  startGeneration(script?: Script, overrides?: Partial<GenerationRequest>): Promise<GenerationRun>;
  /**
   * Starts one webhook delivery workflow (id = event id) with its activities following `script`; `withInput` may change
   * its input.
   */
  startWebhook(
    script?: Script,
    facts?: Partial<GenerationEventFacts>,
    withInput?: (input: WebhookDeliveryInput) => WebhookDeliveryInput,
  ): Promise<WebhookRun>;
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${crypto.randomBytes(8).toString('hex')}`;

let runtimeInstalled = false;
/**
 * The SDK's own logs (TS and core) only from ERROR up: scripted failures would otherwise fill the output with warnings.
 */
export function installQuietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // already installed in this process
  }
}

/** `ioWorker`: options of the `video-io` worker beyond the harness's (e.g. fewer activity slots). */
export async function startHarness(
  address: string,
  opts: { ioWorker?: Partial<WorkerOptions> } = {},
): Promise<Harness> {
  installQuietRuntime();
  const namespace = `wf-${crypto.randomBytes(4).toString('hex')}`;
  await createNamespace(address, namespace);
  const nativeConnection = await NativeConnection.connect({ address });
  const compressed = {
    connection: nativeConnection,
    namespace,
    // Heartbeats (and the cancellations their answers carry) go out at once, not after 0.8 × the
    // heartbeat timeout.
    maxHeartbeatThrottleInterval: '50 ms',
    defaultHeartbeatThrottleInterval: '50 ms',
  } as const;
  const workers = await Promise.all([
    Worker.create({
      ...compressed,
      taskQueue: TASK_QUEUES.io,
      workflowsPath: WORKFLOWS_PATH,
      activities: ioActivities,
      ...opts.ioWorker,
    }),
    Worker.create({
      ...compressed,
      taskQueue: TASK_QUEUES.render,
      activities: { renderComposition, renderChunk, joinChunks },
    }),
  ]);
  const running = Promise.all(workers.map((w) => w.run()));
  running.catch(() => {}); // surfaced by close()
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });

  return {
    namespace,
    client,
    async startGeneration(script = {}, overrides = {}) {
      const generationId = id('gen');
      scripts.set(generationId, script);
      const input: GenerationWorkflowInput = {
        generationId,
        organizationId: 'org_test',
        request: request(overrides),
        createdAtMs: Date.now(),
        // As the API names it: the head of the planned order (the stub plan's first provider).
        firstProvider: 'p1',
      };
      // Id, task queue, fairness key and search attributes as the API starts it (src/api/generations/service.ts,
      // generationStartOptions).
      const handle = await client.workflow.start<GenerationWorkflow>(WORKFLOW_TYPES.generation, {
        workflowId: generationId,
        taskQueue: TASK_QUEUES.io,
        args: [input],
        priority: { fairnessKey: input.organizationId },
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.organization, value: input.organizationId },
          { key: SEARCH_ATTRIBUTES.engine, value: input.request.engine },
          { key: SEARCH_ATTRIBUTES.model, value: input.request.model },
          { key: SEARCH_ATTRIBUTES.status, value: 'queued' },
        ],
      });
      return { id: generationId, handle, trace: traceOf(generationId) };
    },
    async startWebhook(script = {}, facts = {}, withInput = (input) => input) {
      const generationId = id('gen');
      scripts.set(generationId, script);
      const eventId = id('evt');
      eventToGeneration.set(eventId, generationId); // its attempts are traced even when it prepares nothing
      const input: WebhookDeliveryInput = {
        eventId,
        generationId,
        organizationId: 'org_test',
        webhookUrl: 'https://hooks.example.com/video',
        engine: 'hyperframes',
        model: 'test-model',
        facts: {
          type: 'video.generation.completed',
          status: 'completed',
          provider: 'p1',
          errorMessage: null,
          videoKey: null,
          ...facts,
        },
      };
      const handle = await client.workflow.start<WebhookDeliveryWorkflow>(WORKFLOW_TYPES.webhookDelivery, {
        workflowId: eventId,
        taskQueue: TASK_QUEUES.io,
        args: [withInput(input)],
      });
      return { eventId, handle, trace: traceOf(generationId) };
    },
    async close() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running;
      await connection.close();
      await nativeConnection.close();
    },
  };
}

// ---- reading histories ----------------------------------------------------------------------------

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/**
 * How a generation workflow ended: `completed` (its result), or `failed` / `cancelled` from the
 * workflow's own failure (it ends Failed with the error code as type, or Canceled).
 */
export async function outcomeOf(handle: WorkflowHandle): Promise<'completed' | 'failed' | 'cancelled'> {
  try {
    return (await handle.result()) as 'completed';
  } catch (err) {
    if (err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure) return 'cancelled';
    if (err instanceof WorkflowFailedError && err.cause instanceof FailureOf) return 'failed';
    throw err;
  }
}

/** The lifecycle events a generation started as child workflows, in order (from its history). */
export async function emittedEvents(handle: WorkflowHandle): Promise<WebhookDeliveryInput[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? [])
    .map((e: HistoryEvent) => e.startChildWorkflowExecutionInitiatedEventAttributes)
    .filter((a) => a != null)
    .map((a) => defaultPayloadConverter.fromPayload<WebhookDeliveryInput>(a.input!.payloads![0]!));
}

/** Activities whose cancellation was requested but never confirmed (the history's events). */
export async function unconfirmedCancellations(handle: WorkflowHandle): Promise<number> {
  const { events } = await handle.fetchHistory();
  const requested = new Set<string>();
  for (const e of events ?? []) {
    const asked = e.activityTaskCancelRequestedEventAttributes?.scheduledEventId;
    if (asked != null) requested.add(String(asked));
    const done =
      e.activityTaskCanceledEventAttributes?.scheduledEventId ??
      e.activityTaskCompletedEventAttributes?.scheduledEventId ??
      e.activityTaskFailedEventAttributes?.scheduledEventId;
    if (done != null) requested.delete(String(done));
  }
  return requested.size;
}

/** The durations of the timers a workflow started, in ms, in order. */
export async function timerDurations(handle: WorkflowHandle): Promise<number[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? [])
    .map((e: HistoryEvent) => e.timerStartedEventAttributes?.startToFireTimeout)
    .filter((t) => t != null)
    .map((t) => Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6));
}
