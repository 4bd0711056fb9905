// The fake node's lookups by id and offset: events-by-contract-id, update-by-id, update-by-offset
// and transaction-by-id (3.4 and 3.5; gone in 3.6), judged as Canton does (docs/fake-node.md). No
// `vscode` import.
import type { EventFormat } from './apiTypes';
import {
  cantonError,
  contractEventsNotFound,
  invalidArgument,
  invalidField,
  json,
  missingField,
  redacted,
  updateNotFound,
  type ErrorReply,
} from './cantonErrorBodies';
import type { FakeVersion, LedgerQueries, UpdateFormatBody } from './ledgerQueries';

export interface LookupContext {
  queries: () => LedgerQueries;
  version: () => FakeVersion;
  canReadAs: (user: string, party: string) => boolean;
  readRights: (user: string, format: EventFormat | undefined) => ErrorReply | undefined;
  updateFormatRights: (user: string, f: UpdateFormatBody | undefined) => ErrorReply | undefined;
  checkEventFormat: (format: unknown, field: string) => ErrorReply | undefined;
  checkUpdateFormat: (f: UpdateFormatBody | undefined) => ErrorReply | undefined;
}

export interface LookupEndpoint {
  method: 'POST';
  versions?: FakeVersion[];
  rights: (user: string, body: Record<string, unknown>) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>) => ErrorReply;
}

export function lookupEndpoints(ctx: LookupContext): Record<string, LookupEndpoint> {
  return {
    '/v2/events/events-by-contract-id': {
      method: 'POST',
      rights: (user, b) => ctx.readRights(user, b.eventFormat as EventFormat | undefined),
      handle: (_user, b) => eventsByContractId(ctx, b),
    },
    '/v2/updates/update-by-id': {
      method: 'POST',
      rights: (user, b) => ctx.updateFormatRights(user, b.updateFormat as UpdateFormatBody | undefined),
      handle: (_user, b) => updateById(ctx, b),
    },
    '/v2/updates/update-by-offset': {
      method: 'POST',
      rights: (user, b) => ctx.updateFormatRights(user, b.updateFormat as UpdateFormatBody | undefined),
      handle: (_user, b) => updateByOffset(ctx, b),
    },
    '/v2/updates/transaction-by-id': {
      method: 'POST',
      versions: ['3.4', '3.5'],
      rights: (user, b) => {
        const parties = Array.isArray(b.requestingParties) ? (b.requestingParties as string[]) : [];
        if (parties.some((p) => !ctx.canReadAs(user, p))) return redacted(403);
        return ctx.readRights(user, (b.transactionFormat as { eventFormat?: EventFormat } | undefined)?.eventFormat);
      },
      handle: (_user, b) => transactionById(ctx, b),
    },
  };
}

function eventsByContractId(ctx: LookupContext, body: Record<string, unknown>): ErrorReply {
  const contractId = body.contractId as string | undefined;
  if (!contractId) return missingField('contract_id');
  if (!/^(00[0-9a-f]{64}([0-9a-f]{2}){0,94}|01[0-9a-f]{24}([0-9a-f]{2}){0,33})$/.test(contractId)) {
    return invalidField('contract_id', `cannot parse ContractId "${contractId.slice(0, 80)}"`);
  }
  const bad = ctx.checkEventFormat(body.eventFormat, 'event_format');
  if (bad) return bad;
  const found = ctx.queries().eventsByContractId(contractId, body.eventFormat as EventFormat, ctx.version());
  return found ? json(200, found) : contractEventsNotFound(contractId);
}

function checkUpdateId(updateId: unknown): ErrorReply | undefined {
  if (!updateId) return missingField('update_id');
  if (!/^1220[0-9a-f]{64}$/.test(updateId as string))
    return invalidArgument(`Invalid field update_id: "${(updateId as string).slice(0, 80)}" is not a valid update id`);
  return undefined;
}

function transactionById(ctx: LookupContext, body: Record<string, unknown>): ErrorReply {
  const bad = checkUpdateId(body.updateId);
  if (bad) return bad;
  const parties = body.requestingParties as string[] | undefined;
  const format = body.transactionFormat as { eventFormat: EventFormat; transactionShape: string } | undefined;
  const hasParties = Array.isArray(parties) && parties.length > 0;
  if (hasParties === Boolean(format)) {
    return invalidArgument('Either transaction_format or requesting_parties is required, but not both');
  }
  let eventFormat: EventFormat;
  let shape = 'TRANSACTION_SHAPE_ACS_DELTA';
  if (hasParties) {
    const filtersByParty: NonNullable<EventFormat['filtersByParty']> = {};
    for (const p of parties) filtersByParty[p] = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
    eventFormat = { filtersByParty, verbose: true };
  } else {
    eventFormat = format!.eventFormat;
    shape = format!.transactionShape;
    const badShape = checkShape(shape, 'transaction_format.transaction_shape');
    if (badShape) return badShape;
  }
  const badFormat = ctx.checkEventFormat(eventFormat, 'transaction_format.event_format');
  if (badFormat) return badFormat;
  const t = ctx.queries().transaction(body.updateId as string, eventFormat, shape, ctx.version());
  return t ? json(200, { transaction: t }) : updateNotFound(body.updateId as string);
}

function updateById(ctx: LookupContext, body: Record<string, unknown>): ErrorReply {
  const bad = checkUpdateId(body.updateId) ?? ctx.checkUpdateFormat(body.updateFormat as UpdateFormatBody | undefined);
  if (bad) return bad;
  const update = ctx.queries().update(body.updateId as string, body.updateFormat as UpdateFormatBody, ctx.version());
  return update ? json(200, { update }) : updateNotFound(body.updateId as string);
}

function updateByOffset(ctx: LookupContext, body: Record<string, unknown>): ErrorReply {
  // The codec reads an absent offset as 0; ParticipantOffsetValidator.validatePositive refuses it.
  const offset = typeof body.offset === 'number' ? body.offset : 0;
  if (!Number.isInteger(offset) || offset <= 0)
    return cantonError(400, 'NON_POSITIVE_OFFSET', `Offset ${offset} in offset is not a positive integer: the offset has to be a positive integer (>0)`, 8, 3);
  const bad = ctx.checkUpdateFormat(body.updateFormat as UpdateFormatBody | undefined);
  if (bad) return bad;
  const update = ctx.queries().updateAt(offset, body.updateFormat as UpdateFormatBody, ctx.version());
  return update ? json(200, { update }) : updateNotFound(String(offset));
}

/** A transaction shape must be chosen: UNSPECIFIED is refused. */
export function checkShape(shape: string, field: string): ErrorReply | undefined {
  return shape === 'TRANSACTION_SHAPE_ACS_DELTA' || shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS'
    ? undefined
    : invalidField(field, `the transaction shape must be specified, got ${shape}`);
}
