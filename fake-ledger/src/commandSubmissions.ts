// The ledger side of submit-and-wait on the fake node: the commands interpreted against the demo's
// Daml model (commandModel.ts) as the Daml engine decides them, then committed at the next offset
// with their completion. Rejections carry the codes, causes and context Canton sends
// (docs/fake-node.md#commands lists each with its source). No `vscode` import.
import { createHash } from 'node:crypto';
import { cantonError, json, type ErrorReply } from './cantonErrorBodies';
import { recordScaleMismatch, storedRecord } from './argumentTypes';
import { DEMO_MODEL, type TemplateModel } from './commandModel';
import type { DemoLedger, StoredCreate, StoredEvent, StoredTransaction } from './demoLedgerData';
import type { CommitOptions } from './interactiveCommits';
import { interactiveState, recordCompletion, tickClock } from './interactiveSubmissions';
import type { FakeVersion, LedgerQueries } from './ledgerQueries';
import { templateModel } from './partnerModel';
import { disclosedBlobs } from './disclosedContracts';

/** A command after the JSON layer resolved its template to a package id. */
export interface ResolvedCommand {
  kind: 'CreateCommand' | 'ExerciseCommand' | 'CreateAndExerciseCommand' | 'ExerciseByKeyCommand';
  templateId: string;
  /** `Module:Entity`, the model's key. */
  name: string;
  packageName: string;
  body: Record<string, unknown>;
  /** An exercise through an interface: the interface's id (then `templateId` too). */
  interfaceId?: string;
}

export interface SubmitContext {
  ledger: DemoLedger;
  queries: LedgerQueries;
  version: FakeVersion;
  options: CommitOptions;
}

type Args = Record<string, unknown>;
const digest = (s: string) => createHash('sha256').update(s).digest('hex');
const unique = (xs: string[]) => [...new Set(xs.filter((x) => x !== ''))];
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_INVALID_ARGUMENT = 3;
const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;

const contractNotFound = (id: string, correlationId: string) =>
  cantonError(404, 'CONTRACT_NOT_FOUND', `Contract could not be found with id ${id}`, 11, GRPC_NOT_FOUND, [['CONTRACT_ID', id]], correlationId);

function authorizationError(nodeId: number, templateId: string, required: string[], given: string[], correlationId: string): ErrorReply {
  return cantonError(
    400,
    'DAML_AUTHORIZATION_ERROR',
    `Interpretation error: Error: node NodeId(${nodeId}) (${templateId}) requires authorizers ${required.join(',')}, but only ${given.join(',')} were given`,
    8,
    GRPC_INVALID_ARGUMENT,
    [],
    correlationId,
  );
}

function preconditionViolated(templateId: string, argument: unknown, correlationId: string): ErrorReply {
  return cantonError(
    400,
    'TEMPLATE_PRECONDITION_VIOLATED',
    `Interpretation error: Error: Update failed due to precondition violation when creating ${templateId} with ${JSON.stringify(argument).slice(0, 200)}`,
    8,
    GRPC_INVALID_ARGUMENT,
    [],
    correlationId,
  );
}

/** An uncaught AssertionFailed: DAML_FAILURE with its error id and the exercise trace, innermost first (Speedy's transactionTrace). */
function assertionFailed(message: string, trace: string[], correlationId: string): ErrorReply {
  return cantonError(
    400,
    'DAML_FAILURE',
    `Interpretation error: Error: User failure: UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category 9): ${message}`,
    9,
    GRPC_FAILED_PRECONDITION,
    [],
    correlationId,
    { error_id: 'UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed', exercise_trace: trace.map((l) => `    ${l}\n`).join('') },
  );
}

/** The demo model of a template, if the node runs it; others only create and archive. */
const modelOf = (c: ResolvedCommand): TemplateModel | undefined => (c.interfaceId ? undefined : templateModel(c.templateId, c.name));

/** The engine's ContractDoesNotImplementInterface (Pretty.scala), as CommandExecutionErrors words it. */
export function doesNotImplement(interfaceId: string, target: StoredCreate, correlationId: string): ErrorReply {
  const pretty = (id: string) => {
    const [pkg, ...name] = id.split(':');
    return `${name.join(':')}@${pkg.slice(0, 8)}`;
  };
  const { contractId, templateId } = target.event;
  return cantonError(
    400,
    'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
    `Interpretation error: Error: Update failed due to contract ${contractId} not implementing an interface\nExpected contract to implement interface ${pretty(interfaceId)} but contract has type ${pretty(templateId)}`,
    8,
    GRPC_INVALID_ARGUMENT,
    [
      ['CONTRACT_ID', contractId],
      ['TEMPLATE_ID', templateId],
      ['INTERFACE_ID', interfaceId],
    ],
    correlationId,
  );
}
/**
 * The engine's preprocessing of every command before it interprets any (Preprocessor,
 * ValueTranslator): a demo template's numeric that does not fit its `Numeric 10`.
 */
export function preprocessingFailure(commands: ResolvedCommand[], correlationId: string | null): ErrorReply | undefined {
  for (const c of commands) {
    const model = c.interfaceId ? undefined : DEMO_MODEL[c.name];
    if (!model) continue;
    const choice = typeof c.body.choice === 'string' ? model.choices[c.body.choice] : undefined;
    const bad =
      ('createArguments' in c.body ? recordScaleMismatch(model.fields, c.body.createArguments) : undefined) ??
      (choice ? recordScaleMismatch(choice.argument, c.body.choiceArgument) : undefined);
    if (bad) return cantonError(400, 'COMMAND_PREPROCESSING_FAILED', bad, 8, GRPC_INVALID_ARGUMENT, [], correlationId);
  }
  return undefined;
}

const short = (templateId: string) => {
  const [pkg, ...rest] = templateId.split(':');
  return [pkg.slice(0, 8), ...rest].join(':');
};

const KEPT_CHANGES = 10_000;

/** The change ids (user, command id, acting parties) accepted, for deduplication. */
const accepted = new WeakMap<DemoLedger, Map<string, { offset: number; submissionId: string; at: number }>>();

function deduplicationSeconds(period: unknown): number {
  const p = period as { DeduplicationDuration?: { value?: { seconds?: number } }; DeduplicationOffset?: unknown } | undefined;
  // No period, Empty or an offset: the node's maximum deduplication duration (7 days by default).
  return p?.DeduplicationDuration?.value?.seconds ?? 7 * 24 * 3600;
}

export interface SubmitRequest {
  user: string;
  body: Args;
  commands: ResolvedCommand[];
  eventFormat: unknown;
  shape: string;
}

/** Interprets and commits; the committed transaction in the asked format, or the rejection. */
export function submitAndWait(ctx: SubmitContext, r: SubmitRequest): ErrorReply {
  const b = r.body;
  const actAs = (b.actAs as string[]) ?? [];
  const readers = new Set([...actAs, ...((b.readAs as string[] | undefined) ?? [])]);
  const disclosed = disclosedBlobs(b.disclosedContracts);
  const userId = (b.userId as string | undefined) || r.user;
  const commandId = b.commandId as string;
  const submissionId = (b.submissionId as string | undefined) || digest(`submission:${commandId}:${Date.now()}:${Math.random()}`).slice(0, 32);
  const changeId = JSON.stringify([userId, commandId, [...actAs].sort()]);
  const seen = accepted.get(ctx.ledger) ?? new Map<string, { offset: number; submissionId: string; at: number }>();
  accepted.set(ctx.ledger, seen);
  const earlier = seen.get(changeId);
  if (earlier && Date.now() - earlier.at < deduplicationSeconds(b.deduplicationPeriod) * 1000) return duplicate(ctx, r, earlier, submissionId);

  const unfit = preprocessingFailure(r.commands, submissionId);
  if (unfit) return unfit;
  const events: StoredEvent[] = [];
  const consumed = new Set<string>();
  const local = new Map<string, StoredCreate>();
  const state = interactiveState(ctx.ledger);
  const seed = `${commandId}:${state.submittedCount++}`;
  let created = 0;
  const create = (c: { templateId: string; packageName: string; name: string }, sent: Args, authorizers: string[]): ErrorReply | StoredCreate => {
    const model = templateModel(c.templateId, c.name);
    const argument = model ? storedRecord(model.fields, sent) : sent;
    if (model?.ensure && !model.ensure(argument)) return preconditionViolated(c.templateId, argument, submissionId);
    const signatories = model ? unique(model.signatories(argument)) : actAs;
    if (signatories.some((p) => !authorizers.includes(p))) return authorizationError(events.length, c.templateId, signatories, authorizers, submissionId);
    const observers = model ? unique(model.observers(argument)).filter((p) => !signatories.includes(p)) : [];
    const event: StoredCreate = {
      kind: 'created',
      views: model?.views?.(argument, c.templateId.split(':')[0]) ?? [],
      event: {
        offset: 0,
        nodeId: events.length,
        contractId: `00${digest(`cid:${seed}:${created++}`)}ca121220${digest(`suffix:${seed}:${created}`)}`,
        templateId: c.templateId,
        contractKey: null,
        createArgument: argument,
        // What the node gives for explicit disclosure (opaque to clients; the fake's own form).
        createdEventBlob: Buffer.from(`CgMyLjES${digest(`blob:${seed}:${created}`)}`, 'utf8').toString('base64'),
        interfaceViews: [],
        witnessParties: unique([...signatories, ...observers]),
        signatories,
        observers,
        createdAt: '',
        packageName: c.packageName,
        representativePackageId: c.templateId.split(':')[0],
        acsDelta: true,
      },
    };
    events.push(event);
    local.set(event.event.contractId, event);
    return event;
  };
  const exercise = (c: ResolvedCommand, target: StoredCreate, commandLine: string): ErrorReply | undefined => {
    const choiceName = c.body.choice as string;
    const targetModel = templateModel(target.event.templateId, target.event.templateId.split(':').slice(1).join(':'));
    const viaInterface = c.interfaceId ? targetModel?.interfaces?.[c.name] : undefined;
    if (c.interfaceId && !viaInterface) return doesNotImplement(c.interfaceId, target, submissionId);
    const model = modelOf(c);
    const choice =
      viaInterface?.[choiceName] ??
      model?.choices[choiceName] ??
      (choiceName === 'Archive'
        ? { argument: {}, consuming: true, controllers: () => target.event.signatories, run: () => ({ creates: [], result: () => ({}) }) }
        : undefined);
    if (!choice) return undefined;
    const contract = target.event.createArgument as Args;
    const argument = storedRecord(choice.argument, (c.body.choiceArgument as Args | undefined) ?? {});
    const controllers = unique(choice.controllers(contract, argument));
    const nodeId = events.length;
    // The node's template: a template's choice runs on the package the command resolved to, which
    // may differ from the contract's (PartialTransaction.beginExercises); an interface's on the contract's own.
    const ran = c.interfaceId
      ? { templateId: target.event.templateId, packageName: target.event.packageName }
      : { templateId: c.templateId, packageName: c.packageName };
    if (controllers.some((p) => !actAs.includes(p))) return authorizationError(nodeId, ran.templateId, controllers, actAs, submissionId);
    const outcome = choice.run(contract, argument);
    const cid10 = target.event.contractId.slice(0, 10);
    if ('assertionFailed' in outcome)
      return assertionFailed(
        outcome.assertionFailed,
        // Speedy's trace names the interface of an interface's choice, else the node's template.
        [`in choice ${short(c.interfaceId ?? ran.templateId)}:${choiceName} on contract ${cid10} (#${nodeId})`, commandLine],
        submissionId,
      );
    const stakeholders = unique([...target.event.signatories, ...(target.event.observers ?? [])]);
    const exercised: StoredEvent = {
      kind: 'exercised',
      stakeholders,
      event: {
        offset: 0,
        nodeId,
        contractId: target.event.contractId,
        templateId: ran.templateId,
        interfaceId: (c.interfaceId ?? null) as unknown as string,
        choice: choiceName,
        choiceArgument: argument,
        actingParties: controllers,
        consuming: choice.consuming,
        witnessParties: unique([...stakeholders, ...controllers]),
        lastDescendantNodeId: nodeId,
        exerciseResult: null,
        packageName: ran.packageName,
        implementedInterfaces: [],
        acsDelta: choice.consuming,
      },
    };
    events.push(exercised);
    if (choice.consuming) consumed.add(target.event.contractId);
    const ids: string[] = [];
    for (const child of outcome.creates) {
      const made = create(
        { templateId: ran.templateId.replace(/:[^:]+:[^:]+$/, `:${child.template}`), packageName: ran.packageName, name: child.template },
        child.argument,
        unique([...target.event.signatories, ...controllers]),
      );
      if ('status' in made) return made;
      ids.push(made.event.contractId);
    }
    exercised.event.lastDescendantNodeId = events.length - 1;
    exercised.event.exerciseResult = outcome.result(ids) ?? {};
    return undefined;
  };

  for (const c of r.commands) {
    const body = c.body;
    let target: StoredCreate | undefined;
    if (c.kind === 'CreateCommand' || c.kind === 'CreateAndExerciseCommand') {
      const made = create(c, (body.createArguments as Args) ?? {}, actAs);
      if ('status' in made) return made;
      target = made;
      if (c.kind === 'CreateCommand') continue;
    } else if (c.kind === 'ExerciseByKeyCommand') {
      target = ctx.queries.contractByKey(c.name, body.contractKey);
      if (!target)
        return cantonError(
          404,
          'CONTRACT_KEY_NOT_FOUND',
          `Couldn't find contract for key ${JSON.stringify(body.contractKey).slice(0, 120)}`,
          11,
          GRPC_NOT_FOUND,
          [],
          submissionId,
        );
    } else {
      const id = body.contractId as string;
      const known = local.get(id) ?? ctx.queries.contract(id)?.create;
      const archived = ctx.queries.contract(id)?.archived ?? false;
      if (consumed.has(id))
        return cantonError(
          404,
          'CONTRACT_NOT_ACTIVE',
          `Interpretation error: Error: Update failed due to fetch of an inactive contract ${id} (${c.templateId}).`,
          11,
          GRPC_NOT_FOUND,
          [
            ['TEMPLATE_ID', c.templateId],
            ['CONTRACT_ID', id],
          ],
          submissionId,
        );
      // A contract none of the parties sees is found only when disclosed with the commands (its blob given).
      const visible =
        known &&
        ([...known.event.signatories, ...(known.event.observers ?? [])].some((p) => readers.has(p)) || disclosed.has(known.event.createdEventBlob ?? ''));
      if (!known || archived || !visible) return contractNotFound(id, submissionId);
      target = known;
    }
    const what =
      c.kind === 'ExerciseCommand' ? 'exercise command' : c.kind === 'ExerciseByKeyCommand' ? 'exercise-by-key command' : 'create-and-exercise command';
    // Speedy's last command, by the command's own template (or interface).
    const on = c.kind === 'CreateAndExerciseCommand' ? '' : ` on contract ${target.event.contractId.slice(0, 10)}`;
    const refused = exercise(c, target, `in ${what} ${short(c.templateId)}:${String(body.choice)}${on}.`);
    if (refused) return refused;
  }
  return commit(ctx, r, { events, userId, commandId, submissionId, changeId, seen, actAs });
}

function commit(
  ctx: SubmitContext,
  r: SubmitRequest,
  c: {
    events: StoredEvent[];
    userId: string;
    commandId: string;
    submissionId: string;
    changeId: string;
    seen: Map<string, { offset: number; submissionId: string; at: number }>;
    actAs: string[];
  },
): ErrorReply {
  const state = interactiveState(ctx.ledger);
  const offset = ctx.options.nextOffset();
  tickClock(state);
  const at = new Date(Number(state.clockMicros / 1000n)).toISOString();
  const seed = `${c.commandId}:${offset}`;
  for (const e of c.events) {
    e.event.offset = offset;
    if (e.kind === 'created') e.event.createdAt = at;
  }
  const transaction: StoredTransaction = {
    updateId: `1220${digest(`update:${seed}`)}`,
    commandId: c.commandId,
    workflowId: (r.body.workflowId as string | undefined) ?? '',
    effectiveAt: at,
    recordTime: at,
    offset,
    synchronizerId: ctx.ledger.synchronizerId,
    traceContext: { traceparent: `00-${digest(`trace:${seed}`).slice(0, 32)}-${digest(`span:${seed}`).slice(0, 16)}-01`, tracestate: null },
    events: c.events,
  };
  ctx.options.index(transaction);
  recordCompletion(ctx.ledger, {
    submissionId: c.submissionId,
    updateId: transaction.updateId,
    completionOffset: offset,
    userId: c.userId,
    actAs: c.actAs,
    commandId: c.commandId,
    recordTime: at,
    synchronizerId: transaction.synchronizerId,
    traceContext: transaction.traceContext,
    transaction,
  });
  c.seen.set(c.changeId, { offset, submissionId: c.submissionId, at: Date.now() });
  // The demo ledger runs for days: the latest accepted changes only, as a node forgets past its period.
  if (c.seen.size > KEPT_CHANGES) c.seen.delete(c.seen.keys().next().value as string);
  const shown = ctx.queries.transaction(transaction.updateId, r.eventFormat as never, r.shape, ctx.version);
  // Every event filtered out: the answer still names the transaction, with no events.
  const { events: _events, traceContext, ...rest } = transaction;
  return json(200, { transaction: shown ?? { ...rest, traceContext, events: [] } });
}

/** google.rpc.ErrorInfo as protobuf bytes: reason (1), domain (2), metadata (3, map entries). */
function errorInfoBytes(reason: string, metadata: Record<string, string>): Buffer {
  const field = (n: number, bytes: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2]), varint(bytes.length), bytes]);
  const text = (n: number, s: string) => field(n, Buffer.from(s, 'utf8'));
  return Buffer.concat([text(1, reason), ...Object.entries(metadata).map(([k, v]) => field(3, Buffer.concat([text(1, k), text(2, v)])))]);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

/**
 * The same change id accepted within the deduplication period: rejected after in-flight
 * registration, so both a failed completion (at a new offset) and the answer carry DUPLICATE_COMMAND
 * (participant/sync/CommandDeduplicationError.scala; definite_answer true).
 */
function duplicate(ctx: SubmitContext, r: SubmitRequest, earlier: { offset: number; submissionId: string }, submissionId: string): ErrorReply {
  const actAs = (r.body.actAs as string[]) ?? [];
  const userId = (r.body.userId as string | undefined) || r.user;
  const commandId = r.body.commandId as string;
  const metadata = {
    changeId: `ChangeId(${userId},${commandId},Set(${actAs.join(', ')}))`,
    completion_offset: String(earlier.offset),
    accepted: 'true',
    existingSubmissionId: `Some(${earlier.submissionId})`,
  };
  const cause = 'Command submission already exists.';
  const correlation = submissionId.slice(0, 8);
  const info = { participant: 'participant1', ...metadata, definite_answer: 'true', category: '10' };
  const detail: Record<string, unknown> = {
    typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo',
    value: errorInfoBytes('DUPLICATE_COMMAND', info).toString('base64'),
    unknownFields: { fields: {} },
  };
  // 3.4 writes the decoded detail as ScalaPB's toString; 3.5+ write an object where the spec says
  // string, so the fake node leaves it out there and clients read `value`.
  if (ctx.version === '3.4')
    detail.valueDecoded = `ErrorInfo(DUPLICATE_COMMAND,,Map(${Object.entries(info)
      .map(([k, v]) => `${k} -> ${v}`)
      .join(', ')}),UnknownFieldSet(Map()))`;
  const state = interactiveState(ctx.ledger);
  tickClock(state);
  const at = new Date(Number(state.clockMicros / 1000n)).toISOString();
  const offset = ctx.options.nextOffset();
  recordCompletion(ctx.ledger, {
    submissionId,
    updateId: '',
    completionOffset: offset,
    userId,
    actAs,
    commandId,
    recordTime: at,
    synchronizerId: ctx.ledger.synchronizerId,
    traceContext: { traceparent: `00-${digest(`trace:dup:${offset}`).slice(0, 32)}-${digest(`span:dup:${offset}`).slice(0, 16)}-01`, tracestate: null },
    status: { code: GRPC_ALREADY_EXISTS, message: `DUPLICATE_COMMAND(10,${correlation}): ${cause}`, details: [detail] },
  });
  return cantonError(409, 'DUPLICATE_COMMAND', cause, 10, GRPC_ALREADY_EXISTS, [], submissionId, { ...metadata, definite_answer: 'true' });
}
