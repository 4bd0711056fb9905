// What the fake node remembers of interactive submissions (the prepared transactions, the
// external parties and their keys, the submissions and their completions), and the check of the
// external parties' Ed25519 signatures over a prepared transaction's hash (a wrong one is refused
// as a node refuses it). Prepare itself is preparedTransactions.ts. No `vscode` import.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type * as TxVisualizer from '@canton-network/core-tx-visualizer' with { 'resolution-mode': 'import' };
import { invalidArgument, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, StoredTransaction } from './demoLedgerData';

const { hashPreparedTransaction } = require('@canton-network/core-tx-visualizer') as typeof TxVisualizer;

export interface PreparedRecord {
  hash: string;
  actAs: string[];
  commandId: string;
  userId: string;
  /** What commits: the nodes as the fake built them from the resolved commands, in node order. */
  nodes: PreparedNode[];
}

/** A node of a prepared transaction, with its argument as the JSON it was prepared from. */
export interface PreparedNode {
  kind: 'create' | 'exercise';
  /** The package-id form: the package the node chose for a `#name` reference. */
  templateId: string;
  packageName: string;
  contractId: string;
  choice?: string;
  /** An exercise of an interface's choice: the interface (package-id form). */
  interfaceId?: string;
  consuming?: boolean;
  actingParties?: string[];
  signatories: string[];
  stakeholders: string[];
  argument: unknown;
}

export interface SubmissionRecord {
  submissionId: string;
  updateId: string;
  completionOffset: number;
  userId: string;
  actAs: string[];
  commandId: string;
  /** The prepared transaction's hash (base64), when it decodes. */
  hash?: string;
  recordTime: string;
  synchronizerId: string;
  traceContext: StoredTransaction['traceContext'];
  /** The committed transaction, as update-by-id answers it; none when the command was rejected. */
  transaction?: StoredTransaction;
  /** A rejection's google.rpc.Status (JsStatus), as a failed completion carries it. */
  status?: { code: number; message: string; details: unknown[] };
}

/** What the node remembers of interactive submissions, per ledger. */
export class InteractiveState {
  /** Prepared transactions by their base64 hash. */
  readonly prepared = new Map<string, PreparedRecord>();
  /** External parties the node knows, with the public key (SPKI DER) and fingerprint of their signing key. */
  readonly externalParties = new Map<string, { fingerprint: string; spki: Buffer }>();
  readonly submissions: SubmissionRecord[] = [];
  /** Generated external party topologies awaiting allocation, by their multi-hash (base64). */
  readonly pendingParties = new Map<string, { partyId: string; fingerprint: string; rawKey: Buffer }>();
  /** How many were prepared and submitted so far (the records above keep only the latest). */
  preparedCount = 0;
  submittedCount = 0;
  /** Tests: execute is accepted but nothing commits (no completion, no transaction): the outcome stays unknown. */
  holdCompletions = false;
  /** A deterministic clock (tests: hashes and times repeat), microseconds; the demo's follows the wall clock. */
  clockMicros = 1_793_600_000_000_000n;
  /** The demo ledger: what it prepares and commits now happens now. */
  wallClock = false;
}

/** The time of the next prepare or commit: a second after the last (deterministic), or now (wall clock), never going back. */
export function tickClock(state: InteractiveState): bigint {
  const now = BigInt(Date.now()) * 1000n;
  state.clockMicros = state.wallClock && now > state.clockMicros ? now : state.clockMicros + (state.wallClock ? 1n : 1_000_000n);
  return state.clockMicros;
}

/** The demo ledger runs for days: it remembers only the latest prepared transactions and submissions. */
export const KEPT = 10_000;

/** Records a completion (accepted or rejected) for the completion routes and streams; keeps the latest KEPT. */
export function recordCompletion(ledger: DemoLedger, record: SubmissionRecord): void {
  const state = interactiveState(ledger);
  state.submissions.push(record);
  if (state.submissions.length > KEPT * 1.25) state.submissions.splice(0, state.submissions.length - KEPT);
}

const states = new WeakMap<DemoLedger, InteractiveState>();

export function interactiveState(ledger: DemoLedger): InteractiveState {
  let s = states.get(ledger);
  if (!s) states.set(ledger, (s = new InteractiveState()));
  return s;
}

/** Registers an external party whose Ed25519 key the node verifies signatures with (tests, demo). */
export function knowExternalParty(ledger: DemoLedger, party: string, spkiDer: Buffer): void {
  interactiveState(ledger).externalParties.set(party, { fingerprint: party.split('::')[1] ?? '', spki: spkiDer });
}

export const digest = (s: string) => createHash('sha256').update(s).digest();
export const contractIdOf = (seed: string) => `00${digest(`cid:${seed}`).toString('hex')}`;

/**
 * The Ed25519 signatures of an external party the node knows, over the hash of the prepared
 * transaction: a node refuses a wrong one (INVALID_ARGUMENT, "signature" in the cause; Canton's
 * interactive submission checks the party's signatures against its PartyToKeyMapping).
 */
export async function checkExternalSignatures(ledger: DemoLedger, body: Record<string, unknown>): Promise<ErrorReply | undefined> {
  const state = interactiveState(ledger);
  const perParty =
    (
      body.partySignatures as
        { signatures?: { party: string; signatures: { signature: string; signedBy: string; signingAlgorithmSpec: string }[] }[] } | undefined
    )?.signatures ?? [];
  const known = perParty.filter((p) => state.externalParties.has(p.party));
  if (known.length === 0) return undefined;
  let hash: string;
  try {
    hash = await hashPreparedTransaction(body.preparedTransaction as string, 'base64');
  } catch {
    return invalidArgument('Cannot parse prepared_transaction', body.submissionId as string);
  }
  for (const p of known) {
    const key = state.externalParties.get(p.party)!;
    const valid = p.signatures.filter((s) => {
      if (s.signedBy !== key.fingerprint || s.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_ED25519') return false;
      try {
        return verify(null, Buffer.from(hash, 'base64'), createPublicKey({ key: key.spki, format: 'der', type: 'spki' }), Buffer.from(s.signature, 'base64'));
      } catch {
        return false;
      }
    });
    if (valid.length === 0) {
      return invalidArgument(
        `Received 0 valid signatures from party ${p.party} (${p.signatures.length} invalid); the party's threshold is 1`,
        body.submissionId as string,
      );
    }
  }
  return undefined;
}
