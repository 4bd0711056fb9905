// The node tree's "By Interface" rows under Active Contracts: the interfaces the node's packages
// define (from their Daml-LF), each with how many active contracts implement it, counted one
// interface after another with the node's InterfaceFilter on the first expand; a row opens the
// Active Contracts table of the interface, its views as columns. Kept per node and token identity.
import * as vscode from 'vscode';
import { countInterfaceContracts, interfaceRefs, type InterfaceCount, type InterfaceRef } from '../browse/interfaceCounts';
import type { PackageSignature } from '../daml/lf/lfSignatures';
import type { LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from '../services/ledgerNodes';
import { COMMAND } from '../ids/commandIds';
import { formatCount } from '../l10n/forPeople';

export type SignaturesReader = (client: LedgerClient) => Promise<{ packages: PackageSignature[] }>;

/** A row under "By Interface" (the browse tree's message rows). */
export interface InterfaceRow {
  kind: 'message';
  text: string;
  tooltip?: string;
  icon: string;
  command?: vscode.Command;
}

type Listing =
  | { identity: string; state: 'loading'; abort: AbortController }
  | { identity: string; state: 'done'; refs: InterfaceRef[]; counts: Map<string, InterfaceCount | { error: string }>; abort: AbortController }
  | { identity: string; state: 'error'; error: string };

const n = (x: number) => formatCount(x);

export class InterfaceCounts implements vscode.Disposable {
  private readonly listings = new Map<string, Listing>();

  constructor(
    private readonly nodes: NodeReader,
    private readonly signatures: SignaturesReader,
    private readonly changed: () => void,
  ) {}

  rootItem(node: string): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('By Interface'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `acs:${node}:interfaces`;
    item.iconPath = new vscode.ThemeIcon('symbol-interface');
    const l = this.listings.get(node);
    if (l?.state === 'done') item.description = l.refs.length === 1 ? vscode.l10n.t('1 interface') : vscode.l10n.t('{0} interfaces', n(l.refs.length));
    item.tooltip = vscode.l10n.t(
      "The interfaces of the node's packages, and how many active contracts (of any template that implements one) the node's parties can read.",
    );
    return item;
  }

  children(node: NodeConfig, identity: string): InterfaceRow[] {
    let l = this.listings.get(node.name);
    if (!l || l.identity !== identity) {
      if (l && l.state !== 'error') l.abort.abort();
      l = this.list(node, identity);
    }
    if (l.state === 'loading') return [{ kind: 'message', icon: 'loading~spin', text: vscode.l10n.t("Reading the node's packages…") }];
    if (l.state === 'error')
      return [
        {
          kind: 'message',
          icon: 'warning',
          text: l.error,
          tooltip: l.error,
          command: { command: COMMAND.refreshActiveContracts, title: vscode.l10n.t('Retry'), arguments: [node.name] },
        },
      ];
    if (l.refs.length === 0) return [{ kind: 'message', icon: 'circle-slash', text: vscode.l10n.t("No interfaces in the node's packages") }];
    const counts = l.counts;
    return l.refs.map((r) => {
      const c = counts.get(r.interfaceId);
      const count = !c
        ? vscode.l10n.t('counting…')
        : 'error' in c
          ? vscode.l10n.t('not counted')
          : c.incomplete
            ? vscode.l10n.t('at least {0}', n(c.count))
            : n(c.count);
      return {
        kind: 'message',
        icon: 'symbol-interface',
        text: `${r.module}:${r.entity} · ${r.packageName}  ${count}`,
        tooltip: c && 'error' in c ? `${r.interfaceId}\n${c.error}` : r.interfaceId,
        command: {
          command: COMMAND.showActiveContracts,
          title: vscode.l10n.t('Show Active Contracts'),
          arguments: [node.name, undefined, undefined, { interfaceId: r.interfaceId }],
        },
      };
    });
  }

  /** Forgets a node's listing (Refresh). */
  refresh(node: string): void {
    const l = this.listings.get(node);
    if (l && l.state !== 'error') l.abort.abort();
    this.listings.delete(node);
  }

  dispose(): void {
    for (const l of this.listings.values()) if (l.state !== 'error') l.abort.abort();
  }

  private list(node: NodeConfig, identity: string): Listing {
    const abort = new AbortController();
    const l: Listing = { identity, state: 'loading', abort };
    this.listings.set(node.name, l);
    const current = (x: Listing) => this.listings.get(node.name) === x;
    void (async () => {
      try {
        const client = this.nodes.client(node);
        const refs = interfaceRefs((await this.signatures(client)).packages);
        if (!current(l)) return;
        const done: Listing = { identity, state: 'done', refs, counts: new Map(), abort };
        this.listings.set(node.name, done);
        this.changed();
        const readAs = await this.nodes.facts.readAs(node, undefined, abort.signal);
        if (readAs.refusal) throw new Error(readAs.refusal);
        const status = this.nodes.status(node);
        const version = status.state === 'reachable' ? status.version : undefined;
        // One interface after another: each is a read of the active set.
        for (const r of refs) {
          if (!current(done)) return;
          try {
            done.counts.set(r.interfaceId, await countInterfaceContracts(client, r.interfaceId, { parties: readAs.parties, version, signal: abort.signal }));
          } catch (e) {
            if (abort.signal.aborted) return;
            done.counts.set(r.interfaceId, { error: isLedgerApiError(e) ? e.explanation : (e as Error).message });
          }
          this.changed();
        }
      } catch (e) {
        if (abort.signal.aborted || !this.listings.get(node.name) || this.listings.get(node.name)!.identity !== identity) return;
        const error = isLedgerApiError(e) ? e.explanation : (e as Error).message;
        this.listings.set(node.name, { identity, state: 'error', error: vscode.l10n.t('Could not list the interfaces: {0}', error) });
        this.changed();
      }
    })();
    return l;
  }
}
