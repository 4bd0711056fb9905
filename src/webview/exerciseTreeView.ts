/// <reference lib="dom" />
// The exercise tree of ledger effects: rows in node order, indented by depth; an exercise's nodes
// fold under it; search keeps the ancestors of what matches. Rendered page by page.
import { shortenPartyId, shortId } from '../ids/ledgerIds';
import { templateName } from '../ids/templateNames';
import type { TreeRow } from '../protocol/transactionRows';
import { detailButton, highlightRow } from './eventDetails';
import { cell, contractLink, damlLink, pageOnScroll, saveUi, say, ui } from './pageContext';

const PAGE = 500;

/** Starts the rows; returns what renders the next page of them (false: none left). */
export function startExerciseTree(data: HTMLElement): () => boolean {
  const nodes = JSON.parse(data.textContent || '[]') as TreeRow[];
  const tbody = document.getElementById('tree-rows')!;
  const search = document.getElementById('tree-search') as HTMLInputElement;
  const status = document.getElementById('filter-status')!;
  const collapsed = new Set((ui.collapsed ?? []).filter((i) => Number.isInteger(i)));
  if (typeof ui.treeSearch === 'string') search.value = ui.treeSearch;
  const saveTree = () => {
    ui.collapsed = [...collapsed];
    ui.treeSearch = search.value;
    saveUi();
  };
  const text = (n: TreeRow) => `${n[6]} ${templateName(n[5])} ${n[7]} ${n[8].join(' ')} ${n[10]}`.toLowerCase();
  let visible: TreeRow[] = [];
  let rendered = 0;

  const compute = () => {
    const q = search.value.trim().toLowerCase();
    if (q) {
      // Matches and their ancestors, whatever is folded.
      const keep = new Set<number>();
      const matches = nodes.filter((n) => text(n).includes(q));
      for (const n of matches) for (let i = n[0]; i >= 0 && !keep.has(i); i = nodes[i][1]) keep.add(i);
      visible = nodes.filter((n) => keep.has(n[0]));
      status.textContent = say('nodesMatch', '{0} of {1} nodes match', matches.length.toLocaleString('en-US'), nodes.length.toLocaleString('en-US'));
      return;
    }
    visible = [];
    for (let i = 0; i < nodes.length; i++) {
      visible.push(nodes[i]);
      if (collapsed.has(i)) i += nodes[i][3];
    }
    status.textContent = '';
  };

  const renderMore = (): boolean => {
    if (rendered >= visible.length) return false;
    const fragment = document.createDocumentFragment();
    const end = Math.min(visible.length, rendered + PAGE);
    for (; rendered < end; rendered++) {
      const [index, , depth, descendants, k, templateId, choice, contractId, parties, consuming, interfaceId, nodeId] = visible[rendered];
      const tr = document.createElement('tr');
      tr.className = `ev-${k}${consuming && k === 'exercised' ? ' consuming' : ''}`;
      tr.setAttribute('role', 'row');
      tr.setAttribute('aria-level', String(depth + 1));
      tr.dataset.index = String(index);
      tr.dataset.nodeId = String(nodeId);
      cell(tr, String(nodeId)).prepend(detailButton('tree', index));
      const what = document.createElement('td');
      what.style.paddingLeft = `${depth * 16}px`;
      if (descendants > 0) {
        const twisty = document.createElement('button');
        twisty.className = 'icon twisty';
        twisty.dataset.twisty = String(index);
        twisty.setAttribute('aria-expanded', String(!collapsed.has(index)));
        twisty.setAttribute('aria-label', collapsed.has(index) ? say('expandNode', 'Expand') : say('collapseNode', 'Collapse'));
        twisty.textContent = collapsed.has(index) ? '▸' : '▾';
        what.appendChild(twisty);
      }
      const label = document.createElement('span');
      if (k === 'exercised') {
        label.appendChild(damlLink(choice, interfaceId || templateId, choice));
        label.appendChild(
          document.createTextNode(
            `${interfaceId ? ` (${say('viaInterface', 'via {0}', templateName(interfaceId))})` : ''}${consuming ? ` · ${say('consuming', 'consuming')}` : ''}`,
          ),
        );
      } else label.textContent = say(k, k);
      what.appendChild(label);
      tr.appendChild(what);
      cell(tr, '', templateId).appendChild(damlLink(templateName(templateId), templateId));
      tr.appendChild(contractLink(contractId, shortId(contractId)));
      cell(tr, parties.map(shortenPartyId).join(', '), parties.join('\n'));
      fragment.appendChild(tr);
    }
    tbody.appendChild(fragment);
    return true;
  };

  const refresh = () => {
    compute();
    tbody.textContent = '';
    rendered = 0;
    renderMore();
  };

  tbody.addEventListener('click', (event) => {
    const twisty = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-twisty]') : null;
    if (!twisty) return;
    const i = Number(twisty.dataset.twisty);
    if (collapsed.has(i)) collapsed.delete(i);
    else collapsed.add(i);
    saveTree();
    refresh();
    tbody.querySelector<HTMLElement>(`[data-twisty="${i}"]`)?.focus();
  });
  for (const b of document.querySelectorAll<HTMLElement>('[data-tree]')) {
    b.addEventListener('click', () => {
      collapsed.clear();
      if (b.dataset.tree === 'collapseAll') for (const n of nodes) if (n[3] > 0) collapsed.add(n[0]);
      saveTree();
      refresh();
    });
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    saveTree();
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  });
  pageOnScroll(document.getElementById('rows-sentinel')!, renderMore);
  refresh();
  // A lineage link: unfold the highlighted node's ancestors, then bring it into view.
  const wanted = tbody.getAttribute('data-highlight');
  const target = wanted === null ? undefined : nodes.find((n) => n[11] === Number(wanted));
  if (target) {
    for (let i = target[1]; i >= 0; i = nodes[i][1]) collapsed.delete(i);
    refresh();
    highlightRow(tbody, renderMore);
  }
  return renderMore;
}
