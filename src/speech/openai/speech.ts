// Protocol `openai-speech`: OpenAI's text-to-speech endpoint, `POST {base_url}/audio/speech` with
// `model`, `voice`, `input` and `response_format`, answered with the audio bytes. Self-hosted servers
// speak it too (Kokoro-FastAPI, openedai-speech): point base_url at them.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { SpeechError, type SpeechProtocol } from '../protocol.js';

const entry = z
  .object({
    base_url: z.url({ protocol: /^https?$/ }),
    api_key_env: z.string().min(1).optional(),
    model: z.string().min(1),
    /** The voice when the request says `auto`. */
    voice: z.string().min(1),
    timeout_seconds: z.number().positive().max(600).default(60),
  })
  .strict();
type Entry = z.infer<typeof entry>;

/** Audio shorter than this is no speech (a server that answers 200 with an empty body has failed). */
const MIN_AUDIO_BYTES = 64;

export const openaiSpeech: SpeechProtocol<Entry> = {
  id: 'openai-speech',
  entry,
  connect: (e, apiKey) => ({
    async speak(u) {
      const timeout = AbortSignal.timeout(e.timeout_seconds * 1000);
      let res: Response;
      try {
        res = await fetch(`${e.base_url.replace(/\/+$/, '')}/audio/speech`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          },
          body: JSON.stringify({ model: e.model, voice: u.voice ?? e.voice, input: u.text, response_format: 'wav' }),
          signal: AbortSignal.any([u.signal, timeout]),
        });
      } catch (err) {
        if (u.signal.aborted) throw u.signal.reason ?? err;
        throw new SpeechError(timeout.aborted ? `no answer within ${e.timeout_seconds} s` : 'connection failed');
      }
      const body = Buffer.from(await res.arrayBuffer());
      if (!res.ok) throw new SpeechError(`HTTP ${res.status}: ${body.toString('utf8').slice(0, 200)}`);
      if (body.length < MIN_AUDIO_BYTES) throw new SpeechError(`HTTP ${res.status} with ${body.length} bytes of audio`);
      await fs.writeFile(u.outFile, body);
    },
  }),
};
