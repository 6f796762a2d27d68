// The video's sound (README, Sound). speakNarration (task queue `video-io`): every narrated scene's
// text (or each line of an LLM's narration, else the prompt) said by the first speech provider of the
// order that can (src/speech/), each clip stored under its key with a manifest of what is said when; a
// retry finds the manifest (or the clips) stored and speaks nothing twice, so nothing is billed twice.
// mixSound (task queue `video-render`, CPU work): the clips fitted to their scenes, the music (generated,
// or the user's track), one mix mastered (src/audio/mix.ts) and muxed into the stored video, after the
// render or the join; the captions from where the voice actually speaks (silencedetect), as WebVTT
// and, when asked, drawn on the picture.
// The mix replaces the video under the same key; the mux copies only the picture of what it reads, and
// burned captions are drawn on the picture as rendered (kept aside), so a retried mix gives the same file.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { decodeTrack, ingestAudio, TRACK_LIMITS } from '../src/audio/track.js';
import { DomainError } from '../src/errors.js';
import { downloadToFile, DownloadError } from '../src/media/download.js';
import { urlPolicyFromConfig } from '../src/outbound/urlPolicy.js';
import { mixTimeline, type MusicSource, type SpeechClip } from '../src/audio/mix.js';
import { cuesOf, webVtt, type Cue } from '../src/captions/webvtt.js';
import { getToFile } from '../src/media/storageFiles.js';
import { clipSeconds, fitClip, speechSpans } from '../src/speech/clips.js';
import { loadSpeechRegistry, speakInOrder } from '../src/speech/registry.js';
import { captionsKey, mediaAssetKey, narrationKey, speechClipKey, uncaptionedVideoKey } from '../src/storage/keys.js';
import {
  MAX_NARRATION_CHARACTERS,
  MAX_SPEECH_RATE,
  NARRATION_BREATH_SECONDS,
  NARRATION_LEAD_SECONDS,
  narrationSeconds as narrationSecondsFor,
} from '../src/storyboard/narration.js';
import { storyboardSchema, toStoryboard } from '../src/storyboard/schema.js';
import type { Storyboard } from '../src/storyboard/types.js';
import type {
  MixedSound,
  NarrationCall,
  SoundMixActivities,
  SoundMixCall,
  SpeechActivities,
  SpokenNarration,
} from '../src/temporal/contract.js';
import { lexiconFor } from '../src/storyboard/lexicon.js';
import { directionOf } from '../src/text/scripts.js';
import { renderSandboxConfinement } from '../src/engines/isolation/confine.js';
import { getEngine, renderCaptionsOverlay } from '../src/engines/index.js';
import { muxAudio, overlayVideo, probeVideo } from '../src/video/index.js';
import type { ActivityDeps } from './deps.js';

/** A track of a few minutes downloads in seconds; a server slower than this is not one to wait for. */
const TRACK_DOWNLOAD_TIMEOUT_MS = 60_000;

/** One spoken clip: where it is stored, what it says, when it starts and how long it may last. */
type NarrationClip = { key: string; text: string; start: number; room: number };
/** The manifest stored under narrationKey. */
type NarrationManifest = { lang: string; direction: 'ltr' | 'rtl'; clips: NarrationClip[]; characters: number };

async function readStoryboard(deps: ActivityDeps, key: string | null): Promise<Storyboard | null> {
  if (!key) return null;
  const json = await deps.storage.getText(key);
  return toStoryboard(storyboardSchema.parse(JSON.parse(json)), { image: (ref) => ref });
}

async function inWorkDir<T>(generationId: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `sound-${generationId}-`));
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Heartbeats every second while `work` runs, so a lost worker and a cancellation are noticed. */
async function beating<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 1000);
  try {
    return await work(ctx.cancellationSignal);
  } finally {
    clearInterval(beat);
  }
}

export function createSpeechActivities(deps: ActivityDeps): SpeechActivities {
  const { storage, config, logger } = deps;
  return {
    async speakNarration(call: NarrationCall): Promise<SpokenNarration> {
      const manifestKey = narrationKey(call.generationId);
      // A retry after the manifest was stored: everything was said already.
      const stored = await storage.getText(manifestKey).catch(() => null);
      if (stored) {
        const manifest = JSON.parse(stored) as NarrationManifest & { providers?: string[] };
        return { key: manifestKey, characters: manifest.characters, providers: manifest.providers ?? [] };
      }
      const board = await readStoryboard(deps, call.storyboardKey);
      const composed = board ? [] : await composedLines(deps, call);
      const lines = board
        ? board.scenes.flatMap((s) =>
            s.narration
              ? [{ text: s.narration, start: s.start + NARRATION_LEAD_SECONDS, end: s.start + s.duration }]
              : [],
          )
        : composed.length > 0
          ? composed
          : fallbackLines(call);
      if (lines.length === 0) return { key: null, characters: 0, providers: [] };
      const text = lines.map((l) => l.text).join('\n');
      const lang = board?.lang ?? lexiconFor(text).language;
      const direction = board?.direction ?? directionOf(text);
      const registry = loadSpeechRegistry(config.speech.file);
      const secret = config.providers.secret;
      const providers: string[] = [];
      return beating((signal) =>
        inWorkDir(call.generationId, async (dir) => {
          const clips: NarrationClip[] = [];
          for (const [i, line] of lines.entries()) {
            const key = speechClipKey(call.generationId, i);
            const file = path.join(dir, `${i}.audio`);
            // A clip stored by an earlier attempt is not said (nor billed) again.
            const have = await getToFile(storage, key, file).then(
              () => true,
              () => false,
            );
            if (!have) {
              const voice = call.voice === 'auto' ? null : call.voice;
              const spoke = await speakInOrder(registry, secret, {
                text: line.text,
                lang,
                voice,
                outFile: file,
                signal,
              });
              if (spoke.failures.length)
                logger.warn({ generation_id: call.generationId, failures: spoke.failures }, 'speech fell back');
              providers.push(spoke.provider);
              await storage.put(key, file, 'application/octet-stream');
            }
            const room = Math.max(0.3, line.end - line.start - NARRATION_BREATH_SECONDS);
            clips.push({ key, text: line.text, start: line.start, room });
          }
          const characters = lines.reduce((n, l) => n + [...l.text].length, 0);
          const manifest = { lang, direction, clips, characters, providers: [...new Set(providers)] };
          await storage.putText(manifestKey, JSON.stringify(manifest), 'application/json');
          return { key: manifestKey, characters, providers: manifest.providers };
        }),
      ).catch((err: unknown) => {
        if (err instanceof Error && err.name === 'SpeechError')
          throw ApplicationFailure.create({ type: 'speech_failed', message: err.message, nonRetryable: true });
        throw err;
      });
    },
  };
}

type TimedLine = { text: string; start: number; end: number };

/**
 * The narration an LLM wrote with its composition (its engine says where), each line until the next begins, within
 * the video and the characters a narration may have.
 */
async function composedLines(deps: ActivityDeps, call: NarrationCall): Promise<TimedLine[]> {
  if (!call.compositionKey || !call.engine) return [];
  const { llm } = getEngine(call.engine);
  if (!llm.narrationOf) return [];
  const written = llm
    .narrationOf(await deps.storage.getText(call.compositionKey))
    .filter((l) => l.at < call.durationSeconds - NARRATION_BREATH_SECONDS);
  const lines: TimedLine[] = [];
  let characters = 0;
  for (const [i, line] of written.entries()) {
    const text = [...line.text].slice(0, MAX_NARRATION_CHARACTERS - characters).join('');
    if (!text) break;
    characters += [...text].length;
    lines.push({ text, start: line.at, end: written[i + 1]?.at ?? call.durationSeconds });
  }
  return lines;
}

/**
 * Without a storyboard (an LLM's composition), the voice reads the user's prompt from the start, cut at
 * a sentence to what fits the video at the fastest pace allowed.
 */
function fallbackLines(call: NarrationCall): TimedLine[] {
  const text = call.fallbackText.trim();
  if (!text) return [];
  const room = call.durationSeconds - NARRATION_LEAD_SECONDS - NARRATION_BREATH_SECONDS;
  const lang = lexiconFor(text).language;
  const fits = (t: string) => narrationFits(t, lang, room);
  let said = text;
  if (!fits(said)) {
    const sentences = text.split(/(?<=[.!?。！？])\s*/u);
    said = '';
    for (const s of sentences) if (fits(`${said} ${s}`.trim())) said = `${said} ${s}`.trim();
    if (!said) said = [...text].slice(0, Math.max(1, Math.floor(room * 10))).join('');
  }
  said = [...said].slice(0, MAX_NARRATION_CHARACTERS).join('');
  return [{ text: said, start: NARRATION_LEAD_SECONDS, end: call.durationSeconds }];
}

function narrationFits(text: string, lang: string, room: number): boolean {
  return room > 0 && narrationSecondsFor(text, lang) / MAX_SPEECH_RATE <= room;
}

export function createSoundMixActivities(deps: ActivityDeps): SoundMixActivities {
  const { storage, config, logger } = deps;
  const ffmpeg = config.render.ffmpegPath;
  return {
    async mixSound(call: SoundMixCall): Promise<MixedSound> {
      return beating((signal) =>
        inWorkDir(call.generationId, async (dir) => {
          const manifest = call.narrationKey
            ? (JSON.parse(await storage.getText(call.narrationKey)) as NarrationManifest)
            : null;
          const speech: SpeechClip[] = [];
          const cues: Cue[] = [];
          for (const [i, clip] of (manifest?.clips ?? []).entries()) {
            const raw = path.join(dir, `clip-${i}.audio`);
            await getToFile(storage, clip.key, raw);
            const seconds = await clipSeconds(ffmpeg, raw, signal);
            // Longer than its scene leaves it: faster, up to the pace allowed (then cut by the next clip's start).
            const tempo = Math.min(MAX_SPEECH_RATE, Math.max(1, seconds / clip.room));
            const fitted = path.join(dir, `clip-${i}.wav`);
            await fitClip(ffmpeg, raw, fitted, tempo, signal);
            speech.push({ file: fitted, startSeconds: clip.start });
            if (call.captions !== 'none')
              cues.push(...cuesOf(clip.text, await speechSpans(ffmpeg, fitted, signal), clip.start));
          }
          const music = await musicOf(deps, call, dir, signal);
          let captions: string | null = null;
          if (call.captions !== 'none' && manifest) {
            captions = captionsKey(call.generationId);
            await storage.putText(captions, webVtt(cues, manifest.lang), 'text/vtt');
          }
          // Neither voice nor music: the video stays as rendered, silent (README, Sound).
          if (speech.length === 0 && music === null) return { loudness: null, captionsKey: captions };
          const video = path.join(dir, 'video.mp4');
          if (call.captions === 'burned') {
            // The picture as rendered is kept: a retried mix draws the captions on it again, not on its own output.
            const kept = uncaptionedVideoKey(call.generationId);
            const had = await getToFile(storage, kept, video).then(
              () => true,
              () => false,
            );
            if (!had) {
              await getToFile(storage, call.videoKey, video);
              await storage.put(kept, video, 'video/mp4');
            }
          } else await getToFile(storage, call.videoKey, video);
          const sound = path.join(dir, 'sound.m4a');
          const loudness = await mixTimeline({
            durationSeconds: call.durationSeconds,
            speech,
            music,
            outFile: sound,
            ffmpegPath: ffmpeg,
            signal,
          });
          const picture =
            call.captions === 'burned' && manifest && cues.length > 0
              ? await burnCaptions(deps, video, cues, manifest.lang, dir, signal)
              : video;
          const out = path.join(dir, 'with-sound.mp4');
          await muxAudio(picture, sound, out, { ffmpegPath: ffmpeg, signal });
          await storage.put(call.videoKey, out, 'video/mp4');
          logger.info({ generation_id: call.generationId, ...loudness, clips: speech.length }, 'sound mixed');
          return { loudness, captionsKey: captions };
        }),
      );
    },
  };
}

/**
 * The cues drawn on the video (`captions: "burned"`): a transparent overlay the size and length of the video
 * (src/engines/captions.ts), laid over the picture.
 */
async function burnCaptions(
  deps: ActivityDeps,
  video: string,
  cues: Cue[],
  lang: string,
  dir: string,
  signal: AbortSignal,
): Promise<string> {
  const tools = deps.renderTools;
  const { width, height, durationSeconds } = await probeVideo(tools.ffmpegPath, video);
  const overlay = path.join(dir, 'captions.webm');
  await renderCaptionsOverlay(cues, { width, height, durationSeconds, lang }, { outputPath: overlay, tools, signal });
  const out = path.join(dir, 'captioned.mp4');
  await overlayVideo(tools.ffmpegPath, video, overlay, out, tools.crf, signal);
  return out;
}

/**
 * The music the request asks for: a bed generated from the storyboard (the same for the same one), the
 * user's track (stored at creation, or fetched from its URL under the media URL rules), or none.
 */
async function musicOf(deps: ActivityDeps, call: SoundMixCall, dir: string, signal: AbortSignal): Promise<MusicSource> {
  if (call.music === 'none') return null;
  // The user's track is decoded in the render sandbox: the mix reads only the decoder's WAV.
  const decoded = async (file: string): Promise<MusicSource> => {
    const wav = path.join(dir, 'track.wav');
    const { ffmpegPath, sandbox } = deps.config.render;
    await decodeTrack(file, wav, { ffmpegPath, confine: renderSandboxConfinement(sandbox), signal });
    return { kind: 'track', file: wav };
  };
  if (call.track) {
    const file = path.join(dir, call.track);
    await getToFile(deps.storage, mediaAssetKey(call.generationId, call.track), file);
    return decoded(file);
  }
  if (/^https:/i.test(call.music)) return decoded(await fetchTrack(deps, call.music, dir, signal));
  const board = await readStoryboard(deps, call.storyboardKey).catch(() => null);
  const seedText = call.storyboardKey
    ? await deps.storage.getText(call.storyboardKey)
    : await deps.storage.getText(call.compositionKey);
  const seed = crypto.createHash('sha256').update(seedText).digest('hex').slice(0, 16);
  return {
    kind: 'generated',
    motion: board?.look.motion ?? 'smooth',
    cutsSeconds: board ? board.scenes.slice(1).map((s) => s.start) : [],
    seed,
  };
}

/** A track URL downloaded under the media URL rules (public HTTPS only), then checked to be sound. */
async function fetchTrack(deps: ActivityDeps, url: string, dir: string, signal: AbortSignal): Promise<string> {
  const { unsafeCaFile } = deps.config.outbound;
  const file = path.join(dir, 'track.audio');
  const refuse = (message: string, retryable = false) =>
    ApplicationFailure.create({ type: 'invalid_audio', message: `audio.music: ${message}`, nonRetryable: !retryable });
  try {
    await downloadToFile(url, file, {
      ...urlPolicyFromConfig(deps.config),
      ca: unsafeCaFile ? [...tls.rootCertificates, await fs.readFile(unsafeCaFile, 'utf8')] : undefined,
      maxBytes: TRACK_LIMITS.maxBytes,
      timeoutMs: TRACK_DOWNLOAD_TIMEOUT_MS,
      maxRedirects: 5,
      signal,
    });
  } catch (err) {
    if (err instanceof DownloadError) throw refuse(`the track could not be fetched: ${err.message}`, err.retryable);
    throw err;
  }
  try {
    await ingestAudio(await fs.readFile(file), {
      ffmpegPath: deps.config.render.ffmpegPath,
      param: 'audio.music',
      confine: renderSandboxConfinement(deps.config.render.sandbox),
    });
  } catch (err) {
    if (err instanceof DomainError) throw refuse(err.message.replace(/^audio\.music: /, ''));
    throw err;
  }
  return file;
}
