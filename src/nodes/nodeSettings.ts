// The `cantonLens.nodes` setting, checked: good entries are used, bad ones are reported once
// and skipped, so one typo in a shared settings file does not take the others down.
import type { ClientCredentialsAuth } from '../auth/clientCredentials';
import { parseOidcAuth, type OidcSignInAuth } from '../auth/oidcAuth';
import * as l10n from '../l10n/l10n';

export interface NodeConfig {
  name: string;
  /** The JSON API base URL, normalised (no trailing slash, query or fragment). */
  url: string;
  parties?: string[];
  userId?: string;
  /** A PEM file of extra CAs to trust for this node, besides the system ones. */
  caFile?: string;
  /** Tokens from OAuth2 client credentials, or from signing in, instead of a pasted token. */
  auth?: ClientCredentialsAuth | OidcSignInAuth;
  /** Where the entry came from: tokens are not used with workspace entries in untrusted workspaces. */
  scope: 'user' | 'workspace';
}

export interface NodeSettingsResult {
  nodes: NodeConfig[];
  problems: string[];
}

/** Checks a URL for a node or token endpoint; returns the problem, or undefined when fine. */
export function urlProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return l10n.t('has no URL');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) {
    return l10n.t('has a URL without http:// or https:// ("{0}"; did you mean http://{0}?)', raw.trim());
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return l10n.t('has an invalid URL "{0}" (expected e.g. http://localhost:7575 or https://host/api/json)', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return l10n.t('has a URL with an unsupported scheme "{0}" (use http or https)', url.protocol);
  if (url.username || url.password) return l10n.t('has a user name or password in its URL (set a token instead)');
  return undefined;
}

export function normaliseUrl(raw: string): string {
  const url = new URL(raw.trim());
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;

/** Reads user and workspace entries (workspace entries win on a name clash, as settings do). */
export function parseNodeSettings(userValue: unknown, workspaceValue: unknown): NodeSettingsResult {
  const problems: string[] = [];
  const byName = new Map<string, NodeConfig>();
  const read = (value: unknown, scope: NodeConfig['scope']) => {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) {
      problems.push(l10n.t('cantonLens.nodes in {0} settings is not a list; it is ignored.', scope));
      return;
    }
    const seen = new Set<string>();
    value.forEach((entry: unknown, i) => {
      const where = `cantonLens.nodes[${i}] (${scope} settings)`;
      if (typeof entry !== 'object' || entry === null) {
        problems.push(l10n.t('{0} is not an object; it is skipped.', where));
        return;
      }
      const e = entry as Record<string, unknown>;
      const name = typeof e.name === 'string' ? e.name.trim() : '';
      if (!name) {
        problems.push(l10n.t('{0} has no name; it is skipped.', where));
        return;
      }
      const label = `Node "${name}" in ${scope} settings`;
      if (seen.has(name)) {
        problems.push(l10n.t('{0} is listed twice; the second entry is skipped.', label));
        return;
      }
      seen.add(name);
      const bad = urlProblem(e.url);
      if (bad) {
        problems.push(l10n.t('{0} {1}; it is skipped.', label, bad));
        return;
      }
      const node: NodeConfig = { name, url: normaliseUrl(e.url as string), scope };
      if (e.parties !== undefined) {
        const parties = Array.isArray(e.parties) ? e.parties.filter((p): p is string => typeof p === 'string' && PARTY.test(p)) : [];
        if (!Array.isArray(e.parties) || parties.length !== e.parties.length) {
          problems.push(l10n.t('{0} has parties that are not party ids (name::1220…); only the valid ones are used.', label));
        }
        if (parties.length > 0) node.parties = parties;
      }
      if (typeof e.userId === 'string' && e.userId) node.userId = e.userId;
      if (typeof e.caFile === 'string' && e.caFile) node.caFile = e.caFile;
      if (e.auth !== undefined) {
        const auth = parseAuth(e.auth);
        if (typeof auth === 'string') problems.push(l10n.t('{0} {1}; it uses a pasted token instead.', label, auth));
        else node.auth = auth;
      }
      byName.set(name, node);
    });
  };
  read(userValue, 'user');
  read(workspaceValue, 'workspace');
  return { nodes: [...byName.values()], problems };
}

function parseAuth(value: unknown): ClientCredentialsAuth | OidcSignInAuth | string {
  if (typeof value !== 'object' || value === null) return l10n.t('has an auth entry that is not an object');
  const a = value as Record<string, unknown>;
  if (a.type === 'oidc') return parseOidcAuth(a, urlProblem);
  if (a.type !== 'clientCredentials') return l10n.t('has an unknown auth type {0} (use "clientCredentials" or "oidc")', JSON.stringify(a.type) ?? 'undefined');
  const bad = urlProblem(a.tokenUrl);
  if (bad) return l10n.t('has an auth tokenUrl that {0}', bad.replace(/^has /, 'is '));
  if (typeof a.clientId !== 'string' || !a.clientId) return l10n.t('has an auth entry without clientId');
  return {
    type: 'clientCredentials',
    tokenUrl: (a.tokenUrl as string).trim(),
    clientId: a.clientId,
    audience: typeof a.audience === 'string' && a.audience ? a.audience : undefined,
    scope: typeof a.scope === 'string' && a.scope ? a.scope : undefined,
  };
}

/**
 * The SecretStorage key of a node's token: bound to its name and URL origin, so a URL edited in
 * (possibly shared) settings never gets the token stored for another origin.
 */
export function tokenSecretKey(node: Pick<NodeConfig, 'name' | 'url'>): string {
  return `cantonLens.token/${encodeURIComponent(node.name)}@${new URL(node.url).origin}`;
}

/** The key of an OAuth2 client secret: bound to the node's name, token endpoint origin and client id. */
export function clientSecretKey(node: Pick<NodeConfig, 'name'>, auth: ClientCredentialsAuth): string {
  return `cantonLens.clientSecret/${encodeURIComponent(node.name)}@${new URL(auth.tokenUrl).origin}/${encodeURIComponent(auth.clientId)}`;
}

/** The key of a sign-in's refresh token: bound to the node's name, the issuer's origin and the client id. */
export function refreshTokenSecretKey(node: Pick<NodeConfig, 'name'>, auth: OidcSignInAuth): string {
  return `cantonLens.refreshToken/${encodeURIComponent(node.name)}@${new URL(auth.issuer).origin}/${encodeURIComponent(auth.clientId)}`;
}

/**
 * Whether stored tokens may be sent to a node. Not to nodes from an untrusted workspace's
 * settings: a cloned repository could otherwise point a known node name at its own server.
 */
export function mayUseStoredToken(node: Pick<NodeConfig, 'scope'>, workspaceTrusted: boolean): boolean {
  return node.scope === 'user' || workspaceTrusted;
}
