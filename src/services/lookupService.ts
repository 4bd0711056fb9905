// Lookups on a node through a bounded cache: one request per id in flight, archived contracts
// and transactions kept (they never change), active contracts re-fetched on refresh. Every answer
// is filed under who asked (the node's URL, the token's identity, the parties, the request form),
// and a change of the node's identity sets the node's answers aside.
import type * as vscode from 'vscode';
import { lookupKey, type AskedAs, type LedgerIdentity } from '../auth/ledgerIdentity';
import { LookupCache } from '../lookups/lookupCache';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { updateAnswer } from '../ledger/ledgerClient';
import type { Credentials } from '../auth/ledgerIdentity';
import { otherUpdatesFormat, transactionQueryFor, updateByIdRequest } from '../ledger/requestForms';
import {
  lookupContract,
  lookupSummary,
  lookupTransaction,
  type ContractLookup,
  type LedgerLookup,
  type LookupContext,
  type TransactionLookup,
  type TransactionShape,
} from '../lookups/ledgerLookups';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeFacts } from '../nodes/nodeFacts';
import type { NodeRegistry } from '../nodes/nodeRegistry';
import type { EffectiveParties, LearnedAccess } from '../auth/userRights';
import { classifyLedgerId } from '../ids/ledgerIds';
import { explainNotFound, type Sighting } from '../lookups/notFoundFacts';

export interface LookupOptions {
  refresh?: boolean;
  signal?: AbortSignal;
  /** Told who asks as soon as the token is resolved (so an error can name who got it). */
  asking?: (askedAs: AskedAs) => void;
  /** For transactions: what changed (the default) or what happened. */
  shape?: TransactionShape;
  /** Ask as this one party only (a cell of the visibility matrix), when the token may read as it. */
  asParty?: string;
}

/** The effective parties narrowed to one party the token may read as; unchanged when it may not. */
function narrowed(effective: EffectiveParties, asParty: string | undefined): EffectiveParties {
  if (!asParty || effective.refusal) return effective;
  const any = effective.parties.length === 0;
  if (!any && !effective.parties.includes(asParty)) return effective;
  const right = effective.rightOf[asParty] ?? effective.rightOf['*'];
  return { ...effective, parties: [asParty], rightOf: right ? { [asParty]: right } : {} };
}

/** Who asks a lookup: the token sent, the parties it reads as, what the node said of its user. */
interface Asker {
  credentials: Credentials;
  effective: EffectiveParties;
  access: LearnedAccess;
}

/** The request forms, as the cache keys name them. */
const FORMS = { contract: 'events-by-contract-id', update: 'transaction', effects: 'transaction-ledger-effects' } as const;

export class LedgerLookupService implements vscode.Disposable {
  private readonly caches = new Map<string, LookupCache<LedgerLookup>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly nodes: NodeRegistry,
    readonly facts: NodeFacts,
  ) {
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

  // One pass down and one back: who asks (the token, then its rights, once), the cache, the request
  // (ledgerLookups shapes the answer), and for a not-found its explanation from facts.
  async contract(node: NodeConfig, contractId: string, opts: LookupOptions = {}): Promise<ContractLookup> {
    const asker = await this.asker(node, opts);
    return this.cached(node, asker, FORMS.contract, contractId, opts, async () => {
      const l = await lookupContract(this.nodes.client(node), contractId, this.context(node, asker, opts.signal));
      if (!l.found) await this.explain(node, asker, l, opts.signal);
      return { value: l, final: l.found && l.status === 'archived' };
    }) as Promise<ContractLookup>;
  }

  async transaction(node: NodeConfig, updateId: string, opts: LookupOptions = {}): Promise<TransactionLookup> {
    const asker = await this.asker(node, opts);
    const form = opts.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' ? FORMS.effects : FORMS.update;
    return this.cached(node, asker, form, updateId, opts, async () => {
      const l = await lookupTransaction(this.nodes.client(node), updateId, { ...this.context(node, asker, opts.signal), shape: opts.shape });
      if (!l.found) await this.explain(node, asker, l, opts.signal);
      return { value: l, final: l.found };
    }) as Promise<TransactionLookup>;
  }

  /** The token, the parties it reads as (narrowed to one when asked) and what the node said of its user. */
  private async asker(node: NodeConfig, opts: LookupOptions): Promise<Asker> {
    const credentials = await this.nodes.credentials(node);
    const learned = await this.facts.effective(node, credentials, opts.signal);
    const effective = narrowed(learned.effective, opts.asParty);
    opts.asking?.({ identity: credentials.identity, parties: effective.parties, source: effective.source, rights: effective.rightOf });
    return { credentials, effective, access: learned.access };
  }

  /** The parties the node's current identity reads as, from what is known without a request. */
  currentParties(node: NodeConfig, identity: LedgerIdentity): EffectiveParties {
    return this.facts.peekEffective(node, identity);
  }

  /**
   * A not-found explained from facts: the parties and rights asked, the node's pruning point (one
   * request, remembered briefly), what the other nodes' remembered answers say (no request), the
   * user's state and the id's kind. At most one request beyond the lookup.
   */
  private async explain(
    node: NodeConfig,
    { credentials, effective, access }: Asker,
    l: Extract<LedgerLookup, { found: false }>,
    signal?: AbortSignal,
  ): Promise<void> {
    const id = l.kind === 'contract' ? l.contractId : l.updateId;
    const kind = l.kind === 'contract' ? 'contract' : 'update';
    const shape = classifyLedgerId(id).kind;
    const pruned = shape === 'none' || shape === kind ? await this.facts.prunedUpTo(node, credentials, signal) : undefined;
    const facts = explainNotFound({
      kind,
      id,
      nodeName: node.name,
      user: access.state === 'known' ? access.user.id : credentials.identity.user,
      effective,
      access,
      prunedUpTo: pruned?.ok ? pruned.value : undefined,
      prunedUnknown: pruned && !pruned.ok ? pruned.reason : undefined,
      elsewhere: await this.sightings(node, kind, id),
      otherKind: shape === 'none' ? undefined : shape,
    });
    l.facts = facts;
    l.explanation = facts.text;
  }

  /** What the other configured nodes' remembered answers say about the id (no request). */
  private async sightings(here: NodeConfig, kind: 'contract' | 'update', id: string): Promise<Sighting[]> {
    const out: Sighting[] = [];
    for (const n of this.nodes.all()) {
      if (n.name === here.name) continue;
      const l = await this.peek(n, kind, id).catch(() => undefined);
      if (!l?.found) continue;
      const offset =
        l.kind === 'contract'
          ? (l.response.created?.createdEvent.offset ?? l.response.archived?.archivedEvent.offset)
          : l.update === 'transaction'
            ? l.transaction.offset
            : l.update === 'reassignment'
              ? l.reassignment.offset
              : l.topology.offset;
      out.push({ node: n.name, parties: l.askedAs.parties, offset, summary: lookupSummary(l) });
    }
    return out;
  }

  /** The id of the update at an offset (update-by-offset), for lineage links; undefined when the node has none there for these parties. */
  async updateIdAt(node: NodeConfig, offset: number, signal?: AbortSignal): Promise<string | undefined> {
    const credentials = await this.nodes.credentials(node);
    const { effective } = await this.facts.effective(node, credentials, signal);
    const query = transactionQueryFor(effective.parties, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    const request = updateByIdRequest('', query);
    let res;
    try {
      res = await this.nodes
        .client(node)
        .getUpdateByOffset({ offset, updateFormat: { ...request.updateFormat, ...otherUpdatesFormat(query) } }, { signal, auth: { token: credentials.token } });
    } catch (e) {
      // Nothing there for these parties (or pruned): no update, not a failure.
      if (isLedgerApiError(e) && e.kind === 'notFound' && !e.routeMissing) return undefined;
      throw e;
    }
    const answer = updateAnswer(res);
    return answer?.type === 'transaction'
      ? answer.transaction.updateId
      : answer?.type === 'reassignment'
        ? answer.reassignment.updateId
        : answer?.topology.updateId;
  }

  /**
   * A cached answer for the node's identity as last read, without a request and without reading
   * the secret (for hovers, and other nodes' sightings): a hover that then asks reads it once.
   */
  peek(node: NodeConfig, kind: 'contract' | 'update', id: string): Promise<LedgerLookup | undefined> {
    const identity = this.nodes.knownIdentity(node);
    if (!identity) return Promise.resolve(undefined);
    const parties = this.facts.peekEffective(node, identity).parties;
    return Promise.resolve(this.caches.get(node.name)?.peek(lookupKey(node.url, identity, parties, FORMS[kind], id))?.value);
  }

  clear(): void {
    this.caches.clear();
  }

  private async cached(
    node: NodeConfig,
    asker: Asker,
    form: string,
    id: string,
    opts: LookupOptions,
    fetch: () => Promise<{ value: LedgerLookup; final: boolean }>,
  ): Promise<LedgerLookup> {
    const key = lookupKey(node.url, asker.credentials.identity, asker.effective.parties, form, id);
    return (await this.cacheFor(node).get(key, fetch, { refresh: opts.refresh })).value;
  }

  private cacheFor(node: NodeConfig): LookupCache<LedgerLookup> {
    let cache = this.caches.get(node.name);
    if (!cache) this.caches.set(node.name, (cache = new LookupCache<LedgerLookup>(500)));
    return cache;
  }

  private context(node: NodeConfig, { credentials, effective, access }: Asker, signal?: AbortSignal): LookupContext {
    const user = credentials.identity.user ?? (access.state === 'known' ? access.user.id : undefined) ?? node.userId;
    return { nodeName: node.name, parties: effective.parties, user, credentials, signal, effective, access };
  }
}
