import type { GenerationRow } from '../../db/generations.js';
import { MICROS_PER_CENT } from '../../db/organizations.js';
import type { DashboardSession } from '../../db/sessions.js';
import type { GenerationProgress, GenerationStatus } from '../../shared.js';
import { html } from '../html.js';
import { count, dateTime, fitBox, latency, money, promptFirstLine, promptText } from './format.js';
import { layout } from './layout.js';
import { storyboardCard } from './storyboard.js';
import type { PublicStoryboard } from '../../storyboard/schema.js';
import { progressLabel } from './progress.js';
import { deliveriesTable, type Delivery } from './webhooks.js';

/** Characters of the prompt shown in the details (the rest elided). */
const PROMPT_SHOWN = 2000;

/** The player's size: the video's own, scaled down to fit this box (CSS shrinks it further on narrow screens). */
const PLAYER_BOX = { width: 960, height: 640 };
const playerSize = (width: number, height: number) =>
  width <= PLAYER_BOX.width && height <= PLAYER_BOX.height
    ? { width, height }
    : fitBox(width, height, PLAYER_BOX.width, PLAYER_BOX.height);

export type GenerationPageOptions = {
  session: DashboardSession;
  generation: GenerationRow;
  /** In flight: where it stands (the page's script follows its live events from there); null once ended. */
  live: { status: GenerationStatus; progress: GenerationProgress | null } | null;
  videoUrl: string | null;
  posterUrl: string | null;
  /** The sidecar captions (WebVTT) the player shows; null when the generation has none. */
  captionsUrl?: string | null;
  workflowUrl: string | null;
  deliveries: Delivery[];
  /** The storyboard the video draws and its signed URL; null when none is known. */
  storyboard?: { content: PublicStoryboard; url: string } | null;
};

/** At most `max` characters (whole code points), elided. */
const shorten = (text: string, max: number) =>
  text.length <= max ? text : `${Array.from(text).slice(0, max).join('')}…`;

const percentText = (percent: number | null) => (percent === null ? '' : `${Math.floor(percent)} %`);

/**
 * The progress card of a generation in flight. The script (assets/dashboard.js) updates the stage and
 * the bar from `data-events` and, at the end, puts the player in its place; without the script, a
 * reload shows the latest state.
 */
function liveCard(g: GenerationRow, live: NonNullable<GenerationPageOptions['live']>) {
  const percent = live.progress?.percent ?? (live.status === 'queued' ? 0 : null);
  const player = playerSize(g.request.width, g.request.height);
  return html`<section class="card live" id="generation-live" data-events="/dashboard/generations/${g.id}/events" \
data-width="${player.width}" data-height="${player.height}">
<h2>Progress</h2>
<p class="stage" id="generation-stage">${progressLabel(live.status, live.progress)}</p>
<div class="bar"><progress id="generation-progress" max="100"${percent === null ? '' : html` value="${percent}"`} \
aria-label="Progress">${percentText(percent)}</progress>
<span class="percent" id="generation-percent">${percentText(percent)}</span></div>
<noscript><p class="small muted">Reload the page to see how far it got.</p></noscript>
</section>`;
}

export function generationPage({
  session,
  generation: g,
  live,
  videoUrl,
  posterUrl,
  captionsUrl,
  workflowUrl,
  deliveries,
  storyboard,
}: GenerationPageOptions) {
  // A video with sound plays it (the player starts unmuted); a silent one stays muted as before.
  const hasSound = !!g.request.audio && (g.request.audio.voice !== 'none' || g.request.audio.music !== 'none');
  const fact = (label: string, value: unknown) =>
    html`<dt>${label}</dt><dd>${value === null || value === undefined || value === '' ? '—' : String(value)}</dd>`;
  const prompt = promptText(g.request);
  const firstLine = promptFirstLine(g.request);
  const player = playerSize(g.request.width, g.request.height);
  return layout(
    { title: firstLine ? `${firstLine} (${g.id})` : g.id, session, section: 'usage' },
    html`<p class="small"><a href="/dashboard/usage">← Usage</a></p>
<h1><code>${g.id}</code> <span class="badge ${g.status}" id="generation-status">${g.status}</span></h1>
${firstLine ? html`<p class="prompt-line" id="generation-prompt">${firstLine}</p>` : ''}
${live ? liveCard(g, live) : ''}
${
  videoUrl
    ? html`<section class="card player"><video id="generation-video" controls${hasSound ? '' : ' muted'} playsinline \
preload="metadata" src="${videoUrl}"${posterUrl ? html` poster="${posterUrl}"` : ''}
  width="${player.width}" height="${player.height}">${
    captionsUrl ? html`<track kind="captions" default src="${captionsUrl}" label="Captions">` : ''
  }</video></section>`
    : ''
}
<section class="card" id="generation-details" data-refresh>
<h2>Details</h2>
<dl class="facts">
<dt>Prompt</dt><dd class="prompt">${shorten(prompt, PROMPT_SHOWN) || '—'}</dd>
${fact('Engine', g.engine)}${fact('Model', g.model)}${fact('Provider', g.provider)}
${fact('Canvas', `${g.request.width} × ${g.request.height}`)}
${fact('Created', dateTime(g.created_at))}${fact('Started', g.started_at ? dateTime(g.started_at) : null)}\
${fact('Finished', g.completed_at ? dateTime(g.completed_at) : null)}
${fact('Latency', latency(g.latency_ms))}
${fact('Tokens', g.input_tokens === null ? null : `${count(g.input_tokens)} in, ${count(g.output_tokens ?? 0)} out`)}
${fact('Cost', g.cost_micros === null ? null : money(g.cost_micros / MICROS_PER_CENT))}
${g.error_message ? fact('Error', `${g.error_code ?? 'error'}: ${g.error_message}`) : ''}
${fact('Webhook URL', g.webhook_url)}
${fact('Application', [g.app_title, g.app_name, g.app_referer].filter(Boolean).join(' · '))}
</dl>
${
  workflowUrl
    ? html`<p class="small">Operators: <a id="temporal-link" href="${workflowUrl}" \
target="_blank" rel="noopener noreferrer">open this generation's workflow in the Temporal UI</a></p>`
    : ''
}
</section>
${storyboard ? storyboardCard(storyboard.content, storyboard.url, g.id) : ''}
<section class="card" id="generation-deliveries" data-refresh>
<h2>Webhook deliveries</h2>
${deliveriesTable(deliveries)}
</section>`,
  );
}
