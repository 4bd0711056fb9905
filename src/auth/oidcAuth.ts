// Sign-in through the node's OpenID Connect provider (Keycloak, Auth0, Okta…): the node's `auth`
// entry, and what a person is told about the tokens it gives. The protocol itself is in
// oidcProtocol.ts, loaded on the first sign-in or renewal.
import * as l10n from '../l10n/l10n';
import { cantonTokenProblem } from './cantonTokenFormat';
import { decodeJwtClaims } from './jwtClaims';

/** A node's `auth` entry for signing in (`cantonLens.nodes`). */
export interface OidcSignInAuth {
  type: 'oidc';
  /** The issuer URL; its `.well-known/openid-configuration` names every endpoint. */
  issuer: string;
  /** A public client (no secret): the editor cannot keep one. */
  clientId: string;
  /** Canton's audience-based tokens: the participant's audience, sent as `audience` and `resource`. */
  audience?: string;
  /** Canton's scope-based tokens: for instance `daml_ledger_api`. */
  scope?: string;
  /** `browser`: authorization code with PKCE; `device`: the device authorization grant. */
  flow: 'browser' | 'device';
  /** Where the browser comes back: a loopback server, or the editor's own URI handler. */
  redirect: 'loopback' | 'uriHandler';
}

/** The tokens of one sign-in or renewal. */
export interface OidcTokens {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Kept in SecretStorage only; absent when the provider gives none. */
  refreshToken?: string;
}

/** What a person needs for the device flow: where to go, and the code to enter there. */
export interface DeviceCodePrompt {
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  expiresInSeconds: number;
}

/** The scopes asked: OpenID, a refresh token, and the node's own scope (scope-based tokens). */
export function requestedScopes(auth: Pick<OidcSignInAuth, 'scope'>): string {
  const scopes = ['openid', 'offline_access', ...(auth.scope ?? '').split(/\s+/).filter(Boolean)];
  return [...new Set(scopes)].join(' ');
}

/** The extra authorization and token parameters that ask for the node's audience. */
export function audienceParameters(auth: Pick<OidcSignInAuth, 'audience'>): Record<string, string> {
  // Auth0 reads `audience`; RFC 8707 providers (oidc-provider, Okta custom servers) read `resource`.
  return auth.audience ? { audience: auth.audience, resource: auth.audience } : {};
}

/**
 * Why a node is likely to refuse a token from the provider, or undefined when it reads as Canton
 * accepts it (src/auth/cantonTokenFormat.ts): the claim, the node's answer, and what to change at
 * the provider. Opaque tokens are not judged.
 */
export function ledgerTokenProblem(token: string, auth: Pick<OidcSignInAuth, 'audience' | 'scope'>, participantId?: string): string | undefined {
  const claims = decodeJwtClaims(token);
  if (!claims) return undefined;
  return cantonTokenProblem({ audiences: claims.audience ?? [], scopes: claims.scopes ?? [] }, { audience: auth.audience, scope: auth.scope, participantId });
}

/**
 * Why the node refused (401, 403) a token, from its claims against the node's participant id: the
 * one any identity read, else read with the refused token itself (the endpoint is public, so only a
 * token the node cannot accept fails to read it). Undefined when the claims do not explain it.
 */
export async function refusedTokenProblem(
  token: string,
  auth: Pick<OidcSignInAuth, 'audience' | 'scope'>,
  client: {
    participantIdKnown: string | undefined;
    getParticipantId(opts: { auth: { token: string }; signal: AbortSignal }): Promise<{ participantId: string }>;
  },
  path: string,
): Promise<string | undefined> {
  const claims = decodeJwtClaims(token);
  if (!claims) return undefined;
  // The id matters only to a token with an `aud` on a node without a target-audience.
  const needsId = (claims.audience?.length ?? 0) > 0 && !auth.audience && path !== PARTICIPANT_ID_PATH;
  const read = () =>
    client.getParticipantId({ auth: { token }, signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.participantId,
      () => undefined,
    );
  const participantId = client.participantIdKnown ?? (needsId ? await read() : undefined);
  return ledgerTokenProblem(token, { audience: auth.audience, scope: auth.scope }, participantId);
}

const PARTICIPANT_ID_PATH = '/v2/parties/participant-id';

/** Checks a node's `auth` entry of type `oidc`; returns the entry, or the problem. */
export function parseOidcAuth(a: Record<string, unknown>, urlProblem: (raw: unknown) => string | undefined): OidcSignInAuth | string {
  const bad = urlProblem(a.issuer);
  if (bad) return l10n.t('has an auth issuer that {0}', bad.replace(/^has /, 'is '));
  if (typeof a.clientId !== 'string' || !a.clientId) return l10n.t('has an auth entry without clientId');
  if (a.flow !== undefined && a.flow !== 'browser' && a.flow !== 'device')
    return l10n.t('has an auth flow {0} (use "browser" or "device")', JSON.stringify(a.flow));
  if (a.redirect !== undefined && a.redirect !== 'loopback' && a.redirect !== 'uriHandler')
    return l10n.t('has an auth redirect {0} (use "loopback" or "uriHandler")', JSON.stringify(a.redirect));
  return {
    type: 'oidc',
    issuer: (a.issuer as string).trim().replace(/\/+$/, ''),
    clientId: a.clientId,
    audience: typeof a.audience === 'string' && a.audience ? a.audience : undefined,
    scope: typeof a.scope === 'string' && a.scope ? a.scope : undefined,
    flow: a.flow === 'device' ? 'device' : 'browser',
    redirect: a.redirect === 'uriHandler' ? 'uriHandler' : 'loopback',
  };
}
