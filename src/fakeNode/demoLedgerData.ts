// The seeded ledger of the fake node and demo ledger: real id formats (NOTES c), active and
// archived contracts, a contract key, interface views, a transaction with thousands of events,
// and hostile strings in create arguments. Deterministic, so tests and screenshots are stable.
import { createHash } from 'node:crypto';
import type { CreatedEvent, ExercisedEvent } from '../ledger/apiTypes';

export type UserRight = { canActAs: string } | { canReadAs: string } | { canExecuteAs: string } | 'canReadAsAnyParty' | 'canActAsAnyParty' | 'canExecuteAsAnyParty' | 'participantAdmin';

export interface StoredCreate {
  kind: 'created';
  event: CreatedEvent;
  /** Views computed when a request asks for the interface (InterfaceFilter with includeInterfaceView). */
  views: { interfaceId: string; viewValue: unknown; implementationPackageId: string }[];
}

export interface StoredExercise {
  kind: 'exercised';
  event: ExercisedEvent;
  /** Stakeholders of the exercised contract: they see its archival in the ACS delta. */
  stakeholders: string[];
}

export type StoredEvent = StoredCreate | StoredExercise;

export interface StoredTransaction {
  updateId: string;
  commandId: string;
  workflowId: string;
  effectiveAt: string;
  recordTime: string;
  offset: number;
  synchronizerId: string;
  traceContext: { traceparent: string; tracestate: string | null };
  externalTransactionHash?: string;
  paidTrafficCost?: number;
  /** Ledger-effects events: creates and exercises, in node-id order. */
  events: StoredEvent[];
}

export interface DemoLedger {
  participantId: string;
  synchronizerId: string;
  parties: { Alice: string; Bob: string; Bank: string; Carol: string; Dana: string };
  users: Record<string, UserRight[]>;
  transactions: StoredTransaction[];
  /** Ids worth showing in a demo or a test, by what they are. */
  samples: {
    activeContract: string;
    archivedContract: string;
    keyedContract: string;
    hostileContract: string;
    bankOnlyContract: string;
    transferUpdate: string;
    bigUpdate: string;
    hostileUpdate: string;
    unknownContract: string;
    unknownUpdate: string;
  };
}

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');
export const contractIdFor = (seed: string) => `00${hex(`cid:${seed}`)}ca12${'1220'}${hex(`suffix:${seed}`)}`;
export const updateIdFor = (seed: string) => `1220${hex(`update:${seed}`)}`;
const fingerprintFor = (seed: string) => `1220${hex(`namespace:${seed}`)}`;

const MODEL_PACKAGE = hex('package:canton-lens-demo-model-1.0.0');
const HOLDING_PACKAGE = hex('package:canton-lens-demo-holding-1.0.0');
const PACKAGE_NAME = 'canton-lens-demo-model';
const IOU = `${MODEL_PACKAGE}:Iou:Iou`;
const ACCOUNT = `${MODEL_PACKAGE}:Bank.Account:Account`;
const NOTE = `${MODEL_PACKAGE}:Notes:Note`;
const HOLDING = `${HOLDING_PACKAGE}:Finance.Holding:Holding`;

/** Strings that try to break a renderer: every panel and hover must show them as text. */
export const HOSTILE_STRINGS = [
  '<img src=x onerror="document.title=\'pwned\'">',
  '</script><script>document.title="pwned"</script>',
  'javascript:alert(1)',
  '"><svg onload=alert(1)>',
  '\u202Egnp.exe\u202C ‫مرحبا بالعالم‬ 👩🏽‍💻🎉 𝕳𝖊𝖑𝖑𝖔',
  '{{constructor.constructor("alert(1)")()}}',
  '\u0000\u0007\u001b[31mred\u001b[0m',
];

function nested(depth: number): unknown {
  let v: unknown = { leaf: 'bottom', link: contractIdFor('active-iou') };
  for (let i = depth; i > 0; i--) v = { level: i, child: v };
  return v;
}

export interface DemoLedgerOptions {
  /** Created events in the big batch transaction. */
  bigTransactionEvents?: number;
}

export function buildDemoLedger(options: DemoLedgerOptions = {}): DemoLedger {
  const bigCount = options.bigTransactionEvents ?? 5000;
  const participantNamespace = fingerprintFor('participant1');
  const participantId = `participant1::${participantNamespace}`;
  const synchronizerId = `da1::${fingerprintFor('synchronizer-da1')}`;
  const parties = {
    Alice: `Alice::${participantNamespace}`,
    Bob: `Bob::${participantNamespace}`,
    Bank: `Bank::${participantNamespace}`,
    // Party hints may hold single colons, dashes, underscores and spaces (NOTES c).
    Carol: `Carol:-_ a9c80151-002c-445e-9fae-3caf111e3ac4::${participantNamespace}`,
    // An external party, with its own namespace.
    Dana: `Dana-ext::${fingerprintFor('dana-external-key')}`,
  };
  const { Alice, Bob, Bank, Carol, Dana } = parties;

  let offset = 11;
  let clock = Date.parse('2026-11-02T09:14:05.000Z');
  const transactions: StoredTransaction[] = [];

  const tx = (seed: string, commandId: string, events: (off: number, at: string) => StoredEvent[], extra: Partial<StoredTransaction> = {}) => {
    offset += 1;
    clock += 1_731_517;
    const at = micros(clock);
    transactions.push({
      updateId: updateIdFor(seed),
      commandId,
      workflowId: '',
      effectiveAt: at,
      recordTime: micros(clock + 861),
      offset,
      synchronizerId,
      traceContext: { traceparent: `00-${hex(`trace:${seed}`).slice(0, 32)}-${hex(`span:${seed}`).slice(0, 16)}-01`, tracestate: null },
      paidTrafficCost: 1_234 + offset,
      events: events(offset, at),
      ...extra,
    });
  };

  const create = (
    off: number, at: string, nodeId: number, seed: string, templateId: string, createArgument: unknown,
    signatories: string[], observers: string[], more: Partial<CreatedEvent> = {}, views: StoredCreate['views'] = [],
  ): StoredCreate => ({
    kind: 'created',
    views,
    event: {
      offset: off,
      nodeId,
      contractId: contractIdFor(seed),
      templateId,
      contractKey: null,
      createArgument,
      createdEventBlob: Buffer.from(`CgMyLjES${hex(`blob:${seed}`)}${hex(`blob2:${seed}`)}`, 'utf8').toString('base64'),
      interfaceViews: [],
      witnessParties: [...new Set([...signatories, ...observers])],
      signatories,
      observers,
      createdAt: at,
      packageName: PACKAGE_NAME,
      representativePackageId: templateId.split(':')[0]!,
      acsDelta: true,
      ...more,
    },
  });

  const iou = (issuer: string, owner: string, amount: string, currency = 'USD') => ({ issuer, owner, currency, amount, observers: [] as string[] });
  const holdingView = (owner: string, amount: string) => [{
    interfaceId: HOLDING,
    viewValue: { owner, instrument: { issuer: Bank, id: 'USD' }, amount },
    implementationPackageId: MODEL_PACKAGE,
  }];

  tx('issue-alice', 'issue-iou-alice-1', (off, at) => [
    create(off, at, 0, 'active-iou', IOU, iou(Bank, Alice, '1000.0000000000'), [Bank], [Alice], {}, holdingView(Alice, '1000.0000000000')),
  ], { workflowId: 'onboarding' });
  tx('open-account', 'open-account-bob', (off, at) => [
    create(off, at, 0, 'keyed-account', ACCOUNT, { bank: Bank, owner: Bob, number: 'CH93-0076-2011-6238-5295-7' }, [Bank], [Bob], {
      contractKey: { _1: Bank, _2: 'CH93-0076-2011-6238-5295-7' },
      contractKeyHash: hex('key:keyed-account'),
    }),
  ]);
  tx('issue-alice-2', 'issue-iou-alice-2', (off, at) => [
    create(off, at, 0, 'archived-iou', IOU, iou(Bank, Alice, '250.0000000000'), [Bank], [Alice], {}, holdingView(Alice, '250.0000000000')),
  ]);
  const transferred = contractIdFor('transferred-iou');
  tx('transfer', 'transfer-alice-bob-7f3a', (off, at) => [
    {
      kind: 'exercised',
      stakeholders: [Bank, Alice],
      event: {
        offset: off,
        nodeId: 0,
        contractId: contractIdFor('archived-iou'),
        templateId: IOU,
        choice: 'Iou_Transfer',
        choiceArgument: { newOwner: Bob },
        actingParties: [Alice],
        consuming: true,
        witnessParties: [Alice, Bank, Bob],
        lastDescendantNodeId: 1,
        exerciseResult: transferred,
        packageName: PACKAGE_NAME,
        implementedInterfaces: [HOLDING],
        acsDelta: true,
      },
    },
    create(off, at, 1, 'transferred-iou', IOU, iou(Bank, Bob, '250.0000000000'), [Bank], [Bob], {}, holdingView(Bob, '250.0000000000')),
  ], { externalTransactionHash: Buffer.from(hex('external-hash:transfer'), 'hex').toString('base64') });
  tx('hostile', 'notes-<script>-1', (off, at) => [
    create(off, at, 0, 'hostile-note', NOTE, {
      author: Bank,
      reader: Alice,
      title: HOSTILE_STRINGS[0],
      body: HOSTILE_STRINGS.join('\n'),
      tags: HOSTILE_STRINGS,
      link: HOSTILE_STRINGS[2],
      related: contractIdFor('active-iou'),
      deep: nested(50),
      emptyText: '',
      optional: null,
      amount: '-0.0000000001',
    }, [Bank], [Alice, Carol]),
  ], { workflowId: '<b>workflow</b>' });
  tx('batch', 'batch-issue-2026-11', (off, at) => {
    const events: StoredEvent[] = [];
    for (let i = 0; i < bigCount; i++) {
      const owner = i % 3 === 0 ? Bob : Alice;
      events.push(create(off, at, i, `batch-${i}`, IOU, iou(Bank, owner, `${(i + 1) * 10}.0000000000`, i % 2 ? 'CHF' : 'USD'), [Bank], [owner]));
    }
    return events;
  });
  tx('bank-only', 'bank-internal-1', (off, at) => [
    create(off, at, 0, 'bank-only', IOU, iou(Bank, Bank, '5.0000000000'), [Bank], []),
  ]);
  tx('external-dana', 'external-dana-1', (off, at) => [
    create(off, at, 0, 'dana-iou', IOU, iou(Bank, Dana, '42.0000000000'), [Bank], [Dana]),
  ]);

  return {
    participantId,
    synchronizerId,
    parties,
    users: {
      alice: [{ canActAs: Alice }],
      bob: [{ canActAs: Bob }],
      bank: [{ canActAs: Bank }, { canReadAs: Carol }],
      dana: [{ canExecuteAs: Dana }, { canReadAs: Dana }],
      reader: ['canReadAsAnyParty'],
      participant_admin: ['participantAdmin'],
      executor: ['canExecuteAsAnyParty'],
    },
    transactions,
    samples: {
      activeContract: contractIdFor('active-iou'),
      archivedContract: contractIdFor('archived-iou'),
      keyedContract: contractIdFor('keyed-account'),
      hostileContract: contractIdFor('hostile-note'),
      bankOnlyContract: contractIdFor('bank-only'),
      transferUpdate: updateIdFor('transfer'),
      bigUpdate: updateIdFor('batch'),
      hostileUpdate: updateIdFor('hostile'),
      unknownContract: contractIdFor('never-created'),
      unknownUpdate: updateIdFor('never-happened'),
    },
  };
}

/** ISO instant with 6 fraction digits, as the JSON API prints them. */
function micros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1417Z');
}
