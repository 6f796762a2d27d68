// A generation's storyboard on its page: each scene in words (kind, its text, its seconds) and the
// storyboard itself to download, to change and send back as a storyboard request.
import type { PublicScene, PublicStoryboard } from '../../storyboard/schema.js';
import { html } from '../html.js';

const quoted = (t: string | null | undefined) => (t ? `“${t}”` : '');
const figure = (s: { value: number | string; prefix?: string; suffix?: string }) =>
  `${s.prefix ?? ''}${s.value}${s.suffix ?? ''}`;
const joined = (parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join(' · ');

/** One scene in words: "Counter: 12,000+ — teams use Nimbus". */
export function sceneInWords(s: PublicScene): string {
  switch (s.kind) {
    case 'title':
      return `Title: ${joined([quoted(s.title), quoted(s.subtitle), s.image && `picture ${s.image}`])}`;
    case 'statement':
      return `Statement: ${quoted(s.text)}`;
    case 'counter':
      return `Counter: ${joined([s.qualifier, figure(s), quoted(s.label)])}`;
    case 'progress':
      return `Progress: ${joined([figure({ ...s, suffix: s.suffix ?? '%' }), quoted(s.label)])}`;
    case 'bars':
      return `Bars: ${joined([quoted(s.label), s.items.map((b) => `${b.label} ${figure(b)}`).join(', ')])}`;
    case 'list':
      return `List: ${joined([quoted(s.heading), s.items.map(quoted).join(', ')])}`;
    case 'steps': {
      const items = s.items.map((it) =>
        typeof it === 'string' ? quoted(it) : `${it.marker ?? ''} ${quoted(it.text)}`.trim(),
      );
      return `Steps: ${joined([quoted(s.heading), items.join(', ')])}`;
    }
    case 'countdown':
      return `Countdown: ${joined([s.numbers.join(', '), quoted(s.payoff)])}`;
    case 'quote':
      return `Quote: ${joined([quoted(s.quote), s.attribution && `— ${s.attribution}`])}`;
    case 'cta':
      return `Call to action: ${joined([quoted(s.text), s.link, s.date, s.price])}`;
    case 'image':
      return `Picture: ${joined([s.asset, quoted(s.caption)])}`;
    case 'comparison': {
      const options = s.options.map((o) => `${quoted(o.name)} ${o.figure ?? ''}${o.highlight ? ' ★' : ''}`.trim());
      return `Comparison: ${joined([quoted(s.heading), options.join(' | '), quoted(s.badge)])}`;
    }
    case 'timeline': {
      const items = s.items.map((it) => `${it.time} ${quoted(it.text)}`);
      return `Timeline: ${joined([quoted(s.heading), items.join(', ')])}`;
    }
    case 'features': {
      const items = s.items.map((it) => (typeof it === 'string' ? quoted(it) : quoted(it.text)));
      return `Features: ${joined([quoted(s.heading), items.join(', ')])}`;
    }
  }
}

export function storyboardCard(storyboard: PublicStoryboard, downloadUrl: string, generationId: string) {
  return html`<section class="card" id="generation-storyboard">
<h2>Storyboard</h2>
<ol class="scenes">
${storyboard.scenes.map(
  (s) =>
    html`<li>${sceneInWords(s)}${
      s.seconds === undefined ? '' : html` <span class="muted small">(${String(s.seconds)} s)</span>`
    }</li>`,
)}
</ol>
<p class="small"><a id="storyboard-download" href="${downloadUrl}" \
download="storyboard-${generationId}.json">Download the storyboard (JSON)</a>: \
change it and send it back as <code>storyboard</code> to make this video with your changes.</p>
</section>`;
}
