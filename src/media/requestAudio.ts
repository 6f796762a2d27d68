// Request time (API): the sound track a create names in `audio.music` (extension). An `input_audio` part
// (`audio-<n>`) is decoded, recognised from its bytes and measured (src/audio/track.ts: a 400 naming the
// part when it is not sound, too large or too long) and stored as the generation's asset with the other
// uploads; an https URL must be public, checked like media URLs (a 400 naming `audio.music`), and is
// fetched under the same rules when the sound is mixed.
import { ingestAudio } from '../audio/track.js';
import type { Config } from '../config.js';
import { renderSandboxConfinement } from '../engines/isolation/confine.js';
import { invalidInput } from '../errors.js';
import { NonPublicUrlError, urlPolicyFromConfig, vetPublicHttpsUrl, type HostResolver } from '../outbound/urlPolicy.js';
import type { GenerationRequest } from '../shared.js';
import type { MediaUpload } from './requestMedia.js';

const MEDIA_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};

export async function prepareRequestAudio(
  request: GenerationRequest,
  audioParts: readonly { data: string; param: string }[],
  config: Config,
  resolve?: HostResolver,
): Promise<{ request: GenerationRequest; uploads: MediaUpload[] }> {
  const audio = request.audio;
  if (!audio) return { request, uploads: [] };
  if (/^https:/i.test(audio.music)) {
    await vetPublicHttpsUrl(audio.music, urlPolicyFromConfig(config, resolve)).catch((err: unknown) => {
      if (err instanceof NonPublicUrlError)
        throw invalidInput(
          `audio.music: track URLs must be public HTTPS URLs: ${err.message}`,
          'audio.music',
          'invalid_media_url',
        );
      throw err;
    });
    return { request, uploads: [] };
  }
  const number = /^audio-(\d+)$/.exec(audio.music)?.[1];
  if (!number) return { request, uploads: [] };
  const part = audioParts[Number(number) - 1]!;
  const bytes = Buffer.from(part.data, 'base64');
  const track = await ingestAudio(bytes, {
    ffmpegPath: config.render.ffmpegPath,
    param: part.param,
    confine: renderSandboxConfinement(config.render.sandbox),
  });
  const name = `audio-${number}.${track.format}`;
  return {
    request: { ...request, audio: { ...audio, track: name } },
    uploads: [{ name, bytes, mediaType: MEDIA_TYPES[track.format] ?? 'application/octet-stream' }],
  };
}
