// Who asks a node: the identity of the token a request sends. Every remembered answer is keyed by
// it, so one user's view is never shown as another's. Pure (no `vscode`), so the rules are tested
// without VS Code; a future authenticated-user or rights lookup can refine an identity.
//
// Memory hygiene: `key` may hold a digest of the token. It lives in memory only: never in settings,
// global state, logs, error texts or webview HTML. What the UI names is `identityName()`.
import { createHash } from 'node:crypto';
import { shortenPartyId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import { decodeJwtClaims } from './jwtClaims';
import type { PartySource } from './userRights';

export interface LedgerIdentity {
  /** `user:<sub>`, `client:<token url>|<client id>`, `token#<16 hex>` or `none`. In memory only. */
  readonly key: string;
  readonly kind: 'user' | 'client' | 'token' | 'none';
  /** The Ledger API user id (the JWT subject): not a secret, may be shown and stored. */
  readonly user?: string;
  /** The OAuth2 client, for an opaque client-credentials token. */
  readonly clientId?: string;
}

export const NO_TOKEN: LedgerIdentity = Object.freeze({ key: 'none', kind: 'none' });

/** A digest that tells two tokens apart without holding either: `token#` and 16 hex digits of SHA-256. */
export function tokenDigest(token: string): string {
  return `token#${createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * The identity of a token: its subject when it is a JWT with one, else the OAuth2 client it came
 * from, else a digest of the token. Never verifies the token (the node does).
 */
export function identityOfToken(token: string | undefined, client?: { tokenUrl: string; clientId: string }): LedgerIdentity {
  if (!token) return NO_TOKEN;
  const sub = decodeJwtClaims(token)?.user;
  if (sub) return { key: `user:${sub}`, kind: 'user', user: sub };
  if (client) return { key: `client:${client.tokenUrl}|${client.clientId}`, kind: 'client', clientId: client.clientId };
  return { key: tokenDigest(token), kind: 'token' };
}

export function sameIdentity(a: LedgerIdentity | undefined, b: LedgerIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.key === b.key;
}

/** How the UI names an identity: the user id, the client, or what kind of token. Never the key. */
export function identityName(i: LedgerIdentity): string {
  switch (i.kind) {
    case 'user':
      return i.user!;
    case 'client':
      return l10n.t('client {0}', i.clientId ?? '');
    case 'token':
      return l10n.t('a token without a user id');
    case 'none':
      return l10n.t('no token');
  }
}

/** Who an answer belongs to: the identity that asked and the parties it read as. */
export interface AskedAs {
  identity: LedgerIdentity;
  /** The effective parties (configured, or learned from the rights); empty: any party. */
  parties: readonly string[];
  /** Where the parties came from (settings, the token's rights, a fallback), when known. */
  source?: PartySource;
  /** Party → the right that let it read ("*": the any-party right), where the rights are known. */
  rights?: Readonly<Record<string, string>>;
}

export function sameAsker(a: AskedAs, b: AskedAs): boolean {
  return sameIdentity(a.identity, b.identity) && partiesKey(a.parties) === partiesKey(b.parties);
}

function partiesKey(parties: readonly string[]): string {
  return JSON.stringify([...parties].sort());
}

/** The parties as the UI names them: shortened, or "any party on the node". */
export function partiesName(parties: readonly string[]): string {
  return parties.length > 0 ? parties.map(shortenPartyId).join(', ') : l10n.t('any party on the node');
}

/** "As seen by alice: Alice::1220ab…" */
export function askedAsLine(a: AskedAs): string {
  const line = l10n.t('As seen by {0}: {1}', identityName(a.identity), partiesName(a.parties));
  if (!a.source) return line;
  const from =
    a.source === 'given'
      ? l10n.t('parties as asked')
      : a.source === 'settings'
        ? l10n.t('parties from the settings')
        : a.source === 'rights'
          ? l10n.t("parties from the token's rights")
          : l10n.t('rights not known');
  const rights =
    a.parties.length === 0
      ? (a.rights?.['*'] ?? '')
      : a.parties
          .map((p) => (a.rights?.[p] ? `${a.rights[p]} ${shortenPartyId(p)}` : ''))
          .filter(Boolean)
          .join(', ');
  return `${line} (${rights ? `${rights}; ` : ''}${from})`;
}

/**
 * The key of a remembered answer: the node's URL, who asked, the parties read as, the request form
 * and the id. Two identities never share one.
 */
export function lookupKey(url: string, identity: LedgerIdentity, parties: readonly string[] | undefined, form: string, id: string): string {
  return JSON.stringify([url, identity.key, [...(parties ?? [])].sort(), form, id]);
}

/** What a panel says when the node's identity changed after it asked; undefined when it did not. */
export function identityChangeNotice(nodeName: string, asked: AskedAs, now: AskedAs): { text: string; button: string } | undefined {
  if (sameAsker(asked, now)) return undefined;
  const was = identityName(asked.identity);
  const is = identityName(now.identity);
  const button = l10n.t('Ask Again as {0}', is);
  if (!sameIdentity(asked.identity, now.identity)) {
    return was === is
      ? { text: l10n.t('Asked with an earlier token ({0}); the token of {1} has changed since.', was, nodeName), button }
      : { text: l10n.t('Asked as {0}; the token of {1} is now {2}.', was, nodeName, is), button };
  }
  return { text: l10n.t('Asked as {0} for {1}; {2} now reads as {3}.', was, partiesName(asked.parties), nodeName, partiesName(now.parties)), button };
}

/**
 * The last identity seen per node, and whether it changed: every token a request sends goes
 * through `observe`, so a change (a new token, another OAuth2 subject) is noticed where it happens.
 */
export class IdentityTracker {
  private readonly seen = new Map<string, { identity: LedgerIdentity; mark: string }>();

  /**
   * Records a node's identity; `mark` tells its tokens apart (a digest for a pasted token, the
   * identity key for refreshed ones). Returns the previous identity when something changed, or when
   * `force` says a token was set or cleared; undefined otherwise (and on the first observation).
   */
  observe(node: string, identity: LedgerIdentity, mark: string, force = false): { previous: LedgerIdentity | undefined } | undefined {
    const last = this.seen.get(node);
    this.seen.set(node, { identity, mark });
    if (force) return { previous: last?.identity };
    if (!last || last.mark === mark) return undefined;
    return { previous: last.identity };
  }

  current(node: string): LedgerIdentity | undefined {
    return this.seen.get(node)?.identity;
  }

  forget(node: string): void {
    this.seen.delete(node);
  }
}

/** The token a request sends and whose it is, resolved once for the request. */
export interface Credentials {
  token: string | undefined;
  identity: LedgerIdentity;
}
