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
    if (source.readyState === EventSource.CLOSED) stage.textContent = 'Live updates stopped. Reload the page to see the latest state.';
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
