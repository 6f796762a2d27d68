// OCR of a sample of corpus renders (issue 30): both engines, 9:16, 1:1 and 16:9, titles in Latin, CJK,
// Arabic and Cyrillic script read back by tesseract from a frame of the title scene. The pixels near the
// look's text colour become black ink on white, whatever the background and its ornaments.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { planStoryboard } from '../../src/storyboard/plan.js';
import { ocrFrame, tools, useRenderSandbox } from '../engines/support.js';
import { loadCorpus } from './corpus.js';

const sandbox = useRenderSandbox('storyboard-ocr', (e) => e.startsWith('video-render-'));

/** Letters and digits without marks, upper case: what OCR must find (it may drop accents and vowel signs). */
const bare = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** Length of the longest common subsequence of two letter sequences. */
function commonInOrder(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++) row.push(x === b[j] ? prev[j]! + 1 : Math.max(prev[j + 1]!, row[j]!));
    prev = row;
  }
  return prev[b.length]!;
}

const corpus = loadCorpus('tuning');
const promptOf = (id: string) => corpus.find((p) => p.id === id)!.prompt;

// Per engine, each aspect ratio, each script: a corpus prompt whose title is read back.
const CASES = [
  { engine: 'hyperframes', id: 'ru-museum', lang: 'rus', width: 540, height: 960 },
  { engine: 'hyperframes', id: 'ar-opera', lang: 'ara', width: 720, height: 720 },
  { engine: 'hyperframes', id: 'ja-gallery', lang: 'jpn', width: 960, height: 540 },
  { engine: 'hyperframes', id: 'es-ad-bakery', lang: 'eng', width: 540, height: 960 },
  { engine: 'lottie', id: 'ar-goal', lang: 'ara', width: 540, height: 960 },
  { engine: 'lottie', id: 'ru-goal', lang: 'rus', width: 720, height: 720 },
  { engine: 'lottie', id: 'de-umlaut', lang: 'eng', width: 960, height: 540 },
  { engine: 'lottie', id: 'ja-goal', lang: 'jpn', width: 720, height: 720 },
] as const;

describe('corpus titles are legible in both engines (OCR)', () => {
  for (const c of CASES) {
    it(`${c.engine} ${c.width}x${c.height}: ${c.id} (${c.lang})`, { timeout: 180_000 }, async () => {
      const prompt = promptOf(c.id);
      const board = planStoryboard({ prompt, instructions: null, durationSeconds: 2, image: null });
      const title = board.scenes[0]!;
      expect(title.kind).toBe('title');
      const titleText = title.kind === 'title' ? title.title : '';
      const source = getEngine(c.engine).composeOffline({
        prompt,
        instructions: null,
        durationSeconds: 2,
        assets: [],
        width: c.width,
        height: c.height,
      });
      const outputPath = path.join(sandbox.out, `${c.engine}-${c.id}.mp4`);
      const fps = 5;
      await getEngine(c.engine).render(source, { tools, width: c.width, height: c.height, fps, outputPath });
      // A frame late in the title scene: every line has entered.
      const frame = Math.max(1, Math.floor((title.start + title.duration * 0.8) * fps));
      const read = bare(await ocrFrame(outputPath, frame, c, board.look.palette.text, c.lang));
      // Letters read in order (a letter or two misread in a word does not lose the word); tesseract's
      // Arabic model misreads more of a bold display face than its other models do.
      const want = [...bare(titleText)];
      expect(
        commonInOrder(want, [...read]) / want.length,
        `${titleText} read as ${JSON.stringify(read)}`,
      ).toBeGreaterThanOrEqual(c.lang === 'ara' ? 0.7 : 0.8);
    });
  }
});
