// The OpenAI Videos shape over the one generation service (src/api/generations/service.ts): a Videos create is
// translated into the Responses shape's request in one place here, so credits, holds, idempotency, media
// checks and the workflow are the same; reads add the shape's own words (src/db/videos.ts) and the media.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DomainError, invalidInput, notFound } from '../../errors.js';
import { chooseEngine, resolveCanvas } from '../../engines/index.js';
import type { KeyPrincipal } from '../../db/apiKeys.js';
import type { AppInfo, GenerationRow } from '../../db/generations.js';
import { markGenerationDeleted, openAiVideosOf, recordOpenAiVideo, type OpenAiVideoRow } from '../../db/videos.js';
import type { AppDeps } from '../../http/context.js';
import { getToFile } from '../../media/storageFiles.js';
import { ASSET_URL_PREFIX, TERMINAL_STATUSES } from '../../shared.js';
import { mediaAssetKey, posterKey, spritesheetKey, storyboardKey, thumbnailKey, videoKey } from '../../storage/keys.js';
import {
  cancelGeneration,
  createGeneration,
  findOwned,
  readGeneration,
  snapshot,
  type Idempotency,
} from '../generations/service.js';
import type { ResponsesRequest } from '../generations/schema.js';
import { fromResponsesRequest, type GenerationSnapshot, type TranslatedRequest } from '../generations/translate.js';
import { orchestrationModel } from './models.js';
import type { VideoCreateRequest } from './schema.js';
import { toVideoView, type VideoView } from './view.js';

/** A Videos create as the service's request, and the words the Video object shows. */
export function translateVideoRequest(
  body: VideoCreateRequest,
  deps: AppDeps,
  extra: { instructions?: string; images?: string[] } = {},
): { translated: TranslatedRequest; own: Omit<OpenAiVideoRow, 'generation_id'> } {
  const [width, height] = body.size.split('x').map(Number) as [number, number];
  let canvas;
  try {
    canvas = resolveCanvas({ width, height });
  } catch (err) {
    if (err instanceof DomainError) throw invalidInput(`size: ${err.message}`, 'size');
    throw err;
  }
  const engine = chooseEngine(body.engine, body.prompt);
  const model = orchestrationModel(deps.catalog, engine, body.model);
  const images = [
    ...(extra.images ?? []),
    ...(body.input_reference?.image_url ? [body.input_reference.image_url] : []),
  ];
  if (body.input_reference?.file_id !== undefined)
    throw invalidInput(
      'input_reference.file_id: this service keeps no uploaded files; send the image as a file part or image_url',
      'input_reference.file_id',
    );
  const request: ResponsesRequest = {
    model,
    engine,
    expand_prompt: false,
    width: canvas.width,
    height: canvas.height,
    provider: undefined,
    webhook_url: body.webhook_url,
    duration_seconds: Number(body.seconds),
    brand: undefined,
    storyboard: undefined,
    variables: undefined,
    stream: false,
    output_format: body.output_format,
    transparent: body.transparent,
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: body.prompt },
          ...images.map((url) => ({ type: 'input_image' as const, image_url: url })),
        ],
      },
    ],
    instructions: extra.instructions,
    aspect_ratio: undefined,
  };
  const translated = fromResponsesRequest(request, deps);
  // Every image part is the input_reference (a remix's own images come before it).
  translated.mediaParams = translated.mediaParams.map(() => 'input_reference');
  return {
    translated,
    own: {
      model: body.model,
      prompt: body.prompt,
      seconds: body.seconds,
      size: `${canvas.width}x${canvas.height}`,
      remixed_from_video_id: null,
    },
  };
}

export async function createVideo(
  deps: AppDeps,
  principal: KeyPrincipal,
  body: VideoCreateRequest,
  app: AppInfo,
  idempotency: Idempotency | undefined,
  remix?: { from: string; instructions: string; images: string[] },
): Promise<{ video: VideoView; replayed: boolean }> {
  const { translated, own } = translateVideoRequest(body, deps, remix ?? {});
  const { generation, replayed } = await createGeneration(deps, principal, translated, app, idempotency);
  await recordOpenAiVideo(deps.db, {
    generation_id: generation.id,
    ...own,
    remixed_from_video_id: remix?.from ?? null,
  });
  const row = await findOwned(deps, principal.organizationId, generation.id);
  return { video: await videoView(deps, generation, row), replayed };
}

/** The Video object of a generation, with its thumbnail and sprite sheet signed when it is completed. */
async function videoView(deps: AppDeps, g: GenerationSnapshot, row: GenerationRow, own?: OpenAiVideoRow | null) {
  const mine = own === undefined ? ((await openAiVideosOf(deps.db, [row.id])).get(row.id) ?? null) : own;
  return toVideoView(g, row, mine);
}

export async function readVideo(deps: AppDeps, organizationId: string, id: string): Promise<VideoView> {
  const g = await readGeneration(deps, organizationId, id);
  return videoView(deps, g, await findOwned(deps, organizationId, id));
}

/** Videos of one listing page, from the PostgreSQL records alone (no Temporal query per item). */
export async function videoViews(deps: AppDeps, rows: readonly GenerationRow[]): Promise<VideoView[]> {
  const own = await openAiVideosOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (row) => videoView(deps, await snapshot(deps, row, null), row, own.get(row.id) ?? null)),
  );
}

/**
 * Deletes a video: a running generation is cancelled first; then the generation is marked deleted (every view
 * answers 404 from now on) and its media are removed. Usage and charges stay counted.
 */
export async function deleteVideo(deps: AppDeps, organizationId: string, id: string): Promise<void> {
  let row = await findOwned(deps, organizationId, id);
  if (!TERMINAL_STATUSES.includes(row.status)) {
    await cancelGeneration(deps, organizationId, id).catch((err: unknown) => {
      // It finished meanwhile: there is nothing left to cancel.
      if (!(err instanceof DomainError && err.code === 'generation_finished')) throw err;
    });
    row = await findOwned(deps, organizationId, id);
  }
  if (!(await markGenerationDeleted(deps.db, organizationId, id))) throw notFound(`No video with id ${id}`);
  const keys = new Set([videoKey(id), posterKey(id), thumbnailKey(id), spritesheetKey(id), storyboardKey(id)]);
  if (row.video_key) keys.add(row.video_key);
  if (row.artifact_key) keys.add(row.artifact_key);
  for (const part of row.request.messages.flatMap((m) => m.content))
    if (part.type !== 'text' && part.url.startsWith(ASSET_URL_PREFIX))
      keys.add(mediaAssetKey(id, part.url.slice(ASSET_URL_PREFIX.length)));
  await Promise.all([...keys].map((key) => deps.storage.delete(key)));
  deps.logger.info({ generation_id: id, organization_id: organizationId, objects: keys.size }, 'video deleted');
}

/**
 * What a remix starts from: the original's instructions and prompt, its storyboard when it has one (its scenes
 * and look), and its images as data: URLs, so the remix stores them as its own.
 */
export async function remixSource(
  deps: AppDeps,
  organizationId: string,
  id: string,
): Promise<{ row: GenerationRow; own: OpenAiVideoRow | null; instructions: string; images: string[] }> {
  const row = await findOwned(deps, organizationId, id);
  if (row.status !== 'completed')
    throw new DomainError(
      'conflict',
      'video_not_completed',
      `Video ${id} is ${row.status}: only a completed video can be remixed`,
    );
  const own = (await openAiVideosOf(deps.db, [id])).get(id) ?? null;
  const original =
    own?.prompt ??
    row.request.messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : []))).join('\n');
  const storyboard = row.storyboard_key ? await deps.storage.getText(row.storyboard_key).catch(() => null) : null;
  const instructions = [
    row.request.instructions,
    'This video remixes an earlier one. Keep its structure, scenes, look and canvas, and change only what the ' +
      `prompt asks. The earlier video's prompt was: ${original}`,
    storyboard ? `The earlier video's storyboard (JSON): ${storyboard}` : null,
  ]
    .filter(Boolean)
    .join('\n\n');
  const images: string[] = [];
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'remix-'));
  try {
    for (const part of row.request.messages.flatMap((m) => m.content)) {
      if (part.type !== 'image') continue;
      if (!part.url.startsWith(ASSET_URL_PREFIX)) {
        images.push(part.url);
        continue;
      }
      const file = path.join(dir, `image-${images.length}`);
      await getToFile(deps.storage, mediaAssetKey(id, part.url.slice(ASSET_URL_PREFIX.length)), file);
      images.push(`data:application/octet-stream;base64,${(await fs.promises.readFile(file)).toString('base64')}`);
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
  return { row, own, instructions, images };
}
