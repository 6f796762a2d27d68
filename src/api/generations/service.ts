// Generations on Temporal: create = start a workflow (id = generation id), read = the PostgreSQL
// record merged with the workflow's live state while in flight, cancel = workflow cancellation.
import { WorkflowNotFoundError, type WorkflowStartOptions } from '@temporalio/client';
import { conflict, DomainError, notFound } from '../../errors.js';
import {
  deleteGeneration,
  getGeneration,
  admitGeneration,
  type AppInfo,
  type GenerationRow,
} from '../../db/generations.js';
import { claimIdempotencyKey, heldIdempotencyKey, releaseIdempotencyKey } from '../../db/idempotency.js';
import { holdMicros } from '../../credits/hold.js';
import { MICROS_PER_CENT } from '../../db/organizations.js';
import { registryOf } from '../../providers/index.js';
import { newId } from '../../ids.js';
import { stageProgress } from '../../progress/percent.js';
import { metrics } from '../../metrics.js';
import { TERMINAL_STATUSES, type GenerationRequest } from '../../shared.js';
import { captionsKey, spritesheetKey, storyboardKey, thumbnailKey } from '../../storage/keys.js';
import {
  SEARCH_ATTRIBUTES,
  stateQuery,
  TASK_QUEUES,
  WORKFLOW_TYPES,
  type GenerationLiveState,
  type GenerationWorkflow,
  type GenerationWorkflowInput,
} from '../../temporal/contract.js';
import type { KeyPrincipal } from '../../db/apiKeys.js';
import { prepareRequestAudio } from '../../media/requestAudio.js';
import { prepareRequestMedia, storeUploads } from '../../media/requestMedia.js';
import { releaseMediaBytes, reserveMediaBytes } from '../../db/mediaUsage.js';
import { brandSnapshot, storeGenerationLogo, type BrandChoice } from '../../brand/kits.js';
import { getBrandKit } from '../../db/brandKits.js';
import { assertPublicWebhookUrl } from '../../webhooks/webhookUrl.js';
import type { AppDeps } from '../../http/context.js';
import type { GenerationSnapshot, TranslatedRequest } from './translate.js';

const QUERY_DEADLINE_MS = 2000;
const CANCEL_WAIT_MS = 10_000;

/** An `Idempotency-Key` of a create request and the hash of the request it came with. */
export type Idempotency = { key: string; requestHash: string };

/** How long a request waits for the generation of a concurrent request with its idempotency key. */
const IDEMPOTENT_WAIT_MS = 10_000;

/**
 * Creates a generation; with `idempotency`, at most one per key and organization within 24 hours:
 * a repeat of the same request gets the generation the first one started (`replayed`).
 */
export async function createGeneration(
  deps: AppDeps,
  principal: KeyPrincipal,
  translated: TranslatedRequest,
  app: AppInfo,
  idempotency?: Idempotency,
  brand?: BrandChoice,
): Promise<{ generation: GenerationSnapshot; replayed: boolean }> {
  const { request: requested, mediaParams, storyboardJson } = translated;
  // '' included: 400, not "absent".
  if (requested.webhook_url != null) await assertPublicWebhookUrl(requested.webhook_url, deps.config);
  // Media URLs checked (400 invalid_media_url); data: URL images decoded, their parts now `asset:<name>`.
  const media = await prepareRequestMedia(requested, deps.config, mediaParams);
  // The sound track `audio.music` names (extension): checked, and stored with the other uploads.
  const sound = await prepareRequestAudio(media.request, translated.audioParts, deps.config);
  const prepared = { request: sound.request, uploads: [...media.uploads, ...sound.uploads] };
  const { uploads } = prepared;
  const id = newId('gen');
  const { organizationId } = principal;
  // The kit as it is now goes with the request (and its logo into the generation's assets): a render never changes with
  // the kit.
  const kit = await getBrandKit(deps.db, organizationId);
  const branded = brandSnapshot(kit, brand);
  const request: GenerationRequest = branded === undefined ? prepared.request : { ...prepared.request, brand: branded };
  if (idempotency) {
    const claim = await claimIdempotencyKey(deps.db, organizationId, idempotency.key, idempotency.requestHash, id);
    if (!claim.claimed) {
      if (claim.requestHash !== idempotency.requestHash) {
        throw new DomainError(
          'conflict',
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request in the last 24 hours; ' +
            'send a new key for a new request',
          'Idempotency-Key',
        );
      }
      const replayed = await generationOfKey(deps, organizationId, idempotency, claim.generationId);
      if (replayed) return { generation: replayed, replayed: true };
      // The first request failed and gave the key up.
      return createGeneration(deps, principal, translated, app, idempotency, brand);
    }
  }
  // The images sent as data: URLs count against the organization's media quota (the kit's logo copy does not: the
  // kit's own logo is counted once).
  const uploadBytes = uploads.reduce((sum, u) => sum + u.bytes.length, 0);
  let reservedBytes = 0;
  try {
    await reserveMediaBytes(deps.db, organizationId, uploadBytes, deps.config.mediaQuotaBytesPerOrganization, 'input');
    reservedBytes = uploadBytes;
    // Admitted only while the balance covers the open holds and this one (atomically with charges).
    const holdMicros = creditHoldMicros(deps, request);
    const admission = await admitGeneration(deps.db, {
      id,
      organizationId,
      apiKeyId: principal.apiKeyId,
      request,
      app,
      holdMicros,
    });
    if (!admission.admitted) throw insufficientCredits(holdMicros, admission.availableMicros);
    const { row } = admission;
    try {
      await storeUploads(deps.storage, id, uploads);
      if (branded?.logo && kit?.logo) await storeGenerationLogo(deps.storage, id, kit.logo);
      // A storyboard request's storyboard, stored before the workflow starts: history carries only its size.
      if (storyboardJson !== null) await deps.storage.putText(storyboardKey(id), storyboardJson, 'application/json');
      await deps.temporal.workflow.start(
        WORKFLOW_TYPES.generation,
        generationStartOptions(
          {
            generationId: id,
            organizationId,
            request,
            createdAtMs: row.created_at.getTime(),
            firstProvider: firstProvider(deps, request),
          },
          app,
        ),
      );
    } catch (err) {
      // Nothing half-created: without a workflow there is no generation.
      await deleteGeneration(deps.db, id);
      deps.logger.error(
        { err, generation_id: id },
        uploads.length ? 'storing media or workflow start failed' : 'workflow start failed',
      );
      throw new DomainError(
        'unavailable',
        'temporarily_unavailable',
        'The generation could not be started; retry shortly',
      );
    }
    metrics.generationsCreated.inc({ engine: request.engine, model: request.model });
    return { generation: await snapshot(deps, row, null), replayed: false };
  } catch (err) {
    // A request that started nothing does not keep its key (a retry may use it), nor its media bytes.
    if (idempotency) await releaseIdempotencyKey(deps.db, organizationId, idempotency.key, id);
    await releaseMediaBytes(deps.db, organizationId, reservedBytes);
    throw err;
  }
}

function creditHoldMicros({ catalog, config }: AppDeps, request: GenerationRequest): number {
  const { repairRounds, secret } = config.providers;
  return holdMicros(request, { catalog, registry: registryOf(config), repairRounds, secret });
}

function firstProvider({ config }: AppDeps, request: GenerationRequest): string {
  return registryOf(config).firstProvider(request.provider_order, request.model, config.providers.secret);
}

function insufficientCredits(holdMicros: number, availableMicros: number): DomainError {
  const cents = (micros: number) => {
    const amount = Math.max(0, micros) / MICROS_PER_CENT;
    return `${amount} ${amount === 1 ? 'cent' : 'cents'}`;
  };
  return new DomainError(
    'payment_required',
    'insufficient_credits',
    `This generation holds up to ${cents(holdMicros)} of credit while it runs (its worst-case cost) ` +
      `and the balance covers ${cents(availableMicros)} beyond the holds of generations in flight; ` +
      'add credits or wait for those to finish',
  );
}

/**
 * The generation another request with the same key started, in its current state. That request may
 * still be creating it (waited for, up to IDEMPOTENT_WAIT_MS); null when it failed and gave the key up.
 */
async function generationOfKey(
  deps: AppDeps,
  organizationId: string,
  idempotency: Idempotency,
  generationId: string,
): Promise<GenerationSnapshot | null> {
  const deadline = Date.now() + IDEMPOTENT_WAIT_MS;
  for (;;) {
    if (await getGeneration(deps.db, organizationId, generationId))
      return readGeneration(deps, organizationId, generationId);
    const held = await heldIdempotencyKey(deps.db, organizationId, idempotency.key);
    if (held?.generationId !== generationId) return null;
    if (Date.now() > deadline)
      throw conflict(
        'A request with this Idempotency-Key is still being processed; retry shortly',
        'idempotency_key_in_use',
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How a generation's workflow is started: id = generation id, search attributes and memo for operators. */
export function generationStartOptions(
  input: GenerationWorkflowInput,
  app: AppInfo,
): WorkflowStartOptions<GenerationWorkflow> {
  const { generationId, organizationId, request } = input;
  return {
    workflowId: generationId,
    // One workflow per generation id, ever: a repeated start (an idempotent create) never makes a second.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    taskQueue: TASK_QUEUES.io,
    args: [input],
    // Tasks of every queue are dispatched round-robin across organizations (src/temporal/dynamicConfig.ts);
    // the workflow's activities inherit the key.
    priority: { fairnessKey: organizationId },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.organization, value: organizationId },
      { key: SEARCH_ATTRIBUTES.engine, value: request.engine },
      { key: SEARCH_ATTRIBUTES.model, value: request.model },
      { key: SEARCH_ATTRIBUTES.status, value: 'queued' },
    ],
    memo: { organization_id: organizationId, model: request.model, engine: request.engine, app_name: app.name },
  };
}

export async function readGeneration(deps: AppDeps, organizationId: string, id: string): Promise<GenerationSnapshot> {
  const row = await findOwned(deps, organizationId, id);
  if (TERMINAL_STATUSES.includes(row.status)) return snapshot(deps, row, null);
  const live = await queryLiveState(deps, id);
  // A terminal live state means the record was just written (the workflow writes it first): re-read it.
  if (!live || TERMINAL_STATUSES.includes(live.status))
    return snapshot(deps, await findOwned(deps, organizationId, id), null);
  return snapshot(deps, row, live);
}

/** Cancels an in-flight generation and waits (bounded) until the workflow has recorded it. */
export async function cancelGeneration(deps: AppDeps, organizationId: string, id: string): Promise<void> {
  const row = await findOwned(deps, organizationId, id);
  const finished = () => conflict(`Generation ${id} already finished with status ${row.status}`, 'generation_finished');
  if (TERMINAL_STATUSES.includes(row.status)) throw finished();
  const handle = deps.temporal.workflow.getHandle<GenerationWorkflow>(id);
  try {
    await handle.cancel();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw finished();
    throw err;
  }
  // The workflow ends Canceled (or Failed, or completes) once the record is written: read the record.
  await Promise.race([handle.result().catch(() => null), new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref())]);
  const { status } = await findOwned(deps, organizationId, id);
  if (status === 'completed' || status === 'failed') {
    throw conflict(
      `Generation ${id} finished with status ${status} before it could be cancelled`,
      'generation_finished',
    );
  }
}

export async function findOwned(deps: AppDeps, organizationId: string, id: string): Promise<GenerationRow> {
  // Another organization's id answers exactly like an unknown one.
  const row = id.length <= 64 ? await getGeneration(deps.db, organizationId, id) : null;
  if (!row) throw notFound(`No generation with id ${id}`);
  return row;
}

/**
 * State queries failing in a row in this process. While the worker restarts or Temporal is away every
 * poll of an in-flight generation fails the same way: the first failure is a warning, the rest debug
 * lines, and the recovery one info line.
 */
let failingQueries = 0;

/** The workflow's live state, or null when it cannot be asked (`level`: how a first failure is logged). */
export async function queryLiveState(
  deps: AppDeps,
  id: string,
  level: 'warn' | 'debug' = 'warn',
): Promise<GenerationLiveState | null> {
  try {
    const state = await deps.temporal.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () =>
      deps.temporal.workflow.getHandle<GenerationWorkflow>(id).query(stateQuery),
    );
    if (failingQueries > 0) deps.logger.info({ failed: failingQueries }, 'state queries answer again');
    failingQueries = 0;
    return state;
  } catch (err) {
    const first = failingQueries++ === 0;
    deps.logger[first ? level : 'debug'](
      { err: String(err), generation_id: id },
      'state query failed; answering from the record until queries answer again',
    );
    return null;
  }
}

export async function snapshot(
  deps: AppDeps,
  row: GenerationRow,
  live: GenerationLiveState | null,
): Promise<GenerationSnapshot> {
  const completed = row.status === 'completed';
  const [video, artifact, storyboard, thumbnail, spritesheet, captions] = await Promise.all([
    completed && row.video_key ? deps.storage.url(row.video_key) : null,
    row.artifact_key ? deps.storage.url(row.artifact_key) : null,
    row.storyboard_key ? deps.storage.url(row.storyboard_key) : null,
    // Stored with every video since the previews came (src/video/previews.ts).
    completed && row.video_key ? deps.storage.url(thumbnailKey(row.id)) : null,
    completed && row.video_key ? deps.storage.url(spritesheetKey(row.id)) : null,
    // Written by the sound mix before the generation completes; named by the request, so no column holds it.
    completed && (row.request.audio?.captions ?? 'none') !== 'none' ? deps.storage.url(captionsKey(row.id)) : null,
  ]);
  return {
    id: row.id,
    status: live?.status ?? row.status,
    model: row.model,
    engine: row.engine,
    provider: live?.provider ?? row.provider,
    createdAtMs: row.created_at.getTime(),
    completedAtMs: row.completed_at?.getTime() ?? null,
    video,
    artifact,
    artifactType: row.artifact_key ? row.artifact_type : null,
    storyboard,
    thumbnail,
    spritesheet,
    captions,
    usage:
      row.input_tokens !== null && row.output_tokens !== null
        ? { input_tokens: row.input_tokens, output_tokens: row.output_tokens, cost_micros: row.cost_micros ?? 0 }
        : null,
    latencyMs: row.latency_ms,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    progress: TERMINAL_STATUSES.includes(live?.status ?? row.status)
      ? null
      : (live?.progress ?? (row.status === 'queued' ? stageProgress('queued') : null)),
  };
}
