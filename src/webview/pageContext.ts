/// <reference lib="dom" />
// What every part of a panel's page shares: the webview API, typed messages to the extension,
// localized strings, and the page's remembered state (navigation from the extension, and what the
// person did on the page, kept across a refresh of the same view).
import type { PageMessage } from '../panels/panelMessages';

interface WebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): WebviewApi;

/** What the person did on the page: kept while the view (kind, id, node, shape) stays the same. */
export interface PageUi {
  filters?: { kind: string; template: string; party: string };
  treeSearch?: string;
  collapsed?: number[];
  details?: [string, number][];
  scrollY?: number;
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

const vscode: WebviewApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState: () => undefined, setState() {} };

export const post = (message: PageMessage): void => vscode.postMessage(message);

// Localized by the extension (pageStrings); English when absent.
const strings = JSON.parse(document.getElementById('page-strings')?.getAttribute('data-strings') ?? '{}') as Record<string, string>;
export const say = (key: string, english: string, ...args: (string | number)[]): string =>
  (strings[key] ?? english).replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));

const navigation = JSON.parse(document.getElementById('panel-state')?.getAttribute('data-state') ?? 'null') as Navigation | null;
const shown = navigation?.history?.[navigation.index];
const view = shown ? [shown.kind, shown.id, shown.node, shown.shape ?? ''].join('|') : '';
const previous = (vscode.getState() ?? {}) as { view?: string; ui?: PageUi };

/** The page's state: the extension's navigation (so the panel comes back after a reload) and the ui. */
export const ui: PageUi = previous.view === view && previous.ui ? previous.ui : {};

export function saveUi(): void {
  if (navigation) vscode.setState({ ...navigation, view, ui });
}

saveUi();
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('scroll', () => {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => {
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

/** Renders rows page by page as the sentinel comes into view. */
export function pageOnScroll(sentinel: Element, more: () => boolean): void {
  new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) more();
    },
    { rootMargin: '600px' },
  ).observe(sentinel);
}
