import { csrfField } from '../csrf.js';
import { html } from '../html.js';
import { layout, notice } from './layout.js';

export function loginPage(opts: { csrf: string; email?: string; next?: string; error?: string; info?: string }) {
  return layout(
    { title: 'Sign in' },
    html`<div class="card narrow">
<h1>Sign in</h1>
<p class="muted">Members of an organization manage its API keys, webhook settings and usage here.</p>
${notice('error', opts.error)}${notice('ok', opts.info)}
<form method="post" action="/dashboard/login">
  ${csrfField(opts.csrf)}
  ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
  <div class="field"><label for="email">Email</label>
    <input type="email" id="email" name="email" autocomplete="username" required \
maxlength="320" value="${opts.email ?? ''}" ${opts.email ? '' : html`autofocus`}></div>
  <div class="field"><label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required \
maxlength="1024" ${opts.email ? html`autofocus` : ''}></div>
  <button type="submit">Sign in</button>
</form>
</div>`,
  );
}
