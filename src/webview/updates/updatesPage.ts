/// <reference lib="dom" />
// The Follow Updates page, bundled by esbuild into media/updates.js: updates arrive from the extension
// (src/protocol/updatesMessages.ts) as they commit, newest on top, in a bounded buffer (older rows are
// dropped and counted: src/browse/updatesTable.ts); filters by party and template or choice; pause,
// resume, restart at an offset; a row opens its transaction. Text nodes only. The filters and the
// rows in view stay while updates arrive.
import { TAIL_CAPACITY, UpdateRows } from '../../browse/updatesTable';
import type { UpdateRow } from '../../protocol/updateRows';
import { shortId } from '../../ids/ledgerIds';
import { parseTailFromPage, parseTailToPage, type UpdatesFromPage, type UpdatesStateMessage } from '../../protocol/updatesMessages';
import { buttons, byId, debounce, num, onMessages, pageState, poster, say, throttle } from '../pageKit/page';
import { ARRIVAL_PAINT_MS, VirtualTable, type Cell } from '../pageKit/virtualTable';

const post = poster<UpdatesFromPage>();
const { state: saved, save } = pageState({ party: '', template: '' });
const capacity = Number(document.body.dataset.capacity) || TAIL_CAPACITY;
const rows = new UpdateRows(capacity);
let position: number | undefined;
let state: UpdatesStateMessage['state'] = 'starting';
let paused = false;

// As toLocaleTimeString(undefined, { hour12: false }) writes it, with one formatter (that call makes
// a new one each time, and every row painted while updates arrive formats its time).
const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false });
const when = (iso: string): string => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${timeOfDay.format(t)}.${String(t % 1000).padStart(3, '0')}`;
};
const tableElement = byId('table');
// Newest first: the last row of the view is shown at the top.
const rowAt = (index: number): UpdateRow => rows.view[rows.view.length - 1 - index];

const table = new VirtualTable(tableElement, {
  cells: (index): Cell[] => {
    const r = rowAt(index);
    return [
      [num(r.offset), String(r.offset)],
      [when(r.recordTime), r.recordTime],
      [shortId(r.updateId), say('openUpdate', 'Open transaction {0}', r.updateId), 'id-link'],
      // Long ids shortened in the middle (their head and their end show); the whole id on hover.
      [shortId(r.commandId), r.commandId],
      [shortId(r.workflowId), r.workflowId],
      [`${r.kinds.join(', ')} (${r.events})`, r.parties.join('\n'), r.kinds.length === 1 && r.kinds[0] === 'archived' ? 'kind-archived' : ''],
      [r.templates.join(', '), r.templates.join('\n')],
      [r.choices.join(', '), r.choices.join('\n')],
    ];
  },
  // A row is its offset (unique, rising): a painted row is known again after newer ones pushed it down.
  key: (index) => rowAt(index).offset,
  indexOf: (offset) => {
    const view = rows.view;
    let lo = 0;
    let hi = view.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (view[mid].offset === offset) return view.length - 1 - mid;
      if (view[mid].offset < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  },
  onOpen: (index) => post({ type: 'openUpdate', id: rowAt(index).updateId }),
  // Right-click on a row: Debug Transaction (its update, on this page's node).
  rowContext: (index) =>
    JSON.stringify({ webviewSection: 'updateRow', updateId: rowAt(index).updateId, node: tableElement.dataset.node, preventDefaultContextMenuItems: true }),
});

const statusLine = byId('status');
const counts = byId('counts');
const notice = byId('notice');
const offer = byId('offer');
const pauseButton = byId<HTMLButtonElement>('pause');

function showCounts(): void {
  const parts = [
    rows.filtered
      ? say('matching', '{0} of {1} match', num(rows.view.length), num(rows.kept))
      : rows.kept === 1
        ? say('shownOne', '1 update shown')
        : say('shown', '{0} updates shown', num(rows.kept)),
  ];
  if (rows.dropped > 0) parts.push(say('dropped', '{0} older dropped', num(rows.dropped)));
  counts.textContent = parts.join(' · ');
}

// Rows that came in are shown together at the pace the table paints arriving rows, and more
// slowly while each time brings more than a screenful (nobody reads them then): between two showings
// the rows do not move, so the table paints the new ones in view once, not in every frame.
const OUTRUN_SHOW_MS = 300;
let incoming: UpdateRow[] = [];
let showPace = ARRIVAL_PAINT_MS;
function showRows(): void {
  const fresh = incoming;
  incoming = [];
  // Read before the writes below (a read after them would lay the page out again at once).
  const screenful = table.rowsInView;
  // The oldest dropped (at the bottom) or not, the rows painted are the same rows: they stay.
  const { added } = rows.add(fresh);
  table.grewAbove(rows.view.length, added);
  showPace = added > screenful ? OUTRUN_SHOW_MS : ARRIVAL_PAINT_MS;
  showCounts();
  if (state === 'following' && position !== undefined) statusLine.textContent = say('following', 'Following from offset {0}', num(position));
}
const showIncoming = throttle(() => showPace, showRows);

function showState(m: UpdatesStateMessage): void {
  state = m.state;
  paused = m.state === 'paused';
  pauseButton.textContent = paused ? say('resume', 'Resume') : say('pause', 'Pause');
  pauseButton.disabled = m.state === 'stopped' && !m.canResume;
  const at = position === undefined ? '…' : num(position);
  statusLine.textContent =
    m.state === 'following'
      ? say('following', 'Following from offset {0}', at)
      : m.state === 'paused'
        ? say('paused', 'Paused at offset {0}', at)
        : m.state === 'reconnecting'
          ? say('reconnecting', 'Reconnecting (attempt {0}): {1}', m.attempt ?? 1, m.error ?? '')
          : say('stopped', 'Stopped at offset {0}', at);
  notice.hidden = !m.message;
  notice.className = m.state === 'stopped' && m.message ? 'notice error' : 'notice';
  notice.textContent = m.message ?? '';
  offer.textContent = '';
  offer.hidden = !m.offers?.length;
  buttons(offer, m.offers ?? []);
}

onMessages(parseTailToPage, (m) => {
  switch (m.type) {
    case 'scope':
      byId('scope').textContent = m.text;
      return;
    case 'reset':
      incoming = [];
      showPace = ARRIVAL_PAINT_MS;
      rows.reset();
      position = m.position;
      table.setRows(0);
      return showCounts();
    case 'rows': {
      position = m.position;
      for (const r of m.rows) incoming.push(r);
      // A buffer's worth waiting (a hidden page's timers may be slowed to one a minute): shown now,
      // so the rows kept stay bounded.
      if (incoming.length >= capacity) showRows();
      else showIncoming();
      return;
    }
    case 'state':
      if (m.position !== undefined) position = m.position;
      return showState(m);
  }
});

const party = byId<HTMLInputElement>('filter-party');
const template = byId<HTMLInputElement>('filter-template');
party.value = saved.party;
template.value = saved.template;
const refilter = () => {
  rows.filter(party.value, template.value);
  table.setRows(rows.view.length);
  showCounts();
};
const refilterSoon = debounce(120, refilter);
for (const input of [party, template])
  input.addEventListener('input', () => {
    saved.party = party.value;
    saved.template = template.value;
    save();
    refilterSoon();
  });
if (saved.party || saved.template) refilter();

document.addEventListener('click', (event) => {
  const a = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('[data-action]') : null;
  if (!a || a.disabled) return;
  const action = a.dataset.action;
  const message = parseTailFromPage(
    action === 'pause'
      ? { type: paused ? 'resume' : 'pause' }
      : action === 'restart'
        ? { type: 'restart', start: byId<HTMLInputElement>('start').value.trim() }
        : action === 'startAt'
          ? { type: 'restart', start: a.dataset.offset ?? '' }
          : { type: action },
  );
  if (message) post(message);
});

// For the bench and UI tests: what the page holds (offsets of the kept rows, oldest first).
(window as unknown as { cantonUpdates: unknown }).cantonUpdates = {
  get received() {
    return rows.received + incoming.length;
  },
  get dropped() {
    return rows.dropped;
  },
  get shown() {
    return rows.kept;
  },
  offsets: () => rows.offsets(),
};
post({ type: 'ready' });
