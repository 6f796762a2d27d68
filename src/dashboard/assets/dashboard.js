// Progressive enhancement only: every page works without this file.
// - [data-copy] buttons copy the text of the element whose id they name;
// - forms with [data-confirm] ask first and, when confirmed, skip the server's confirmation page.
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
