// Display formats shared by the dashboard views. Times are shown in UTC, like the usage days.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
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
