/// <reference lib="dom" />
// The page script of Canton Lens panels, bundled by esbuild into media/panel.js and loaded by
// nonce under a strict CSP. It builds every ledger string as a text node (the exceptions, the
// content and an event's details, are rendered and escaped by the extension like the page itself)
// and talks to the extension with the typed messages of src/protocol/panelMessages.ts. Here: what a
// click does; pageContent.ts starts the content and takes the new content the extension sends.
import { parsePageMessage } from '../protocol/panelMessages';
import { toggleDetail } from './eventDetails';
import { startMenus } from './pageKit/menu';
import { startPage } from './pageContent';
import { post } from './pageContext';

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

startMenus();
startPage();
post({ type: 'ready' });
