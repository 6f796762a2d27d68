// Burned captions: the cues rendered as a transparent Lottie animation and laid over a video, as the
// sound mix does for `audio.captions: "burned"`. Read back by OCR, placed clear of a tall video's overlays,
// and nothing drawn between cues.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderCaptionsOverlay } from '../../src/engines/index.js';
import { overlayVideo, probeVideo } from '../../src/video/index.js';
import { changedRows } from '../sound/support.js';
import { decodeFrame, meanDifference, ocrFrame, tools, useRenderSandbox } from './support.js';

const sandbox = useRenderSandbox('captions', (e) => e.startsWith('render-'));
const FPS = 30;

/** A plain video to draw on: a mid-blue canvas, the length asked for. */
async function baseVideo(file: string, width: number, height: number, seconds: number) {
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=#31508f:s=${width}x${height}:r=${FPS}:d=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    file,
  ]);
}

const cases = [
  {
    name: 'English on a tall video',
    width: 540,
    height: 960,
    lang: 'en',
    ocr: 'eng',
    cues: [
      { start: 0.2, end: 1.4, text: 'Your notes sync the moment you type them.' },
      { start: 1.8, end: 2.8, text: 'Try it free today.' },
    ],
    read: [
      ['notes', 'sync'],
      ['free', 'today'],
    ],
  },
  {
    name: 'Russian on a wide video',
    width: 960,
    height: 540,
    lang: 'ru',
    ocr: 'rus',
    cues: [
      { start: 0.2, end: 1.4, text: 'Заметки синхронизируются сразу.' },
      { start: 1.8, end: 2.8, text: 'Попробуйте бесплатно.' },
    ],
    read: [['Заметки'], ['бесплатно']],
  },
];

describe('burned captions: cues drawn over a video', () => {
  for (const c of cases) {
    it(`each cue shows while it is said, read back by OCR, low in the frame (${c.name})`, async () => {
      const base = path.join(sandbox.out, `${c.lang}-base.mp4`);
      const overlay = path.join(sandbox.out, `${c.lang}-captions.webm`);
      const out = path.join(sandbox.out, `${c.lang}-captioned.mp4`);
      await baseVideo(base, c.width, c.height, 3);
      await renderCaptionsOverlay(
        c.cues,
        { width: c.width, height: c.height, durationSeconds: 3, lang: c.lang },
        { outputPath: overlay, tools },
      );
      const rendered = await probeVideo(tools.ffmpegPath, overlay, { countPackets: true });
      expect(rendered.codec).toBe('vp9');
      await overlayVideo(tools.ffmpegPath, base, overlay, out, tools.crf);
      const probed = await probeVideo(tools.ffmpegPath, out);
      expect([probed.width, probed.height, probed.codec]).toEqual([c.width, c.height, 'h264']);
      expect(probed.durationSeconds).toBeCloseTo(3, 1);

      for (const [i, cue] of c.cues.entries()) {
        const frame = Math.round(((cue.start + cue.end) / 2) * FPS);
        const text = await ocrFrame(out, frame, c, '#ffffff', c.ocr);
        for (const word of c.read[i]!) expect(text, `cue ${i + 1} read as "${text}"`).toContain(word);
        // Drawn low in the frame: below the middle, and above the bottom fifth of a tall video (the apps' buttons).
        const rows = changedRows(await decodeFrame(out, frame), await decodeFrame(base, frame), c.width);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows[0]!).toBeGreaterThan(c.height / 2);
        expect(rows.at(-1)!).toBeLessThan(c.height * (c.height > c.width ? 0.8 : 0.95));
      }
      // Between the cues and after the last, the picture is the video's own.
      for (const seconds of [1.6, 2.95]) {
        const frame = Math.round(seconds * FPS);
        expect(meanDifference(await decodeFrame(out, frame), await decodeFrame(base, frame))).toBeLessThan(1.5);
      }
    });
  }
});
