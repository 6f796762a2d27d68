import type { readUsage } from '../../api/usage/service.js';
import type { DashboardSession } from '../../db/sessions.js';
import { html } from '../html.js';
import { dailyChart } from './chart.js';
import { count, dateTime, fitBox, latency, money } from './format.js';
import { layout } from './layout.js';

export type Usage = Awaited<ReturnType<typeof readUsage>>;
type Route = Usage['daily_usage_by_route'][number]['routes'][number];
export type RecentRow = Usage['recent_requests'][number] & {
  /** The prompt's first line, shortened ('' when unknown). */
  prompt: string;
  /** The requested canvas (the thumbnail's proportions). */
  canvas: { width: number; height: number } | null;
  /** Completed generations' poster frame (older ones have none). */
  posterUrl: string | null;
  workflowUrl: string | null;
};

/** Thumbnails fit this box (CSS pixels), in the video's proportions. */
const THUMB_BOX = { width: 128, height: 96 };

function thumbnail(g: RecentRow) {
  const size = fitBox(g.canvas?.width ?? 16, g.canvas?.height ?? 9, THUMB_BOX.width, THUMB_BOX.height);
  if (g.posterUrl) {
    return html`<a class="thumb" href="/dashboard/generations/${g.id}" tabindex="-1" aria-hidden="true">\
<img src="${g.posterUrl}" alt="" width="${size.width}" height="${size.height}" loading="lazy" decoding="async"></a>`;
  }
  // Completed before posters existed: a plain link to its player; in flight or failed: an empty box.
  if (g.status === 'completed')
    return html`<a class="thumb-none" href="/dashboard/generations/${g.id}" tabindex="-1" aria-hidden="true">▶</a>`;
  return html`<span class="thumb-none" aria-hidden="true"></span>`;
}

/** The per-day route rows summed over the whole period (mean latency weighted by completions). */
export function routeTotals(days: Usage['daily_usage_by_route']): Route[] {
  const byRoute = new Map<string, Route>();
  for (const r of days.flatMap((d) => d.routes)) {
    const key = JSON.stringify([r.engine, r.model, r.provider]);
    const t = byRoute.get(key);
    if (!t) {
      byRoute.set(key, { ...r });
      continue;
    }
    const completed = t.completed_count + r.completed_count;
    t.avg_latency_ms =
      completed > 0
        ? Math.round((t.avg_latency_ms * t.completed_count + r.avg_latency_ms * r.completed_count) / completed)
        : 0;
    t.request_count += r.request_count;
    t.completed_count = completed;
    t.failed_count += r.failed_count;
    t.total_cost_cents += r.total_cost_cents;
    t.total_prompt_tokens += r.total_prompt_tokens;
    t.total_completion_tokens += r.total_completion_tokens;
  }
  return [...byRoute.values()].sort((a, b) => b.request_count - a.request_count);
}

const stat = (label: string, value: string, id: string) =>
  html`<div class="stat"><div class="label">${label}</div><div class="value" id="${id}">${value}</div></div>`;

export function usagePage({
  session,
  usage,
  recent,
}: {
  session: DashboardSession;
  usage: Usage;
  recent: RecentRow[];
}) {
  const days = usage.daily_usage;
  const sum = (pick: (d: Usage['daily_usage'][number]) => number) => days.reduce((acc, d) => acc + pick(d), 0);
  const routes = routeTotals(usage.daily_usage_by_route);
  return layout(
    { title: 'Usage', session, section: 'usage' },
    html`<h1>Usage</h1>
<div class="stats">
${stat('Credit balance', money(usage.credit_balance), 'credit-balance')}
${stat('Held in flight', money(usage.credit_held), 'credit-held')}
${stat(`Requests, last ${days.length} days`, count(sum((d) => d.request_count)), 'period-requests')}
${stat(`Cost, last ${days.length} days`, money(sum((d) => d.total_cost_cents)), 'period-cost')}
${stat(
  'Requests, all time',
  `${count(usage.totals.total_requests)} (${count(usage.totals.failed_requests)} failed)`,
  'total-requests',
)}
</div>
<section class="card">
<h2>Daily requests and cost (UTC)</h2>
${dailyChart(days)}
</section>
<section class="card">
<h2>By route, last ${days.length} days</h2>
${
  routes.length === 0
    ? html`<p class="muted">No requests in this period.</p>`
    : html`<div class="table-wrap"><table id="routes">
<thead><tr><th>Engine</th><th>Model</th><th>Provider</th><th class="num">Requests</th>\
<th class="num">Completed</th><th class="num">Failed</th>
<th class="num">Prompt tokens</th><th class="num">Completion tokens</th><th class="num">Avg latency</th>\
<th class="num">Cost</th></tr></thead>
<tbody>${routes.map(
        (r) => html`<tr><td>${r.engine}</td><td>${r.model}</td><td>${r.provider}</td>\
<td class="num">${count(r.request_count)}</td>
<td class="num">${count(r.completed_count)}</td><td class="num">${count(r.failed_count)}</td>\
<td class="num">${count(r.total_prompt_tokens)}</td>
<td class="num">${count(r.total_completion_tokens)}</td>\
<td class="num">${r.completed_count ? latency(r.avg_latency_ms) : '—'}</td>\
<td class="num">${money(r.total_cost_cents)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section class="card">
<h2>Recent generations</h2>
${
  recent.length === 0
    ? html`<p class="muted">No generations yet.</p>`
    : html`<div class="table-wrap"><table id="recent">
<thead><tr><th class="thumb-col"><span class="visually-hidden">Poster</span></th><th>Prompt</th><th>Created</th>\
<th>Status</th><th>Engine</th><th>Model</th><th class="num">Cost</th><th class="num">Latency</th></tr></thead>
<tbody>${recent.map(
        (g) => html`<tr data-generation-id="${g.id}">
<td class="thumb-col">${thumbnail(g)}</td>
<td class="prompt-cell"><a class="prompt" href="/dashboard/generations/${g.id}">${
          g.prompt || html`<span class="muted">(no text)</span>`
        }</a>
<br><code class="small">${g.id}</code>${
          g.workflowUrl
            ? html` · <a class="small" href="${g.workflowUrl}" target="_blank" \
rel="noopener noreferrer">Temporal workflow</a>`
            : ''
        }</td>
<td>${dateTime(g.created_at)}</td>
<td><span class="badge ${g.status}">${g.status}</span></td>
<td>${g.engine}</td><td class="nowrap">${g.model_name}</td>
<td class="num">${money(g.cost_cents)}</td><td class="num">${latency(g.latency_ms)}</td>
</tr>`,
      )}</tbody></table></div>`
}
</section>`,
  );
}
