// What clients see of a generation while its workflow runs, owned in one place: the live state the
// `state` query answers (status, progress, the sequence number stream events carry), the render
// progress reports (summed over chunks), the search attributes the Temporal UI filters on, and the
// lifecycle webhook events in their order — queued, started (always before completed), progress,
// completed.
import { CancellationScope, condition, patched, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { combineChunkProgress, stageProgress } from '../src/progress/percent.js';
import { TERMINAL_STATUSES, type GenerationProgress, type GenerationStatus, type RenderChunk } from '../src/shared.js';
import {
  renderProgressSignal,
  SEARCH_ATTRIBUTES,
  stateQuery,
  type GenerationEventFacts,
  type GenerationLiveState,
  type GenerationOutcome,
  type GenerationWorkflowInput,
  type PreparedDelivery,
  type RenderProgressReport,
  type WebhookDeliveryInput,
} from '../src/temporal/contract.js';
import { webhookRecords } from './activities.js';
import { emitToEndpoints, emitWebhookEvent, startDelivery, webhookEvent } from './webhooks.js';

/** A progress webhook event at most every this many percentage points. */
const PROGRESS_EVENT_STEP = 10;

const RENDER_STAGES: readonly string[] = ['rendering', 'encoding', 'storing'];

export class GenerationLifecycle {
  readonly state: GenerationLiveState = { status: 'queued', provider: null, progress: stageProgress('queued'), seq: 1 };
  private providerCalls = 0;
  private startedSent = false;
  private reachedInProgress = false;
  /** Once the outcome is decided, late render reports change nothing (the terminal seq is fixed). */
  private ending = false;
  /** While a split render runs: its chunks and each one's latest report. */
  private chunks: { chunks: RenderChunk[]; reports: Map<number, RenderProgressReport> } | null = null;
  private progressEvents: Promise<void> = Promise.resolve();

  constructor(private readonly input: GenerationWorkflowInput) {
    setHandler(stateQuery, () => this.state);
    setHandler(renderProgressSignal, (report) => this.onRenderReport(report));
  }

  /** The queued event; then progress events follow the generation until it ends (outside cancellation). */
  async queued(): Promise<void> {
    await emitWebhookEvent(this.input, {
      type: 'video.generation.queued',
      status: 'queued',
      provider: this.input.firstProvider ?? null,
      errorMessage: null,
      videoKey: null,
    });
    this.progressEvents = CancellationScope.nonCancellable(() => this.emitProgressEvents());
  }

  inProgress(): void {
    this.setStatus('in_progress');
    this.reachedInProgress = true;
    this.setProgress(stageProgress('composing'));
  }

  /** Before every provider call; processing begins (the started event) with the first. */
  async providerCall(provider: string, repairRound: number): Promise<void> {
    this.setProgress({ ...stageProgress('composing', 0, ++this.providerCalls), provider, repair_round: repairRound });
    if (this.providerCalls === 1) await this.emitStarted(provider);
  }

  rendering(provider: string): void {
    this.state.provider = provider;
    this.setProgress(stageProgress('rendering'));
  }

  /** A split render's chunks while they run (their reports are summed), null once they are over. */
  chunksRunning(chunks: RenderChunk[] | null): void {
    this.chunks = chunks ? { chunks, reports: new Map() } : null;
  }

  /**
   * Ends the generation as clients see it: `record` writes the outcome with the sequence number the
   * terminal state gets, then the status turns terminal, the progress events stop and the last events
   * go out (a cancelled generation sends no completed event). The completed event goes to `record`
   * too, which prepares it and sends its first attempt as soon as the outcome is written; a started
   * event still due goes out before. Executions that recorded no `completed-sent-with-record` marker
   * replay `endAsBefore`: those started before it, and (before issue 40) those whose started event was
   * still due.
   */
  async end(
    outcome: GenerationOutcome,
    record: (eventSeq: number, completedEvent?: WebhookDeliveryInput) => Promise<PreparedDelivery | void>,
  ): Promise<void> {
    this.ending = true;
    const terminalSeq = this.state.seq + 1;
    const facts: GenerationEventFacts = {
      type: 'video.generation.completed',
      status: outcome.status,
      provider: outcome.provider,
      errorMessage: outcome.error?.message ?? null,
      videoKey: outcome.rendered?.video.key ?? null,
    };
    // In progress without a provider call (none usable, or media that could not be fetched): the
    // started event is still due, and comes first.
    const startedDue = this.reachedInProgress && !this.startedSent;
    const startedProvider = outcome.provider ?? this.input.firstProvider ?? null;
    const announced = outcome.status !== 'cancelled' && !!this.input.request.webhook_url;
    if (!announced || !patched('completed-sent-with-record'))
      return this.endAsBefore(outcome, terminalSeq, facts, record, startedDue, startedProvider);
    if (startedDue) await this.emitStarted(startedProvider);
    const completed = webhookEvent(this.input, facts)!;
    const prepared = await record(terminalSeq, completed);
    this.setStatus(outcome.status, terminalSeq);
    await this.progressEvents;
    // Empty only from an older worker that made no attempt: the delivery workflow then prepares the event itself.
    await startDelivery(prepared ? { ...completed, prepared } : completed);
    if (patched('organization-endpoints')) await emitToEndpoints(this.input, facts);
  }

  /**
   * The end without a completed event to send (cancelled, or no webhook_url), and that of executions
   * that recorded no `completed-sent-with-record` marker: their completed event is prepared by its own
   * delivery workflow, started after the record, and a started event still due goes out before it
   * only since `started-before-completed`.
   */
  private async endAsBefore(
    outcome: GenerationOutcome,
    terminalSeq: number,
    facts: GenerationEventFacts,
    record: (eventSeq: number) => Promise<unknown>,
    startedDue: boolean,
    startedProvider: string | null,
  ): Promise<void> {
    await record(terminalSeq);
    this.setStatus(outcome.status, terminalSeq);
    await this.progressEvents;
    if (outcome.status === 'cancelled') return;
    if (startedDue && patched('started-before-completed')) await this.emitStarted(startedProvider);
    await emitWebhookEvent(this.input, facts);
    if (patched('organization-endpoints')) await emitToEndpoints(this.input, facts);
  }

  private async emitStarted(provider: string | null): Promise<void> {
    this.startedSent = true;
    await emitWebhookEvent(this.input, {
      type: 'video.generation.started',
      status: 'in_progress',
      provider,
      errorMessage: null,
      videoKey: null,
    });
  }

  private onRenderReport(signalled: RenderProgressReport): void {
    if (this.ending) return;
    let report = signalled;
    if (signalled.chunk !== undefined) {
      if (!this.chunks) return; // a late report from a chunk already joined
      this.chunks.reports.set(signalled.chunk, signalled);
      report = combineChunkProgress(this.chunks.chunks, this.chunks.reports);
    }
    if (!RENDER_STAGES.includes(this.state.progress?.stage ?? '')) return;
    this.setProgress({
      ...stageProgress(report.stage, report.fraction),
      frames_rendered: report.frames_rendered,
      frames_total: report.frames_total,
      eta_seconds: report.eta_seconds,
    });
  }

  private setProgress(next: GenerationProgress): void {
    const previous = this.state.progress;
    // The percentage never goes back (a provider fallback, a late report).
    this.state.progress = { ...next, percent: Math.max(previous?.percent ?? 0, next.percent) };
    this.state.seq += 1;
    if (previous?.stage !== next.stage) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.stage, value: next.stage }]);
  }

  /** `seq`: the number a terminal state was recorded with; otherwise the next one. */
  private setStatus(status: GenerationStatus, seq = this.state.seq + 1): void {
    this.state.status = status;
    this.state.seq = seq;
    const terminal = TERMINAL_STATUSES.includes(status);
    if (terminal) this.state.progress = null;
    upsertSearchAttributes([
      { key: SEARCH_ATTRIBUTES.status, value: status },
      // Terminal: no stage (the UI's list of in-flight generations filters on it).
      ...(terminal ? [{ key: SEARCH_ATTRIBUTES.stage, value: null }] : []),
    ]);
  }

  /**
   * `video.generation.progress` events (off unless the organization turned them on): one each time the
   * percentage passes another PROGRESS_EVENT_STEP points, until the generation ends.
   */
  private async emitProgressEvents(): Promise<void> {
    const { input, state } = this;
    if (!input.request.webhook_url) return;
    const ended = () => state.progress === null;
    let next = PROGRESS_EVENT_STEP;
    await condition(() => ended() || (state.progress?.percent ?? 0) >= next);
    if (ended()) return;
    if (
      !(await webhookRecords(input.organizationId).webhookEventEnabled({
        organizationId: input.organizationId,
        type: 'video.generation.progress',
      }))
    )
      return;
    for (;;) {
      await condition(() => ended() || (state.progress?.percent ?? 0) >= next);
      const progress = state.progress;
      if (!progress) return;
      next = (Math.floor(progress.percent / PROGRESS_EVENT_STEP) + 1) * PROGRESS_EVENT_STEP;
      await emitWebhookEvent(input, {
        type: 'video.generation.progress',
        status: 'in_progress',
        provider: state.provider,
        errorMessage: null,
        videoKey: null,
        progress,
      });
    }
  }
}
