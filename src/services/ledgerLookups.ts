// Lookups on a node through a bounded cache: one request per id in flight, archived contracts
// and transactions kept (they never change), active contracts re-fetched on refresh.
import type * as vscode from 'vscode';
import { LookupCache } from '../lookups/lookupCache';
import { lookupContract, lookupTransaction, type ContractLookup, type LedgerLookup, type TransactionLookup } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerNodes } from './ledgerNodes';

export interface LookupOptions {
  refresh?: boolean;
  signal?: AbortSignal;
}

export class LedgerLookupService implements vscode.Disposable {
  private readonly caches = new Map<string, LookupCache<LedgerLookup>>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly nodes: LedgerNodes) {
    // A node removed: its cached answers go. (A changed URL or party set changes the cache key.)
    this.subscription = nodes.onDidChange(() => {
      for (const name of this.caches.keys()) if (!nodes.find(name)) this.caches.delete(name);
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  contract(node: NodeConfig, contractId: string, opts: LookupOptions = {}): Promise<ContractLookup> {
    return this.cached(node, `contract:${contractId}`, opts, async () => {
      const l = await lookupContract(this.nodes.client(node), contractId, await this.context(node, opts.signal));
      return { value: l, final: l.found && l.status === 'archived' };
    }) as Promise<ContractLookup>;
  }

  transaction(node: NodeConfig, updateId: string, opts: LookupOptions = {}): Promise<TransactionLookup> {
    return this.cached(node, `update:${updateId}`, opts, async () => {
      const l = await lookupTransaction(this.nodes.client(node), updateId, await this.context(node, opts.signal));
      return { value: l, final: l.found };
    }) as Promise<TransactionLookup>;
  }

  /** A cached answer without a request, for hovers. */
  peek(node: NodeConfig, kind: 'contract' | 'update', id: string): LedgerLookup | undefined {
    return this.cacheFor(node).peek(this.key(node, `${kind}:${id}`))?.value;
  }

  clear(): void {
    this.caches.clear();
  }

  private async cached(node: NodeConfig, what: string, opts: LookupOptions, fetch: () => Promise<{ value: LedgerLookup; final: boolean }>): Promise<LedgerLookup> {
    return (await this.cacheFor(node).get(this.key(node, what), fetch, { refresh: opts.refresh })).value;
  }

  private cacheFor(node: NodeConfig): LookupCache<LedgerLookup> {
    let cache = this.caches.get(node.name);
    if (!cache) this.caches.set(node.name, (cache = new LookupCache<LedgerLookup>(500)));
    return cache;
  }

  /** Who asks is part of the key: another party set may see something else. */
  private key(node: NodeConfig, what: string): string {
    return `${node.url}|${(node.parties ?? []).join(',')}|${what}`;
  }

  private async context(node: NodeConfig, signal?: AbortSignal) {
    return { nodeName: node.name, parties: node.parties, user: await this.nodes.tokenUser(node), signal };
  }
}
