// The embedded voice is intelligible (issue 41): an offline recogniser from the registries (Debian's
// pocketsphinx with its US English model) reads back the English narration the planner writes for
// three corpus prompts with a word error rate of at most 40 %. The figure per prompt is printed
// (bench/README.md, "Sound", and the note quote it).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadSpeechRegistry, speakInOrder } from '../../src/speech/registry.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { skipWithout } from '../support/tools.js';

const run = promisify(execFile);

/**
 * The first three prompts of the English corpus (test/storyboard/corpus/en.json) after the one with a web
 * address (which the voice spells letter by letter): product launch, results, tips.
 */
const PROMPTS = {
  'en-launch':
    'Introducing Lumen 2, the reading lamp that follows the sun. Warm light in the evening, cool light at noon. ' +
    'Ships March 14 for $89.',
  'en-results':
    'Our best quarter yet. Over 12,000 teams now use Ledgerly every day. 98% of them renew after the first year. ' +
    'Thank you for building with us.',
  'en-tips-sleep':
    '3 tips for better sleep: dim the lights an hour before bed, skip coffee after 2 pm, and keep the same ' +
    'schedule every day.',
};

const ONES = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen'
  .concat(' seventeen eighteen nineteen')
  .split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** A number below 100 as English words (what the voice says for the digits). */
const spoken = (n: number) => (n < 20 ? ONES[n]! : `${TENS[Math.floor(n / 10)]!} ${n % 10 ? ONES[n % 10]! : ''}`);

/** The words of a text as a listener writes them down: figures in words, "$89" as "eighty nine dollars". */
const words = (text: string) =>
  text
    .replace(/\b(\d{1,2}),000\b/g, (_m, n: string) => `${spoken(Number(n))} thousand`)
    .replace(/\b(\d{1,2})%/g, (_m, n: string) => `${spoken(Number(n))} percent`)
    .replace(/\b(\d{1,2}) pm\b/gi, (_m, n: string) => `${spoken(Number(n))} p m`)
    .replace(/\$(\d{1,2})\b/g, (_m, n: string) => `${spoken(Number(n))} dollars`)
    .replace(/\b(\d{1,2})\b/g, (_m, n: string) => spoken(Number(n)))
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Word error rate: word-level edit distance over the reference's length. */
function wer(reference: string[], heard: string[]): number {
  let prev = Array.from({ length: heard.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= heard.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (reference[i - 1] === heard[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[heard.length]! / reference.length;
}

describe.skipIf(skipWithout('the voice intelligibility test', 'pocketsphinx (US English model)'))(
  'the embedded voice',
  () => {
    it(
      'speaks the planner’s English narration so that pocketsphinx reads back at least 60 % of it',
      { timeout: 600_000 },
      async () => {
        const registry = loadSpeechRegistry();
        const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'voice-'));
        const rates: Record<string, number> = {};
        for (const [id, prompt] of Object.entries(PROMPTS)) {
          const board = planStoryboard({ prompt, instructions: null, durationSeconds: null, narrate: true });
          const narration = board.scenes.map((s) => s.narration ?? '').join(' ');
          expect(narration.trim()).not.toBe('');
          const file = path.join(dir, `${id}.wav`);
          const signal = new AbortController().signal;
          // Only the embedded voice: no key is set for any other provider here.
          const spoke = await speakInOrder(registry, () => undefined, {
            text: narration,
            lang: 'en',
            voice: null,
            outFile: file,
            signal,
          });
          expect(spoke.provider).toBe('embedded');
          const pcm = path.join(dir, `${id}-16k.wav`);
          await run('ffmpeg', ['-v', 'error', '-i', file, '-ar', '16000', '-ac', '1', '-y', pcm]);
          const { stdout } = await run('pocketsphinx_continuous', ['-infile', pcm, '-logfn', '/dev/null']);
          rates[id] = wer(words(narration), words(stdout));
          console.log(`WER ${id}: ${(rates[id] * 100).toFixed(0)} %\n  said:  ${narration}\n  heard: ${stdout.trim()}`);
        }
        for (const [id, rate] of Object.entries(rates)) expect(rate, id).toBeLessThanOrEqual(0.4);
        await fs.rm(dir, { recursive: true, force: true });
      },
    );
  },
);
