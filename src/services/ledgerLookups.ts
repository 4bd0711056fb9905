// Lookups on a node through a bounded cache: one request per id in flight, archived contracts
// and transactions kept (they never change), active contracts re-fetched on refresh. Every answer
// is filed under who asked (the node's URL, the token's identity, the parties, the request form),
// and a change of the node's identity sets the node's answers aside.
import type * as vscode from 'vscode';
import { lookupKey, type AskedAs, type LedgerIdentity } from '../auth/ledgerIdentity';
import { LookupCache } from '../lookups/lookupCache';
import { LedgerApiError } from '../ledger/ledgerApiError';
import { updateAnswer } from '../ledger/ledgerClient';
import { otherUpdatesFormat, transactionQueryFor, updateByIdRequest } from '../ledger/requestForms';
import { lookupContract, lookupTransaction, type ContractLookup, type Credentials, type LedgerLookup, type LookupContext, type TransactionLookup, type TransactionShape } from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { LedgerNodes } from './ledgerNodes';

export interface LookupOptions {
  refresh?: boolean;
  signal?: AbortSignal;
  /** Told who asks as soon as the token is resolved (so an error can name who got it). */
  asking?: (askedAs: AskedAs) => void;
  /** For transactions: what changed (the default) or what happened. */
  shape?: TransactionShape;
}

/** The request forms, as the cache keys name them. */
const FORMS = { contract: 'events-by-contract-id', update: 'transaction', effects: 'transaction-ledger-effects' } as const;

export class LedgerLookupService implements vscode.Disposable {
  private readonly caches = new Map<string, LookupCache<LedgerLookup>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly nodes: LedgerNodes) {
    this.subscriptions = [
      // A node removed: its cached answers go. (A changed URL or party set changes the cache key.)
      nodes.onDidChange(() => {
        for (const name of this.caches.keys()) if (!nodes.find(name)) this.caches.delete(name);
      }),
      // A token set or cleared, another subject, other parties: the node's answers so far are set
      // aside. A lookup still in flight files its answer in the set-aside cache, under the identity
      // that asked it, so the next lookup asks the node.
      nodes.onDidChangeIdentity((e) => this.caches.delete(e.node)),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  async contract(node: NodeConfig, contractId: string, opts: LookupOptions = {}): Promise<ContractLookup> {
    const credentials = await this.nodes.credentials(node);
    opts.asking?.({ identity: credentials.identity, parties: [...(node.parties ?? [])] });
    return this.cached(node, credentials.identity, FORMS.contract, contractId, opts, async () => {
      const l = await lookupContract(this.nodes.client(node), contractId, this.context(node, credentials, opts.signal));
      return { value: l, final: l.found && l.status === 'archived' };
    }) as Promise<ContractLookup>;
  }

  async transaction(node: NodeConfig, updateId: string, opts: LookupOptions = {}): Promise<TransactionLookup> {
    const credentials = await this.nodes.credentials(node);
    opts.asking?.({ identity: credentials.identity, parties: [...(node.parties ?? [])] });
    const effects = opts.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
    return this.cached(node, credentials.identity, effects ? FORMS.effects : FORMS.update, updateId, opts, async () => {
      const l = await lookupTransaction(this.nodes.client(node), updateId, { ...this.context(node, credentials, opts.signal), shape: opts.shape });
      return { value: l, final: l.found };
    }) as Promise<TransactionLookup>;
  }

  /** The id of the update at an offset (update-by-offset), for lineage links; undefined when the node has none there for these parties. */
  async updateIdAt(node: NodeConfig, offset: number, signal?: AbortSignal): Promise<string | undefined> {
    const credentials = await this.nodes.credentials(node);
    const query = transactionQueryFor(node.parties, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    const request = updateByIdRequest('', query);
    let res;
    try {
      res = await this.nodes.client(node).getUpdateByOffset(
        { offset, updateFormat: { ...request.updateFormat, ...otherUpdatesFormat(query) } },
        { signal, auth: { token: credentials.token } },
      );
    } catch (e) {
      // Nothing there for these parties (or pruned): no update, not a failure.
      if (e instanceof LedgerApiError && e.kind === 'notFound' && !e.routeMissing) return undefined;
      throw e;
    }
    const answer = updateAnswer(res);
    return answer?.type === 'transaction' ? answer.transaction.updateId : answer?.type === 'reassignment' ? answer.reassignment.updateId : answer?.topology.updateId;
  }

  /** A cached answer for the node's current identity, without a request (for hovers). */
  async peek(node: NodeConfig, kind: 'contract' | 'update', id: string): Promise<LedgerLookup | undefined> {
    const identity = await this.nodes.currentIdentity(node);
    if (!identity) return undefined;
    return this.caches.get(node.name)?.peek(lookupKey(node.url, identity, node.parties, FORMS[kind], id))?.value;
  }

  clear(): void {
    this.caches.clear();
  }

  private async cached(node: NodeConfig, identity: LedgerIdentity, form: string, id: string, opts: LookupOptions, fetch: () => Promise<{ value: LedgerLookup; final: boolean }>): Promise<LedgerLookup> {
    return (await this.cacheFor(node).get(lookupKey(node.url, identity, node.parties, form, id), fetch, { refresh: opts.refresh })).value;
  }

  private cacheFor(node: NodeConfig): LookupCache<LedgerLookup> {
    let cache = this.caches.get(node.name);
    if (!cache) this.caches.set(node.name, (cache = new LookupCache<LedgerLookup>(500)));
    return cache;
  }

  private context(node: NodeConfig, credentials: Credentials, signal?: AbortSignal): LookupContext {
    return { nodeName: node.name, parties: node.parties, user: credentials.identity.user ?? node.userId, credentials, signal };
  }
}
