// Makes contract and update ids clickable in any file. Bounded so a 10 MB log stays responsive:
// at most MAX_SCAN_CHARS are scanned and MAX_LINKS links made, the targets resolved on demand.
import * as vscode from 'vscode';
import { findLedgerIds } from '../ids/ledgerIds';
import { COMMAND } from '../ids/commandIds';

const MAX_SCAN_CHARS = 4 * 1024 * 1024;
const MAX_LINKS = 2000;

class LedgerIdLink extends vscode.DocumentLink {
  constructor(
    range: vscode.Range,
    readonly id: string,
    readonly kind: 'contract' | 'update',
  ) {
    super(range);
    this.tooltip = kind === 'contract' ? vscode.l10n.t('Open the contract in Canton Lens') : vscode.l10n.t('Open the transaction in Canton Lens');
  }
}

export function registerLedgerIdLinks(ctx: Pick<vscode.ExtensionContext, 'subscriptions'>): void {
  const provider: vscode.DocumentLinkProvider<LedgerIdLink> = {
    provideDocumentLinks(document, token) {
      const text = document.getText();
      const scanned = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
      const links: LedgerIdLink[] = [];
      for (const m of findLedgerIds(scanned, MAX_LINKS)) {
        if (token.isCancellationRequested) break;
        if (m.kind === 'party') continue;
        links.push(new LedgerIdLink(new vscode.Range(document.positionAt(m.start), document.positionAt(m.end)), m.text, m.kind));
      }
      return links;
    },
    resolveDocumentLink(link) {
      const command = link.kind === 'contract' ? COMMAND.showContract : COMMAND.showTransaction;
      link.target = vscode.Uri.parse(`command:${command}?${encodeURIComponent(JSON.stringify([link.id]))}`);
      return link;
    },
  };
  ctx.subscriptions.push(vscode.languages.registerDocumentLinkProvider({ pattern: '**' }, provider));
}
