// The pages of the Active Contracts table and Follow Updates: a strict CSP with a nonce,
// a toolbar, and an empty table the page script fills from messages (rows are ledger data: they
// only ever become text nodes there). Pure: tested without VS Code.
import * as l10n from '../../l10n/l10n';
import { columnStrings } from './dataTable';
import { contentSecurityPolicy, menuItem, moreMenu, nodeLabel } from './panelPage';
import { html, type SafeHtml } from './safeHtml';

export interface BrowsePageOptions {
  nonce: string;
  cspSource: string;
  /** The page script (media/acs.js or media/updates.js, built from src/webview/). */
  scriptUris: string[];
  styleUris: string[];
  title: string;
  nodeName: string;
  /** What the panel reads as (parties, templates), in words. */
  scope: string;
}

// Each column's first width, in ch: enough for the head of what it holds (a shortened id, a time
// to the second, a short party id; ids are in the wider editor font); wider than the panel, the
// table scrolls sideways.
/** Contract id, template, created at, signatories, observers, key, three fields. */
export const ACS_WIDTHS = [20, 20, 22, 20, 16, 10, 14, 14, 14];
/** Offset, time, update id, command id, workflow id, events, templates, choices. */
export const TAIL_WIDTHS = [9, 14, 20, 18, 14, 18, 20, 14];

function page(o: BrowsePageOptions, strings: Record<string, string>, body: SafeHtml): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(o.nonce, o.cspSource)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${o.styleUris.map((u) => html`<link rel="stylesheet" href="${u}">`)}
<title>${o.title}</title></head>
<body class="browse">
${body}
<div hidden id="page-strings" data-strings="${JSON.stringify(strings)}"></div>
${o.scriptUris.map((u) => html`<script nonce="${o.nonce}" src="${u}"></script>`)}
</body></html>`.text;
}

export function acsPageStrings(): Record<string, string> {
  return {
    contracts: l10n.t('{0} contracts', '{0}'),
    matching: l10n.t('{0} of {1} contracts match', '{0}'),
    activeAt: l10n.t('active at offset {0}', '{0}'),
    loading: l10n.t('Loading… {0} contracts so far', '{0}'),
    searching: l10n.t('Searching… {0} of {1} contracts', '{0}'),
    done: l10n.t('All loaded.'),
    cancelled: l10n.t('Stopped: the table shows what had arrived.'),
    openContract: l10n.t('Open contract {0}', '{0}'),
    field: l10n.t('Field {0}', '{0}'),
    openDaml: l10n.t('{0}: open its Daml definition', '{0}'),
    moreActions: l10n.t('More actions'),
    ...columnStrings(),
  };
}

export function acsPageHtml(o: BrowsePageOptions): string {
  return page(
    o,
    acsPageStrings(),
    html`<nav class="toolbar" aria-label="${l10n.t('Panel actions')}">
<input id="search" type="search" placeholder="${l10n.t('Search the arguments, ids, templates')}" aria-label="${l10n.t('Search the arguments, ids, templates')}">
<select id="sort" aria-label="${l10n.t('Sort by creation time')}" title="${l10n.t('Sort by creation time')}">
<option value="">${l10n.t('as the node sent them')}</option>
<option value="desc">${l10n.t('created: newest first')}</option>
<option value="asc">${l10n.t('created: oldest first')}</option>
</select>
<button data-action="refresh" title="${l10n.t('Read the active contracts again at the current ledger end')}">${l10n.t('Refresh')}</button>
<button data-action="cancel" id="cancel" title="${l10n.t('Stop reading pages')}">${l10n.t('Cancel')}</button>
${moreMenu([
  menuItem(
    { action: 'filterPayload', label: l10n.t('Filter on Payload Fields…') },
    html`title="${l10n.t('Keep the rows whose create argument matches, such as amount > 100 and owner = Alice')}"`,
  ),
  // Archived or all contracts in a range open What Changed for this table's scope; the table stays.
  menuItem(
    { action: 'showInactive', label: l10n.t('Show Archived in a Range…') },
    html`title="${l10n.t('The contracts archived between two offsets, in What Changed')}"`,
  ),
  menuItem(
    { action: 'showAllInRange', label: l10n.t('Show All in a Range…') },
    html`title="${l10n.t('The contracts created or archived between two offsets, in What Changed')}"`,
  ),
])}
${nodeLabel(o.nodeName)}
</nav>
<header class="browse-head"><h1>${o.title}</h1><p id="scope" class="muted">${o.scope}</p>
<p id="status" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> ${l10n.t('Reading the first page…')}</p>
<p id="notice" class="notice" hidden></p></header>
<div id="table" class="vtable" tabindex="0" role="grid" aria-label="${l10n.t('Active contracts')}" data-kind="acs" data-widths="${JSON.stringify(ACS_WIDTHS)}"
 data-columns="${JSON.stringify([l10n.t('Contract id'), l10n.t('Template'), l10n.t('Created at'), l10n.t('Signatories'), l10n.t('Observers'), l10n.t('Key'), l10n.t('Field 1'), l10n.t('Field 2'), l10n.t('Field 3')])}"></div>`,
  );
}

export function updatesPageStrings(): Record<string, string> {
  return {
    following: l10n.t('Following from offset {0}', '{0}'),
    paused: l10n.t('Paused at offset {0}', '{0}'),
    reconnecting: l10n.t('Reconnecting (attempt {0}): {1}', '{0}'),
    stopped: l10n.t('Stopped at offset {0}', '{0}'),
    shown: l10n.t('{0} updates shown', '{0}'),
    shownOne: l10n.t('1 update shown'),
    dropped: l10n.t('{0} older dropped', '{0}'),
    matching: l10n.t('{0} of {1} match', '{0}'),
    openUpdate: l10n.t('Open transaction {0}', '{0}'),
    pause: l10n.t('Pause'),
    resume: l10n.t('Resume'),
    moreActions: l10n.t('More actions'),
    ...columnStrings(),
  };
}

export function updatesPageHtml(o: BrowsePageOptions & { start: string }): string {
  return page(
    o,
    updatesPageStrings(),
    html`<nav class="toolbar" aria-label="${l10n.t('Panel actions')}">
<button data-action="pause" id="pause" title="${l10n.t('Stop asking the node; Resume goes on from the last offset shown')}">${l10n.t('Pause')}</button>
<label>${l10n.t('Start at')} <input id="start" size="12" value="${o.start}" placeholder="${l10n.t('ledger end')}" aria-label="${l10n.t('Start offset: empty for the ledger end')}"></label>
<button data-action="restart" title="${l10n.t('Clear the table and follow from the start offset')}">${l10n.t('Restart')}</button>
<input id="filter-party" type="search" placeholder="${l10n.t('Party')}" aria-label="${l10n.t('Filter by party')}">
<input id="filter-template" type="search" placeholder="${l10n.t('Template or choice')}" aria-label="${l10n.t('Filter by template or choice')}">
${nodeLabel(o.nodeName)}
</nav>
<header class="browse-head"><h1>${o.title}</h1><p id="scope" class="muted">${o.scope}</p>
<p id="status" role="status" aria-live="polite">${l10n.t('Starting…')}</p>
<p id="counts" class="muted"></p>
<p id="notice" class="notice" hidden></p><p id="offer" hidden></p></header>
<div id="table" class="vtable" tabindex="0" role="grid" aria-label="${l10n.t('Updates, newest first')}" data-node="${o.nodeName}" data-kind="tail" data-widths="${JSON.stringify(TAIL_WIDTHS)}"
 data-columns="${JSON.stringify([l10n.t('Offset'), l10n.t('Time'), l10n.t('Update id'), l10n.t('Command id'), l10n.t('Workflow id'), l10n.t('Events'), l10n.t('Templates'), l10n.t('Choices')])}"></div>`,
  );
}
