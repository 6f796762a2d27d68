import type { GenerationRow } from '../../db/generations.js';
import { MICROS_PER_CENT } from '../../db/organizations.js';
import type { DashboardSession } from '../../db/sessions.js';
import { html } from '../html.js';
import { count, dateTime, latency, money } from './format.js';
import { layout } from './layout.js';
import { deliveriesTable, type Delivery } from './webhooks.js';

export type GenerationPageOptions = {
  session: DashboardSession;
  generation: GenerationRow;
  videoUrl: string | null;
  workflowUrl: string | null;
  deliveries: Delivery[];
};

export function generationPage({ session, generation: g, videoUrl, workflowUrl, deliveries }: GenerationPageOptions) {
  const fact = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value === null || value === undefined || value === '' ? '—' : String(value)}</dd>`;
  return layout(
    { title: g.id, session, section: 'usage' },
    html`<p class="small"><a href="/dashboard/usage">← Usage</a></p>
<h1><code>${g.id}</code> <span class="badge ${g.status}" id="generation-status">${g.status}</span></h1>
${videoUrl
  ? html`<section class="card player"><video id="generation-video" controls muted playsinline preload="metadata" src="${videoUrl}"
  width="${g.request.width}" height="${g.request.height}"></video></section>`
  : ''}
<section class="card">
<h2>Details</h2>
<dl class="facts">
${fact('Engine', g.engine)}${fact('Model', g.model)}${fact('Provider', g.provider)}
${fact('Canvas', `${g.request.width} × ${g.request.height}`)}
${fact('Created', dateTime(g.created_at))}${fact('Started', g.started_at ? dateTime(g.started_at) : null)}${fact('Finished', g.completed_at ? dateTime(g.completed_at) : null)}
${fact('Latency', latency(g.latency_ms))}
${fact('Tokens', g.input_tokens === null ? null : `${count(g.input_tokens)} in, ${count(g.output_tokens ?? 0)} out`)}
${fact('Cost', g.cost_micros === null ? null : money(g.cost_micros / MICROS_PER_CENT))}
${g.error_message ? fact('Error', `${g.error_code ?? 'error'}: ${g.error_message}`) : ''}
${fact('Webhook URL', g.webhook_url)}
${fact('Application', [g.app_title, g.app_name, g.app_referer].filter(Boolean).join(' · '))}
</dl>
${workflowUrl
  ? html`<p class="small">Operators: <a id="temporal-link" href="${workflowUrl}" target="_blank" rel="noopener noreferrer">open this generation's workflow in the Temporal UI</a></p>`
  : ''}
</section>
<section class="card">
<h2>Webhook deliveries</h2>
${deliveriesTable(deliveries)}
</section>`,
  );
}
