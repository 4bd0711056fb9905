/// <reference lib="dom" />
// The events of a transaction (what changed): rendered page by page from the JSON data the
// extension put in the page, filtered in place; each row opens to its whole event.
import { shortenPartyId, shortId } from '../ids/ledgerIds';
import { templateName } from '../ids/templateNames';
import { unpackEventRows, type PackedEventRows } from '../protocol/transactionRows';
import { detailButton, highlightRow } from './eventDetails';
import { cell, contractLink, damlLink, pageOnScroll, saveUi, say, ui } from './pageContext';

const PAGE = 500;

/** Starts the rows; returns what renders the next page of them (false: none left). */
export function startEventTable(data: HTMLElement): () => boolean {
  const unpacked = unpackEventRows(JSON.parse(data.textContent || '{"words":[],"rows":[]}') as PackedEventRows);
  const rows = unpacked.rows.map((row, index) => ({ row, index }));
  const tbody = document.getElementById('event-rows')!;
  const kind = document.getElementById('filter-kind') as HTMLSelectElement;
  const template = document.getElementById('filter-template') as HTMLInputElement;
  const party = document.getElementById('filter-party') as HTMLInputElement;
  const status = document.getElementById('filter-status')!;
  let shown = rows;
  let rendered = 0;

  const renderMore = (): boolean => {
    if (rendered >= shown.length) return false;
    const fragment = document.createDocumentFragment();
    const end = Math.min(shown.length, rendered + PAGE);
    for (; rendered < end; rendered++) {
      const {
        row: [nodeId, k, templateId, sentId, detail, parties],
        index,
      } = shown[rendered];
      const tr = document.createElement('tr');
      tr.className = `ev-${k}`;
      tr.dataset.nodeId = String(nodeId);
      cell(tr, String(nodeId)).prepend(detailButton('events', index));
      cell(tr, say(k, k));
      cell(tr, '', templateId).appendChild(damlLink(templateName(templateId), templateId));
      const contractId = unpacked.contractIdOf(sentId);
      tr.appendChild(contractLink(contractId, shortId(contractId)));
      cell(tr, detail);
      cell(tr, parties.map(shortenPartyId).join(', '), parties.join('\n'));
      fragment.appendChild(tr);
    }
    tbody.appendChild(fragment);
    return true;
  };

  const applyFilters = () => {
    const k = kind.value;
    const t = template.value.trim().toLowerCase();
    const p = party.value.trim().toLowerCase();
    shown = rows.filter(({ row: r }) => (!k || r[1] === k) && (!t || r[2].toLowerCase().includes(t)) && (!p || r[5].some((x) => x.toLowerCase().includes(p))));
    tbody.textContent = '';
    rendered = 0;
    renderMore();
    status.textContent =
      shown.length === rows.length
        ? ''
        : say('eventsMatch', '{0} of {1} events match', shown.length.toLocaleString('en-US'), rows.length.toLocaleString('en-US'));
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
  pageOnScroll(document.getElementById('rows-sentinel')!, renderMore);
  applyFilters();
  highlightRow(tbody, renderMore);
  return renderMore;
}
