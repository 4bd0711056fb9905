// The fake node's routes around interactive submission: the outcome of a submission
// (`/v2/commands/completions` on every version; `completion-by-hash` and `update-by-hash` on 3.6,
// the only spec that has them), `executeAndWaitForTransaction`, and external party allocation
// (`/v2/parties/external/generate-topology`, then `/v2/parties/external/allocate` with the key's
// signature over the multi-hash). Each follows the node's stages (docs/fake-node.md); the data is
// the ledger's InteractiveState (interactiveSubmissions.ts). No `vscode` import.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { EventFormat } from './apiTypes';
import { keyFingerprint, rawEd25519Key, topologyMultiHash } from './cantonHashes';
import { checkOffset, offsetAfterLedgerEnd } from './browseRoutes';
import { cantonError, invalidArgument, invalidField, json, missingField, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, UserRight } from './demoLedgerData';
import { judgeExecuteRequest, decodeExecuteRequest } from './executeChecks';
import { commitSubmission, judgePrepared, type CommitOptions } from './interactiveCommits';
import { checkExternalSignatures, interactiveState, knowExternalParty, type SubmissionRecord } from './interactiveSubmissions';
import type { FakeVersion, LedgerQueries, UpdateFormatBody } from './ledgerQueries';

export interface InteractiveContext {
  ledger: () => DemoLedger;
  version: () => FakeVersion;
  queries: () => LedgerQueries;
  auth: () => boolean;
  rights: (user: string) => UserRight[];
  canReadAs: (user: string, party: string) => boolean;
  /** The rights stage of execute (MatchUserId, execute rights for the signing party). */
  executeRights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  updateFormatRights: (user: string, format: UpdateFormatBody | undefined) => ErrorReply | undefined;
  checkUpdateFormat: (format: UpdateFormatBody | undefined) => ErrorReply | undefined;
  checkEventFormat: (format: unknown, field: string) => ErrorReply | undefined;
  commitOptions: () => CommitOptions;
  recordExecution: (party: string, body: Record<string, unknown>, user: string) => void;
  ledgerEnd: () => number;
}

export interface InteractiveEndpoint {
  method: 'POST';
  versions?: FakeVersion[];
  decode?: (body: Record<string, unknown>) => ErrorReply | undefined;
  rights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams) => ErrorReply | Promise<ErrorReply>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const completionNotFound = (hash: string) =>
  cantonError(404, 'COMPLETION_NOT_FOUND', `Completion not found for transaction hash ${hash.slice(0, 100)}`, 11, 5, [
    ['TRANSACTION_HASH', hash.slice(0, 100)],
  ]);

/** A completion as the JSON API writes it (Completion1); `transactionHash` only where the spec has it (3.6). */
function completionOf(r: SubmissionRecord, version: FakeVersion): Record<string, unknown> {
  const c: Record<string, unknown> = {
    commandId: r.commandId,
    status: r.status ?? { code: 0, message: '', details: [] },
    updateId: r.updateId,
    userId: r.userId,
    actAs: r.actAs,
    submissionId: r.submissionId,
    traceContext: r.traceContext,
    offset: r.completionOffset,
    synchronizerTime: { synchronizerId: r.synchronizerId, recordTime: r.recordTime },
    paidTrafficCost: 0,
  };
  if (version === '3.6' && r.hash) c.transactionHash = r.hash;
  return c;
}

interface CompletionsRequest {
  userId: string;
  parties: string[];
  begin: number;
}

/**
 * The semantic checks of a completions request, in Canton's order
 * (`CompletionServiceRequestValidator`): the offset, then after the ledger end, then the parties.
 * An empty user id is the token's (`MatchUserId` fills it in); the rights are the route's.
 */
function completionsRequest(user: string, b: Record<string, unknown>, ledgerEnd: number): CompletionsRequest | ErrorReply {
  const begin = typeof b.beginExclusive === 'number' ? b.beginExclusive : 0;
  const negative = checkOffset(begin, 'begin_exclusive');
  if (negative) return negative;
  if (begin > ledgerEnd) return offsetAfterLedgerEnd('Begin', begin, ledgerEnd);
  const parties = (b.parties as string[] | undefined) ?? [];
  if (parties.length === 0) return missingField('parties');
  return { userId: (b.userId as string | undefined) || user, parties, begin };
}

function completionsAfter(ledger: DemoLedger, q: CompletionsRequest): SubmissionRecord[] {
  return interactiveState(ledger).submissions.filter(
    (r) => r.userId === q.userId && r.completionOffset > q.begin && r.actAs.some((p) => q.parties.includes(p)),
  );
}

export const completionResponse = (r: SubmissionRecord, version: FakeVersion) => ({ completionResponse: { Completion: { value: completionOf(r, version) } } });

/**
 * The completions channel (websocket): the user's completions for the parties after
 * beginExclusive, then each new one as it comes, until the client closes (a live stream).
 */
export function completionsStream(
  ledger: () => DemoLedger,
  version: FakeVersion,
  ledgerEnd: number,
  user: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
): ErrorReply | AsyncIterable<unknown> {
  const request = completionsRequest(user, body, ledgerEnd);
  if ('status' in request) return request;
  return (async function* () {
    let begin = request.begin;
    while (!signal.aborted) {
      const found = completionsAfter(ledger(), { ...request, begin });
      for (const r of found) {
        yield completionResponse(r, version);
        begin = r.completionOffset;
      }
      if (found.length === 0) await sleep(50);
    }
  })();
}

/** The endpoints, by path, to spread into the node's table. */
export function interactiveEndpoints(ctx: InteractiveContext): Record<string, InteractiveEndpoint> {
  const isAdmin = (user: string) => !ctx.auth() || ctx.rights(user).includes('participantAdmin');
  const matchUserId = (user: string, b: Record<string, unknown>) => ctx.auth() && typeof b.userId === 'string' && b.userId !== '' && b.userId !== user;
  const byHash = (user: string, hash: string) =>
    interactiveState(ctx.ledger())
      .submissions.filter((r) => r.hash === hash && (r.userId === user || r.actAs.some((p) => ctx.canReadAs(user, p)) || isAdmin(user)))
      .at(-1);
  const badHash = (hash: unknown) => {
    if (typeof hash !== 'string' || hash === '') return missingField('transaction_hash');
    if (!BASE64.test(hash) || Buffer.from(hash, 'base64').length !== 32)
      return invalidField('transaction_hash', `"${hash.slice(0, 80)}" is not a transaction hash (32 bytes, base64)`);
    return undefined;
  };

  return {
    // CommandCompletionService.CompletionStream as a list: the user's completions for the parties
    // after beginExclusive; waits up to stream_idle_timeout_ms when there are none yet.
    '/v2/commands/completions': {
      method: 'POST',
      rights: (user, b) => {
        if (matchUserId(user, b)) return redacted(403);
        const parties = Array.isArray(b.parties) ? (b.parties as string[]) : [];
        return parties.some((p) => !ctx.canReadAs(user, p)) ? redacted(403) : undefined;
      },
      handle: async (user, b, q) => {
        const request = completionsRequest(user, b, ctx.ledgerEnd());
        if ('status' in request) return request;
        const limit = Math.min(Number(q.get('limit') ?? 1000) || 1000, 1000);
        const idle = Math.min(Number(q.get('stream_idle_timeout_ms') ?? 0) || 0, 30_000);
        let list = completionsAfter(ctx.ledger(), request).slice(0, limit);
        for (let waited = 0; list.length === 0 && waited < idle; waited += 50) {
          await sleep(50);
          list = completionsAfter(ctx.ledger(), request).slice(0, limit);
        }
        return json(
          200,
          list.map((r) => completionResponse(r, ctx.version())),
        );
      },
    },
    '/v2/commands/completion-by-hash': {
      method: 'POST',
      versions: ['3.6'],
      rights: () => undefined,
      handle: (user, b) => {
        const bad = badHash(b.transactionHash);
        if (bad) return bad;
        const r = byHash(user, b.transactionHash as string);
        return r
          ? json(200, { acceptedCompletion: completionOf(r, ctx.version()), lastRejectedCompletions: [] })
          : completionNotFound(b.transactionHash as string);
      },
    },
    '/v2/updates/update-by-hash': {
      method: 'POST',
      versions: ['3.6'],
      rights: (user, b) => ctx.updateFormatRights(user, b.updateFormat as UpdateFormatBody | undefined),
      handle: (_user, b) => {
        const bad = badHash(b.transactionHash) ?? ctx.checkUpdateFormat(b.updateFormat as UpdateFormatBody | undefined);
        if (bad) return bad;
        const hash = b.transactionHash as string;
        const r = interactiveState(ctx.ledger())
          .submissions.filter((s) => s.hash === hash)
          .at(-1);
        const update = r && ctx.queries().update(r.updateId, b.updateFormat as UpdateFormatBody, ctx.version());
        return update
          ? json(200, { update })
          : cantonError(404, 'UPDATE_NOT_FOUND', `Update not found for transaction hash ${hash.slice(0, 100)}`, 11, 5, [
              ['TRANSACTION_HASH', hash.slice(0, 100)],
            ]);
      },
    },
    '/v2/interactive-submission/executeAndWaitForTransaction': {
      method: 'POST',
      decode: (b) => decodeExecuteRequest(b),
      rights: (user, b) => {
        const denied = ctx.executeRights(user, b);
        if (denied) return denied;
        // The transaction format's parties need read rights, as any read's do (CanExecuteAs is none).
        const format = (b.transactionFormat as { eventFormat?: EventFormat } | undefined)?.eventFormat;
        if (format?.filtersForAnyParty && !ctx.rights(user).some((r) => r === 'canReadAsAnyParty' || r === 'canActAsAnyParty')) return redacted(403);
        if (Object.keys(format?.filtersByParty ?? {}).some((p) => !ctx.canReadAs(user, p))) return redacted(403);
        return undefined;
      },
      handle: async (user, b) => {
        const check = judgeExecuteRequest(b);
        if (check.error) return check.error;
        const tf = b.transactionFormat as { eventFormat?: EventFormat; transactionShape?: string } | undefined;
        if (tf) {
          const bad = ctx.checkEventFormat(tf.eventFormat, 'transaction_format.event_format');
          if (bad) return bad;
        }
        const refused = await checkExternalSignatures(ctx.ledger(), b);
        if (refused) return refused;
        const unknown = judgePrepared(b);
        if (unknown) return unknown;
        ctx.recordExecution(check.party!, b, user);
        const record = await commitSubmission(ctx.ledger(), user, b, check.party!, ctx.commitOptions());
        if (!record) return cantonError(504, 'REQUEST_TIME_OUT', 'Timed out while awaiting for a completion corresponding to a command submission.', 3, 4);
        // Without a transaction format: the submitting party's view, ACS-delta shape (the default of the JSON API).
        const format: EventFormat = tf?.eventFormat ?? {
          filtersByParty: { [check.party!]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } },
          verbose: true,
        };
        const shape = tf?.transactionShape ?? 'TRANSACTION_SHAPE_ACS_DELTA';
        const transaction = ctx.queries().transaction(record.updateId, format, shape, ctx.version()) ?? {
          updateId: record.updateId,
          commandId: record.commandId,
          workflowId: '',
          effectiveAt: record.recordTime,
          events: [],
          offset: record.completionOffset,
          synchronizerId: record.synchronizerId,
          traceContext: record.traceContext,
          recordTime: record.recordTime,
        };
        return json(200, { transaction });
      },
    },
    // PartyManagementService.GenerateExternalPartyTopology: the onboarding transactions of a party
    // whose namespace and signing key are the given key, and the multi-hash to sign.
    '/v2/parties/external/generate-topology': {
      method: 'POST',
      rights: (user) => (isAdmin(user) ? undefined : redacted(403)),
      handle: async (_user, b) => {
        const ledger = ctx.ledger();
        if (b.synchronizer !== ledger.synchronizerId) return invalidField('synchronizer', `unknown synchronizer ${String(b.synchronizer).slice(0, 80)}`);
        const hint = typeof b.partyHint === 'string' ? b.partyHint : JSON.stringify(b.partyHint ?? '');
        if (!/^[A-Za-z0-9_\- ]{1,185}$/.test(hint)) return invalidField('party_hint', `"${hint.slice(0, 80)}" is not a valid party hint`);
        const key = b.publicKey as { format: string; keyData: string; keySpec: string };
        if (key.keySpec !== 'SIGNING_KEY_SPEC_EC_CURVE25519')
          return invalidArgument(`Unsupported key spec ${String(key.keySpec).slice(0, 60)}: this participant takes SIGNING_KEY_SPEC_EC_CURVE25519 (Ed25519)`);
        let fingerprint: string;
        try {
          fingerprint = await keyFingerprint(Buffer.from(key.keyData, 'base64'));
        } catch {
          return invalidField('public_key', 'not an Ed25519 public key (CRYPTO_KEY_FORMAT_RAW or DER_X509_SUBJECT_PUBLIC_KEY_INFO)');
        }
        const partyId = `${hint}::${fingerprint}`;
        const transactions = ['NamespaceDelegation', 'PartyToKeyMapping', 'PartyToParticipant'].map((m) =>
          createHash('sha256').update(`${m}:${partyId}:${ledger.participantId}`).digest(),
        );
        const multiHash = await topologyMultiHash(transactions);
        interactiveState(ledger).pendingParties.set(multiHash, { partyId, fingerprint, rawKey: Buffer.from(key.keyData, 'base64') });
        return json(200, { partyId, publicKeyFingerprint: fingerprint, topologyTransactions: transactions.map((t) => t.toString('base64')), multiHash });
      },
    },
    // PartyManagementService.AllocateExternalParty: the onboarding transactions with the party's
    // signature over their multi-hash; from then on the node verifies the party's signatures.
    '/v2/parties/external/allocate': {
      method: 'POST',
      rights: (user, b) => (isAdmin(user) || (typeof b.userId === 'string' && b.userId === user && ctx.version() !== '3.4') ? undefined : redacted(403)),
      handle: async (_user, b) => {
        const ledger = ctx.ledger();
        if (b.synchronizer !== ledger.synchronizerId) return invalidField('synchronizer', `unknown synchronizer ${String(b.synchronizer).slice(0, 80)}`);
        const txs = (b.onboardingTransactions as { transaction: string }[]).map((t) => Buffer.from(t.transaction, 'base64'));
        if (txs.length === 0) return missingField('onboarding_transactions');
        const multiHash = await topologyMultiHash(txs);
        const pending = interactiveState(ledger).pendingParties.get(multiHash);
        if (!pending)
          return invalidArgument(
            'The onboarding transactions are not those of a generated external party topology: call generate-topology first and send its transactions unchanged',
          );
        const sigs = (b.multiHashSignatures as { signature: string; signedBy: string; signingAlgorithmSpec: string }[] | undefined) ?? [];
        const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), rawEd25519Key(pending.rawKey)]);
        const valid = sigs.some((s) => {
          if (s.signedBy !== pending.fingerprint || s.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_ED25519') return false;
          try {
            return verify(
              null,
              Buffer.from(multiHash, 'base64'),
              createPublicKey({ key: spki, format: 'der', type: 'spki' }),
              Buffer.from(s.signature, 'base64'),
            );
          } catch {
            return false;
          }
        });
        if (!valid) return invalidArgument(`The multi-hash signatures do not include a valid signature by ${pending.fingerprint} (the party's namespace key)`);
        if (interactiveState(ledger).externalParties.has(pending.partyId))
          return cantonError(409, 'PARTY_ALREADY_EXISTS', `Party already exists: party ${pending.partyId} is already allocated on this node`, 9, 6);
        knowExternalParty(ledger, pending.partyId, spki);
        // 3.5+: the user named in the request gets the right to act as the new party.
        if (typeof b.userId === 'string' && b.userId !== '' && ctx.version() !== '3.4')
          ledger.users[b.userId] = [...(ledger.users[b.userId] ?? []), { canActAs: pending.partyId }];
        return json(200, { partyId: pending.partyId });
      },
    },
  };
}
