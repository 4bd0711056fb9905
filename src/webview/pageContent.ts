/// <reference lib="dom" />
// The page's content: started when the page loads and again after each content message (new HTML,
// toolbar and navigation from the extension, without reloading the page). An update of the same
// view gives back what the person did: filters, searches, folded and opened rows, open sections,
// the scroll position. A lookup under way (its loading body) stands in between without taking them;
// a refresh keeps the content on the page, busy, until the new content comes.
import { parseHostMessage, type ToolbarButton } from '../protocol/panelMessages';
import { setBusy } from './busyIndicator';
import { restoreView } from './eventDetails';
import { startEventTable, type RowsView } from './eventTable';
import { startExerciseTree } from './exerciseTreeView';
import { resizableTables } from './pageKit/columns';
import { moreButton } from './pageKit/menu';
import { currentView, isTransient, saveUi, say, setNavigation, stopPaging, ui } from './pageContext';

/**
 * The toolbar from the extension: the frequent actions as buttons, the rarer ones in the "More
 * actions" menu. Buttons are kept where their action stays (so is the focus); labels are text.
 */
function drawToolbar(actions: readonly ToolbarButton[]): void {
  const nav = document.querySelector('nav.toolbar');
  if (!nav) return;
  let menu = nav.querySelector<HTMLElement>('#more-menu');
  const rare = actions.filter((a) => a.more === true);
  if (!menu && rare.length > 0) {
    const wrap = document.createElement('span');
    wrap.className = 'more-actions';
    menu = document.createElement('div');
    menu.className = 'menu';
    menu.id = 'more-menu';
    menu.setAttribute('role', 'menu');
    menu.setAttribute('aria-label', say('moreActions', 'More actions'));
    menu.hidden = true;
    wrap.append(moreButton(menu.id), menu);
    nav.insertBefore(wrap, nav.querySelector(':scope > .node'));
  }
  menu?.closest('.more-actions')?.toggleAttribute('hidden', rare.length === 0);
  const old = new Map(
    Array.from(nav.querySelectorAll<HTMLButtonElement>(':scope > button[data-action], #more-menu > button[data-action]'), (b) => [b.dataset.action, b]),
  );
  const place = (into: Element, list: readonly ToolbarButton[], item: boolean) => {
    let at: Element | null = into.firstElementChild;
    for (const { action, label, enabled = true } of list) {
      let b = old.get(action);
      old.delete(action);
      if (!b) {
        b = document.createElement('button');
        b.dataset.action = action;
      }
      if (item) {
        b.setAttribute('role', 'menuitem');
        b.tabIndex = -1;
        b.removeAttribute('title');
      } else {
        b.removeAttribute('role');
        b.removeAttribute('tabindex');
        b.title = label;
      }
      b.textContent = label;
      b.disabled = !enabled;
      if (b === at) at = b.nextElementSibling;
      else into.insertBefore(b, at);
    }
  };
  place(
    nav,
    actions.filter((a) => a.more !== true),
    false,
  );
  if (menu) place(menu, rare, true);
  for (const b of old.values()) b.remove();
}

function showNode(name: string): void {
  const strong = document.querySelector('nav.toolbar .node strong');
  if (strong) strong.textContent = name;
  strong?.parentElement?.setAttribute('title', say('ledgerNode', 'The ledger node: {0}', name));
}

/** Search in a value tree: mark matching entries and open their ancestors. */
function searchTree(query: string): void {
  let hits = 0;
  for (const li of document.querySelectorAll('.value-tree li')) {
    // The entry's own key and value, not its nested children.
    const text = Array.from(li.children)
      .filter((c) => !c.matches('details'))
      .map((c) => `${c.textContent ?? ''} ${c.getAttribute('title') ?? ''}`)
      .join(' ')
      .toLowerCase();
    const hit = query !== '' && text.includes(query);
    li.classList.toggle('match', hit);
    if (!hit) continue;
    hits++;
    for (let d = li.closest('details'); d; d = d.parentElement ? d.parentElement.closest('details') : null) d.open = true;
  }
  document.querySelector('.value-tree li.match')?.scrollIntoView({ block: 'nearest' });
  const tools = document.querySelector('.tree-tools');
  if (!tools) return;
  let status = tools.querySelector('.search-status');
  if (!status) {
    status = document.createElement('span');
    status.className = 'search-status muted';
    status.setAttribute('aria-live', 'polite');
    tools.appendChild(status);
  }
  status.textContent = !query ? '' : hits === 1 ? say('oneMatch', '1 match') : say('matches', '{0} matches', hits);
}

// Listened to on the document: the search boxes come and go with the content.
let searchTimer: ReturnType<typeof setTimeout> | undefined;
document.addEventListener('input', (event) => {
  const input = event.target instanceof HTMLInputElement && event.target.matches('.tree-search') ? event.target : null;
  if (!input) return;
  ui.argumentSearch = input.value;
  saveUi();
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => searchTree(input.value.trim().toLowerCase()), 150);
});

/** The event table and exercise tree of the content, once it is on the page: what renders more of their rows. */
function startContent(): RowsView {
  stopPaging();
  const main = document.getElementById('content');
  if (main) resizableTables(main);
  const events = document.getElementById('event-data');
  if (events) return startEventTable(events);
  const tree = document.getElementById('tree-data');
  return tree ? startExerciseTree(tree) : { more: () => false, loaded: Promise.resolve() };
}

/**
 * What the DOM alone knows of the content being replaced: open sections and value-tree nodes, the
 * rows opened to their events (shown again at once, so that the scroll is restored over them; only
 * asked as the same identities: an event is never shown as another identity's), the scroll.
 */
interface Kept {
  view: string | undefined;
  openSections: string[];
  openValues: boolean[];
  detailRows: Map<string, HTMLTableRowElement>;
  seenBy: string | undefined;
  scrollY: number;
}
let kept: Kept | undefined;

function settle(rows: RowsView, scrollY: number | undefined, detailRows?: Map<string, HTMLTableRowElement>): void {
  const search = document.querySelector<HTMLInputElement>('.tree-search');
  if (search && ui.argumentSearch) {
    search.value = ui.argumentSearch;
    searchTree(ui.argumentSearch.trim().toLowerCase());
  }
  restoreView(rows.more, scrollY, detailRows);
  // Short of the scroll kept, the rows still loading: once they are in, unless the person scrolled meanwhile.
  if (typeof scrollY !== 'number' || window.scrollY >= scrollY - 1) return;
  const at = window.scrollY;
  void rows.loaded.then(() => {
    if (window.scrollY === at && !isTransient()) restoreView(rows.more, scrollY, detailRows);
  });
}

/** The opened rows' event rows, by the row's source and index. */
function openDetailRows(main: HTMLElement): Map<string, HTMLTableRowElement> {
  const rows = new Map<string, HTMLTableRowElement>();
  for (const tr of main.querySelectorAll<HTMLTableRowElement>('tr.detail-row:not([hidden])')) {
    const b = tr.previousElementSibling?.querySelector<HTMLButtonElement>('button[data-detail]');
    if (b) rows.set(`${b.dataset.detail}:${b.dataset.index}`, tr);
  }
  return rows;
}

/** Who the content on the page was asked as (the extension's opaque label), if it said. */
let shownSeenAs: string | undefined;

window.addEventListener('message', (event: MessageEvent) => {
  // Rows and answers are for the part of the page that asked (pageContext.ts), not checked twice.
  if ((event.data as { type?: unknown } | null)?.type === 'eventRows') return;
  const m = parseHostMessage(event.data);
  const main = document.getElementById('content');
  if (!main) return;
  if (m?.type === 'busy') return setBusy(m.busy, m.note);
  if (m?.type !== 'content') return;
  setBusy(false);
  if (!isTransient())
    kept = {
      view: currentView(),
      openSections: Array.from(main.querySelectorAll<HTMLDetailsElement>('details[id][open]'), (d) => d.id),
      openValues: Array.from(main.querySelectorAll<HTMLDetailsElement>('.value-tree details'), (d) => d.open),
      detailRows: openDetailRows(main),
      seenBy: shownSeenAs,
      scrollY: window.scrollY,
    };
  if (m.actions) drawToolbar(m.actions);
  if (m.node !== undefined) showNode(m.node);
  if (m.state !== undefined) setNavigation(m.state);
  shownSeenAs = m.seenAs;
  main.innerHTML = m.html;
  const more = startContent();
  if (isTransient()) return;
  const same = kept && kept.view === currentView() ? kept : undefined;
  if (!same) return settle(more, ui.scrollY);
  for (const id of same.openSections) main.querySelector<HTMLDetailsElement>(`details[id="${CSS.escape(id)}"]`)?.setAttribute('open', '');
  const values = main.querySelectorAll<HTMLDetailsElement>('.value-tree details');
  // The same tree (an argument that did not change): each node as the person left it.
  if (values.length === same.openValues.length) values.forEach((d, i) => (d.open = same.openValues[i]));
  ui.scrollY = same.scrollY;
  saveUi();
  settle(more, same.scrollY, same.seenBy !== undefined && same.seenBy !== '' && same.seenBy === m.seenAs ? same.detailRows : undefined);
});

/** The content the page was loaded with. */
export function startPage(): void {
  const more = startContent();
  if (!isTransient()) settle(more, ui.scrollY);
}
