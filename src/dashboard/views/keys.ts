import type { ApiKeyInfo } from '../../db/apiKeys.js';
import type { DashboardSession } from '../../db/sessions.js';
import { csrfField } from '../csrf.js';
import { html } from '../html.js';
import { dateTime } from './format.js';
import { confirmButton, copyable, layout, notice } from './layout.js';

export type KeyAction = 'revoke' | 'delete';

export const KEY_ACTION_LABELS: Record<KeyAction, string> = { revoke: 'Revoke', delete: 'Delete' };

export function keyActionQuestion(action: KeyAction, k: Pick<ApiKeyInfo, 'name' | 'prefix'>): string {
  return action === 'revoke'
    ? `Revoke the key “${k.name}” (${k.prefix}…)? Requests with it will get 401 at once; it stays listed.`
    : `Delete the key “${k.name}” (${k.prefix}…) permanently? ` +
        'Requests with it will get 401 and it disappears from this list.';
}

export type KeysPageOptions = {
  session: DashboardSession;
  keys: ApiKeyInfo[];
  /** A key just created: its only display. */
  created?: ApiKeyInfo & { key: string };
  message?: { kind: 'ok' | 'error'; text: string };
  name?: string;
};

export function keysPage({ session, keys, created, message, name }: KeysPageOptions) {
  const csrf = session.csrfToken;
  return layout(
    { title: 'API keys', session, section: 'keys' },
    html`<h1>API keys</h1>
${notice(message?.kind ?? 'ok', message?.text)}
${
  created
    ? html`<section class="card once" aria-labelledby="new-key-title">
<h2 id="new-key-title">New key “${created.name}”</h2>
${copyable('new-key', created.key)}
<p class="small">Copy it now and keep it somewhere safe: <strong>this is the only time the full key is shown</strong>. \
Only a hash of it is stored; if it is lost, create another key.</p>
</section>`
    : ''
}
<section class="card">
<h2>Create a key</h2>
<form method="post" action="/dashboard/keys" class="inline-form">
  ${csrfField(csrf)}
  <div class="field"><label for="key-name">Name</label>
    <input type="text" id="key-name" name="name" required maxlength="200" \
placeholder="e.g. production server" value="${name ?? ''}"></div>
  <div class="field"><label><input type="checkbox" id="key-manage-brand" name="manage_brand" value="on"> \
May change the brand kit (<code>PUT /v1/brand</code>)</label></div>
  <button type="submit">Create key</button>
</form>
</section>
<section class="card">
<h2>Keys of ${session.organizationName}</h2>
${
  keys.length === 0
    ? html`<p class="muted">No keys yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th>Name</th><th>Key</th><th>Rights</th><th>Created</th>\
<th>Last used</th><th>Status</th><th></th></tr></thead>
<tbody>
${keys.map(
  (k) => html`<tr id="key-${k.id}" data-key-id="${k.id}">
<td>${k.name}</td>
<td><code>${k.prefix}…</code></td>
<td>${k.can_manage_brand ? 'videos, brand kit' : 'videos'}</td>
<td>${dateTime(k.created_at)}</td>
<td>${k.last_used_at ? dateTime(k.last_used_at) : html`<span class="muted">never</span>`}</td>
<td>${
    k.active
      ? html`<span class="badge active">active</span>`
      : html`<span class="badge revoked" title="${`revoked ${dateTime(k.revoked_at)}`}">revoked</span>`
  }</td>
<td class="actions">
${(k.active ? (['revoke', 'delete'] as const) : (['delete'] as const)).map((action) =>
  confirmButton({
    action: `/dashboard/keys/${k.id}/${action}`,
    label: KEY_ACTION_LABELS[action],
    question: keyActionQuestion(action, k),
    csrf,
    danger: action === 'delete',
  }),
)}
</td></tr>`,
)}
</tbody></table></div>`
}
</section>
<section class="card">
<h2>Rotating a key</h2>
<ol class="steps">
<li>Create a new key here and copy it.</li>
<li>Switch your clients to the new key (<code>Authorization: Bearer vg_…</code>) and check they work.</li>
<li>Revoke the old key: it stays listed and every request with it gets 401, so you can see when it was last used. \
Or delete it: it is removed permanently.</li>
</ol>
</section>`,
  );
}
