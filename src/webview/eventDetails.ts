/// <reference lib="dom" />
// A row opened to its whole event: the page asks, the extension builds the event (rendered and
// escaped by the same renderer as the page itself), the page shows it in a row under it.
import { parseHostMessage } from '../panels/panelMessages';
import { post, saveUi, say, ui } from './pageContext';

const openedDetails = (): [string, number][] => (Array.isArray(ui.details) ? ui.details : []);

function rememberDetail(source: string, index: number, open: boolean): void {
  const rest = openedDetails().filter(([s, i]) => !(s === source && i === index));
  ui.details = open ? [...rest, [source, index]] : rest;
  saveUi();
}

export function detailButton(source: 'events' | 'tree', index: number): HTMLButtonElement {
  const b = document.createElement('button');
  b.className = 'icon detail-toggle';
  b.dataset.detail = source;
  b.dataset.index = String(index);
  b.setAttribute('aria-expanded', 'false');
  b.title = say('showEvent', 'Show the whole event');
  b.setAttribute('aria-label', say('showEvent', 'Show the whole event'));
  b.textContent = '⋯';
  return b;
}

export function toggleDetail(button: HTMLButtonElement): void {
  const row = button.closest('tr');
  if (!row) return;
  const next = row.nextElementSibling as HTMLElement | null;
  const source = button.dataset.detail === 'tree' ? 'tree' : 'events';
  const index = Number(button.dataset.index);
  if (next?.classList.contains('detail-row')) {
    next.hidden = !next.hidden;
    button.setAttribute('aria-expanded', String(!next.hidden));
    rememberDetail(source, index, !next.hidden);
    return;
  }
  rememberDetail(source, index, true);
  button.setAttribute('aria-expanded', 'true');
  button.disabled = true;
  post({ type: 'eventDetail', source, index });
}

window.addEventListener('message', (event: MessageEvent) => {
  const m = parseHostMessage(event.data);
  if (!m || m.type !== 'eventDetail') return;
  const button = document.querySelector<HTMLButtonElement>(`[data-detail="${m.source}"][data-index="${m.index}"]`);
  const row = button?.closest('tr');
  if (!button || !row) return;
  button.disabled = false;
  const tr = document.createElement('tr');
  tr.className = 'detail-row';
  const td = document.createElement('td');
  td.colSpan = row.children.length;
  // Rendered and escaped by the extension's HTML renderer, like the page itself: no ledger string is markup.
  td.insertAdjacentHTML('beforeend', m.html);
  tr.appendChild(td);
  row.after(tr);
});

/** After a refresh of the same view: open the rows that were open, then scroll back (rendering more rows where needed). */
export function restoreView(more: () => boolean): void {
  for (const [source, index] of openedDetails()) {
    const button = document.querySelector<HTMLButtonElement>(`[data-detail="${source === 'tree' ? 'tree' : 'events'}"][data-index="${Number(index)}"]`);
    if (button) toggleDetail(button);
  }
  if (typeof ui.scrollY === 'number' && ui.scrollY > 0) {
    for (let i = 0; i < 400 && document.documentElement.scrollHeight < ui.scrollY + window.innerHeight && more(); i++);
    window.scrollTo(0, ui.scrollY);
  }
}

/** A lineage link opened the panel at one event: render up to it, mark it, bring it into view. */
export function highlightRow(tbody: HTMLElement, more: () => boolean): void {
  const wanted = tbody.getAttribute('data-highlight');
  if (wanted === null) return;
  const find = () => tbody.querySelector(`tr[data-node-id="${Number(wanted)}"]`);
  let row = find();
  while (!row && more()) row = find();
  if (!row) return;
  row.classList.add('highlight');
  row.scrollIntoView({ block: 'center' });
}
