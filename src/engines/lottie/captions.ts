// Burned captions (audio.captions "burned"): the narration's cues as a transparent Lottie animation,
// white text on a dark band low in the frame, each cue on screen while its words are said. The sound
// mix renders it with alpha and lays it over the video (activities/sound.ts), so captions look the
// same on both engines and on an LLM's composition, and every script is set as the scenes set it.
import type { Cue } from '../../captions/webvtt.js';
import { presetLook } from '../../storyboard/look.js';
import { directionOf } from '../../text/scripts.js';
import type { Canvas } from '../types.js';
import { fill, group, rect, shapeLayer, type Json } from './build.js';
import { Composer, FPS } from './compose.js';

const BAND = '#000000';
const BAND_OPACITY = 62;

/** The cues drawn over a transparent canvas of `durationSeconds` (a Lottie JSON document). */
export function captionsAnimation(cues: readonly Cue[], canvas: Canvas, durationSeconds: number, lang: string): string {
  const frames = Math.max(1, Math.round(durationSeconds * FPS));
  const look = { ...presetLook('midnight')!, font: 'sans' as const, uppercase: false };
  const rtl = directionOf(cues.map((c) => c.text).join(' ')) === 'rtl';
  const c = new Composer(canvas.width, canvas.height, look, rtl, lang);
  const { W, H, T } = c;
  // Above the bottom of the safe area: clear of a tall video's platform overlays, low on a wide one.
  const bottom = c.safe.y + c.safe.h;
  const maxWidth = W * 0.84;
  const pad = T * 0.02;
  const layers: Json[] = [];
  for (const [i, cue] of cues.entries()) {
    const ip = Math.min(frames - 1, Math.max(0, Math.round(cue.start * FPS)));
    const op = Math.min(frames, Math.max(ip + 1, Math.round(cue.end * FPS)));
    const b = c.textBlock({
      text: cue.text,
      role: 'body',
      maxSize: T * 0.05,
      minSize: T * 0.028,
      maxWidth: maxWidth - 2 * pad,
      maxHeight: H * 0.16,
      maxLines: 3,
      balance: true,
      colour: '#ffffff',
      align: 'center',
    });
    if (!b) continue;
    const textWidth = c.blockWidth(b);
    const bandW = Math.min(maxWidth, textWidth + 4 * pad);
    const bandH = b.height + 2 * pad;
    const top = bottom - bandH;
    const left = (W - b.width) / 2;
    layers.push(...c.drawLines(b, left, top + pad, ip, op, () => ({}), `caption ${i + 1}`));
    layers.push(
      shapeLayer({ ind: 0, nm: `caption ${i + 1} band`, ip, op }, [
        group('band', [rect([W / 2, top + bandH / 2], [bandW, bandH], pad), fill(BAND, BAND_OPACITY)]),
      ]),
    );
  }
  return JSON.stringify({
    v: '5.7.0',
    fr: FPS,
    ip: 0,
    op: frames,
    w: W,
    h: H,
    nm: 'captions',
    ddd: 0,
    assets: [],
    fonts: c.fontList(),
    // Lottie draws the first layer on top: each cue's lines above its band.
    layers: layers.map((l, i) => ({ ...l, ind: i + 1 })),
  });
}
