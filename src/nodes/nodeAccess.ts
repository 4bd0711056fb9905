// The token's user and rights, asked once per node and identity and remembered: 100 lookups make
// at most one rights request. Every entry is keyed by the node's URL and the identity that asked
// (never shared between two tokens). Pure (no `vscode`): tested against the fake node.
import type { LedgerIdentity } from '../auth/ledgerIdentity';
import { parseRights, parseUser, type LearnedAccess } from '../auth/userRights';
import { LedgerApiError, isLedgerApiError } from '../ledger/ledgerApiError';
import type { LedgerClient } from '../ledger/ledgerClient';
import * as l10n from '../l10n/l10n';

export interface AccessRequest {
  url: string;
  identity: LedgerIdentity;
  token: string | undefined;
  client: LedgerClient;
  /** The node's advertised maxRightsPerUser, if known (a larger answer is noted). */
  maxRightsPerUser?: number;
  signal?: AbortSignal;
}

/** How long learned rights are trusted before they are asked again (Refresh and a new token clear them at once). */
export const ACCESS_TTL_MS = 10 * 60_000;

export class NodeAccessCache {
  private readonly entries = new Map<string, { at: number; promise: Promise<LearnedAccess>; value?: LearnedAccess }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The learned access of this identity on this node: remembered, or asked (one request in flight per key). */
  get(req: AccessRequest, opts: { refresh?: boolean } = {}): Promise<LearnedAccess> {
    const key = accessKey(req.url, req.identity);
    const hit = this.entries.get(key);
    if (hit && !opts.refresh && this.now() - hit.at < ACCESS_TTL_MS) return hit.promise;
    const entry: { at: number; promise: Promise<LearnedAccess>; value?: LearnedAccess } = { at: this.now(), promise: Promise.resolve(undefined as never) };
    entry.promise = learnAccess(req).then((value) => {
      entry.value = value;
      // A cancelled or failed-to-connect ask is not remembered: the next lookup asks again.
      if (value.state === 'unknown' && value.transient && this.entries.get(key) === entry) this.entries.delete(key);
      return value;
    });
    this.entries.set(key, entry);
    return entry.promise;
  }

  /** What is known without a request (the tree, hovers). */
  peek(url: string, identity: LedgerIdentity): LearnedAccess | undefined {
    const hit = this.entries.get(accessKey(url, identity));
    return hit?.value;
  }

  /** Forgets a node's entries (its token changed, or Refresh), or all. */
  forget(url?: string): void {
    if (url === undefined) return this.entries.clear();
    for (const k of [...this.entries.keys()]) if ((JSON.parse(k) as string[])[0] === url) this.entries.delete(k);
  }
}

function accessKey(url: string, identity: LedgerIdentity): string {
  return JSON.stringify([url, identity.key]);
}

/**
 * Asks the node who the token's user is and what it may do. With a JWT subject both requests go
 * out together; an opaque token asks authenticated-user first for the user id.
 */
export async function learnAccess(req: AccessRequest): Promise<LearnedAccess> {
  const opts = { signal: req.signal, auth: { token: req.token } };
  const client = req.client;
  try {
    const sub = req.identity.user;
    const userAsk = client.getAuthenticatedUser(opts);
    const rightsAsk = sub ? client.listUserRights(sub, opts) : undefined;
    rightsAsk?.catch(() => undefined);
    let user;
    try {
      user = parseUser(await userAsk);
    } catch (e) {
      if (isLedgerApiError(e) && (e.kind === 'permissionDenied' || e.kind === 'unauthenticated')) {
        return { state: 'refused', status: e.status ?? 403, reason: refusedReason(e) };
      }
      throw e;
    }
    if (!user) return { state: 'unknown', reason: l10n.t('authenticated-user named no user') };
    try {
      const rights = parseRights(await (rightsAsk && user.id === sub ? rightsAsk : client.listUserRights(user.id, opts)));
      const max = req.maxRightsPerUser;
      return { state: 'known', user, rights, ...(max !== undefined && rights.total > max ? { maxRightsPerUser: max } : {}) };
    } catch (e) {
      if (isLedgerApiError(e) && !isTransient(e)) return { state: 'unknown', user, reason: reasonOf(e, 'rights') };
      throw e;
    }
  } catch (e) {
    if (isLedgerApiError(e) && !isTransient(e)) return { state: 'unknown', reason: reasonOf(e, 'authenticated-user') };
    return { state: 'unknown', reason: l10n.t('the rights could not be asked now ({0})', (e as LedgerApiError | undefined)?.kind ?? 'error'), transient: true };
  }
}

function isTransient(e: LedgerApiError): boolean {
  return e.kind === 'cancelled' || e.kind === 'timeout' || e.kind === 'network' || e.kind === 'unavailable';
}

function refusedReason(e: LedgerApiError): string {
  if (e.kind === 'unauthenticated') return l10n.t('the node did not accept the token (401)');
  if (e.cantonError?.context?.ledger_api_error === 'invalid token')
    return l10n.t("the node does not know the token's user (403): the user was deleted or never existed here");
  return l10n.t("the node refused the token's user even its own user record (403): the user is deactivated, or its identity provider does not allow it");
}

function reasonOf(e: LedgerApiError, what: string): string {
  if (e.routeMissing) return l10n.t('the node has no {0} endpoint (an older node or a proxy)', what);
  if (e.kind === 'permissionDenied') return l10n.t('{0} was refused (403)', what);
  if (e.status !== undefined) return l10n.t('{0} answered {1}', what, e.status);
  return l10n.t('{0} failed: {1}', what, e.explanation);
}
