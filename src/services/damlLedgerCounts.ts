// Counts of a Daml file's templates on the active node, for CodeLens and hovers: one
// active-contracts read per file (all its templates in one filter, for the parties the node reads
// as), bounded, shared by concurrent callers and cached until the node, its token or its parties
// change or it is checked again (Refresh).
import * as vscode from 'vscode';
import { readActiveContracts } from '../browse/acsPaging';
import { browseEventFormat, hasPagedEndpoints } from '../browse/browseForms';
import { TemplateCountsBuilder, type TemplateCount } from '../daml/templateCounts';
import { refsUnknownToNode } from '../browse/unknownTemplates';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import type { NodeConfig } from '../nodes/nodeSettings';
import type { NodeReader } from './ledgerNodes';

/** Counting stops after this many contracts (the lens then says "N+"). */
export const MAX_COUNTED = 10_000;

export type CountsAnswer =
  /** unknown: templates the node's packages do not define (their package is not uploaded there, or is an older build). */
  | { state: 'counted'; node: string; counts: ReadonlyMap<string, TemplateCount>; capped: boolean; activeAt?: number; unknown: ReadonlySet<string> }
  /** noReadRight: the token's user may read as no party on the node (its rights, or the node's 403). */
  | { state: 'error'; node: string; error: string; noReadRight?: boolean };

interface Entry {
  promise: Promise<CountsAnswer>;
  identity: string;
}

export class DamlLedgerCounts implements vscode.Disposable {
  /** By `#pkg:M:E` template ref. */
  private readonly cache = new Map<string, Entry>();
  private readonly subscription: vscode.Disposable;
  /** Requests sent (for tests: no request per keystroke). */
  requests = 0;

  constructor(private readonly nodes: NodeReader) {
    this.subscription = nodes.onDidChangeIdentity(() => this.cache.clear());
  }

  /** Who is asking, and when the node was last checked: a Refresh or a new token counts again. */
  private async identity(node: NodeConfig): Promise<string> {
    return JSON.stringify([await this.asker(node), this.checkedAt(node)]);
  }

  private checkedAt(node: NodeConfig): number {
    const s = this.nodes.status(node);
    const checkedAt =
      s.state === 'reachable' || s.state === 'unreachable'
        ? s.checkedAt
        : s.state === 'checking' && s.previous && 'checkedAt' in s.previous
          ? s.previous.checkedAt
          : 0;
    return checkedAt;
  }

  /** The node and who asks on it: the token by what it is, not by the time it has left (tokenInfo's expiresInMs changes every call). */
  private async asker(node: NodeConfig): Promise<string> {
    const ti = await this.nodes.tokenInfo(node);
    const token =
      ti.source === 'blocked'
        ? ['blocked', ti.reason]
        : [ti.source, ti.state.state === 'expiring' ? 'valid' : ti.state.state, 'claims' in ti.state ? ti.state.claims : undefined];
    return JSON.stringify([node.name, node.url, node.parties ?? [], token]);
  }

  /**
   * The active node and who asks on it (not when it was last checked); undefined without one. The
   * lenses are provided again when it changes: a node checked again re-counts on the next ask.
   */
  async askingIdentity(): Promise<string | undefined> {
    const node = this.nodes.active();
    return node ? this.asker(node) : undefined;
  }

  /** The counts of `refs` on the active node; undefined when no node is active. Cached per ref. */
  async counts(refs: readonly string[]): Promise<CountsAnswer | undefined> {
    const node = this.nodes.active();
    if (!node || refs.length === 0) return undefined;
    const identity = await this.identity(node);
    const missing = refs.filter((r) => this.cache.get(r)?.identity !== identity);
    if (missing.length > 0) {
      const promise = this.read(node, missing);
      for (const r of missing) this.cache.set(r, { promise, identity });
    }
    const answers = await Promise.all(refs.map((r) => this.cache.get(r)!.promise));
    const error = answers.find((a) => a.state === 'error');
    if (error) return error;
    const counts = new Map<string, TemplateCount>();
    const unknown = new Set<string>();
    let capped = false;
    let activeAt: number | undefined;
    for (const [i, a] of answers.entries()) {
      if (a.state !== 'counted') continue;
      if (a.unknown.has(refs[i])) unknown.add(refs[i]);
      const c = a.counts.get(refs[i]);
      if (c) counts.set(refs[i], c);
      capped ||= a.capped;
      activeAt = a.activeAt;
    }
    return { state: 'counted', node: node.name, counts, capped, activeAt, unknown };
  }

  /** Forgets every count (the next lens or hover asks again). */
  clear(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.subscription.dispose();
    this.cache.clear();
  }

  private async read(node: NodeConfig, refs: string[]): Promise<CountsAnswer> {
    const builder = new TemplateCountsBuilder(refs);
    const status = this.nodes.status(node);
    const version = status.state === 'reachable' ? status.version : undefined;
    const ac = new AbortController();
    let capped = false;
    let activeAt: number | undefined;
    // Templates the node's packages lack (not uploaded yet): Canton refuses the whole read and
    // names them; the others are asked again without them.
    const unknown = new Set<string>();
    let asked = refs;
    try {
      const readAs = await this.nodes.facts.readAs(node, undefined, ac.signal);
      if (readAs.refusal) return this.failed(node, refs, readAs.refusal, true);
      for (;;) {
        this.requests++;
        try {
          for await (const page of readActiveContracts(this.nodes.client(node), {
            eventFormat: browseEventFormat({ parties: readAs.parties, templates: asked }),
            paged: hasPagedEndpoints(version),
            websocket: true,
            pageSize: 1000,
            listLimit: MAX_COUNTED,
            signal: ac.signal,
          })) {
            if (page.restarted) builder.reset();
            builder.add(page.events);
            activeAt = page.activeAtOffset;
            if (page.incomplete) capped = true;
            if (builder.total >= MAX_COUNTED && !page.done) {
              capped = true;
              ac.abort();
              break;
            }
          }
          return { state: 'counted', node: node.name, counts: builder.result(), capped, activeAt, unknown };
        } catch (e) {
          const lacking = isLedgerApiError(e) ? refsUnknownToNode(e.cantonError, asked) : undefined;
          if (!lacking?.length) throw e;
          for (const r of lacking) unknown.add(r);
          asked = asked.filter((r) => !unknown.has(r));
          builder.reset();
          if (asked.length === 0) return { state: 'counted', node: node.name, counts: builder.result(), capped, activeAt, unknown };
        }
      }
    } catch (e) {
      return this.failed(node, refs, isLedgerApiError(e) ? e.explanation : (e as Error).message, isLedgerApiError(e) && e.kind === 'permissionDenied');
    }
  }

  private failed(node: NodeConfig, refs: readonly string[], error: string, noReadRight: boolean): CountsAnswer {
    // Not cached: the next look asks again.
    for (const r of refs) this.cache.delete(r);
    return { state: 'error', node: node.name, error, ...(noReadRight ? { noReadRight } : {}) };
  }

  /** Another configured node whose token's user may read (its rights as learned, asked if need be); undefined when none does. */
  async readingNode(except: string, signal?: AbortSignal): Promise<NodeConfig | undefined> {
    for (const n of this.nodes.all()) {
      if (n.name === except) continue;
      const readAs = await this.nodes.facts.readAs(n, undefined, signal).catch(() => undefined);
      if (readAs && !readAs.refusal) return n;
    }
    return undefined;
  }
}
