/// <reference lib="dom" />
// The events of a transaction (what changed): the first rows come with the content, the rest are
// asked of the extension after the first paint, a chunk at a time, and appended (searched and
// filtered as they come; the status says the table is still loading). Rows are rendered page by
// page from that data, filtered in place; each row opens to its whole event.
import { shortenPartyId, shortId } from '../ids/ledgerIds';
import { templateName } from '../ids/templateNames';
import { isPackedEventRows, unpackEventRows, type EventRow, type PackedEventRows } from '../protocol/transactionRows';
import { detailButton, highlightRow } from './eventDetails';
import { cell, contractLink, damlLink, loadRows, pageOnScroll, saveUi, say, ui } from './pageContext';
import { num } from './pageKit/page';

const PAGE = 500;
/** Rows rendered when a table or tree starts or its filters change: more than a screen, few enough to lay out at once. */
export const FIRST_PAGE = 100;

/** A row, its index among the transaction's (what its detail asks for), and how its contract id reads. */
interface Entry {
  row: EventRow;
  index: number;
  idOf: (sent: string) => string;
}

/** A table's rows: what renders the next page of them (false: none rendered now); `loaded` once every row is in. */
export interface RowsView {
  more: () => boolean;
  loaded: Promise<void>;
}

const NONE: PackedEventRows = { words: [], hexIds: false, rows: [], from: 0, total: 0 };

/** Starts the rows of the content's event table, and the loading of those it did not carry. */
export function startEventTable(data: HTMLElement): RowsView {
  const sent: unknown = JSON.parse(data.textContent || 'null');
  const first = isPackedEventRows(sent) && sent.from === 0 ? sent : NONE;
  const total = first.total;
  const rows: Entry[] = [];
  const take = (packed: PackedEventRows): Entry[] => {
    const { rows: unpacked, contractIdOf } = unpackEventRows(packed);
    return unpacked.map((row, i) => ({ row, index: packed.from + i, idOf: contractIdOf }));
  };
  rows.push(...take(first));
  const tbody = document.getElementById('event-rows')!;
  const kind = document.getElementById('filter-kind') as HTMLSelectElement;
  const template = document.getElementById('filter-template') as HTMLInputElement;
  const party = document.getElementById('filter-party') as HTMLInputElement;
  const status = document.getElementById('filter-status')!;
  const sentinel = document.getElementById('rows-sentinel')!;
  /** The rows that pass the filters (`rows` itself when none is set: rows that arrive are in it). */
  let shown = rows;
  let test: ((r: EventRow) => boolean) | undefined;
  let rendered = 0;

  const renderMore = (count = PAGE): boolean => {
    if (rendered >= shown.length) return false;
    const fragment = document.createDocumentFragment();
    const end = Math.min(shown.length, rendered + count);
    for (; rendered < end; rendered++) {
      const {
        row: [nodeId, k, templateId, sentId, detail, parties],
        index,
        idOf,
      } = shown[rendered];
      const tr = document.createElement('tr');
      tr.className = `ev-${k}`;
      tr.dataset.nodeId = String(nodeId);
      cell(tr, String(nodeId)).prepend(detailButton('events', index));
      cell(tr, say(k, k));
      cell(tr, '', templateId).appendChild(damlLink(templateName(templateId), templateId));
      const contractId = idOf(sentId);
      tr.appendChild(contractLink(contractId, shortId(contractId)));
      cell(tr, detail);
      cell(tr, parties.map(shortenPartyId).join(', '), parties.join('\n'));
      fragment.appendChild(tr);
    }
    tbody.appendChild(fragment);
    return true;
  };

  const showStatus = () => {
    const loading = rows.length < total;
    if (test)
      status.textContent = loading
        ? say('eventsMatchLoading', '{0} events match so far (loading: {1} of {2})', num(shown.length), num(rows.length), num(total))
        : say('eventsMatch', '{0} of {1} events match', num(shown.length), num(total));
    else status.textContent = loading ? say('eventsLoading', 'Loading events: {0} of {1}', num(rows.length), num(total)) : '';
  };

  const applyFilters = () => {
    const k = kind.value;
    const t = template.value.trim().toLowerCase();
    const p = party.value.trim().toLowerCase();
    test =
      k || t || p ? (r) => (!k || r[1] === k) && (!t || r[2].toLowerCase().includes(t)) && (!p || r[5].some((x) => x.toLowerCase().includes(p))) : undefined;
    shown = test ? rows.filter(({ row }) => test!(row)) : rows;
    tbody.textContent = '';
    rendered = 0;
    renderMore(FIRST_PAGE);
    showStatus();
  };

  // A lineage link's row may come in a later chunk: looked for again as each comes.
  let highlightPending = tbody.hasAttribute('data-highlight');
  const arrived = (packed: PackedEventRows) => {
    const added = take(packed);
    const allRendered = rendered >= shown.length;
    rows.push(...added);
    if (test) for (const e of added) if (test(e.row)) shown.push(e);
    showStatus();
    // The rows shown so far were all rendered and the end of the table is in view: it grows by itself.
    if (allRendered && endInView()) renderMore();
    if (highlightPending) highlightPending = !highlightRow(tbody, () => renderMore());
  };

  const filters = ui.filters ?? { kind: '', template: '', party: '' };
  kind.value = filters.kind;
  template.value = filters.template;
  party.value = filters.party;
  let timer: ReturnType<typeof setTimeout> | undefined;
  for (const input of [kind, template, party]) {
    input.addEventListener('input', () => {
      ui.filters = { kind: kind.value, template: template.value, party: party.value };
      saveUi();
      clearTimeout(timer);
      timer = setTimeout(applyFilters, 120);
    });
  }
  const endInView = pageOnScroll(sentinel, () => renderMore());
  applyFilters();
  if (highlightPending) highlightPending = !highlightRow(tbody, () => renderMore());
  // After the first paint: the rows on screen first, then the rest.
  const loaded = loadRows('events', rows.length, total, () => tbody.isConnected, arrived);
  return { more: () => renderMore(), loaded };
}
