// What Canton Lens learns from each node with the node's own token: the token's user and rights
// (and so the parties lookups read as), the participant id, its hosted parties, ledger end,
// pruning point and synchronizers. Asked when needed (a lookup, a tree row expanded), remembered
// per node and identity, forgotten on Refresh and when the node's token changes (by the node
// registry, which owns them). Pure (no `vscode`).
import type { LedgerIdentity } from '../auth/ledgerIdentity';
import { effectiveParties, executeRightsOf, type EffectiveParties, type ExecuteRight, type LearnedAccess } from '../auth/userRights';
import type { Credentials } from '../auth/ledgerIdentity';
import { NodeAccessCache } from './nodeAccess';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import * as l10n from '../l10n/l10n';
import type { NodeStatus } from './nodeStatus';
import type { NodeConfig } from './nodeSettings';

/** What the facts are asked through: the node registry. */
export interface FactSource {
  find(name: string): NodeConfig | undefined;
  status(node: NodeConfig): NodeStatus;
  client(node: NodeConfig): LedgerClient;
  credentials(node: NodeConfig): Promise<Credentials>;
}

/** One fact: its value, or why it is not there ("needs ParticipantAdmin" is not a failure). */
export type Fact<T> = { ok: true; value: T } | { ok: false; needs?: string; reason: string };

export interface NodeFactsSnapshot {
  participantId: Fact<string>;
  /** Hosted parties (every page), or "needs ParticipantAdmin". */
  parties: Fact<string[]>;
  ledgerEnd: Fact<number>;
  prunedUpTo: Fact<number>;
  synchronizers: Fact<{ alias: string; id: string; permission?: string }[]>;
}

/** How long the pruning point is trusted for explanations. */
const PRUNED_TTL_MS = 30_000;
/** At most this many hosted parties are listed (paged). */
export const MAX_LISTED_PARTIES = 10_000;

export class NodeFacts {
  readonly access = new NodeAccessCache();
  private readonly snapshots = new Map<string, Promise<NodeFactsSnapshot>>();
  private readonly pruned = new Map<string, { at: number; value: Promise<Fact<number>> }>();

  constructor(private readonly nodes: FactSource) {}

  /** Forgets what was learned of a node (by name; `oldUrl` too when its URL just changed or it went), so the next use asks again. */
  forget(name: string, oldUrl?: string): void {
    const node = this.nodes.find(name);
    if (node) this.access.forget(node.url);
    if (oldUrl && oldUrl !== node?.url) this.access.forget(oldUrl);
    for (const k of [...this.snapshots.keys(), ...this.pruned.keys()]) {
      if ((JSON.parse(k) as string[])[0] === name) {
        this.snapshots.delete(k);
        this.pruned.delete(k);
      }
    }
  }

  /** The learned access of the identity the credentials belong to (one request pair per identity, then remembered). */
  accessFor(node: NodeConfig, credentials: Credentials, signal?: AbortSignal): Promise<LearnedAccess> {
    const status = this.nodes.status(node);
    const max = status.state === 'reachable' ? status.features.userManagement?.maxRightsPerUser : undefined;
    return this.access.get({
      url: node.url,
      identity: credentials.identity,
      token: credentials.token,
      client: this.nodes.client(node),
      maxRightsPerUser: max,
      signal,
    });
  }

  /** The rights the pre-send checks need (may the user act or execute as a party?), or why they are not known. */
  async executeRights(node: NodeConfig, signal?: AbortSignal): Promise<{ rights?: ExecuteRight[]; reason?: string }> {
    try {
      const access = await this.accessFor(node, await this.nodes.credentials(node), signal);
      const rights = executeRightsOf(access);
      return rights ? { rights } : { reason: access.state === 'known' ? undefined : access.reason };
    } catch (e) {
      return { reason: isLedgerApiError(e) ? e.explanation : (e as Error).message };
    }
  }

  /** The parties a lookup reads as, and where they came from. */
  async effective(node: NodeConfig, credentials: Credentials, signal?: AbortSignal): Promise<{ effective: EffectiveParties; access: LearnedAccess }> {
    const access = await this.accessFor(node, credentials, signal);
    return { effective: effectiveParties(node.parties, access), access };
  }

  /**
   * The parties a read of many contracts or updates (Active Contracts, the counts, Follow Updates) asks
   * as: the given ones, else the lookups' own (settings, else the token's rights, else any party).
   * Reading as any party without CanReadAsAnyParty is refused by every node, so it is never the
   * default while the rights name parties.
   */
  async readAs(node: NodeConfig, given?: readonly string[], signal?: AbortSignal): Promise<EffectiveParties> {
    if (given && given.length > 0) return { parties: [...given], source: 'given', rightOf: {} };
    return (await this.effective(node, await this.nodes.credentials(node), signal)).effective;
  }

  /** The same, from what is remembered only (no request): for hovers' cache peeks and banners. */
  peekEffective(node: NodeConfig, identity: LedgerIdentity): EffectiveParties {
    return effectiveParties(node.parties, this.access.peek(node.url, identity));
  }

  peekAccess(node: NodeConfig, identity: LedgerIdentity): LearnedAccess | undefined {
    return this.access.peek(node.url, identity);
  }

  /** The node's pruning point (latest-pruned-offsets), remembered briefly: one request per explanation at most. */
  prunedUpTo(node: NodeConfig, credentials: Credentials, signal?: AbortSignal): Promise<Fact<number>> {
    const key = JSON.stringify([node.name, node.url, credentials.identity.key]);
    const hit = this.pruned.get(key);
    if (hit && Date.now() - hit.at < PRUNED_TTL_MS) return hit.value;
    const value = this.nodes
      .client(node)
      .getLatestPrunedOffsets({ signal, auth: { token: credentials.token } })
      .then(
        (r): Fact<number> => ({ ok: true, value: Number(r.participantPrunedUpToInclusive ?? 0) }),
        (e) => factError<number>(e),
      );
    this.pruned.set(key, { at: Date.now(), value });
    return value;
  }

  /** Everything the tree shows under a node, asked together once per identity (until Refresh or a new token). */
  async snapshot(node: NodeConfig): Promise<{ snapshot: NodeFactsSnapshot; access: LearnedAccess; credentials: Credentials }> {
    const credentials = await this.nodes.credentials(node);
    const access = await this.accessFor(node, credentials);
    const key = JSON.stringify([node.name, node.url, credentials.identity.key]);
    let pending = this.snapshots.get(key);
    if (!pending) {
      pending = this.ask(node, credentials, access);
      this.snapshots.set(key, pending);
    }
    return { snapshot: await pending, access, credentials };
  }

  private async ask(node: NodeConfig, credentials: Credentials, access: LearnedAccess): Promise<NodeFactsSnapshot> {
    const client = this.nodes.client(node);
    const opts = { auth: { token: credentials.token } };
    const party = effectiveParties(node.parties, access).parties[0] ?? (access.state === 'known' ? access.user.primaryParty : undefined);
    const admin = access.state === 'known' && access.rights.admin.has('ParticipantAdmin');
    const [participantId, parties, ledgerEnd, prunedUpTo, synchronizers] = await Promise.all([
      client.getParticipantId(opts).then(
        (r): Fact<string> => ({ ok: true, value: r.participantId }),
        (e) => factError<string>(e),
      ),
      this.allParties(node, credentials),
      client.getLedgerEnd(opts).then(
        (r): Fact<number> => ({ ok: true, value: Number(r.offset) }),
        (e) => factError<number>(e),
      ),
      this.prunedUpTo(node, credentials),
      // With a party the user reads as (or as an admin, all): an ordinary user may ask for its own parties.
      client.getConnectedSynchronizers(admin ? undefined : party, opts).then(
        (r): Fact<{ alias: string; id: string; permission?: string }[]> => ({
          ok: true,
          value: (r.connectedSynchronizers ?? []).map((s) => ({ alias: s.synchronizerAlias, id: s.synchronizerId, permission: s.permission })),
        }),
        (e) => factError<{ alias: string; id: string; permission?: string }[]>(e, 'ParticipantAdmin'),
      ),
    ]);
    return { participantId, parties, ledgerEnd, prunedUpTo, synchronizers };
  }

  private async allParties(node: NodeConfig, credentials: Credentials): Promise<Fact<string[]>> {
    const client = this.nodes.client(node);
    const out: string[] = [];
    let pageToken: string | undefined;
    try {
      do {
        const page = await client.listParties({ pageToken }, { auth: { token: credentials.token } });
        for (const p of page.partyDetails ?? []) if (p.isLocal !== false) out.push(p.party);
        pageToken = page.nextPageToken || undefined;
      } while (pageToken && out.length < MAX_LISTED_PARTIES);
      return { ok: true, value: out };
    } catch (e) {
      return factError<string[]>(e, 'ParticipantAdmin');
    }
  }
}

/** A failed fact: a 403 names the right it needs; anything else says what happened. */
function factError<T>(e: unknown, needs?: string): Fact<T> {
  if (isLedgerApiError(e) && e.kind === 'permissionDenied' && needs) return { ok: false, needs, reason: l10n.t('needs {0}', needs) };
  if (isLedgerApiError(e) && e.routeMissing) return { ok: false, reason: l10n.t('not served by this node') };
  return { ok: false, reason: isLedgerApiError(e) ? e.explanation : (e as Error).message };
}
