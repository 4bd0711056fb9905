// The fake node's command routes, judged in Canton's order (docs/fake-node.md#commands):
// POST /v2/commands/submit-and-wait-for-transaction (every version): the JSON layer's transcoding
// (JA/TranscodePackageIdResolver.scala, JA/SchemaProcessorsImpl.scala) before any rights, then
// CommandServiceAuthorization's rights, then SubmitAndWaitRequestValidator/CommandsValidator, then
// the ledger (commandSubmissions.ts); and /v2/commands/command-completions (3.5.7 and later): every
// user's completions for the parties. No `vscode` import.
import { checkOffset, offsetAfterLedgerEnd } from './browseRoutes';
import { cantonError, invalidArgument, invalidField, json, missingField, redacted, undecodableBody, type ErrorReply } from './cantonErrorBodies';
import { DEMO_MODEL, fieldProblems } from './commandModel';
import { submitAndWait, type ResolvedCommand } from './commandSubmissions';
import { fieldTypeProblem } from './argumentTypes';
import type { DemoLedger } from './demoLedgerData';
import type { PackageCatalog } from './generatedLedger';
import type { CommitOptions } from './interactiveCommits';
import { interactiveState, type SubmissionRecord } from './interactiveSubmissions';
import { completionResponse } from './interactiveRoutes';
import type { FakeVersion, LedgerQueries } from './ledgerQueries';
import { packageState } from './packageRoutes';
import { PARTNER_INTERFACES, PARTNER_MODEL, PARTNER_TEMPLATES } from './partnerModel';
import { checkDisclosedContracts } from './disclosedContracts';

export interface CommandContext {
  ledger: () => DemoLedger;
  version: () => FakeVersion;
  queries: () => LedgerQueries;
  catalog: () => PackageCatalog;
  auth: () => boolean;
  canActAs: (user: string, party: string) => boolean;
  canReadAs: (user: string, party: string) => boolean;
  readsAnyParty: (user: string) => boolean;
  checkEventFormat: (format: unknown, field: string) => ErrorReply | undefined;
  commitOptions: () => CommitOptions;
  ledgerEnd: () => number;
}

export interface CommandEndpoint {
  method: 'POST';
  versions?: FakeVersion[];
  decode?: (body: Record<string, unknown>) => ErrorReply | undefined;
  rights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>) => ErrorReply;
}

type Args = Record<string, unknown>;
const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const CONTRACT = /^00[0-9a-f]{64}([0-9a-f]{2}){0,94}$/;
const PACKAGE_REF = /^([0-9a-f]{64}|#[A-Za-z0-9_\-.]+)$/;
const KINDS = ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand'] as const;

const commandsOf = (b: Args) => (b.commands ?? {}) as Args;
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** The JSON layer's transcoding: package references resolved, templates, choices and arguments checked, before any rights. */
export function resolveCommands(ctx: CommandContext, b: Args): ResolvedCommand[] | ErrorReply {
  const c = commandsOf(b);
  const actAs = list(c.actAs);
  if (actAs.length === 0) return missingField('act_as/actAs');
  if (!PARTY.test(actAs[0])) return invalidArgument(`Invalid party in actAs/act_as: non expected character in "${String(actAs[0]).slice(0, 64)}"`);
  const packages = [...packageState(ctx.ledger(), ctx.catalog()).packages.values()];
  const out: ResolvedCommand[] = [];
  for (const raw of Array.isArray(c.commands) ? (c.commands as Args[]) : []) {
    const kind = KINDS.find((k) => k in (raw ?? {}));
    if (!kind) continue;
    const body = (raw[kind] ?? {}) as Args;
    const parts = typeof body.templateId === 'string' ? body.templateId.split(':') : [];
    if (parts.length !== 3)
      return undecodableBody(`Invalid identifier: ${String(body.templateId).slice(0, 80)}`, `commands.commands[${out.length}].${kind}.templateId`);
    const [ref, moduleName, entity] = parts;
    if (!PACKAGE_REF.test(ref)) return invalidArgument(`Value does not match the package-id or package-name formats: ${ref.slice(0, 80)}`);
    const pkg = ref.startsWith('#')
      ? packages.filter((p) => p.name === ref.slice(1) && p.vetted.size > 0).sort((x, y) => y.version.localeCompare(x.version, undefined, { numeric: true }))[0]
      : packages.find((p) => p.packageId === ref);
    if (!pkg && ref.startsWith('#'))
      return cantonError(
        400,
        'JSON_API_PACKAGE_SELECTION_FAILED',
        `No synchronizer satisfies the vetting requirements. Discarded synchronizers: package-name ${ref.slice(1, 80)} is not vetted by the submitters`,
        9,
        9,
      );
    const templateId = `${pkg?.packageId ?? ref}:${moduleName}:${entity}`;
    // An exercise may name an interface: the JSON layer transcodes its argument from the interface's
    // choice, the engine runs it on a contract that implements the interface.
    const iface = kind === 'ExerciseCommand' && pkg ? PARTNER_INTERFACES.get(templateId) : undefined;
    if (iface) {
      if (typeof body.choice !== 'string' || !iface.choices.has(body.choice))
        return invalidArgument(`Invalid template:${templateId} or choice:${String(body.choice)}`);
      out.push({ kind, templateId, name: iface.name, packageName: pkg!.name, body, interfaceId: templateId });
      continue;
    }
    if (!pkg || !(ctx.catalog().templates.has(templateId) || PARTNER_TEMPLATES.has(templateId)))
      return cantonError(404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND', `Templates do not exist: [${templateId}].`, 11, 5, [['TEMPLATE_ID', templateId]]);
    const name = `${moduleName}:${entity}`;
    const model = DEMO_MODEL[name];
    const partner = PARTNER_TEMPLATES.has(templateId) ? PARTNER_MODEL[name] : undefined;
    if (partner && typeof body.choice === 'string' && !partner.choices[body.choice])
      return invalidArgument(`Invalid template:${templateId} or choice:${body.choice}`);
    const argument = (fields: Record<string, string>, value: unknown): ErrorReply | undefined => {
      const p = fieldProblems(fields as never, value);
      if (p.missing.length > 0)
        return cantonError(
          400,
          'COMMAND_PREPROCESSING_FAILED',
          ctx.version() === '3.4' ? `Missing non-optional field: ${p.missing[0]}` : `Missing non-optional fields: ${p.missing.join(', ')}`,
          8,
          3,
        );
      if (p.unexpected.length > 0) return invalidArgument(`Unexpected fields: ${p.unexpected.join(', ')}`);
      return fieldTypeProblem(fields as never, value, ctx.version());
    };
    if (model && 'createArguments' in body) {
      const bad = argument(model.fields, body.createArguments);
      if (bad) return bad;
    }
    if (model && typeof body.choice === 'string') {
      const choice = model.choices[body.choice];
      if (!choice) return invalidArgument(`Invalid template:${templateId} or choice:${body.choice}`);
      const bad = argument(choice.argument, body.choiceArgument);
      if (bad) return bad;
    }
    out.push({ kind, templateId, name, packageName: pkg.name, body });
  }
  return out;
}

/**
 * Prepare's JSON layer (ProtocolConverters.PrepareSubmissionRequest.fromJson): the same package
 * resolution and transcoding of its commands as a submission's, before any rights.
 */
export function transcodePrepareCommands(ctx: CommandContext, b: Args): ResolvedCommand[] | ErrorReply {
  return resolveCommands(ctx, { commands: { commands: b.commands, actAs: b.actAs } });
}

/** CommandServiceAuthorization: MatchUserId, CanActAs for each actAs, a read right for each readAs and each party of the format. */
function rights(ctx: CommandContext, user: string, b: Args): ErrorReply | undefined {
  const c = commandsOf(b);
  if (!ctx.auth()) {
    if (!c.userId)
      return cantonError(
        400,
        'INVALID_TOKEN',
        'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
        8,
        3,
      );
    return undefined;
  }
  if (typeof c.userId === 'string' && c.userId !== '' && c.userId !== user) return redacted(403);
  const actAs = list(c.actAs);
  if (actAs.some((p) => !ctx.canActAs(user, p))) return redacted(403);
  if (list(c.readAs).some((p) => !actAs.includes(p) && !ctx.canReadAs(user, p))) return redacted(403);
  const format = (b.transactionFormat as { eventFormat?: { filtersByParty?: Args; filtersForAnyParty?: unknown } } | undefined)?.eventFormat;
  if (Object.keys(format?.filtersByParty ?? {}).some((p) => !ctx.canReadAs(user, p))) return redacted(403);
  if (format?.filtersForAnyParty && !ctx.readsAnyParty(user)) return redacted(403);
  return undefined;
}

/** SubmitAndWaitRequestValidator and CommandsValidator, in their order. */
function validate(ctx: CommandContext, b: Args): ErrorReply | undefined {
  const c = commandsOf(b);
  const format = b.transactionFormat as { eventFormat?: unknown; transactionShape?: string } | undefined;
  if (format) {
    if (!format.transactionShape || format.transactionShape === 'TRANSACTION_SHAPE_UNSPECIFIED') return missingField('transaction_shape');
    const bad = ctx.checkEventFormat(format.eventFormat, 'event_format');
    if (bad) return bad;
  }
  if (c.workflowId && (typeof c.workflowId !== 'string' || !LEDGER_STRING.test(c.workflowId)))
    return invalidArgument(`workflow_id: "${JSON.stringify(c.workflowId).slice(0, 80)}" is not a ledger string`);
  if (!c.commandId) return missingField('command_id');
  if (typeof c.commandId !== 'string' || !LEDGER_STRING.test(c.commandId))
    return invalidField('command_id', `"${JSON.stringify(c.commandId).slice(0, 80)}" is not a ledger string`);
  if (c.submissionId && (typeof c.submissionId !== 'string' || !LEDGER_STRING.test(c.submissionId)))
    return invalidField('submission_id', `"${JSON.stringify(c.submissionId).slice(0, 80)}" is not a ledger string`);
  for (const p of [...list(c.actAs), ...list(c.readAs)]) if (!PARTY.test(p)) return invalidArgument(`non expected character in "${String(p).slice(0, 64)}"`);
  if (c.synchronizerId && c.synchronizerId !== ctx.ledger().synchronizerId && c.synchronizerId !== ctx.ledger().otherSynchronizerId)
    return invalidField('synchronizer_id', `unknown synchronizer ${JSON.stringify(c.synchronizerId).slice(0, 80)}`);
  const commands = Array.isArray(c.commands) ? (c.commands as Args[]) : [];
  if (commands.length === 0) return missingField('commands');
  for (const raw of commands) {
    const body = (Object.values(raw ?? {})[0] ?? {}) as Args;
    if ('contractId' in body && !body.contractId) return missingField('contract_id');
    if (typeof body.contractId === 'string' && !CONTRACT.test(body.contractId))
      return invalidField('contract_id', `cannot parse ContractId "${body.contractId.slice(0, 80)}"`);
  }
  const disclosed = checkDisclosedContracts((id) => ctx.queries().contract(id)?.create.event, c.disclosedContracts);
  if (disclosed) return disclosed;
  if (c.minLedgerTimeAbs && c.minLedgerTimeRel) return invalidArgument('min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel');
  const dedup = c.deduplicationPeriod as { DeduplicationDuration?: { value?: { seconds?: number } }; DeduplicationOffset?: { value?: number } } | undefined;
  if ((dedup?.DeduplicationDuration?.value?.seconds ?? 0) < 0) return invalidField('deduplication_period', 'Duration must be positive');
  const dedupOffset = dedup?.DeduplicationOffset?.value;
  if (typeof dedupOffset === 'number' && dedupOffset < 0)
    return cantonError(
      400,
      'NEGATIVE_OFFSET',
      `Offset ${dedupOffset} in deduplication_period is a negative integer: the deduplication offset has to be a non-negative integer and not ${dedupOffset}`,
      8,
      3,
    );
  return undefined;
}

/** The format the node uses when none is given: what changed, for every acting and reading party, verbose. */
function defaultFormat(c: Args): { eventFormat: unknown; transactionShape: string } {
  const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
  const parties = [...new Set([...list(c.actAs), ...list(c.readAs)])];
  return {
    eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, wildcard])), verbose: true },
    transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
  };
}

/** Every user's completions for the parties (all parties when none are given) after beginExclusive. */
export function commandCompletionsAfter(ledger: DemoLedger, parties: string[], begin: number): SubmissionRecord[] {
  return interactiveState(ledger).submissions.filter((r) => r.completionOffset > begin && (parties.length === 0 || r.actAs.some((p) => parties.includes(p))));
}

export function commandCompletionsRequest(ctx: CommandContext, b: Args): { parties: string[]; begin: number } | ErrorReply {
  const begin = typeof b.beginExclusive === 'number' ? b.beginExclusive : 0;
  const negative = checkOffset(begin, 'begin_exclusive');
  if (negative) return negative;
  if (begin > ctx.ledgerEnd()) return offsetAfterLedgerEnd('Begin', begin, ctx.ledgerEnd());
  return { parties: list(b.parties), begin };
}

/** The command-completions channel: every user's completions for the parties, then each new one, until the client closes. */
export function commandCompletionsStream(ctx: CommandContext, body: Args, signal: AbortSignal): ErrorReply | AsyncIterable<unknown> {
  const q = commandCompletionsRequest(ctx, body);
  if ('status' in q) return q;
  const version = ctx.version();
  return (async function* () {
    let begin = q.begin;
    while (!signal.aborted) {
      const found = commandCompletionsAfter(ctx.ledger(), q.parties, begin);
      for (const r of found) {
        yield completionResponse(r, version);
        begin = r.completionOffset;
      }
      if (found.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
  })();
}

export function commandEndpoints(ctx: CommandContext): Record<string, CommandEndpoint> {
  return {
    '/v2/commands/submit-and-wait-for-transaction': {
      method: 'POST',
      decode: (b) => {
        const resolved = resolveCommands(ctx, b);
        return Array.isArray(resolved) ? undefined : resolved;
      },
      rights: (user, b) => rights(ctx, user, b),
      handle: (user, b) => {
        const bad = validate(ctx, b);
        if (bad) return bad;
        const resolved = resolveCommands(ctx, b);
        if (!Array.isArray(resolved)) return resolved;
        const c = commandsOf(b);
        const format = (b.transactionFormat as { eventFormat: unknown; transactionShape: string } | undefined) ?? defaultFormat(c);
        return submitAndWait(
          { ledger: ctx.ledger(), queries: ctx.queries(), version: ctx.version(), options: ctx.commitOptions() },
          { user, body: c, commands: resolved, eventFormat: format.eventFormat, shape: format.transactionShape },
        );
      },
    },
    // CommandCompletionService.GetCompletions as a list (3.5.7+): no user id; an empty party list means every party.
    '/v2/commands/command-completions': {
      method: 'POST',
      versions: ['3.5', '3.6'],
      rights: (user, b) => {
        if (!ctx.auth()) return undefined;
        const parties = list(b.parties);
        if (parties.length === 0) return ctx.readsAnyParty(user) ? undefined : redacted(403);
        return parties.some((p) => !ctx.canReadAs(user, p)) ? redacted(403) : undefined;
      },
      handle: (_user, b) => {
        const q = commandCompletionsRequest(ctx, b);
        if ('status' in q) return q;
        return json(
          200,
          commandCompletionsAfter(ctx.ledger(), q.parties, q.begin)
            .slice(0, 1000)
            .map((r) => completionResponse(r, ctx.version())),
        );
      },
    },
  };
}
