// Hovers on contract, update and party ids in any file, registered at activation. Text that is not
// an id costs a look at one line and nothing else; an id is handed to the hover itself
// (ledgerIdHoverProvider.ts, with the lookups).
import * as vscode from 'vscode';
import { ledgerIdAt } from '../ids/ledgerIds';

export function registerLedgerIdHover(ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly idHover: vscode.HoverProvider }): void {
  const provider: vscode.HoverProvider = {
    provideHover(document, position, token) {
      if (!ledgerIdAt(document.lineAt(position.line).text, position.character)) return undefined;
      return ctx.idHover.provideHover(document, position, token);
    },
  };
  ctx.subscriptions.push(vscode.languages.registerHoverProvider({ pattern: '**' }, provider));
}
