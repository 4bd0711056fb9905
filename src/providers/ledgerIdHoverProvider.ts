// The hover on contract, update and party ids: what the id is and, for a contract or an update, its
// essentials from the lookup cache or one short request. ledgerIdHover.ts registers it at
// activation, behind a look at the line for an id.
import * as vscode from 'vscode';
import { idRoleOf, jsonPathAt } from '../ids/jsonKeyPath';
import { ledgerIdAt } from '../ids/ledgerIds';
import { sameIdentity } from '../auth/ledgerIdentity';
import { hoverMarkdown, type HoverFacts } from '../lookups/hoverMarkdown';
import type { LedgerLookupService } from '../services/lookupService';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';

const isJson = (d: vscode.TextDocument) => d.languageId === 'json' || d.languageId === 'jsonc' || /\.jsonc?$/i.test(d.uri.path);

/** How long a hover waits for the node before showing what it knows. */
const HOVER_WAIT_MS = 1500;

export function ledgerIdHoverProvider(nodes: NodeReader, lookups: LedgerLookupService): vscode.HoverProvider {
  return {
    async provideHover(document, position) {
      const line = document.lineAt(position.line).text;
      const match = ledgerIdAt(line, position.character);
      if (!match) return undefined;
      const facts: HoverFacts = { match };
      // In JSON the key tells a synchronizer, participant or signing key from a party or update id.
      if (isJson(document)) facts.role = idRoleOf(jsonPathAt(document.getText(), document.offsetAt(new vscode.Position(position.line, match.start))));
      const node = nodes.active();
      if (match.kind !== 'party' && !facts.role) {
        if (!node) facts.note = vscode.l10n.t('No active ledger node: add one to see what this is on the ledger.');
        else {
          facts.nodeName = node.name;
          const kind = match.kind === 'contract' ? 'contract' : 'update';
          facts.lookup = await lookups.peek(node, kind, match.text);
          if (!facts.lookup && !vscode.workspace.getConfiguration('cantonLens').get<boolean>('hover.fetchFromNode', true)) {
            facts.note = vscode.l10n.t('Hovers do not ask the node (cantonLens.hover.fetchFromNode is off).');
          } else if (!facts.lookup) {
            // No cancellation token: a started lookup completes and is cached for the next hover.
            const pending = kind === 'contract' ? lookups.contract(node, match.text) : lookups.transaction(node, match.text);
            pending.catch(() => undefined);
            const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), HOVER_WAIT_MS));
            try {
              const r = await Promise.race([pending, timeout]);
              if (r === 'timeout') facts.note = vscode.l10n.t('Still looking it up…');
              // The token changed while it was looked up: that answer is another identity's.
              else if (!sameIdentity(r.askedAs.identity, nodes.knownIdentity(node)))
                facts.note = vscode.l10n.t('The token of {0} changed while this was looked up: hover again.', node.name);
              else facts.lookup = r;
            } catch (e) {
              facts.note = (e as { explanation?: string }).explanation ?? (e as Error).message;
            }
          }
        }
      }
      const md = new vscode.MarkdownString(hoverMarkdown(facts));
      md.isTrusted = { enabledCommands: [COMMAND.showContract, COMMAND.showTransaction, COMMAND.openDamlDefinition] };
      md.supportThemeIcons = true;
      const range = new vscode.Range(position.line, match.start, position.line, match.end);
      return new vscode.Hover(md, range);
    },
  };
}
