// What the engines' offline composers (the embedded `local` provider) share: deterministic choices
// from the prompt (same prompt, same video), colours and the headline.
import crypto from 'node:crypto';

export const OFFLINE_DURATION_SECONDS = 3;

/** Stable pseudo-random numbers from the prompt: same prompt, same video. */
export function seeded(prompt: string) {
  let state = crypto.createHash('sha256').update(prompt).digest();
  let i = 0;
  return () => {
    if (i + 4 > state.length) {
      state = crypto.createHash('sha256').update(state).digest();
      i = 0;
    }
    const v = state.readUInt32BE(i) / 2 ** 32;
    i += 4;
    return v;
  };
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h * 12) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}
export const hex = ([r, g, b]: [number, number, number]) =>
  '#' + [r, g, b].map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('');

export function palette(rand: () => number) {
  const hue = rand();
  return {
    background: hsl(hue, 0.55, 0.14),
    accent: hsl((hue + 0.33) % 1, 0.75, 0.58),
    accent2: hsl((hue + 0.62) % 1, 0.7, 0.62),
    text: [0.97, 0.97, 0.97] as [number, number, number],
  };
}

/** The headline shown in the video: the prompt's first sentence, shortened. */
export function headline(prompt: string): string {
  const first = prompt.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s/)[0] ?? '';
  const words = first.split(' ').slice(0, 9).join(' ');
  return (words.length > 60 ? words.slice(0, 57) + '…' : words) || 'Hello';
}
