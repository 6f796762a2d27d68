// Display formats shared by the dashboard views. Times are shown in UTC, like the usage days.
import type { GenerationRequest } from '../../shared.js';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});
const integer = new Intl.NumberFormat('en-US');

/** Cents (possibly fractional, as in the usage resource) as dollars: 1234.5 → $12.345. */
export const money = (cents: number) => usd.format(cents / 100);

export const count = (n: number) => integer.format(n);

/** `2025-01-31 14:05 UTC`; an em dash for none. */
export function dateTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const d = new Date(value);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function latency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A configured span in words: 86400 → "24 hours", 90 → "2 minutes". */
export function span(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The prompt as its requester wrote it: the text parts of the messages, one message a paragraph. */
export function promptText(request: GenerationRequest): string {
  return request.messages
    .map((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n'))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

/** The prompt's first non-blank line, whitespace collapsed, cut at a word boundary to at most `max` characters. */
export function promptFirstLine(request: GenerationRequest, max = 80): string {
  const line = (
    promptText(request)
      .split('\n')
      .find((l) => l.trim() !== '') ?? ''
  )
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...line]; // whole code points: never half an emoji
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space >= max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

/** `width` × `height` scaled (down or up) to fit a `boxWidth` × `boxHeight` box, in whole pixels. */
export function fitBox(
  width: number,
  height: number,
  boxWidth: number,
  boxHeight: number,
): { width: number; height: number } {
  const scale = Math.min(boxWidth / width, boxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
