/// <reference lib="dom" />
// What every part of a panel's page shares: the webview API, typed messages to the extension and
// requests it answers, localized strings, and the page's remembered state (the extension's
// navigation, and what the person did on the page, kept while the view stays the same).
import { parseHostMessage, type EventRowsAnswer, type PageMessage, type PageRequest } from '../protocol/panelMessages';
import type { PackedRowsOf, RowSource } from '../protocol/transactionRows';
import { api as vscode, keptState, saveState, say } from './pageKit/page';

export { say };

/** What the person did on the page: kept while the view (kind, id, node, shape) stays the same. */
export interface PageUi {
  filters?: { kind: string; template: string; party: string };
  treeSearch?: string;
  collapsed?: number[];
  /** Collapse all was pressed last (of it and Expand all): nodes still to come fold too. */
  allCollapsed?: boolean;
  details?: [string, number][];
  scrollY?: number;
  /** The search in a contract's create argument. */
  argumentSearch?: string;
}

interface Target {
  kind: string;
  id: string;
  node: string;
  shape?: string;
}
interface Navigation {
  history: Target[];
  index: number;
}

export const post = (message: PageMessage): void => vscode.postMessage(message);

// Answers come back by request id to whoever asked (a row that asked may be gone by then: it checks).
const waiting = new Map<number, (html: string | undefined) => void>();
let lastRequest = 0;

/** Asks the extension; resolves with its answer's HTML (undefined: nothing to show). */
export function ask(request: Omit<PageRequest, 'requestId'>): Promise<string | undefined> {
  const requestId = ++lastRequest;
  return new Promise((resolve) => {
    waiting.set(requestId, resolve);
    post({ ...request, requestId });
  });
}

const waitingRows = new Map<number, (answer: EventRowsAnswer) => void>();

/** Asks the extension for the rows of `source` of the transaction shown from `from` on (undefined: none to give). */
export function askRows<S extends RowSource>(source: S, from: number): Promise<PackedRowsOf[S] | undefined> {
  const requestId = ++lastRequest;
  return new Promise((resolve) => {
    waitingRows.set(requestId, (answer) => resolve(answer.source === source ? (answer.rows as PackedRowsOf[S] | undefined) : undefined));
    post({ type: 'eventRows', requestId, source, from });
  });
}

/**
 * Loads the rows of `source` that the content did not carry (it had `have` of `total`), from the
 * frame after the first paint (taking in the first chunk must not hold the paint up): a chunk at a
 * time, the next asked as one comes, before `arrived` takes it in. Stops when `shown` says its
 * table is gone or an answer is not the rest of these rows (the extension shows another answer:
 * new content is on its way). Resolves once every row is in.
 */
export function loadRows<S extends RowSource>(
  source: S,
  have: number,
  total: number,
  shown: () => boolean,
  arrived: (packed: PackedRowsOf[S]) => void,
): Promise<void> {
  return new Promise((finished) => {
    if (have >= total) return finished();
    const askFrom = (from: number) =>
      void askRows(source, from).then((packed) => {
        if (!shown() || !packed || packed.total !== total || packed.from !== from || packed.rows.length === 0) return;
        const next = from + packed.rows.length;
        if (next < total) askFrom(next);
        arrived(packed);
        if (next >= total) finished();
      });
    const start = () => askFrom(have);
    if (document.visibilityState === 'hidden') setTimeout(start, 0);
    else requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
  });
}

window.addEventListener('message', (event: MessageEvent) => {
  const m = parseHostMessage(event.data);
  if (m?.type === 'answer') {
    waiting.get(m.requestId)?.(m.html);
    waiting.delete(m.requestId);
  } else if (m?.type === 'eventRows') {
    waitingRows.get(m.requestId)?.(m);
    waitingRows.delete(m.requestId);
  }
});

const isTarget = (t: unknown): t is Target =>
  typeof t === 'object' &&
  t !== null &&
  typeof (t as Target).kind === 'string' &&
  typeof (t as Target).id === 'string' &&
  typeof (t as Target).node === 'string';
const isNavigation = (n: unknown): n is Navigation =>
  typeof n === 'object' && n !== null && Array.isArray((n as Navigation).history) && isTarget((n as Navigation).history[(n as Navigation).index]);
const place = (t: Target) => [t.kind, t.id, t.node].join('|');
const viewOf = (t: Target) => `${place(t)}|${t.shape ?? ''}`;

/** What the page kept before it was (re)loaded: the last view and what was done on it. */
const saved = { ...keptState() } as { view?: string; ui?: PageUi };
let navigation: Navigation | undefined;
let shown: Target | undefined;

/** What the person did on the page, for the view shown (filled when the navigation comes). */
export const ui: PageUi = {};

/** The view shown (kind, id, node, shape), if the extension said. */
export const currentView = (): string | undefined => (shown ? viewOf(shown) : undefined);

export function saveUi(): void {
  if (navigation) saveState({ ...navigation, view: currentView(), ui });
}

/**
 * The extension's navigation (kept with setState, so that the panel comes back after a reload).
 * Another view starts afresh, but for the first after a reload, which is what was saved; a shape
 * switch of the same transaction keeps the searches and filters (each applies to its shape).
 */
export function setNavigation(next: unknown): void {
  if (!isNavigation(next)) return;
  const target = next.history[next.index];
  if (!shown || viewOf(shown) !== viewOf(target)) {
    const kept: PageUi =
      !shown && saved.view === viewOf(target) && saved.ui
        ? saved.ui
        : shown && place(shown) === place(target)
          ? { filters: ui.filters, treeSearch: ui.treeSearch }
          : {};
    for (const key of Object.keys(ui) as (keyof PageUi)[]) delete ui[key];
    Object.assign(ui, kept);
    shown = target;
  }
  navigation = next;
  saveUi();
}

// The navigation of a page rendered with it (pages that are not sent their content).
setNavigation(JSON.parse(document.getElementById('panel-state')?.getAttribute('data-state') ?? 'null'));

/** A lookup under way: its page stands in for the view for a moment, and the scroll it causes is not the person's. */
export const isTransient = (): boolean => document.querySelector('#content > .loading') !== null;

let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('scroll', () => {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => {
    if (isTransient()) return;
    ui.scrollY = window.scrollY;
    saveUi();
  }, 200);
});

/** A table cell holding text (ledger strings are never markup). */
export function cell(tr: HTMLTableRowElement, text: string, title?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (title) td.title = title;
  tr.appendChild(td);
  return td;
}

/** A name that opens its Daml definition; the text stays a text node. */
export function damlLink(text: string, templateId: string, choice?: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = '#';
  a.className = 'daml-link';
  a.dataset.damlTemplate = templateId;
  if (choice) a.dataset.damlChoice = choice;
  a.title = choice
    ? say('openDamlChoice', '{0}: open the Daml definition of choice {1}', templateId, choice)
    : say('openDaml', '{0}: open its Daml definition', templateId);
  a.textContent = text;
  return a;
}

/** A link that opens a contract's panel. */
export function contractLink(contractId: string, short: string): HTMLTableCellElement {
  const td = document.createElement('td');
  const a = document.createElement('a');
  a.href = '#';
  a.className = 'id-link';
  a.dataset.openId = contractId;
  a.dataset.kind = 'contract';
  a.title = say('openContract', 'Open contract {0}', contractId);
  const code = document.createElement('code');
  code.textContent = short;
  a.appendChild(code);
  td.appendChild(a);
  return td;
}

const observers: IntersectionObserver[] = [];

/**
 * Renders rows page by page as the sentinel comes into view; returns whether it was in view when
 * last seen (read without a layout: rows that arrive later render at once if it is).
 */
export function pageOnScroll(sentinel: Element, more: () => boolean): () => boolean {
  let inView = false;
  const observer = new IntersectionObserver(
    (entries) => {
      inView = entries[entries.length - 1].isIntersecting;
      if (inView) more();
    },
    { rootMargin: '600px' },
  );
  observer.observe(sentinel);
  observers.push(observer);
  return () => inView;
}

/** The content is replaced: its rows render no more. */
export function stopPaging(): void {
  for (const o of observers.splice(0)) o.disconnect();
}
