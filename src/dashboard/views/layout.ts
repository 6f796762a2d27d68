// The page shell: head (our one stylesheet and one script), top bar with navigation and sign-out.
import type { DashboardSession } from '../../db/sessions.js';
import { assetUrl } from '../assets.js';
import { csrfField } from '../csrf.js';
import { html, type SafeHtml } from '../html.js';

export type Section = 'usage' | 'keys' | 'webhooks' | 'brand';

const NAV: Array<[Section, string, string]> = [
  ['usage', 'Usage', '/dashboard/usage'],
  ['keys', 'API keys', '/dashboard/keys'],
  ['webhooks', 'Webhooks', '/dashboard/webhooks'],
  ['brand', 'Brand', '/dashboard/brand'],
];

export function layout(
  opts: { title: string; session?: DashboardSession; section?: Section },
  body: SafeHtml,
): SafeHtml {
  const { session, section } = opts;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Video API dashboard</title>
<link rel="stylesheet" href="${assetUrl('dashboard.css')}">
<script src="${assetUrl('dashboard.js')}" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/dashboard">Video API</a>
  ${
    session
      ? html`<nav>${NAV.map(
          ([id, label, href]) =>
            html`<a href="${href}"${id === section ? html` aria-current="page"` : ''}>${label}</a>`,
        )}</nav>
  <div class="who"><span>${session.organizationName} · ${session.email}</span>
    <form method="post" action="/dashboard/logout">${csrfField(session.csrfToken)}\
<button type="submit" class="small">Sign out</button></form>
  </div>`
      : ''
  }
</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A one-line notice above a page's content. */
export const notice = (kind: 'ok' | 'error', text: string | null | undefined) =>
  text ? html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>` : '';

/** A value with a Copy button (the button appears only when the script runs). */
export const copyable = (id: string, value: string) =>
  html`<div class="secret"><code id="${id}">${value}</code>\
<button type="button" class="secondary small js-only" data-copy="${id}">Copy</button></div>`;

/**
 * A POST button that changes something irreversible. The script asks `question` first; without it,
 * the server answers with a confirmation page (the form lacks confirm=yes).
 */
export function confirmButton(opts: {
  action: string;
  label: string;
  question: string;
  csrf: string;
  danger?: boolean;
}): SafeHtml {
  return html`<form method="post" action="${opts.action}" \
data-confirm="${opts.question}">${csrfField(opts.csrf)}<input type="hidden" name="confirm" value="">
<button type="submit" class="${opts.danger ? 'danger' : 'secondary'} small">${opts.label}</button></form>`;
}

/** The no-script confirmation page: repeats the question with a confirmed form and a way back. */
export function confirmPage(opts: {
  session: DashboardSession;
  section: Section;
  title: string;
  question: string;
  action: string;
  label: string;
  back: string;
}): SafeHtml {
  return layout(
    { title: opts.title, session: opts.session, section: opts.section },
    html`<div class="card narrow"><h1>${opts.title}</h1><p>${opts.question}</p>
<form method="post" action="${opts.action}" class="inline-form">${csrfField(opts.session.csrfToken)}\
<input type="hidden" name="confirm" value="yes">
<button type="submit" class="danger">${opts.label}</button> \
<a class="button secondary" href="${opts.back}">Cancel</a></form></div>`,
  );
}

export function errorPage(status: number, message: string, session?: DashboardSession): SafeHtml {
  const title =
    status === 404
      ? 'Not found'
      : status === 429
        ? 'Too many attempts'
        : status >= 500
          ? 'Something went wrong'
          : 'Request refused';
  return layout(
    { title, session },
    html`<div class="card narrow"><h1>${title}</h1>${notice('error', message)}
<p>${
      status === 401
        ? html`<a href="/dashboard/login">Sign in</a>`
        : html`<a href="/dashboard">Back to the dashboard</a>`
    }</p></div>`,
  );
}
