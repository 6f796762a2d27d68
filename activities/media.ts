// Media activities (task queue `video-io`): the requester's images and videos become the
// generation's stored assets before anything is composed (src/media/fetch.ts). A part that cannot
// be used fails the generation with `media_unavailable`, naming the URL and the reason: at once for
// what another attempt cannot change (4xx, size, type, policy), after a few attempts for the network.
import fs from 'node:fs';
import tls from 'node:tls';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { renderSandboxConfinement } from '../src/engines/isolation/confine.js';
import { fetchMediaAssets, MediaUnavailableError } from '../src/media/fetch.js';
import type { MediaAsset } from '../src/shared.js';
import type { MediaActivities, MediaFetchCall } from '../src/temporal/contract.js';
import { systemResolver, urlPolicyFromConfig, type HostResolver } from '../src/outbound/urlPolicy.js';
import type { ActivityDeps } from './deps.js';

export const MEDIA_UNAVAILABLE = 'media_unavailable';

/** `resolve` is injectable so tests control DNS; the worker uses the system resolver. */
export function createMediaActivities(
  { config, storage, logger }: ActivityDeps,
  resolve: HostResolver = systemResolver,
): MediaActivities {
  const { unsafeAllowLoopback, unsafeCaFile } = config.outbound;
  const policy = urlPolicyFromConfig(config, resolve);
  // The outbound local-testing settings (OUTBOUND_UNSAFE_*) apply to media URLs as to webhooks; extra trust is added to
  // the system CAs.
  const ca = unsafeCaFile ? [...tls.rootCertificates, fs.readFileSync(unsafeCaFile, 'utf8')] : undefined;
  if (unsafeAllowLoopback || unsafeCaFile)
    logger.warn({ unsafeAllowLoopback, unsafeCaFile }, 'UNSAFE settings apply to media URLs: for local testing only');

  // A user's video is parsed by ffprobe in the render sandbox, never in this process's environment.
  const confine = renderSandboxConfinement(config.render.sandbox);
  return {
    async fetchMedia(call: MediaFetchCall): Promise<MediaAsset[]> {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), 1000);
      try {
        const assets = await fetchMediaAssets(call, {
          storage,
          policy,
          ca,
          ffmpegPath: config.render.ffmpegPath,
          confine,
          signal: ctx.cancellationSignal,
        });
        logger.info(
          { generation_id: call.generationId, assets: assets.map((a) => `${a.name} ${a.bytes}`) },
          'media fetched',
        );
        return assets;
      } catch (err) {
        if (!(err instanceof MediaUnavailableError)) throw err;
        logger.warn(
          {
            generation_id: call.generationId,
            attempt: ctx.info.attempt,
            retryable: err.retryable,
            reason: err.message,
          },
          'media unavailable',
        );
        throw ApplicationFailure.create({
          type: MEDIA_UNAVAILABLE,
          message: err.message,
          nonRetryable: !err.retryable,
        });
      } finally {
        clearInterval(beat);
      }
    },
  };
}
