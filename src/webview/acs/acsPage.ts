/// <reference lib="dom" />
// The Active Contracts page, bundled by esbuild into media/acs.js: rows arrive in batches from the
// extension (src/protocol/acsMessages.ts) and are kept as they came (src/browse/acsTable.ts); search
// and sort run here over all of them; a row opens its contract panel, its template cell the Daml
// definition. Ledger strings only become text nodes. What the person set (search, sort, the place
// scrolled to, the row selected) stays while rows arrive and across a refresh.
import { FIELD_COLUMNS, viewCells } from '../../protocol/acsRows';
import { AcsRows, type AcsSort } from '../../browse/acsTable';
import { shortenPartyId, shortId } from '../../ids/ledgerIds';
import { templateName } from '../../ids/templateNames';
import { localDateTime } from '../../l10n/forPeople';
import { parseAcsFromPage, parseAcsToPage, type AcsFromPage, type AcsToPage } from '../../protocol/acsMessages';
import { buttons, byId, debounce, num, onMessages, pageState, poster, say } from '../pageKit/page';
import { startMenus } from '../pageKit/menu';
import { VirtualTable, type Cell } from '../pageKit/virtualTable';

const post = poster<AcsFromPage>();
const { state, save } = pageState<{ search: string; sort: AcsSort; scrollTop: number }>({ search: '', sort: '', scrollTop: 0 });
const rows = new AcsRows();
/** The rows shown, by index into `rows`; null: all of them, in the order the node sent them. */
let view: number[] | null = null;
let query = state.search.trim().toLowerCase();
let sort: AcsSort = state.sort === 'asc' || state.sort === 'desc' ? state.sort : '';
let activeAt: number | undefined;
let loading = true;
/** A search under way: its run, and how many rows it has searched (-1: none under way). */
let searching = 0;
let searched = -1;
// A search's slice: the page answers a key or a scroll between two.
const SEARCH_SLICE_MS = 8;
/** All rows shown are of one template: the field columns are named by its fields. */
let sameTemplate = false;
/** A table read by interface: the field columns are its view's fields (each row's argument is its view). */
let viewColumns: string[] | undefined;

const rowAt = (index: number): number => (view ? view[index] : index);
const shownCount = (): number => (view ? view.length : rows.count);
const when = (iso: string): string => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : localDateTime(t);
};
const parties = (list: string[]): Cell => [list.map(shortenPartyId).join(', '), list.join('\n')];

function cells(index: number): Cell[] {
  const r = rowAt(index);
  const id = rows.contractId(r);
  const templateId = rows.templateId(r);
  const created = rows.createdAt(r);
  const key = rows.key(r);
  const out: Cell[] = [
    [shortId(id), say('openContract', 'Open contract {0}', id), 'id-link'],
    [templateName(templateId), `${say('openDaml', '{0}: open its Daml definition', templateId)}\n${rows.packageName(r)}`, 'daml-link'],
    [when(created), created],
    parties(rows.signatories(r)),
    parties(rows.observers(r)),
    [key, key],
  ];
  if (viewColumns) {
    const shown = viewCells(rows.argument(r), viewColumns);
    for (let i = 0; i < FIELD_COLUMNS; i++) {
      const c = shown[i];
      out.push(c ? [c.text, c.failed ? c.text : `${viewColumns[i]}: ${c.text}`, c.failed ? 'view-failed' : undefined] : ['', '']);
    }
    return out;
  }
  const fields = rows.fields(r);
  for (let i = 0; i < FIELD_COLUMNS; i++) {
    const f = fields[i];
    out.push(f ? [sameTemplate ? f[1] : `${f[0]}: ${f[1]}`, `${f[0]}: ${f[1]}`] : ['', '']);
  }
  return out;
}

const saveSoon = debounce(200, save);
const table = new VirtualTable(byId('table'), {
  cells,
  key: rowAt,
  indexOf: (row) => (view ? view.indexOf(row) : row < rows.count ? row : -1),
  // The template cell opens its Daml definition; the rest of the row, the contract.
  onOpen: (index, column) => {
    const r = rowAt(index);
    const packageName = rows.packageName(r);
    post(
      column === 1
        ? { type: 'openDaml', templateId: rows.templateId(r), ...(packageName ? { packageName } : {}) }
        : { type: 'openContract', id: rows.contractId(r) },
    );
  },
  onScroll: (top) => {
    state.scrollTop = top;
    saveSoon();
  },
});
table.restoreScroll(state.scrollTop);

const status = byId('status');
const notice = byId('notice');
const cancel = byId<HTMLButtonElement>('cancel');

function updateHeaders(): void {
  const n = shownCount();
  sameTemplate = n > 0 && n < 50_000;
  const first = n > 0 ? rows.templateWord(rowAt(0)) : -1;
  for (let i = 1; i < n && sameTemplate; i++) sameTemplate = rows.templateWord(rowAt(i)) === first;
  const fields = viewColumns ? viewColumns.map((c): [string, string] => [c, '']) : sameTemplate ? rows.fields(rowAt(0)) : [];
  const names = Array.from({ length: FIELD_COLUMNS }, (_, i) => fields[i]?.[0] ?? say('field', 'Field {0}', i + 1));
  table.setHeaders([null, null, null, null, null, null, ...names]);
}

function showStatus(): void {
  status.textContent = '';
  if (loading || searched >= 0) {
    const spinner = status.appendChild(document.createElement('span'));
    spinner.className = 'spinner';
    spinner.setAttribute('aria-hidden', 'true');
    status.append(' ');
  }
  const n = shownCount();
  const parts = [
    n === rows.count ? say('contracts', '{0} contracts', num(rows.count)) : say('matching', '{0} of {1} contracts match', num(n), num(rows.count)),
  ];
  if (activeAt !== undefined) parts.push(say('activeAt', 'active at offset {0}', num(activeAt)));
  if (searched >= 0) parts.push(say('searching', 'Searching… {0} of {1} contracts', num(searched), num(rows.count)));
  if (loading) parts.push(say('loading', 'Loading… {0} contracts so far', num(rows.count)));
  status.append(parts.join(' · '));
  cancel.disabled = !loading;
}

/** The view from scratch: searched, sorted. A search runs in slices (a new one cancels it). */
function rebuild(): void {
  const run = ++searching;
  searched = -1;
  if (!query) return show(sort ? Array.from({ length: rows.count }, (_, i) => i) : null);
  const q = query;
  const hits: boolean[] = [];
  const found: number[] = [];
  let next = 0;
  const step = () => {
    if (run !== searching) return;
    // Rows that arrive meanwhile are searched too: the search goes on to the last.
    const until = performance.now() + SEARCH_SLICE_MS;
    while (next < rows.count && performance.now() < until) next = rows.matchSome(q, hits, next, 200, found);
    if (next < rows.count) {
      searched = next;
      showStatus();
      return void setTimeout(step, 0);
    }
    searched = -1;
    show(found);
  };
  step();
}

function show(shown: number[] | null): void {
  view = shown;
  if (view) rows.sort(view, sort);
  updateHeaders();
  table.setRows(shownCount());
  showStatus();
}
const resortSoon = debounce(300, rebuild);

/** Makes every row's search text while the page is idle once all have arrived, so the first search is quick. */
let preparing = 0;
const PREPARE_SLICE_MS = 8;
function prepareSearch(): void {
  const run = ++preparing;
  let next = 0;
  const step = (idle: IdleDeadline) => {
    if (run !== preparing) return;
    // A few milliseconds at a time, not the whole idle period (up to 50 ms): a scroll or a key
    // that comes meanwhile waits for the slice to end.
    const until = performance.now() + PREPARE_SLICE_MS;
    while (next < rows.count && idle.timeRemaining() > 1 && performance.now() < until) next = rows.prepareSearch(next, 25);
    if (next < rows.count) requestIdleCallback(step);
  };
  requestIdleCallback(step);
}

function showNotice(text: string, error = false): void {
  notice.hidden = !text;
  notice.className = error ? 'notice error' : 'notice';
  notice.textContent = text;
}

function received(m: Extract<AcsToPage, { type: 'rows' }>): void {
  if (m.restarted) rows.clear(true);
  activeAt = m.activeAtOffset;
  const first = rows.append(m.batch);
  if (m.restarted) return rebuild();
  if (searched >= 0) {
    // The search under way reaches these rows too.
    showStatus();
    return;
  }
  if (sort) {
    // Sorting again on every page would sort 100,000 rows a hundred times: once the pages pause.
    resortSoon();
    showStatus();
    return;
  }
  if (view) for (const r of rows.matching(query, first)) view.push(r);
  if (first === 0) {
    updateHeaders();
    table.setRows(shownCount());
  } else table.grew(shownCount());
  showStatus();
}

onMessages(parseAcsToPage, (m) => {
  switch (m.type) {
    case 'scope':
      byId('scope').textContent = m.text;
      return;
    case 'reset':
      preparing++;
      rows.clear();
      loading = true;
      activeAt = undefined;
      showNotice('');
      viewColumns = undefined;
      return rebuild();
    case 'columns':
      viewColumns = m.names;
      updateHeaders();
      return;
    case 'rows':
      return received(m);
    case 'notice':
      return showNotice(m.text);
    case 'done':
      loading = false;
      if (m.cancelled) showNotice(say('cancelled', 'Stopped: the table shows what had arrived.'));
      rebuild();
      return prepareSearch();
    case 'error':
      loading = false;
      showStatus();
      showNotice(m.text, true);
      buttons(notice, m.actions);
      return;
  }
});

const search = byId<HTMLInputElement>('search');
search.value = state.search;
const searchSoon = debounce(150, () => {
  query = search.value.trim().toLowerCase();
  rebuild();
});
search.addEventListener('input', () => {
  state.search = search.value;
  save();
  searchSoon();
});
const sortBy = byId<HTMLSelectElement>('sort');
sortBy.value = sort;
sortBy.addEventListener('change', () => {
  sort = sortBy.value === 'asc' || sortBy.value === 'desc' ? sortBy.value : '';
  state.sort = sort;
  save();
  rebuild();
});
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('[data-action]') : null;
  const message = button && !button.disabled ? parseAcsFromPage({ type: button.dataset.action }) : undefined;
  if (message) post(message);
});
startMenus();
showStatus();
post({ type: 'ready' });
