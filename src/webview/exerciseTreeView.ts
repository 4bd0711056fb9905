/// <reference lib="dom" />
// The exercise tree of ledger effects: rows in node order, indented by depth; an exercise's nodes
// fold under it; search keeps the ancestors of what matches. The first rows come with the content,
// the rest are asked of the extension after the first paint (as the event table's): search and
// folding cover the rows in so far, and the status says the tree is still loading. Rendered page
// by page.
import { shortenPartyId, shortId } from '../ids/ledgerIds';
import { templateName } from '../ids/templateNames';
import { isPackedTreeRows, unpackTreeRows, type PackedTreeRows, type TreeRow } from '../protocol/transactionRows';
import { detailButton, highlightRow } from './eventDetails';
import { FIRST_PAGE, type RowsView } from './eventTable';
import { cell, contractLink, damlLink, loadRows, pageOnScroll, saveUi, say, ui } from './pageContext';
import { num } from './pageKit/page';

const PAGE = 500;
const NONE: PackedTreeRows = { words: [], hexIds: false, rows: [], from: 0, total: 0 };

/** Starts the rows of the content's tree, and the loading of those it did not carry. */
export function startExerciseTree(data: HTMLElement): RowsView {
  const sent: unknown = JSON.parse(data.textContent || 'null');
  const first = isPackedTreeRows(sent) && sent.from === 0 ? sent : NONE;
  const total = first.total;
  const nodes = unpackTreeRows(first);
  const tbody = document.getElementById('tree-rows')!;
  const search = document.getElementById('tree-search') as HTMLInputElement;
  const status = document.getElementById('filter-status')!;
  const collapsed = new Set((ui.collapsed ?? []).filter((i) => Number.isInteger(i)));
  /** Collapse all was the last of Expand all and Collapse all: the nodes that arrive fold too. */
  let allFolded = ui.allCollapsed === true;
  if (typeof ui.treeSearch === 'string') search.value = ui.treeSearch;
  const saveTree = () => {
    ui.collapsed = [...collapsed];
    ui.allCollapsed = allFolded;
    ui.treeSearch = search.value;
    saveUi();
  };
  const text = (n: TreeRow) => `${n[6]} ${templateName(n[5])} ${n[7]} ${n[8].join(' ')} ${n[10]}`.toLowerCase();
  let visible: TreeRow[] = [];
  let matches = 0;
  /** Without a search: the next node the fold walk looks at (past the rows in when a folded node's nodes are still to come). */
  let walked = 0;
  let rendered = 0;

  const showStatus = () => {
    const loading = nodes.length < total;
    if (search.value.trim())
      status.textContent = loading
        ? say('nodesMatchLoading', '{0} nodes match so far (loading: {1} of {2})', num(matches), num(nodes.length), num(total))
        : say('nodesMatch', '{0} of {1} nodes match', num(matches), num(total));
    else status.textContent = loading ? say('nodesLoading', 'Loading nodes: {0} of {1}', num(nodes.length), num(total)) : '';
  };

  /** The rows to show of those in: all of them computed again with a search; without, the fold walk goes on over those that came. */
  const compute = (from: 'start' | 'arrived') => {
    const q = search.value.trim().toLowerCase();
    if (q) {
      // Matches and their ancestors, whatever is folded (a parent comes before its nodes).
      const keep = new Set<number>();
      const found = nodes.filter((n) => text(n).includes(q));
      for (const n of found) for (let i = n[0]; i >= 0 && !keep.has(i); i = nodes[i][1]) keep.add(i);
      visible = nodes.filter((n) => keep.has(n[0]));
      matches = found.length;
      return;
    }
    if (from === 'start') {
      visible = [];
      walked = 0;
    }
    for (; walked < nodes.length; walked++) {
      visible.push(nodes[walked]);
      if (collapsed.has(walked)) walked += nodes[walked][3];
    }
  };

  const renderMore = (count = PAGE): boolean => {
    if (rendered >= visible.length) return false;
    const fragment = document.createDocumentFragment();
    const end = Math.min(visible.length, rendered + count);
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
    compute('start');
    tbody.textContent = '';
    rendered = 0;
    renderMore(FIRST_PAGE);
    showStatus();
  };

  /** A lineage link's node: its ancestors unfold, and it is brought into view (false: not among the rows in). */
  const wanted = tbody.getAttribute('data-highlight');
  const highlight = (): boolean => {
    const target = nodes.find((n) => n[11] === Number(wanted));
    if (!target) return false;
    for (let i = target[1]; i >= 0; i = nodes[i][1]) collapsed.delete(i);
    refresh();
    highlightRow(tbody, () => renderMore());
    return true;
  };
  let highlightPending = wanted !== null;

  const arrived = (packed: PackedTreeRows) => {
    const added = unpackTreeRows(packed);
    if (allFolded) for (const n of added) if (n[3] > 0) collapsed.add(n[0]);
    nodes.push(...added);
    if (highlightPending) {
      highlightPending = !highlight();
      if (!highlightPending) return;
    }
    const allRendered = rendered >= visible.length;
    const before = visible;
    compute('arrived');
    // A search's rows are computed again: an ancestor in may now show before the rows rendered.
    if (visible !== before && visible.slice(0, rendered).some((n, i) => n !== before[i])) {
      const keep = rendered;
      tbody.textContent = '';
      rendered = 0;
      renderMore(Math.max(keep, FIRST_PAGE));
    } else if (allRendered && endInView()) renderMore();
    showStatus();
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
      allFolded = b.dataset.tree === 'collapseAll';
      if (allFolded) for (const n of nodes) if (n[3] > 0) collapsed.add(n[0]);
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
  const endInView = pageOnScroll(document.getElementById('rows-sentinel')!, () => renderMore());
  refresh();
  if (highlightPending) highlightPending = !highlight();
  // After the first paint: the rows on screen first, then the rest.
  const loaded = loadRows('tree', nodes.length, total, () => tbody.isConnected, arrived);
  return { more: () => renderMore(), loaded };
}
