/// <reference lib="dom" />
// The page script of Canton Lens panels, bundled by esbuild into media/panel.js and loaded by
// nonce under a strict CSP. It builds every ledger string as a text node (the one exception, an
// event's details, is rendered and escaped by the extension like the page itself) and talks to the
// extension with the typed messages of src/panels/panelMessages.ts.
import { parseHostMessage, parsePageMessage } from '../panels/panelMessages';
import { toggleDetail } from './eventDetails';
import { startEventTable } from './eventTable';
import { startExerciseTree } from './exerciseTreeView';
import { post, say } from './pageContext';

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  const link = target.closest<HTMLElement>('[data-open-id]');
  if (link) {
    event.preventDefault();
    post({
      type: 'openId',
      id: link.dataset.openId ?? '',
      kind: link.dataset.kind,
      node: link.dataset.node || undefined,
      ...(link.dataset.asParty ? { asParty: link.dataset.asParty } : {}),
    });
    return;
  }
  // A template, interface or choice name: its definition in the workspace's Daml source.
  const damlName = target.closest<HTMLElement>('[data-daml-template]');
  if (damlName) {
    event.preventDefault();
    post({
      type: 'openDaml',
      templateId: damlName.dataset.damlTemplate ?? '',
      choice: damlName.dataset.damlChoice || undefined,
      packageName: damlName.dataset.damlPackage || undefined,
    });
    return;
  }
  const tokenFor = target.closest<HTMLElement>('[data-set-token-for]');
  if (tokenFor) {
    post({ type: 'setTokenFor', node: tokenFor.dataset.setTokenFor ?? '' });
    return;
  }
  const copy = target.closest<HTMLElement>('[data-copy]');
  if (copy) {
    post({ type: 'copy', text: copy.dataset.copy ?? '' });
    return;
  }
  if (target.closest('[data-copy-json]')) {
    post({ type: 'copyArgument' });
    return;
  }
  const offsetLink = target.closest<HTMLElement>('[data-open-offset]');
  if (offsetLink) {
    event.preventDefault();
    const message = parsePageMessage({
      type: 'openOffset',
      offset: Number(offsetLink.dataset.openOffset),
      nodeId: Number(offsetLink.dataset.nodeId),
      shape: offsetLink.dataset.shape || undefined,
    });
    if (message) post(message);
    return;
  }
  const view = target.closest<HTMLElement>('[data-view-key]');
  if (view) {
    const message = parsePageMessage({ type: 'setView', key: view.dataset.viewKey, value: view.dataset.viewValue ?? '' });
    if (message) post(message);
    return;
  }
  const detail = target.closest<HTMLButtonElement>('button[data-detail]');
  if (detail) {
    toggleDetail(detail);
    return;
  }
  const action = target.closest<HTMLButtonElement>('[data-action]');
  if (!action || action.disabled) return;
  const name = action.dataset.action;
  if (name === 'expandAll' || name === 'collapseAll') {
    for (const d of document.querySelectorAll<HTMLDetailsElement>('.value-tree details')) d.open = name === 'expandAll';
    return;
  }
  // Only the messages the extension knows are sent (an unknown action is a page bug, not a message).
  const message = parsePageMessage(action.dataset.shape ? { type: name, shape: action.dataset.shape } : { type: name });
  if (message) post(message);
});

// Search in a value tree: mark matching entries and open their ancestors.
for (const input of document.querySelectorAll<HTMLInputElement>('.tree-search')) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => searchTree(input.value.trim().toLowerCase()), 150);
  });
}

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

/** The event table and exercise tree of the content, once it is on the page. */
function startContent(): void {
  const events = document.getElementById('event-data');
  if (events) startEventTable(events);
  const tree = document.getElementById('tree-data');
  if (tree) startExerciseTree(tree);
}
startContent();

// New content of a panel that keeps its page (HtmlPanelHost): rendered and escaped by the extension.
window.addEventListener('message', (event: MessageEvent) => {
  const m = parseHostMessage(event.data);
  const main = document.getElementById('content');
  if (m?.type !== 'content' || !main) return;
  const open = new Set(Array.from(main.querySelectorAll<HTMLDetailsElement>('details[id][open]'), (d) => d.id));
  main.innerHTML = m.html;
  // Sections the person opened stay open.
  for (const id of open) main.querySelector<HTMLDetailsElement>(`details[id="${CSS.escape(id)}"]`)?.setAttribute('open', '');
  startContent();
});

post({ type: 'ready' });
