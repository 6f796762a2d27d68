// What a speech protocol is: the shape of its speech-providers file entries and how to speak through a
// provider that speaks it. Each protocol is one folder (src/speech/<protocol>/) and one line in
// protocols.ts, as the orchestration providers are (src/providers/).
import type { z } from 'zod';

/** One line to say: written by the provider to `outFile` (any format ffmpeg reads). */
export type Utterance = {
  text: string;
  /** BCP 47 language of the text (the storyboard's); providers pick their voice for it. */
  lang: string;
  /** The request's `audio.voice` when it names one; null: the provider's voice for the language. */
  voice: string | null;
  outFile: string;
  signal: AbortSignal;
};

export interface SpeechAdapter {
  speak(utterance: Utterance): Promise<void>;
}

/** The fields of an entry the registry reads, whatever its protocol. */
export type SpeechEntry = { timeout_seconds: number; api_key_env?: string };

export interface SpeechProtocol<Entry extends SpeechEntry = SpeechEntry> {
  readonly id: string;
  /** The entry without its `protocol` field; strict, so a misspelt key is refused at load. */
  readonly entry: z.ZodType<Entry, unknown>;
  /** Tried after every other provider when the file sets no default_order (the offline stand-in). */
  readonly triedLast?: boolean;
  connect(entry: Entry, apiKey: string | null): SpeechAdapter;
}

/** A provider that did not speak: the next one in `order` is tried. */
export class SpeechError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpeechError';
  }
}
