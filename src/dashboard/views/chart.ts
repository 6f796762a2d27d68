// Daily requests (bars, left scale) and cost (line, right scale) as inline SVG, drawn on the server:
// no chart library, no script. Presentation lives in classes styled by dashboard.css (CSP: no inline styles).
import { html, type SafeHtml } from '../html.js';
import { count, money } from './format.js';

export type ChartDay = { date: string; request_count: number; total_cost_cents: number };

const W = 760;
const H = 220;
const PAD = { left: 44, right: 72, top: 14, bottom: 28 };

/** A round upper bound of the scale: 1, 2, 5 × 10^k. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= value)!;
}

const fixed = (n: number) => n.toFixed(1);

export function dailyChart(days: ChartDay[]): SafeHtml {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const maxRequests = niceMax(Math.max(...days.map((d) => d.request_count), 0));
  const maxCost = niceMax(Math.max(...days.map((d) => d.total_cost_cents), 0));
  const y = (v: number, max: number) => PAD.top + plotH - (v / max) * plotH;
  const x = (i: number) => PAD.left + slot * i + slot / 2;
  const line = days.map((d, i) => `${fixed(x(i))},${fixed(y(d.total_cost_cents, maxCost))}`).join(' ');
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);
  const bottom = PAD.top + plotH;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" \
aria-label="Requests and cost per day, last ${days.length} days">
<line class="axis" x1="${PAD.left}" y1="${bottom}" x2="${W - PAD.right}" y2="${bottom}"/>
<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${W - PAD.right}" y2="${PAD.top}"/>
<text x="${PAD.left - 6}" y="${bottom}" text-anchor="end">0</text>
<text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${count(maxRequests)}</text>
<text x="${W - PAD.right + 6}" y="${bottom}">$0</text>
<text x="${W - PAD.right + 6}" y="${PAD.top + 10}">${money(maxCost)}</text>
${days.map((d, i) => {
  const top = y(d.request_count, maxRequests);
  return html`<g><title>${d.date}: ${count(d.request_count)} requests, ${money(d.total_cost_cents)}</title>
<rect class="bar" x="${fixed(x(i) - slot * 0.35)}" y="${fixed(top)}" width="${fixed(slot * 0.7)}" \
height="${fixed(bottom - top)}"/></g>`;
})}
<polyline class="cost" points="${line}"/>
${days.map((d, i) =>
  d.total_cost_cents > 0
    ? html`<circle class="dot" cx="${fixed(x(i))}" cy="${fixed(y(d.total_cost_cents, maxCost))}" r="2.5"/>`
    : '',
)}
${days.map((d, i) =>
  labelled.has(i) ? html`<text x="${fixed(x(i))}" y="${H - 8}" text-anchor="middle">${d.date.slice(5)}</text>` : '',
)}
</svg>
<div class="legend"><span><span class="swatch bar"></span>Requests</span>\
<span><span class="swatch cost"></span>Cost</span></div>`;
}
