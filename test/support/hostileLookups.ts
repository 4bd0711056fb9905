// Spec-shaped lookups whose every string field is an attack on the renderer.
import { HOSTILE_STRINGS, contractIdFor, updateIdFor } from '../../fake-ledger/src/demoLedgerData';
import type { LedgerQueries } from '../../fake-ledger/src/ledgerQueries';
import type { EventFormat, JsTransaction, LedgerEvent } from '../../src/ledger/apiTypes';
import { LedgerApiError } from '../../src/ledger/ledgerApiError';
import type { AskedAs } from '../../src/auth/ledgerIdentity';
import type { ContractLookup, TransactionLookup } from '../../src/lookups/ledgerLookups';

export const EVIL = '<img src=x onerror="window.__pwned=1;document.title=\'pwned\'">';
const fp = `1220${'ab'.repeat(32)}`;
export const EVIL_PARTY = `Eve-${'x'.repeat(10)}::${fp}`;
/** Who asked: a user id is ledger-side data too (the JWT subject), so it is an attack as well. */
export const EVIL_ASKER: AskedAs = { identity: { key: `user:${EVIL}`, kind: 'user', user: EVIL }, parties: [EVIL_PARTY] };
export const EVIL_TEMPLATE = `${'c'.repeat(64)}:${EVIL}:</script><script>window.__pwned=2</script>`;

function nest(depth: number): unknown {
  let v: unknown = { leaf: EVIL, id: contractIdFor('active-iou') };
  for (let i = 0; i < depth; i++) v = { [`level${i}`]: v, note: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length] };
  return v;
}

/** A create argument of about `bytes` bytes. */
export function bigArgument(bytes: number): unknown {
  const items: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const item = { index: i, owner: EVIL_PARTY, memo: `${HOSTILE_STRINGS[i % HOSTILE_STRINGS.length]} #${i}`, amount: `${i}.0000000000` };
    size += JSON.stringify(item).length;
    items.push(item);
  }
  return { holdings: items };
}

export function hostileContract(createArgument: unknown = { title: EVIL, body: HOSTILE_STRINGS, deep: nest(50), link: 'javascript:alert(1)' }): ContractLookup {
  const contractId = contractIdFor('hostile-render');
  return {
    kind: 'contract',
    found: true,
    status: 'archived',
    contractId,
    asked: `events-by-contract-id on ${EVIL}`,
    askedAs: EVIL_ASKER,
    request: { contractId, eventFormat: { filtersForAnyParty: {} } },
    response: {
      created: {
        synchronizerId: `${EVIL}::${fp}`,
        createdEvent: {
          offset: 7,
          nodeId: 0,
          contractId,
          templateId: EVIL_TEMPLATE,
          contractKey: { k: EVIL },
          contractKeyHash: EVIL,
          createArgument,
          createdEventBlob: 'AAAA',
          interfaceViews: [{ interfaceId: EVIL_TEMPLATE, viewStatus: { code: 3, message: EVIL }, viewValue: { v: EVIL } }],
          witnessParties: [EVIL_PARTY],
          signatories: [EVIL_PARTY],
          observers: [EVIL_PARTY],
          createdAt: EVIL,
          packageName: EVIL,
          representativePackageId: EVIL,
          acsDelta: true,
        },
      },
      archived: {
        synchronizerId: EVIL,
        archivedEvent: {
          offset: 8,
          nodeId: 1,
          contractId,
          templateId: EVIL_TEMPLATE,
          witnessParties: [EVIL_PARTY],
          packageName: EVIL,
          implementedInterfaces: [EVIL_TEMPLATE],
        },
      },
    },
  };
}

export function hostileTransaction(eventCount: number): TransactionLookup {
  const events: LedgerEvent[] = [];
  for (let i = 0; i < eventCount; i++) {
    const contractId = contractIdFor(`evt-${i}`);
    if (i % 3 === 2) {
      events.push({
        ExercisedEvent: {
          offset: 9,
          nodeId: i,
          contractId,
          templateId: EVIL_TEMPLATE,
          choice: EVIL,
          choiceArgument: {},
          actingParties: [EVIL_PARTY],
          consuming: true,
          witnessParties: [EVIL_PARTY],
          lastDescendantNodeId: i,
          packageName: EVIL,
          acsDelta: true,
        },
      });
    } else if (i % 3 === 1) {
      events.push({
        ArchivedEvent: { offset: 9, nodeId: i, contractId, templateId: `${'d'.repeat(64)}:Iou:Iou`, witnessParties: [EVIL_PARTY], packageName: 'p' },
      });
    } else {
      events.push({
        CreatedEvent: {
          offset: 9,
          nodeId: i,
          contractId,
          templateId: `${'d'.repeat(64)}:Iou:Iou`,
          createArgument: {},
          witnessParties: [EVIL_PARTY],
          signatories: [EVIL_PARTY],
          observers: [],
          createdAt: EVIL,
          packageName: 'p',
          representativePackageId: 'r',
          acsDelta: true,
        },
      });
    }
  }
  const transaction: JsTransaction = {
    updateId: updateIdFor('hostile-render'),
    commandId: EVIL,
    workflowId: '</script>',
    effectiveAt: EVIL,
    events,
    offset: 9,
    synchronizerId: EVIL,
    traceContext: { traceparent: EVIL },
    recordTime: EVIL,
    externalTransactionHash: EVIL,
    paidTrafficCost: 3,
  };
  return {
    kind: 'transaction',
    found: true,
    update: 'transaction',
    updateId: transaction.updateId,
    transaction,
    route: 'update-by-id',
    query: { requestingParties: [EVIL_PARTY] },
    asked: EVIL,
    askedAs: EVIL_ASKER,
  };
}

export function notFoundContract(): ContractLookup {
  const contractId = contractIdFor('nope');
  return {
    kind: 'contract',
    found: false,
    contractId,
    asked: 'x',
    askedAs: EVIL_ASKER,
    askedFor: EVIL_PARTY,
    request: { contractId, eventFormat: {} },
    explanation: EVIL,
    error: new LedgerApiError({ kind: 'notFound', explanation: EVIL }),
  };
}

type Shape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

/** A found transaction of the demo ledger (any party's view, verbose) as a lookup answers it, asked as EVIL_ASKER. */
export function demoTransactionLookup(
  queries: LedgerQueries,
  updateId: string,
  shape: Shape = 'TRANSACTION_SHAPE_ACS_DELTA',
): Extract<TransactionLookup, { update: 'transaction' }> {
  const format: EventFormat = {
    filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
    verbose: true,
  };
  return {
    kind: 'transaction',
    found: true,
    update: 'transaction',
    updateId,
    transaction: queries.transaction(updateId, format, shape, '3.5')!,
    route: 'update-by-id',
    query: { transactionFormat: { eventFormat: format, transactionShape: shape } },
    asked: 'an update on demo',
    askedAs: EVIL_ASKER,
  };
}
