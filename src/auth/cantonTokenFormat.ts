// How a Canton node reads a token's `aud` and `scope` (AuthServiceJWTCodec.readPayload and
// AuthServiceJWT.checkAudienceAndScope, the same in 3.4, 3.5 and 3.6), to say before the token is
// used which claim the node will refuse, how, and what to change at the identity provider. Never
// verifies a token (the node does). No `vscode` import.
import * as l10n from '../l10n/l10n';

/** The prefix of an audience-based token's participant audience. */
export const PARTICIPANT_AUDIENCE = 'https://daml.com/jwt/aud/participant/';
/** The scope of scope-based tokens on a node without target-scope (a protocol value). */
export const LEDGER_API_SCOPE = 'daml_ledger_api';

export interface TokenAudienceAndScope {
  /** `aud`: a string is one value, an array several. */
  audiences: readonly string[];
  /** `scope` split on spaces, else `scp`. */
  scopes: readonly string[];
}

export interface NodeTokenSettings {
  /** The node's target-audience, as the node's auth settings name it. */
  audience?: string;
  /** The node's target-scope (`daml_ledger_api` may also mean no target-scope: the default). */
  scope?: string;
  /** The node's participant id, where known. */
  participantId?: string;
}

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ') || '-';

/**
 * Why the node will refuse the token, naming the claim, the node's answer and what to change at
 * the identity provider; undefined when the node accepts these claims.
 */
export function cantonTokenProblem(claims: TokenAudienceAndScope, node: NodeTokenSettings): string | undefined {
  const { audiences, scopes } = claims;
  if (node.audience) {
    // target-audience: `aud` (string or array) must contain it; the scope is not read.
    if (audiences.includes(node.audience)) return undefined;
    return l10n.t(
      'The token\'s "aud" claim is {0}, without {1}: a node with that target-audience refuses it (401 UNAUTHENTICATED). Have the identity provider add {1} to the token\'s audience (in Keycloak, an audience mapper on the client), or correct "audience" in the node\'s auth settings.',
      list(audiences),
      JSON.stringify(node.audience),
    );
  }
  if (node.scope && !node.scope.split(/\s+/).includes(LEDGER_API_SCOPE)) {
    // target-scope: `scope` must contain it; `aud` is not read.
    const wanted = node.scope.split(/\s+/).filter(Boolean);
    if (wanted.every((s) => scopes.includes(s))) return undefined;
    return l10n.t(
      'The token\'s "scope" claim is {0}, without {1}: a node with that target-scope refuses it (401 UNAUTHENTICATED). Have the identity provider grant the scope to the editor\'s client (in Keycloak, a client scope), or correct "scope" in the node\'s auth settings.',
      list(scopes),
      JSON.stringify(node.scope),
    );
  }
  // No target: a participant audience makes the token audience-based, else the scope
  // daml_ledger_api makes it scope-based, else the node refuses it.
  const participantAudiences = audiences.filter((a) => a.startsWith(PARTICIPANT_AUDIENCE));
  if (participantAudiences.length > 0) {
    const ids = participantAudiences.map((a) => a.slice(PARTICIPANT_AUDIENCE.length)).filter(Boolean);
    if (ids.length === 0)
      return l10n.t(
        'The token\'s "aud" claim names {0} without a participant id: Canton refuses it (401 UNAUTHENTICATED). Have the identity provider put {0} followed by the node\'s participant id in the audience.',
        PARTICIPANT_AUDIENCE,
      );
    if (ids.length > 1)
      return l10n.t(
        'The token\'s "aud" claim names {0} participants ({1}): Canton accepts exactly one participant audience and refuses the token (401 UNAUTHENTICATED). Have the identity provider put only this node\'s participant audience in the token.',
        ids.length,
        list(participantAudiences),
      );
    return node.participantId !== undefined && ids[0] !== node.participantId
      ? l10n.t(
          'The token is for participant {0} ("aud" claim), not this node\'s participant {1}: the node refuses every request with it (403 PERMISSION_DENIED, "Claims are only valid for participantId"). Have the identity provider issue the audience {2}.',
          ids[0],
          node.participantId,
          PARTICIPANT_AUDIENCE + node.participantId,
        )
      : undefined;
  }
  if (!scopes.includes(LEDGER_API_SCOPE))
    return l10n.t(
      'The token\'s "scope" claim is {0}, without {1}, and its "aud" claim {2} names no participant ({3}…): a node without target-audience or target-scope refuses it (401 UNAUTHENTICATED). Have the identity provider add the scope {1} or the participant audience, or set "audience" or "scope" in the node\'s auth settings to what its auth service expects, then sign in again.',
      list(scopes),
      LEDGER_API_SCOPE,
      list(audiences),
      PARTICIPANT_AUDIENCE,
    );
  // A scope-based token: Canton reads its `aud` as the participant id it is for.
  if (audiences.length > 1)
    return l10n.t(
      'The token\'s "aud" claim has {0} values ({1}) beside the scope {2}: a node without target-scope reads "aud" of a scope-based token as the one participant id the token is for, and refuses a token with several (401 UNAUTHENTICATED). Have the identity provider issue no audience or only the node\'s participant id (in Keycloak, remove the audience mappers and the default "account" audience), or issue audience-based tokens ({3}<participant id>).',
      audiences.length,
      list(audiences),
      LEDGER_API_SCOPE,
      PARTICIPANT_AUDIENCE,
    );
  if (audiences.length === 1 && audiences[0] !== node.participantId)
    return node.participantId !== undefined
      ? l10n.t(
          'The token\'s "aud" claim is {0} beside the scope {1}: a node without target-scope reads it as the participant id the token is for, and this node ({2}) refuses every request with it (403 PERMISSION_DENIED, "Claims are only valid for participantId"). Have the identity provider issue no audience or the audience {2}, or issue audience-based tokens ({3}{2}).',
          JSON.stringify(audiences[0]),
          LEDGER_API_SCOPE,
          node.participantId,
          PARTICIPANT_AUDIENCE,
        )
      : l10n.t(
          'The token\'s "aud" claim is {0} beside the scope {1}: a node without target-scope reads it as the participant id the token is for, and refuses every request with it unless that is its participant id (403 PERMISSION_DENIED, "Claims are only valid for participantId"). Have the identity provider issue no audience or the node\'s participant id, or issue audience-based tokens ({2}<participant id>).',
          JSON.stringify(audiences[0]),
          LEDGER_API_SCOPE,
          PARTICIPANT_AUDIENCE,
        );
  return undefined;
}
