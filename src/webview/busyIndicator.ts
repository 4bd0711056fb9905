/// <reference lib="dom" />
// A refresh under way with the content kept on the page: a thin progress bar along the toolbar's
// lower edge, the content marked aria-busy, and Refresh turned into Cancel (as VS Code's own views
// do, so the focus stays put); after a cancelled refresh, the host's note that the content is the
// earlier one, under the toolbar. None of it takes room: what is in view does not move. New content
// ends either.
import { say } from './pageContext';

/** The Refresh button while it is Cancel, with its own label and title. */
let swapped: { button: HTMLButtonElement; label: string; title: string } | undefined;

/** Shows the page busy (`busy`), or not, with `note` (text) under the toolbar. */
export function setBusy(busy: boolean, note?: string): void {
  const nav = document.querySelector<HTMLElement>('nav.toolbar');
  const main = document.getElementById('content');
  if (!nav || !main) return;
  for (const e of nav.querySelectorAll(':scope > .progress-bar, :scope > .not-refreshed')) e.remove();
  main.removeAttribute('aria-busy');
  if (swapped) {
    const { button, label, title } = swapped;
    button.dataset.action = 'refresh';
    button.textContent = label;
    button.title = title;
    button.style.minWidth = '';
    swapped = undefined;
  }
  if (!busy) {
    if (note) nav.appendChild(noteBox(note));
    return;
  }
  main.setAttribute('aria-busy', 'true');
  // A bar to the eye; its text is for screen readers.
  const bar = document.createElement('span');
  bar.className = 'progress-bar';
  bar.setAttribute('role', 'status');
  bar.textContent = say('refreshing', 'Refreshing…');
  nav.appendChild(bar);
  const refresh = nav.querySelector<HTMLButtonElement>(':scope > button[data-action="refresh"]');
  if (!refresh) return;
  swapped = { button: refresh, label: refresh.textContent ?? '', title: refresh.title };
  // No narrower than Refresh: the buttons after it stay where they are.
  refresh.style.minWidth = `${refresh.getBoundingClientRect().width}px`;
  refresh.dataset.action = 'cancel';
  refresh.textContent = say('cancel', 'Cancel');
  refresh.title = say('cancelRefresh', 'Cancel the refresh and keep what is shown');
}

/** Why the content was not replaced (the host's text), until new content or Dismiss. */
function noteBox(note: string): HTMLElement {
  const box = document.createElement('span');
  box.className = 'not-refreshed';
  box.setAttribute('role', 'status');
  box.textContent = note;
  const dismiss = document.createElement('button');
  dismiss.className = 'icon';
  dismiss.textContent = '×';
  dismiss.title = say('dismiss', 'Dismiss');
  dismiss.setAttribute('aria-label', say('dismiss', 'Dismiss'));
  dismiss.addEventListener('click', () => box.remove());
  box.appendChild(dismiss);
  return box;
}
