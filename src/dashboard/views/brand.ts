// The Brand page: the organization's brand kit (logo, colours, type style, logo on the closing scene),
// with the text/background contrast and a warning below WCAG AA.
import type { BrandKit } from '../../db/brandKits.js';
import type { DashboardSession } from '../../db/sessions.js';
import { BRAND_FONTS } from '../../shared.js';
import { WCAG_AA_BODY } from '../../brand/kits.js';
import { csrfField } from '../csrf.js';
import { html, type SafeHtml } from '../html.js';
import { dateTime } from './format.js';
import { layout, notice } from './layout.js';

/** What the form shows: the stored kit, or what was just submitted when it was refused. */
export type BrandFormValues = {
  background: string;
  text: string;
  accent: string;
  font: string;
  logo_on_closing: boolean;
};

export type BrandPageOptions = {
  session: DashboardSession;
  kit: BrandKit | null;
  values: BrandFormValues;
  logoUrl: string | null;
  contrast: number | null;
  message?: { kind: 'ok' | 'error'; text: string };
};

const COLOURS = [
  ['background', 'Background', 'Fills every scene'],
  ['text', 'Text', 'Headlines and body text'],
  ['accent', 'Accent', 'Highlights, bars and buttons'],
] as const;

const FONT_LABELS: Record<(typeof BRAND_FONTS)[number], string> = {
  sans: 'Sans-serif',
  serif: 'Serif',
  mono: 'Monospace',
  rounded: 'Rounded',
};

/** A colour sample: SVG presentation attributes (the page's CSP allows no inline style). */
const swatch = (colour: string) =>
  html`<svg class="swatch-box" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true"><rect x="0.5" y="0.5" \
width="27" height="27" rx="5" fill="${colour}" stroke="#d0d5dd"/></svg>`;

export function kitValues(kit: BrandKit | null): BrandFormValues {
  return {
    background: kit?.colors.background ?? '',
    text: kit?.colors.text ?? '',
    accent: kit?.colors.accent ?? '',
    font: kit?.font ?? '',
    logo_on_closing: kit?.logo_on_closing ?? true,
  };
}

function contrastNote(contrast: number | null): SafeHtml | string {
  if (contrast === null)
    return html`<p class="muted small" id="contrast">Set a background and a text colour to check their contrast.</p>`;
  const ratio = `${contrast.toFixed(2)}:1`;
  if (contrast >= WCAG_AA_BODY)
    return html`<p class="small" id="contrast">Text on background: <strong>${ratio}</strong>, \
meets WCAG AA (${WCAG_AA_BODY}:1) for body text.</p>`;
  return html`<div class="notice warning" role="alert" id="contrast-warning">Low contrast: \
text on background is <strong>${ratio}</strong>, below WCAG AA ${WCAG_AA_BODY}:1 for body text. \
Text in your videos may be hard to read; choose a darker or lighter text colour.</div>`;
}

function preview(v: BrandFormValues): SafeHtml | string {
  if (!v.background && !v.text && !v.accent) return '';
  const bg = v.background || '#ffffff';
  const fg = v.text || '#111827';
  const accent = v.accent || fg;
  return html`<svg class="brand-preview" width="240" height="96" viewBox="0 0 240 96" \
role="img" aria-label="Preview of the colours">
<rect width="240" height="96" rx="8" fill="${bg}" stroke="#d0d5dd"/>
<text x="16" y="40" font-size="20" font-weight="700" fill="${fg}">Your headline</text>
<rect x="16" y="58" width="96" height="22" rx="11" fill="${accent}"/>
</svg>`;
}

export function brandPage({ session, kit, values: v, logoUrl, contrast, message }: BrandPageOptions) {
  return layout(
    { title: 'Brand', session, section: 'brand' },
    html`<h1>Brand kit</h1>
${notice(message?.kind ?? 'ok', message?.text)}
<p class="muted">Every video of ${session.organizationName} uses this kit unless its request says \
<code>"brand": false</code> or overrides fields. Videos keep the kit they were made with.${
      kit?.updated_at ? html` Last changed ${dateTime(kit.updated_at)}.` : ''
    }</p>
${contrastNote(contrast)}
<form method="post" action="/dashboard/brand" enctype="multipart/form-data" id="brand-form">
${csrfField(session.csrfToken)}
<section class="card">
<h2>Logo</h2>
${
  logoUrl
    ? html`<p><img class="brand-logo" id="current-logo" src="${logoUrl}" alt="Current logo"></p>`
    : html`<p class="muted">No logo yet.</p>`
}
<div class="field"><label for="logo">${logoUrl ? 'Replace the logo' : 'Upload a logo'}</label>
  <input type="file" id="logo" name="logo" accept="image/png,image/jpeg,image/gif,image/webp">
  <p class="small muted">PNG, JPEG, GIF or WebP, at most 0.5 MiB. A transparent PNG works best.</p></div>
${
  logoUrl
    ? html`<div class="field"><label>\
<input type="checkbox" name="remove_logo" value="on"> Remove the logo</label></div>`
    : ''
}
<div class="field"><label><input type="checkbox" id="logo-on-closing" \
name="logo_on_closing" value="on"${v.logo_on_closing ? html` checked` : ''}> \
Show the logo on the closing scene</label></div>
</section>
<section class="card">
<h2>Colours</h2>
<p class="small muted">As <code>#rrggbb</code>. Leave one empty to let the composer choose it.</p>
${COLOURS.map(
  ([name, label, hint]) => html`<div class="field"><label for="colour-${name}">${label}</label>
  <div class="colour-row">${swatch(v[name] && /^#[0-9a-fA-F]{6}$/.test(v[name]) ? v[name] : '#ffffff')}<input \
type="text" id="colour-${name}" name="${name}" value="${v[name]}" placeholder="#rrggbb" pattern="#[0-9a-fA-F]{6}" \
maxlength="7" data-colour="${name}"></div>
  <p class="small muted">${hint}</p></div>`,
)}
<p id="contrast-live" class="js-only" aria-live="polite"></p>
${preview(v)}
</section>
<section class="card">
<h2>Type style</h2>
<div class="field"><label for="font">Font family</label>
<select id="font" name="font">
<option value=""${v.font === '' ? html` selected` : ''}>The composer’s choice</option>
${BRAND_FONTS.map((f) => html`<option value="${f}"${v.font === f ? html` selected` : ''}>${FONT_LABELS[f]}</option>`)}
</select></div>
</section>
<button type="submit">Save brand kit</button>
</form>`,
  );
}
