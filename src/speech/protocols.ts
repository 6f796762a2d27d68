// The speech protocols a speech-providers file may name: one folder each, and its line here.
import { embeddedSpeech } from './embedded/voice.js';
import { openaiSpeech } from './openai/speech.js';
import type { SpeechProtocol } from './protocol.js';

export const SPEECH_PROTOCOLS: readonly SpeechProtocol[] = [openaiSpeech, embeddedSpeech];

export const speechProtocolOf = (id: string): SpeechProtocol | undefined => SPEECH_PROTOCOLS.find((p) => p.id === id);
