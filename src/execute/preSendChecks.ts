// What is checked before an execute request may be sent, from the decoded prepared transaction,
// the keys known locally and the token: each finding blocks the submission or warns about it.
// Pure (node:crypto only): the review panel shows the findings, the tests call it directly.
import type * as Crypto from 'node:crypto';
import type { ExecuteRight } from '../auth/userRights';
import * as l10n from '../l10n/l10n';
import { executeTimeWarning } from './executeTimeWarnings';

export type FindingId = 'actingParty' | 'hash' | 'signature' | 'rights' | 'showRights' | 'time' | 'scheme' | 'version' | 'types';

export interface Finding {
  id: FindingId;
  severity: 'block' | 'warn' | 'ok';
  text: string;
}

export interface SignatureEntry {
  format: string;
  signature: string;
  signedBy: string;
  signingAlgorithmSpec: string;
}

export interface PreSendInput {
  /** The signing party of the request. */
  party: string;
  /** The acting parties of the decoded prepared transaction (metadata.submitterInfo.actAs); undefined when it did not decode. */
  actAs?: string[];
  hashingSchemeVersion?: string;
  /** The hash recomputed locally (base64), when the scheme allows. */
  computedHash?: string;
  /** The hash the request says the signatures cover (base64). */
  claimedHash?: string;
  signatures: SignatureEntry[];
  /** The request has no signature yet (a review right after prepare). */
  unsigned?: boolean;
  /** The public key (SPKI DER, base64) of a fingerprint known locally (development keys). */
  knownPublicKey?: (fingerprint: string) => string | undefined;
  /** The token's user, and the request's userId. */
  tokenUser?: string;
  userId?: string;
  /** The user's rights from the node (executeRightsOf); undefined when they could not be read. */
  rights?: ExecuteRight[];
  /** Why the rights are not known, when they are not. */
  rightsUnknownReason?: string;
  preparationTime?: string;
  minLedgerEffectiveTime?: string;
  maxLedgerEffectiveTime?: string;
  maxRecordTime?: string;
  /** The node's version (GET /v2/version), when known: what its API decodes. */
  nodeVersion?: string;
  now?: Date;
}

// node:crypto on first use: activation need not pay for it.
const crypto = (): typeof Crypto => require('node:crypto') as typeof Crypto;
const short = (party: string) => party.split('::')[0] ?? party;

export function preSendChecks(input: PreSendInput): Finding[] {
  const findings: Finding[] = [];
  const add = (id: FindingId, severity: Finding['severity'], text: string) => findings.push({ id, severity, text });
  const now = input.now ?? new Date();

  if (input.actAs !== undefined) {
    if (input.actAs.includes(input.party))
      add('actingParty', 'ok', l10n.t('{0} signs, and is an acting party of the prepared transaction.', short(input.party)));
    else {
      add(
        'actingParty',
        'block',
        input.actAs.length === 0
          ? l10n.t('The prepared transaction names no acting party, but {0} signs it. The node would refuse it.', input.party)
          : l10n.t(
              'The signing party {0} is not an acting party of the prepared transaction, which acts as {1}. Sign as that party, or prepare the transaction to act as {0}.',
              input.party,
              input.actAs.join(', '),
            ),
      );
    }
  }

  if (input.computedHash && input.claimedHash && input.computedHash !== input.claimedHash) {
    add('hash', 'block', l10n.t('The recomputed hash differs from the hash the signatures cover: this is not the transaction that was signed.'));
  }

  if (input.unsigned) {
    add(
      'signature',
      'block',
      l10n.t(
        "Not signed yet: sign the hash as {0} (Sign with Development Key, or paste an external signer's signature into partySignatures), then Check Again.",
        short(input.party),
      ),
    );
  }

  // A signature made with a key known locally is verified over the hash it must cover.
  const covered = input.computedHash ?? input.claimedHash;
  for (const s of input.signatures) {
    const publicKey = input.knownPublicKey?.(s.signedBy);
    if (!publicKey || s.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_ED25519') continue;
    if (!covered) {
      add('signature', 'warn', l10n.t('The signature of key {0} cannot be verified: no hash is known for this transaction.', s.signedBy));
      continue;
    }
    let ok: boolean;
    try {
      const { createPublicKey, verify } = crypto();
      ok = verify(
        null,
        Buffer.from(covered, 'base64'),
        createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }),
        Buffer.from(s.signature, 'base64'),
      );
    } catch {
      ok = false;
    }
    add(
      'signature',
      ok ? 'ok' : 'block',
      ok
        ? l10n.t('The Ed25519 signature of key {0} (known locally) verifies over the hash.', s.signedBy)
        : l10n.t(
            "The Ed25519 signature of key {0} (known locally) does not verify over this transaction's hash: it signs something else. Sign the hash again.",
            s.signedBy,
          ),
    );
  }

  if (input.tokenUser && input.userId && input.userId !== input.tokenUser) {
    add('rights', 'block', l10n.t('userId is "{0}" but the token is for user "{1}": the node would refuse it (403).', input.userId, input.tokenUser));
  } else if (input.rights !== undefined) {
    const can = mayExecuteAs(input.rights, input.party);
    add(
      'rights',
      can ? 'ok' : 'block',
      can
        ? l10n.t('User {0} may execute as {1}.', input.tokenUser ?? '?', short(input.party))
        : l10n.t(
            'User {0} has neither CanActAs nor CanExecuteAs for {1}: the node would refuse it (403). Grant the right first.',
            input.tokenUser ?? '?',
            input.party,
          ),
    );
    const hidden = can ? transactionHiddenFrom(input.rights, input.party, input.tokenUser) : undefined;
    if (hidden) add('showRights', 'warn', hidden);
  } else {
    add(
      'rights',
      'warn',
      input.rightsUnknownReason
        ? l10n.t(
            'The rights of user {0} could not be read from the node ({1}): it needs CanActAs or CanExecuteAs for {2}.',
            input.tokenUser ?? l10n.t("(the token's user)"),
            input.rightsUnknownReason,
            short(input.party),
          )
        : l10n.t(
            'The rights of user {0} for {1} were not read from the node: it needs CanActAs or CanExecuteAs for that party.',
            input.tokenUser ?? l10n.t("(the token's user)"),
            short(input.party),
          ),
    );
  }

  // What the node checks of the times once it accepts the execute (the first that fails is its answer).
  const late = executeTimeWarning(input, now.getTime());
  if (late) add('time', 'warn', late.text);

  // Canton 3.4's JSON API has no V3 in its enum: the node would refuse the body as undecodable.
  if (input.hashingSchemeVersion === 'HASHING_SCHEME_VERSION_V3' && /^3\.4\b/.test(input.nodeVersion ?? '')) {
    add(
      'version',
      'block',
      l10n.t(
        'A Canton {0} node does not know HASHING_SCHEME_VERSION_V3 (its API has V2) and would refuse the request as undecodable. Prepare the transaction on this node: it answers with a scheme it knows.',
        input.nodeVersion!,
      ),
    );
  } else if (input.hashingSchemeVersion && input.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_V2') {
    add(
      'scheme',
      'warn',
      l10n.t(
        'The hash is not checked locally for {0}: its algorithm is not published as a specification Canton Lens can implement (only V2 is). The node checks it.',
        input.hashingSchemeVersion,
      ),
    );
  }
  return findings;
}

/** CanActAs or CanExecuteAs for the party, or their any-party forms: what execute needs of each signing party. */
export function mayExecuteAs(rights: readonly ExecuteRight[], party: string): boolean {
  return rights.some(
    (r) =>
      r === 'canActAsAnyParty' ||
      r === 'canExecuteAsAnyParty' ||
      (typeof r === 'object' && (('canActAs' in r && r.canActAs === party) || ('canExecuteAs' in r && r.canExecuteAs === party))),
  );
}

/** A read right for the party (Canton's Claims.canReadAs): CanActAs, CanReadAs or an any-party form of either. CanExecuteAs is none. */
export function mayReadAs(rights: readonly ExecuteRight[], party: string): boolean {
  return rights.some(
    (r) =>
      r === 'canActAsAnyParty' ||
      r === 'canReadAsAnyParty' ||
      (typeof r === 'object' && (('canActAs' in r && r.canActAs === party) || ('canReadAs' in r && r.canReadAs === party))),
  );
}

/**
 * Why the node will not show this user the committed transaction (executeAndWaitForTransaction's
 * transaction format reads as the party), or undefined when it will or the rights are not known.
 */
export function transactionHiddenFrom(rights: readonly ExecuteRight[] | undefined, party: string, tokenUser: string | undefined): string | undefined {
  if (!rights || mayReadAs(rights, party)) return undefined;
  return l10n.t(
    'User {0} may execute as {1} but not read as it (CanExecuteAs is not a read right), so the node would refuse to show the committed transaction (403). Submit and Show Transaction submits with executeAndWait instead and shows the update id; grant CanReadAs {1} to see the transaction.',
    tokenUser ?? l10n.t("(the token's user)"),
    short(party),
  );
}

/** The acting parties a user may not prepare for: preparing reads as every actAs and readAs party. */
export function partiesPrepareCannotRead(rights: readonly ExecuteRight[], parties: readonly string[]): string[] {
  return parties.filter((p) => !mayReadAs(rights, p));
}

export const blocking = (findings: Finding[]) => findings.filter((f) => f.severity === 'block');
