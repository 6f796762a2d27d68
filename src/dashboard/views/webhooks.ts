import type { signingSecretsView, WebhookAttemptRow, WebhookEventRow } from '../../db/webhooks.js';
import type { DashboardSession } from '../../db/sessions.js';
import type { WebhookEndpoint } from '../../db/webhookEndpoints.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../shared.js';
import { WEBHOOK_HEADERS } from '../../webhooks/signing.js';
import { csrfField } from '../csrf.js';
import { html } from '../html.js';
import { dateTime, latency, span } from './format.js';
import { confirmButton, copyable, layout, notice } from './layout.js';

export type Delivery = WebhookEventRow & { attemptRows: WebhookAttemptRow[] };

const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'video.generation.queued': 'the request was accepted and waits',
  'video.generation.started': 'processing began with the provider',
  'video.generation.completed': 'the generation finished, successfully or not (see data.object.status)',
  'video.generation.progress': 'progress: at most one per 10 percentage points, with data.object.progress (extension)',
};

export type WebhooksPageOptions = {
  session: DashboardSession;
  secrets: ReturnType<typeof signingSecretsView>;
  enabled: readonly WebhookEventType[];
  reveal: boolean;
  graceSeconds: number;
  deliveries: Delivery[];
  endpoints: WebhookEndpoint[];
  message?: { kind: 'ok' | 'error'; text: string };
};

export const rotateQuestion = (graceSeconds: number) =>
  `Rotate the signing secret? The current secret keeps signing next to the new one for ${span(graceSeconds)}; ` +
  `update your receivers within that time.`;

export function webhooksPage(o: WebhooksPageOptions) {
  const { session, secrets } = o;
  const masked = 'whsec_••••••••••••••••••••••••';
  return layout(
    { title: 'Webhooks', session, section: 'webhooks' },
    html`<h1>Webhooks</h1>
${notice(o.message?.kind ?? 'ok', o.message?.text)}
<section class="card">
<h2>Signing secret</h2>
<p class="muted small">Every delivery carries <code>${WEBHOOK_HEADERS.id}</code>, \
<code>${WEBHOOK_HEADERS.timestamp}</code> and
<code>${WEBHOOK_HEADERS.signature}</code> (<code>v1,&lt;base64 HMAC-SHA256&gt;</code> of \
<code>id.timestamp.body</code>, keyed with this secret
base64-decoded after <code>whsec_</code>). Verify it before trusting a payload.</p>
${
  o.reveal
    ? html`${copyable('signing-secret', secrets.signing_secret)}
${
  secrets.previous_signing_secret
    ? html`<p class="small">Previous secret, still signing next to the new one until \
${dateTime(secrets.previous_secret_expires_at)}:</p>\
${copyable('previous-signing-secret', secrets.previous_signing_secret)}`
    : ''
}
<p><a href="/dashboard/webhooks">Hide</a></p>`
    : html`<div class="secret"><code>${masked}</code><a class="button secondary small" \
href="/dashboard/webhooks?reveal=1" id="reveal-secret">Reveal</a></div>
${
  secrets.previous_signing_secret
    ? html`<p class="small muted">The previous secret still signs until \
${dateTime(secrets.previous_secret_expires_at)}.</p>`
    : ''
}`
}
<h2>Rotate</h2>
<p class="small muted">Rotation makes a new secret. For ${span(o.graceSeconds)} afterwards, \
deliveries are signed with both secrets
(two <code>v1,</code> entries), so receivers keep verifying while you update them.</p>
${confirmButton({
  action: '/dashboard/webhooks/rotate',
  label: 'Rotate secret',
  question: rotateQuestion(o.graceSeconds),
  csrf: session.csrfToken,
  danger: true,
})}
</section>
<section class="card">
<h2>Event types</h2>
<p class="small muted">Sent only for generations requested with a <code>webhook_url</code>. \
Changes apply to events sent from now on.</p>
<form method="post" action="/dashboard/webhooks/events">
  ${csrfField(session.csrfToken)}
  <div class="checks">
  ${WEBHOOK_EVENT_TYPES.map(
    (t) => html`<label><input type="checkbox" name="events" value="${t}"${o.enabled.includes(t) ? html` checked` : ''}>
    <code>${t}</code> <span class="muted small">— ${EVENT_DESCRIPTIONS[t]}</span></label>`,
  )}
  </div>
  <button type="submit">Save event types</button>
</form>
</section>
<section class="card" id="endpoints">
<h2>Endpoints</h2>
<p class="small muted">Every video your organization makes on <code>/v1/videos</code> (the OpenAI Videos API) \
sends OpenAI's <code>video.completed</code> or <code>video.failed</code> event to each endpoint, signed with \
this secret under the Standard Webhooks headers (<code>webhook-id</code>, <code>webhook-timestamp</code>, \
<code>webhook-signature</code>): OpenAI's SDKs verify them with <code>client.webhooks.unwrap()</code>.</p>
${
  o.endpoints.length
    ? html`<table><thead><tr><th>URL</th><th>Added</th><th></th></tr></thead><tbody>${o.endpoints.map(
        (e) =>
          html`<tr><td><code>${e.url}</code></td><td>${dateTime(e.created_at)}</td><td>${confirmButton({
            action: `/dashboard/webhooks/endpoints/${e.id}/delete`,
            label: 'Delete',
            question: `Delete the endpoint ${e.url}? It receives no further events.`,
            csrf: session.csrfToken,
            danger: true,
          })}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No endpoint yet.</p>`
}
<form method="post" action="/dashboard/webhooks/endpoints">
  ${csrfField(session.csrfToken)}
  <label>HTTPS URL <input type="url" name="url" required placeholder="https://example.com/webhooks/videos"></label>
  <button type="submit">Add endpoint</button>
</form>
</section>
<section class="card">
<h2>Recent deliveries</h2>
${deliveriesTable(o.deliveries)}
</section>`,
  );
}

/** Events with their attempts (status code, time, error), newest first. */
export function deliveriesTable(deliveries: Delivery[]) {
  if (deliveries.length === 0) return html`<p class="muted">No events sent yet.</p>`;
  return html`<div class="table-wrap"><table id="deliveries">
<thead><tr><th>Created</th><th>Event</th><th>Generation</th><th>URL</th><th>Status</th><th>Attempts</th></tr></thead>
<tbody>
${deliveries.map(
  (d) => html`<tr data-event-id="${d.id}" data-event-type="${d.type}">
<td>${dateTime(d.created_at)}</td>
<td><code>${d.type}</code></td>
<td><a href="/dashboard/generations/${d.generation_id}"><code>${d.generation_id}</code></a></td>
<td class="small"><code>${d.url}</code></td>
<td><span class="badge ${d.status}">${d.status}</span></td>
<td>${
    d.attemptRows.length === 0
      ? html`<span class="muted">none yet</span>`
      : html`<ol class="attempts small">${d.attemptRows.map(
          (a) => html`<li data-status-code="${a.status_code ?? ''}">${dateTime(a.attempted_at)} —
        ${a.status_code !== null ? html`<strong>HTTP ${a.status_code}</strong>` : html`<strong>no response</strong>`}
        in ${latency(a.duration_ms)}${a.error ? html`: <span class="muted">${a.error}</span>` : ''}</li>`,
        )}</ol>`
  }</td>
</tr>`,
)}
</tbody></table></div>`;
}
