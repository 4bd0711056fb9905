// The fake node's interactive submission: POST /v2/interactive-submission/prepare builds a real
// PreparedTransaction protobuf (the official bindings of @canton-network/core-ledger-proto) from
// the commands, with its true V2 hash (@canton-network/core-tx-visualizer); executeAndWait
// answers with an update id and a completion offset; execute and executeAndWait verify the
// Ed25519 signatures of the external parties the node knows (a wrong one is refused as a node
// refuses it). The node knows no Daml packages: signatories are the acting parties, values are
// typed from their JSON (numbers in strings with a dot are numerics, `Name::1220…` are parties).
import { checkDisclosedContracts } from './disclosedContracts';
import { createHash, createPublicKey, verify } from 'node:crypto';
import type * as LedgerProto from '@canton-network/core-ledger-proto' with { 'resolution-mode': 'import' };
import type * as TxVisualizer from '@canton-network/core-tx-visualizer' with { 'resolution-mode': 'import' };
import { cantonError, invalidArgument, json, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, StoredCreate, StoredTransaction } from './demoLedgerData';

const proto = require('@canton-network/core-ledger-proto') as typeof LedgerProto;
const { hashPreparedTransaction } = require('@canton-network/core-tx-visualizer') as typeof TxVisualizer;

export interface PreparedRecord {
  hash: string;
  actAs: string[];
  commandId: string;
  userId: string;
  /** What commits: the nodes as the fake built them from the commands' JSON, in node order. */
  nodes: PreparedNode[];
}

/** A node of a prepared transaction, with its argument as the JSON it was prepared from. */
export interface PreparedNode {
  kind: 'create' | 'exercise';
  templateId: string;
  contractId: string;
  choice?: string;
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
const KEPT = 10_000;

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

type Value = LedgerProto.Value;
const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
const CONTRACT = /^00[0-9a-f]{64}([0-9a-f]{2}){0,94}$/;

/** A JSON value of the JSON API as a Daml value, typed by its shape (the fake node has no packages). */
export function jsonToValue(v: unknown, depth = 0): Value {
  const sum = (s: Value['sum']): Value => ({ sum: s });
  if (depth > 100) return sum({ oneofKind: 'unit', unit: {} });
  if (v === null || v === undefined) return sum({ oneofKind: 'optional', optional: {} });
  if (typeof v === 'boolean') return sum({ oneofKind: 'bool', bool: v });
  if (typeof v === 'number') return Number.isInteger(v) ? sum({ oneofKind: 'int64', int64: String(v) }) : sum({ oneofKind: 'numeric', numeric: String(v) });
  if (typeof v === 'string') {
    if (PARTY.test(v)) return sum({ oneofKind: 'party', party: v });
    if (CONTRACT.test(v)) return sum({ oneofKind: 'contractId', contractId: v });
    if (/^-?\d+\.\d+$/.test(v)) return sum({ oneofKind: 'numeric', numeric: v });
    return sum({ oneofKind: 'text', text: v });
  }
  if (Array.isArray(v)) return sum({ oneofKind: 'list', list: { elements: v.map((x) => jsonToValue(x, depth + 1)) } });
  return sum({
    oneofKind: 'record',
    record: { fields: Object.entries(v as Record<string, unknown>).map(([label, x]) => ({ label, value: jsonToValue(x, depth + 1) })) },
  });
}

/** `pkg:Module.Sub:Entity` (or `#package-name:…`) as a proto Identifier. */
function identifier(templateId: string): LedgerProto.Identifier | undefined {
  const m = /^([^:]+):([^:]+):([^:]+)$/.exec(templateId);
  return m ? { packageId: m[1], moduleName: m[2], entityName: m[3] } : undefined;
}

export const digest = (s: string) => createHash('sha256').update(s).digest();
export const contractIdOf = (seed: string) => `00${digest(`cid:${seed}`).toString('hex')}`;

interface PrepareBody {
  userId?: string;
  commandId: string;
  commands: Record<string, Record<string, unknown>>[];
  actAs: string[];
  readAs?: string[];
  synchronizerId?: string;
  verboseHashing?: boolean;
  hashingSchemeVersion?: string;
  disclosedContracts?: unknown;
  maxRecordTime?: string;
}

/** The semantics and the ledger stages of prepare (after the schema and the rights). */
export async function prepare(ledger: DemoLedger, user: string, body: Record<string, unknown>, knows: (party: string) => boolean): Promise<ErrorReply> {
  const b = body as unknown as PrepareBody;
  if (!b.commandId) return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: command_id', 8, 3);
  if (!Array.isArray(b.commands) || b.commands.length === 0)
    return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: commands', 8, 3);
  if (!Array.isArray(b.actAs) || b.actAs.length === 0)
    return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: act_as', 8, 3);
  for (const p of [...b.actAs, ...(b.readAs ?? [])]) {
    if (!PARTY.test(p)) return invalidArgument(`Invalid field party: non expected character in "${p.slice(0, 64)}"`);
    if (!knows(p)) return cantonError(404, 'PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: [${p.slice(0, 80)}]`, 11, 5);
  }
  if (b.synchronizerId && b.synchronizerId !== ledger.synchronizerId) {
    return cantonError(
      400,
      'INVALID_FIELD',
      `The submitted command has a field with invalid value: Invalid field synchronizer_id: unknown synchronizer ${b.synchronizerId.slice(0, 80)}`,
      8,
      3,
    );
  }
  if (b.hashingSchemeVersion && b.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_V2' && b.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_UNSPECIFIED') {
    return invalidArgument(`The hashing scheme ${b.hashingSchemeVersion} is not supported by this participant; use HASHING_SCHEME_VERSION_V2`);
  }
  const contracts = new Map<string, StoredCreate>();
  for (const t of ledger.transactions) for (const e of t.events) if (e.kind === 'created') contracts.set(e.event.contractId, e);
  const disclosed = checkDisclosedContracts((id) => contracts.get(id)?.event, b.disclosedContracts);
  if (disclosed) return disclosed;

  const nodes: unknown[] = [];
  const committed: PreparedNode[] = [];
  const roots: string[] = [];
  const seeds: { nodeId: number; seed: Uint8Array }[] = [];
  const inputs = new Map<string, StoredCreate>();
  const state = interactiveState(ledger);
  const uuid = digest(`uuid:${b.commandId}:${state.preparedCount++}`).toString('hex');
  const addNode = (nodeType: unknown) => {
    const nodeId = String(nodes.length);
    nodes.push({ nodeId, versionedNode: { oneofKind: 'v1', v1: { nodeType } } });
    seeds.push({ nodeId: Number(nodeId), seed: new Uint8Array(digest(`seed:${uuid}:${nodeId}`)) });
    return nodeId;
  };
  // What verbose hashing reports of each node, in the manner of Canton's hash tracer: the value, then what it is.
  const traced: string[] = [];
  const createNode = (templateId: string, args: unknown, seed: string) => {
    const contractId = contractIdOf(seed);
    traced.push(`# Create Node ${nodes.length}`, `'${contractId}' # Contract Id`, `'${templateId}' # Template Id`);
    committed.push({ kind: 'create', templateId, contractId, signatories: b.actAs, stakeholders: b.actAs, argument: args ?? {} });
    return {
      nodeId: addNode({
        oneofKind: 'create',
        create: proto.Create.create({
          lfVersion: '2.1',
          contractId,
          packageName: 'canton-lens-demo-model',
          templateId: identifier(templateId),
          argument: jsonToValue(args),
          signatories: b.actAs,
          stakeholders: b.actAs,
        }),
      }),
      contractId,
    };
  };
  const exerciseNode = (templateId: string, contractId: string, choice: string, arg: unknown, stakeholders: string[], signatories: string[]) => {
    traced.push(`# Exercise Node ${nodes.length}`, `'${contractId}' # Contract Id`, `'${templateId}' # Template Id`, `'${choice}' # Choice Id`);
    committed.push({ kind: 'exercise', templateId, contractId, choice, actingParties: b.actAs, signatories, stakeholders, argument: arg ?? {} });
    return addNode({
      oneofKind: 'exercise',
      exercise: proto.Exercise.create({
        lfVersion: '2.1',
        contractId,
        packageName: 'canton-lens-demo-model',
        templateId: identifier(templateId),
        signatories,
        stakeholders,
        actingParties: b.actAs,
        choiceId: choice,
        chosenValue: jsonToValue(arg),
        consuming: true,
        children: [],
        choiceObservers: [],
      }),
    });
  };

  for (const [i, command] of b.commands.entries()) {
    const kind = Object.keys(command)[0];
    const c = command[kind];
    const templateId = c.templateId as string;
    if (!identifier(templateId)) return invalidArgument(`Invalid field template_id: "${String(templateId).slice(0, 80)}" is not <package>:<module>:<entity>`);
    const existing = (id: string) => contracts.get(id) ?? undefined;
    if (kind === 'CreateCommand') roots.push(createNode(templateId, c.createArguments, `${uuid}:${i}`).nodeId);
    else if (kind === 'CreateAndExerciseCommand') {
      const created = createNode(templateId, c.createArguments, `${uuid}:${i}`);
      roots.push(created.nodeId);
      roots.push(exerciseNode(templateId, created.contractId, c.choice as string, c.choiceArgument, b.actAs, b.actAs));
    } else {
      let target: StoredCreate | undefined;
      if (kind === 'ExerciseCommand') {
        const id = c.contractId as string;
        if (!CONTRACT.test(id))
          return cantonError(
            400,
            'INVALID_FIELD',
            `The submitted command has a field with invalid value: Invalid field contract_id: cannot parse ContractId "${id.slice(0, 80)}"`,
            8,
            3,
          );
        target = existing(id);
        if (!target) return cantonError(404, 'CONTRACT_NOT_FOUND', `Contract could not be found with id ${id}`, 11, 5, [['CONTRACT_ID', id]]);
      } else {
        const key = JSON.stringify(c.contractKey);
        target = [...contracts.values()].find((e) => e.event.contractKey !== null && JSON.stringify(e.event.contractKey) === key);
        if (!target) return cantonError(404, 'CONTRACT_KEY_NOT_FOUND', `Couldn't find contract for key ${key.slice(0, 120)}`, 11, 5);
      }
      inputs.set(target.event.contractId, target);
      const stakeholders = [...new Set([...target.event.signatories, ...(target.event.observers ?? [])])];
      roots.push(
        exerciseNode(
          target.event.templateId ?? templateId,
          target.event.contractId,
          c.choice as string,
          c.choiceArgument,
          stakeholders,
          target.event.signatories,
        ),
      );
    }
  }

  tickClock(state);
  const message = proto.PreparedTransaction.create({
    transaction: { version: '2.1', roots, nodes, nodeSeeds: seeds },
    metadata: {
      submitterInfo: { actAs: b.actAs, commandId: b.commandId },
      synchronizerId: ledger.synchronizerId,
      mediatorGroup: 0,
      transactionUuid: `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-4${uuid.slice(13, 16)}-a${uuid.slice(17, 20)}-${uuid.slice(20, 32)}`,
      preparationTime: state.clockMicros,
      // The request's max record time, if any, as the prepared transaction carries it (µs).
      ...(typeof b.maxRecordTime === 'string' && !Number.isNaN(Date.parse(b.maxRecordTime))
        ? { maxRecordTime: BigInt(Date.parse(b.maxRecordTime)) * 1000n }
        : {}),
      inputContracts: [...inputs.values()].map((e) => ({
        contract: {
          oneofKind: 'v1',
          v1: proto.Create.create({
            lfVersion: '2.1',
            contractId: e.event.contractId,
            packageName: e.event.packageName ?? 'canton-lens-demo-model',
            templateId: identifier(e.event.templateId ?? ''),
            argument: jsonToValue(e.event.createArgument),
            signatories: e.event.signatories,
            stakeholders: [...new Set([...e.event.signatories, ...(e.event.observers ?? [])])],
          }),
        },
        createdAt: BigInt(Date.parse(e.event.createdAt) || 0) * 1000n,
        eventBlob: new Uint8Array(),
      })),
      globalKeyMapping: [],
    },
  } as never);
  const preparedTransaction = Buffer.from(proto.PreparedTransaction.toBinary(message)).toString('base64');
  const hash = await hashPreparedTransaction(preparedTransaction, 'base64');
  state.prepared.set(hash, { hash, actAs: b.actAs, commandId: b.commandId, userId: b.userId || user, nodes: committed });
  if (state.prepared.size > KEPT) state.prepared.delete(state.prepared.keys().next().value as string);
  const response: Record<string, unknown> = { preparedTransaction, preparedTransactionHash: hash, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' };
  if (b.verboseHashing) {
    const meta = message.metadata!;
    response.hashingDetails = [
      "'02' # Hashing Scheme Version (HASHING_SCHEME_VERSION_V2)",
      `# Transaction: ${nodes.length} node(s), roots [${roots.join(', ')}]`,
      ...traced,
      '# Metadata',
      ...b.actAs.map((p) => `'${p}' # Act As Party`),
      `'${b.commandId}' # Command Id`,
      `'${meta.transactionUuid}' # Transaction UUID`,
      `'${meta.synchronizerId}' # Synchronizer Id`,
      `'${meta.preparationTime}' # Preparation Time`,
      ...(meta.inputContracts ?? []).map((c) => `'${(c.contract as { v1?: { contractId?: string } }).v1?.contractId ?? ''}' # Input Contract Id`),
      `'${Buffer.from(hash, 'base64').toString('hex')}' # Prepared Transaction Hash`,
    ].join('\n');
  }
  return json(200, response);
}

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
