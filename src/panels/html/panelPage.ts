// The page around a panel body: strict CSP (scripts by nonce only, no inline handlers), theme
// colours from VS Code's CSS variables, the toolbar.
import { html, type SafeHtml } from './safeHtml';

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
}

/** The toolbar of a lookup panel. */
export function lookupActions(o: { canGoBack: boolean; canGoForward: boolean; hasResult: boolean }): ToolbarAction[] {
  return [
    { action: 'back', label: 'Back', enabled: o.canGoBack },
    { action: 'forward', label: 'Forward', enabled: o.canGoForward },
    { action: 'refresh', label: 'Refresh' },
    { action: 'openJson', label: 'Open as JSON', enabled: o.hasResult },
    { action: 'copyId', label: 'Copy Id' },
    { action: 'copyMarkdown', label: 'Copy as Markdown', enabled: o.hasResult },
    { action: 'allNodes', label: 'Look Up on All Nodes' },
  ];
}

export function contentSecurityPolicy(nonce: string, cspSource: string): string {
  return [`default-src 'none'`, `img-src ${cspSource} data:`, `style-src ${cspSource}`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`, `base-uri 'none'`, `form-action 'none'`].join('; ');
}

function button({ action, label, enabled = true }: ToolbarAction): SafeHtml {
  return html`<button data-action="${action}" title="${label}"${enabled ? '' : html` disabled`}>${label}</button>`;
}

export function renderPanelPage(o: PanelPageOptions): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(o.nonce, o.cspSource)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${o.styleUri}">
<title>${o.title}</title></head>
<body>
<nav class="toolbar" aria-label="Panel actions">
${o.actions.map(button)}
<span class="node" title="The ledger node">on <strong>${o.nodeName}</strong></span>
</nav>
<main id="content">${o.body}</main>
<script nonce="${o.nonce}" src="${o.scriptUri}"></script>
</body></html>`.text;
}

export function loadingBody(what: string, nodeName: string): SafeHtml {
  return html`<section class="loading" role="status" aria-live="polite"><p><span class="spinner" aria-hidden="true"></span> Looking up ${what} on ${nodeName}…</p><button data-action="cancel">Cancel</button></section>`;
}

export function errorBody(what: string, explanation: string, actions: { action: string; label: string }[]): SafeHtml {
  return html`<section class="error" role="alert"><h1>Could not look up ${what}</h1><p>${explanation}</p>
<p>${actions.map((a) => html`<button data-action="${a.action}">${a.label}</button> `)}</p></section>`;
}
