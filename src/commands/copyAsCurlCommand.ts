// Canton: Copy as cURL. From a panel (its toolbar), a request picked from the log, or a request
// named by id: the exact request as a shell command, the token left to the shell as `$TOKEN`.
import * as vscode from 'vscode';
import { curlCommand, requestUrl, type CurlRequest } from '../ledger/curlCommand';
import type { RecordedRequest } from '../ledger/httpRequestLog';
import type { LedgerLookup } from '../lookups/ledgerLookups';
import { lookupRequest } from '../lookups/lookupRequest';
import type { LookupPanels } from '../panels/lookupPanels';
import type { ExtensionLog } from '../services/extensionLog';
import type { NodeReader } from '../services/ledgerNodes';
import type { TokenStore } from '../services/tokenStore';
import type { CommandRegistrar } from './commandRegistrar';
import { COMMAND } from '../ids/commandIds';

/** What the command copies: a panel's lookup on a node, or a logged request by id. */
export type CopyAsCurlArgument = { lookup: LedgerLookup; node: string } | { requestId: number };

export interface CopyAsCurlDeps {
  readonly nodes: NodeReader;
  readonly tokens: TokenStore;
  readonly log: ExtensionLog;
  readonly panels: LookupPanels;
}

export function registerCopyAsCurlCommand(deps: CopyAsCurlDeps, register: CommandRegistrar): void {
  const { nodes, tokens, log, panels } = deps;
  /** Every stored secret of every node: none of them may end up in a copy, whatever the body holds. */
  const secrets = async (): Promise<(string | undefined)[]> => {
    const out: (string | undefined)[] = [];
    for (const n of nodes.all()) {
      out.push(await tokens.getToken(n));
      out.push(await tokens.getAuthSecret(n));
    }
    return out;
  };

  const fromLookup = (lookup: LedgerLookup, nodeName: string): CurlRequest | string => {
    const node = nodes.find(nodeName);
    if (!node) return vscode.l10n.t('The node "{0}" is no longer configured: add it again to copy its request.', nodeName);
    const r = lookupRequest(lookup);
    return { method: r.method, url: requestUrl(node.url, r.path), body: r.body, authenticated: r.authenticated };
  };

  const fromHistory = (r: RecordedRequest): CurlRequest | string =>
    r.bodyOmitted
      ? vscode.l10n.t('The body of {0} {1} was too large to keep: send it again from its file to copy it.', r.method, r.path)
      : { method: r.method, url: r.url, body: r.body, authenticated: r.authenticated };

  const pick = async (): Promise<RecordedRequest | undefined> => {
    const requests = log.requests.all();
    if (requests.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No request has been sent yet. Look up an id (Canton: Show Contract) and try again.'));
      return undefined;
    }
    const items = requests.map((r) => ({
      label: `#${r.id} ${r.method} ${r.path}`,
      description: `${r.node} · ${r.status ?? r.errorKind ?? vscode.l10n.t('no answer')}`,
      detail: new Date(r.at).toLocaleTimeString(),
      request: r,
    }));
    return (
      await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Copy as cURL'),
        placeHolder: vscode.l10n.t('A request sent to a node, newest first (#n as in the Canton Lens log)'),
        matchOnDescription: true,
      })
    )?.request;
  };

  register(COMMAND.copyAsCurl, async (arg?: CopyAsCurlArgument): Promise<string | undefined> => {
    let request: CurlRequest | string | undefined;
    if (arg && 'lookup' in arg) request = fromLookup(arg.lookup, arg.node);
    else if (arg && typeof arg.requestId === 'number') {
      const r = log.requests.get(arg.requestId);
      request = r ? fromHistory(r) : vscode.l10n.t('That request is no longer in the log (it keeps the last ones). Pick another with Canton: Copy as cURL.');
    } else {
      // From the palette: the active panel's lookup, else a request picked from the log.
      const active = panels.panels.find((p) => p.webviewPanel.active && p.lookupResult);
      if (active?.lookupResult) request = fromLookup(active.lookupResult, active.current.node);
      else {
        const r = await pick();
        if (!r) return undefined;
        request = fromHistory(r);
      }
    }
    if (typeof request === 'string') {
      void vscode.window.showWarningMessage(request);
      return undefined;
    }
    const text = curlCommand(request, await secrets());
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(
      request.authenticated
        ? vscode.l10n.t('Copied as cURL: set TOKEN in your shell first (export TOKEN=…); the token is not in the copy.')
        : vscode.l10n.t('Copied as cURL'),
      5000,
    );
    return text;
  });
}
