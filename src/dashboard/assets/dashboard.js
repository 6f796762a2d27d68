// Progressive enhancement only: every page works without this file.
// - [data-copy] buttons copy the text of the element whose id they name;
// - forms with [data-confirm] ask first and, when confirmed, skip the server's confirmation page;
// - a generation in flight (#generation-live) follows its live events: stage and progress bar, then
//   the player with its poster in place of the progress, without reloading the page.
'use strict';
document.documentElement.classList.add('js');

document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const text = source.textContent.trim();
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    // No clipboard access (insecure context, permission): select the text for a manual copy.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    button.textContent = 'Press Ctrl+C';
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000);
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.getAttribute('data-confirm') : null;
  if (!question) return;
  if (!window.confirm(question)) {
    event.preventDefault();
    return;
  }
  const confirmed = form.querySelector('input[name="confirm"]');
  if (confirmed) confirmed.value = 'yes';
});

const live = document.getElementById('generation-live');
if (live && typeof EventSource === 'function') followGeneration(live);

function followGeneration(card) {
  const stage = document.getElementById('generation-stage');
  const bar = document.getElementById('generation-progress');
  const percent = document.getElementById('generation-percent');
  const badge = document.getElementById('generation-status');
  const source = new EventSource(card.getAttribute('data-events'));
  source.addEventListener('message', (event) => {
    let update;
    try {
      update = JSON.parse(event.data);
    } catch {
      return;
    }
    stage.textContent = update.label;
    if (typeof update.percent === 'number') {
      bar.value = update.percent;
      bar.textContent = percent.textContent = `${Math.floor(update.percent)} %`;
    }
    if (badge) {
      badge.textContent = update.status;
      badge.className = `badge ${update.status}`;
    }
    if (update.done) {
      source.close();
      finish(card, update);
    }
  });
  source.addEventListener('error', () => {
    // Closed for good (signed out, or the generation is gone); otherwise the browser reconnects.
    if (source.readyState === EventSource.CLOSED)
      stage.textContent = 'Live updates stopped. Reload the page to see the latest state.';
  });
}

/** The end: the player (with its poster) takes the progress card's place; the details are refreshed. */
function finish(card, update) {
  if (update.status === 'completed' && update.video_url) {
    const video = document.createElement('video');
    video.id = 'generation-video';
    video.controls = true;
    video.muted = true;
    video.playsInline = true;
    video.preload = 'metadata';
    video.width = Number(card.getAttribute('data-width'));
    video.height = Number(card.getAttribute('data-height'));
    if (update.poster_url) video.poster = update.poster_url;
    video.src = update.video_url;
    const player = document.createElement('section');
    player.className = 'card player';
    player.append(video);
    card.replaceWith(player);
  } else {
    card.classList.add('ended', update.status);
  }
  void refreshSections();
}

/** Replaces the page's [data-refresh] sections with their current versions (same URL, parsed, not run). */
async function refreshSections() {
  try {
    const res = await fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!res.ok) return;
    const fresh = new DOMParser().parseFromString(await res.text(), 'text/html');
    for (const section of document.querySelectorAll('[data-refresh][id]')) {
      const replacement = fresh.getElementById(section.id);
      if (replacement) section.replaceWith(document.importNode(replacement, true));
    }
  } catch {
    // Offline or signed out: the sections stay as they were.
  }
}

// The Brand page: the text/background contrast, recomputed as colours are typed (WCAG relative
// luminance; the server computes it again when the kit is saved).
const brandForm = document.getElementById('brand-form');
if (brandForm) {
  const live = document.getElementById('contrast-live');
  const colour = (name) => brandForm.querySelector(`[data-colour="${name}"]`).value.trim().toLowerCase();
  const luminance = (hex) => {
    const [r, g, b] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const update = () => {
    const background = colour('background');
    const text = colour('text');
    if (!/^#[0-9a-f]{6}$/.test(background) || !/^#[0-9a-f]{6}$/.test(text)) {
      live.textContent = '';
      live.className = 'js-only';
      return;
    }
    const [a, b] = [luminance(background), luminance(text)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const low = ratio < 4.5;
    live.textContent = low
      ? `Low contrast: text on background is ${ratio.toFixed(2)}:1, below WCAG AA 4.5:1 for body text.`
      : `Text on background: ${ratio.toFixed(2)}:1, meets WCAG AA 4.5:1.`;
    live.className = low ? 'js-only notice warning' : 'js-only small';
  };
  brandForm.addEventListener('input', update);
  update();
}
