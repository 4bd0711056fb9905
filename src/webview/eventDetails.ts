/// <reference lib="dom" />
// A row opened to its whole event: the page asks, the extension builds the event (rendered and
// escaped by the same renderer as the page itself), the page shows it in a row under it.
import { ask, saveUi, say, ui } from './pageContext';

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

/**
 * Opens or closes a row's whole event. `kept`: the row's event as the content before this one (the
 * same view, asked as the same identity) showed it, put back at once and replaced by the extension's
 * answer when it comes.
 */
export function toggleDetail(button: HTMLButtonElement, kept?: HTMLTableRowElement): void {
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
  if (kept) row.after(kept);
  else button.disabled = true;
  void ask({ type: 'eventDetail', source, index }).then((detail) => {
    // New content came meanwhile: its own row asks for itself.
    if (!button.isConnected) return;
    button.disabled = false;
    if (detail === undefined) {
      kept?.remove();
      button.setAttribute('aria-expanded', 'false');
      rememberDetail(source, index, false);
      return;
    }
    const td = document.createElement('td');
    td.colSpan = row.children.length;
    // Rendered and escaped by the extension's HTML renderer, like the page itself: no ledger string is markup.
    td.insertAdjacentHTML('beforeend', detail);
    // In the kept row, if it is still there (opened or closed since, as the person left it).
    if (kept?.isConnected) return void kept.replaceChildren(td);
    const tr = document.createElement('tr');
    tr.className = 'detail-row';
    tr.appendChild(td);
    row.after(tr);
  });
}

/**
 * After new content of the same view: open the rows that were open (`kept`: their events as shown
 * before, by source and index), then scroll back to `scrollY`, rendering more rows where needed.
 */
export function restoreView(more: () => boolean, scrollY: number | undefined, kept?: ReadonlyMap<string, HTMLTableRowElement>): void {
  const opened = openedDetails();
  const open = () => {
    for (const [s, index] of opened) {
      const source = s === 'tree' ? 'tree' : 'events';
      const button = document.querySelector<HTMLButtonElement>(`[data-detail="${source}"][data-index="${Number(index)}"]`);
      if (button && button.getAttribute('aria-expanded') !== 'true') toggleDetail(button, kept?.get(`${source}:${Number(index)}`));
    }
  };
  open();
  if (typeof scrollY === 'number' && scrollY > 0) {
    // Rows rendered on the way down open too, before the scroll is set over them.
    for (let i = 0; i < 400 && document.documentElement.scrollHeight < scrollY + window.innerHeight && more(); i++) open();
    window.scrollTo(0, scrollY);
  }
}

/**
 * A lineage link opened the panel at one event: render up to it, mark it, bring it into view. False
 * when its row is not among those the page has (yet).
 */
export function highlightRow(tbody: HTMLElement, more: () => boolean): boolean {
  const wanted = tbody.getAttribute('data-highlight');
  if (wanted === null) return true;
  const find = () => tbody.querySelector(`tr[data-node-id="${Number(wanted)}"]`);
  let row = find();
  while (!row && more()) row = find();
  if (!row) return false;
  row.classList.add('highlight');
  row.scrollIntoView({ block: 'center' });
  return true;
}
