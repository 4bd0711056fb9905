// The page around a panel body: strict CSP (scripts by nonce only, no inline handlers), theme
// colours from VS Code's CSS variables, the toolbar.
import { columnStrings } from './dataTable';
import { html, tHtml, type SafeHtml } from './safeHtml';
import type { LedgerLookup } from '../../lookups/ledgerLookups';
import * as l10n from '../../l10n/l10n';

export interface PanelPageOptions {
  nonce: string;
  /** The webview's `cspSource`: where the script and stylesheet come from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  nodeName: string;
  /** The toolbar buttons, in order. */
  actions: ToolbarAction[];
  body: SafeHtml;
}

export interface ToolbarAction {
  action: string;
  label: string;
  enabled?: boolean;
  /** A rarer action: in the toolbar's "More actions" menu, so that the toolbar stays one row in half an editor. */
  more?: boolean;
}

/** What a lookup found, for its toolbar: a transaction, a contract, or neither. */
export function foundKindOf(r: LedgerLookup | undefined): 'transaction' | 'contract' | undefined {
  return r?.found ? (r.kind === 'contract' ? 'contract' : r.update === 'transaction' ? 'transaction' : undefined) : undefined;
}

/**
 * The toolbar of a lookup panel. `found`: what the lookup found, which adds its own actions (a
 * transaction: Debug Transaction; a contract: Compare With…).
 */
export function lookupActions(o: { canGoBack: boolean; canGoForward: boolean; hasResult: boolean; found?: 'transaction' | 'contract' }): ToolbarAction[] {
  const debug: ToolbarAction[] =
    o.found === 'transaction'
      ? [{ action: 'debug', label: l10n.t('Debug Transaction') }]
      : o.found === 'contract'
        ? [
            { action: 'compare', label: l10n.t('Compare With…') },
            { action: 'exercise', label: l10n.t('Exercise…') },
            { action: 'addDisclosed', label: l10n.t('Add as Disclosed Contract'), more: true },
          ]
        : [];
  return [
    { action: 'back', label: l10n.t('Back'), enabled: o.canGoBack },
    { action: 'forward', label: l10n.t('Forward'), enabled: o.canGoForward },
    { action: 'refresh', label: l10n.t('Refresh') },
    { action: 'copyId', label: l10n.t('Copy Id') },
    ...debug,
    { action: 'openJson', label: l10n.t('Open as JSON'), enabled: o.hasResult, more: true },
    { action: 'copyMarkdown', label: l10n.t('Copy as Markdown'), enabled: o.hasResult, more: true },
    { action: 'copyCurl', label: l10n.t('Copy as cURL'), enabled: o.hasResult, more: true },
    { action: 'allNodes', label: l10n.t('Look Up on All Nodes'), more: true },
  ];
}

/** The few strings the page script writes itself (media/panel.js), localized here; {0} stays. */
export function pageStrings(): Record<string, string> {
  const keep = (message: string, n = 1) => l10n.t(message, ...Array.from({ length: n }, (_, i) => `{${i}}`));
  return {
    oneMatch: l10n.t('1 match'),
    matches: keep('{0} matches'),
    openContract: keep('Open contract {0}'),
    eventsMatch: keep('{0} of {1} events match', 2),
    eventsMatchLoading: keep('{0} events match so far (loading: {1} of {2})', 3),
    eventsLoading: keep('Loading events: {0} of {1}', 2),
    created: l10n.t('created'),
    archived: l10n.t('archived'),
    exercised: l10n.t('exercised'),
    showEvent: l10n.t('Show the whole event'),
    nodesMatch: keep('{0} of {1} nodes match', 2),
    nodesMatchLoading: keep('{0} nodes match so far (loading: {1} of {2})', 3),
    nodesLoading: keep('Loading nodes: {0} of {1}', 2),
    expandNode: l10n.t('Expand'),
    collapseNode: l10n.t('Collapse'),
    viaInterface: keep('via {0}'),
    consuming: l10n.t('consuming'),
    openDaml: keep('{0}: open its Daml definition'),
    openDamlChoice: keep('{0}: open the Daml definition of choice {1}', 2),
    refreshing: l10n.t('Refreshing…'),
    cancel: l10n.t('Cancel'),
    cancelRefresh: l10n.t('Cancel the refresh and keep what is shown'),
    dismiss: l10n.t('Dismiss'),
    moreActions: l10n.t('More actions'),
    ledgerNode: l10n.t('The ledger node: {0}', '{0}'),
    ...columnStrings(),
  };
}

export function contentSecurityPolicy(nonce: string, cspSource: string): string {
  return [
    `default-src 'none'`,
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

function button({ action, label, enabled = true }: ToolbarAction): SafeHtml {
  return html`<button data-action="${action}" title="${label}"${enabled ? '' : html` disabled`}>${label}</button>`;
}

/** The toolbar's "More actions" button and its menu of `items` (src/webview/pageKit/menu.ts opens it). */
export function moreMenu(items: readonly SafeHtml[]): SafeHtml {
  const more = l10n.t('More actions');
  return html`<span class="more-actions"><button class="more-button" id="more-actions" title="${more}" aria-label="${more}" aria-haspopup="menu" aria-expanded="false" aria-controls="more-menu">&hellip;</button><div class="menu" id="more-menu" role="menu" aria-label="${more}" hidden>${items}</div></span>`;
}

/** An entry of the "More actions" menu: a button the page's click handler reads as any other. */
export function menuItem({ action, label, enabled = true }: ToolbarAction, extra?: SafeHtml): SafeHtml {
  return html`<button role="menuitem" tabindex="-1" data-action="${action}"${extra ? html` ${extra}` : ''}${enabled ? '' : html` disabled`}>${label}</button>`;
}

/** The toolbar's node: its name may be cut at the toolbar's end, so the whole of it is on hover. */
export function nodeLabel(nodeName: string): SafeHtml {
  return html`<span class="node" title="${l10n.t('The ledger node: {0}', nodeName)}">${tHtml('on {0}', html`<strong>${nodeName}</strong>`)}</span>`;
}

/** The frequent actions as buttons, the rarer ones (`more`) in the menu. */
export function toolbarActions(actions: readonly ToolbarAction[]): SafeHtml {
  const rare = actions.filter((a) => a.more);
  return html`${actions.filter((a) => !a.more).map(button)}${rare.length > 0 ? moreMenu(rare.map((a) => menuItem(a))) : ''}`;
}

export function renderPanelPage(o: PanelPageOptions): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(o.nonce, o.cspSource)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${o.styleUri}">
<title>${o.title}</title></head>
<body>
<nav class="toolbar" aria-label="${l10n.t('Panel actions')}">
${toolbarActions(o.actions)}
${nodeLabel(o.nodeName)}
</nav>
<main id="content">${o.body}</main>
<div hidden id="page-strings" data-strings="${JSON.stringify(pageStrings())}"></div>
<script nonce="${o.nonce}" src="${o.scriptUri}"></script>
</body></html>`.text;
}

export function loadingBody(what: string, nodeName: string): SafeHtml {
  return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> ${l10n.t('Looking up {0} on {1}…', what, nodeName)}</p><button data-action="cancel">${l10n.t('Cancel')}</button></section>`;
}

/** A failed lookup: what to do, and (`details`) everything the node said, as every panel shows it. */
export function errorBody(what: string, explanation: string, actions: { action: string; label: string }[], details?: SafeHtml): SafeHtml {
  return html`<section class="error" role="alert"><h1>${l10n.t('Could not look up {0}', what)}</h1><p>${explanation}</p>
<p>${actions.map((a) => html`<button data-action="${a.action}">${a.label}</button> `)}</p>${details ?? ''}</section>`;
}
