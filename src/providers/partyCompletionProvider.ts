// Party ids complete in *.prepare.json and *.commands.json (actAs, readAs, and the string fields of a command's
// arguments) from what the active node knows: the token user's parties, then its hosted parties
// where the token may list them. Nothing is asked while a node is not reachable or has no token.
import * as vscode from 'vscode';
import { partyCandidates, partySlotAt } from '../execute/partyCandidates';
import type { NodeReader } from '../services/ledgerNodes';

export function registerPartyCompletion(ctx: Pick<vscode.ExtensionContext, 'subscriptions'> & { readonly nodes: NodeReader }): void {
  const { nodes } = ctx;
  const provider: vscode.CompletionItemProvider = {
    async provideCompletionItems(document, position, cancel) {
      const slot = partySlotAt(document.getText(), document.offsetAt(position));
      const node = nodes.active();
      if (!slot || !node || nodes.status(node).state === 'unreachable') return undefined;
      let facts;
      try {
        facts = await nodes.facts.snapshot(node);
      } catch {
        return undefined;
      }
      if (cancel.isCancellationRequested) return undefined;
      const rights = facts.access.state === 'known' ? facts.access.rights : undefined;
      const hosted = facts.snapshot.parties.ok ? facts.snapshot.parties.value : undefined;
      const range = new vscode.Range(document.positionAt(slot.start), position);
      return partyCandidates(rights, hosted).map((c, i) => {
        const item = new vscode.CompletionItem(c.party, vscode.CompletionItemKind.Value);
        item.detail = c.detail;
        item.documentation = vscode.l10n.t('A party on {0}', node.name);
        item.range = range;
        item.sortText = String(i).padStart(5, '0');
        return item;
      });
    },
  };
  ctx.subscriptions.push(vscode.languages.registerCompletionItemProvider([{ pattern: '**/*.prepare.json' }, { pattern: '**/*.commands.json' }], provider, '"'));
}
