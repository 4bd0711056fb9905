// POST /v2/interactive-submission/prepare on the fake node, after the JSON layer resolved the
// commands (commandRoutes.ts): a real PreparedTransaction protobuf (the official bindings of
// @canton-network/core-ledger-proto) with its true V2 hash (@canton-network/core-tx-visualizer).
// Its nodes carry what Canton's engine writes: the package ids the node chose (never a `#name`
// reference), the package name, and for an interface's choice the interface id on the exercise of
// the contract's template. Signatories of a create are the acting parties; values are typed from
// their JSON (numbers in strings with a dot are numerics, `Name::1220…` are parties). No `vscode` import.
import type * as LedgerProto from '@canton-network/core-ledger-proto' with { 'resolution-mode': 'import' };
import type * as TxVisualizer from '@canton-network/core-tx-visualizer' with { 'resolution-mode': 'import' };
import { cantonError, invalidArgument, json, type ErrorReply } from './cantonErrorBodies';
import { doesNotImplement, preprocessingFailure, type ResolvedCommand } from './commandSubmissions';
import type { DemoLedger, StoredCreate } from './demoLedgerData';
import { checkDisclosedContracts, disclosedBlobs } from './disclosedContracts';
import { contractIdOf, digest, interactiveState, KEPT, tickClock, type PreparedNode } from './interactiveSubmissions';
import { templateModel } from './partnerModel';
import { storedRecord } from './argumentTypes';
import type { Fields } from './commandModel';

const proto = require('@canton-network/core-ledger-proto') as typeof LedgerProto;
const { hashPreparedTransaction } = require('@canton-network/core-tx-visualizer') as typeof TxVisualizer;

type Value = LedgerProto.Value;
const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
const CONTRACT = /^00[0-9a-f]{64}([0-9a-f]{2}){0,94}$/;

/** A JSON value of the JSON API as a Daml value, typed by its shape; a record's `Int` fields by `fields`. */
export function jsonToValue(v: unknown, depth = 0, fields?: Fields): Value {
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
    record: {
      fields: Object.entries(v as Record<string, unknown>).map(([label, x]) => ({
        label,
        value: fields?.[label] === 'Int' && typeof x === 'string' ? sum({ oneofKind: 'int64', int64: x }) : jsonToValue(x, depth + 1),
      })),
    },
  });
}

/** `pkg:Module.Sub:Entity` as a proto Identifier. */
function identifier(templateId: string): LedgerProto.Identifier | undefined {
  const m = /^([^:]+):([^:]+):([^:]+)$/.exec(templateId);
  return m ? { packageId: m[1], moduleName: m[2], entityName: m[3] } : undefined;
}

/** Whether a choice consumes its contract, as the model of the template (or of its interface) says; consuming when unknown. */
function consumes(templateId: string, choice: string, interfaceName?: string): boolean {
  const model = templateModel(templateId, templateId.split(':').slice(1).join(':'));
  const c = interfaceName ? model?.interfaces?.[interfaceName]?.[choice] : model?.choices[choice];
  return c?.consuming ?? true;
}

/** What prepare reads of the ledger: the parties it knows and the contracts (seeded and committed). */
export interface PrepareLedger {
  ledger: DemoLedger;
  knows: (party: string) => boolean;
  contract: (contractId: string) => { create: StoredCreate; archived: boolean } | undefined;
  contractByKey: (moduleAndEntity: string, key: unknown) => StoredCreate | undefined;
}

interface PrepareBody {
  userId?: string;
  commandId: string;
  commands: unknown[];
  actAs: string[];
  readAs?: string[];
  synchronizerId?: string;
  verboseHashing?: boolean;
  hashingSchemeVersion?: string;
  disclosedContracts?: unknown;
  maxRecordTime?: string;
}

/** The semantics and the ledger stages of prepare (after the JSON layer, the schema and the rights). */
export async function prepare(at: PrepareLedger, user: string, body: Record<string, unknown>, commands: ResolvedCommand[]): Promise<ErrorReply> {
  const ledger = at.ledger;
  const b = body as unknown as PrepareBody;
  if (!b.commandId) return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: command_id', 8, 3);
  if (!Array.isArray(b.commands) || b.commands.length === 0)
    return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: commands', 8, 3);
  if (!Array.isArray(b.actAs) || b.actAs.length === 0)
    return cantonError(400, 'MISSING_FIELD', 'The submitted command is missing a mandatory field: act_as', 8, 3);
  for (const p of [...b.actAs, ...(b.readAs ?? [])]) {
    if (!PARTY.test(p)) return invalidArgument(`Invalid field party: non expected character in "${p.slice(0, 64)}"`);
    if (!at.knows(p)) return cantonError(404, 'PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: [${p.slice(0, 80)}]`, 11, 5);
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
  const disclosed = checkDisclosedContracts((id) => at.contract(id)?.create.event, b.disclosedContracts);
  if (disclosed) return disclosed;
  const readers = new Set([...b.actAs, ...(b.readAs ?? [])]);
  const blobs = disclosedBlobs(b.disclosedContracts);

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
  const createNode = (c: ResolvedCommand, sent: unknown, seed: string) => {
    const model = c.interfaceId ? undefined : templateModel(c.templateId, c.name);
    const args = model ? storedRecord(model.fields, sent) : sent;
    const contractId = contractIdOf(seed);
    traced.push(`# Create Node ${nodes.length}`, `'${contractId}' # Contract Id`, `'${c.templateId}' # Template Id`);
    committed.push({
      kind: 'create',
      templateId: c.templateId,
      packageName: c.packageName,
      contractId,
      signatories: b.actAs,
      stakeholders: b.actAs,
      argument: args ?? {},
    });
    return {
      nodeId: addNode({
        oneofKind: 'create',
        create: proto.Create.create({
          lfVersion: '2.1',
          contractId,
          packageName: c.packageName,
          templateId: identifier(c.templateId),
          argument: jsonToValue(args, 0, model?.fields),
          signatories: b.actAs,
          stakeholders: b.actAs,
        }),
      }),
      contractId,
    };
  };
  /** The exercise node of Canton's engine: the template it ran, the interface of an interface's choice (PartialTransaction.beginExercises). */
  const exerciseNode = (
    ran: { templateId: string; packageName: string; interfaceId?: string; consuming: boolean },
    contractId: string,
    choice: string,
    sent: unknown,
    stakeholders: string[],
    signatories: string[],
    fields?: Fields,
  ) => {
    const arg = fields ? storedRecord(fields, sent) : sent;
    traced.push(`# Exercise Node ${nodes.length}`, `'${contractId}' # Contract Id`, `'${ran.templateId}' # Template Id`);
    if (ran.interfaceId) traced.push(`'${ran.interfaceId}' # Interface Id`);
    traced.push(`'${choice}' # Choice Id`);
    committed.push({ kind: 'exercise', ...ran, contractId, choice, actingParties: b.actAs, signatories, stakeholders, argument: arg ?? {} });
    return addNode({
      oneofKind: 'exercise',
      exercise: proto.Exercise.create({
        lfVersion: '2.1',
        contractId,
        packageName: ran.packageName,
        templateId: identifier(ran.templateId),
        signatories,
        stakeholders,
        actingParties: b.actAs,
        ...(ran.interfaceId ? { interfaceId: identifier(ran.interfaceId) } : {}),
        choiceId: choice,
        chosenValue: jsonToValue(arg, 0, fields),
        consuming: ran.consuming,
        children: [],
        choiceObservers: [],
      }),
    });
  };

  // The request's validation reads every contract id before the engine preprocesses any command.
  for (const c of commands) {
    const id = c.body.contractId;
    if (c.kind === 'ExerciseCommand' && !CONTRACT.test(id as string))
      return cantonError(
        400,
        'INVALID_FIELD',
        `The submitted command has a field with invalid value: Invalid field contract_id: cannot parse ContractId "${String(id).slice(0, 80)}"`,
        8,
        3,
      );
  }
  const unfit = preprocessingFailure(commands, null);
  if (unfit) return unfit;
  // A template's choice argument's fields (an interface's choices are not modelled).
  const choiceFields = (c: ResolvedCommand, choice: string) => (c.interfaceId ? undefined : templateModel(c.templateId, c.name)?.choices[choice]?.argument);
  for (const [i, c] of commands.entries()) {
    const choice = c.body.choice as string;
    if (c.kind === 'CreateCommand') roots.push(createNode(c, c.body.createArguments, `${uuid}:${i}`).nodeId);
    else if (c.kind === 'CreateAndExerciseCommand') {
      const created = createNode(c, c.body.createArguments, `${uuid}:${i}`);
      roots.push(created.nodeId);
      const ran = { templateId: c.templateId, packageName: c.packageName, consuming: consumes(c.templateId, choice) };
      roots.push(exerciseNode(ran, created.contractId, choice, c.body.choiceArgument, b.actAs, b.actAs, choiceFields(c, choice)));
    } else {
      let target: StoredCreate | undefined;
      if (c.kind === 'ExerciseCommand') {
        const id = c.body.contractId as string;
        const found = at.contract(id);
        // Active, and seen by a reading party or disclosed with the commands, as submit finds it.
        const seen =
          found &&
          ([...found.create.event.signatories, ...(found.create.event.observers ?? [])].some((p) => readers.has(p)) ||
            blobs.has(found.create.event.createdEventBlob ?? ''));
        if (!found || found.archived || !seen)
          return cantonError(404, 'CONTRACT_NOT_FOUND', `Contract could not be found with id ${id}`, 11, 5, [['CONTRACT_ID', id]]);
        target = found.create;
      } else {
        const key = JSON.stringify(c.body.contractKey);
        target = at.contractByKey(c.name, c.body.contractKey);
        if (!target) return cantonError(404, 'CONTRACT_KEY_NOT_FOUND', `Couldn't find contract for key ${key.slice(0, 120)}`, 11, 5);
      }
      const e = target.event;
      if (c.interfaceId && !templateModel(e.templateId, e.templateId.split(':').slice(1).join(':'))?.interfaces?.[c.name])
        return doesNotImplement(c.interfaceId, target, '');
      inputs.set(e.contractId, target);
      // An interface's choice runs on the contract's template; a template's choice on the package the command resolved to.
      const ran = c.interfaceId
        ? { templateId: e.templateId, packageName: e.packageName, interfaceId: c.interfaceId, consuming: consumes(e.templateId, choice, c.name) }
        : { templateId: c.templateId, packageName: c.packageName, consuming: consumes(c.templateId, choice) };
      const stakeholders = [...new Set([...e.signatories, ...(e.observers ?? [])])];
      roots.push(exerciseNode(ran, e.contractId, choice, c.body.choiceArgument, stakeholders, e.signatories, choiceFields(c, choice)));
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
            argument: jsonToValue(
              e.event.createArgument,
              0,
              templateModel(e.event.templateId ?? '', (e.event.templateId ?? '').split(':').slice(1).join(':'))?.fields,
            ),
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
