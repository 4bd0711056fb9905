// The seeded ledger of the fake node and demo ledger: real id formats (docs/ledger-api.md#ids), active and
// archived contracts, a contract key, interface views, a transaction with thousands of events,
// and hostile strings in create arguments (believable text with `hostile: false`, the demo's); deterministic.
import { createHash } from 'node:crypto';
import { HOSTILE_STRINGS } from './storedLedger';
import type { CreatedEvent, ExercisedEvent } from './apiTypes';
import type { DemoLedger, StoredCreate, StoredEvent, StoredExercise, StoredReassignment, StoredTopology, StoredTransaction, UserRight } from './storedLedger';
import { seedHistory } from './demoLedgerHistory';
import { demoUsers } from './demoUsers';
import { micros, nested as nestedTo, seededTexts } from './demoLedgerTexts';

export type { DemoLedger, StoredCreate, StoredEvent, StoredExercise, StoredReassignment, StoredTopology, StoredTransaction, UserRight } from './storedLedger';

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
const SETTLEMENT = `${MODEL_PACKAGE}:Settlement:Settlement`;
const BATCH = `${MODEL_PACKAGE}:Batch.Job:Job`;
export { HOSTILE_STRINGS };

const nested = (depth: number) => nestedTo(depth, contractIdFor('active-iou'));

export interface DemoLedgerOptions {
  /** Created events in the big batch transaction. */
  bigTransactionEvents?: number;
  /** Nodes (exercises and creates) of the generated ledger-effects transaction. Default 200 (the demo ledger: 10,000). */
  bigTreeNodes?: number;
  /** Users added to (or replacing) the demo's: user id → rights (tests: hostile ids, many rights). */
  extraUsers?: Record<string, UserRight[]>;
  /** Parties hosted besides the five named ones (tests of paging: 1,000). Default 0. */
  extraHostedParties?: number;
  /** Hostile strings in notes, memos and labels (tests); false: believable text (the demo). Default true. */
  hostile?: boolean;
}

export function buildDemoLedger(options: DemoLedgerOptions = {}): DemoLedger {
  const bigCount = options.bigTransactionEvents ?? 5000;
  const texts = seededTexts(options.hostile ?? true);
  const strings = texts.strings;
  const participantNamespace = fingerprintFor('participant1');
  const participantId = `participant1::${participantNamespace}`;
  const synchronizerId = `da1::${fingerprintFor('synchronizer-da1')}`;
  const parties = {
    Alice: `Alice::${participantNamespace}`,
    Bob: `Bob::${participantNamespace}`,
    Bank: `Bank::${participantNamespace}`,
    // Party hints may hold single colons, dashes, underscores and spaces (docs/ledger-api.md#ids).
    Carol: `Carol:-_ a9c80151-002c-445e-9fae-3caf111e3ac4::${participantNamespace}`,
    // An external party, with its own namespace.
    Dana: `Dana-ext::${fingerprintFor('dana-external-key')}`,
  };
  const { Alice, Bob, Bank, Carol, Dana } = parties;

  const otherSynchronizerId = `global-domain::${fingerprintFor('synchronizer-global')}`;
  // Offsets 1–10 were pruned: the pruning point sits below the first transaction still there.
  const prunedUpTo = 10;
  let offset = 3;
  let clock = Date.parse('2026-10-30T08:00:00.000Z');
  const transactions: StoredTransaction[] = [];
  const reassignments: StoredReassignment[] = [];
  const topology: StoredTopology[] = [];
  const trace = (seed: string) => ({ traceparent: `00-${hex(`trace:${seed}`).slice(0, 32)}-${hex(`span:${seed}`).slice(0, 16)}-01`, tracestate: null });

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
      traceContext: trace(seed),
      paidTrafficCost: 1_234 + offset,
      events: events(offset, at),
      ...extra,
    });
  };

  const create = (
    off: number,
    at: string,
    nodeId: number,
    seed: string,
    templateId: string,
    createArgument: unknown,
    signatories: string[],
    observers: string[],
    more: Partial<CreatedEvent> = {},
    views: StoredCreate['views'] = [],
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
      representativePackageId: templateId.split(':')[0],
      acsDelta: true,
      ...more,
    },
  });

  const iou = (issuer: string, owner: string, amount: string, currency = 'USD') => ({ issuer, owner, currency, amount, observers: [] as string[] });
  const holdingView = (owner: string, amount: string) => [
    {
      interfaceId: HOLDING,
      viewValue: { owner, instrument: { issuer: Bank, id: 'USD' }, amount },
      implementationPackageId: MODEL_PACKAGE,
    },
  ];

  const exercise = (
    off: number,
    nodeId: number,
    contractId: string,
    templateId: string,
    choice: string,
    choiceArgument: unknown,
    exerciseResult: unknown,
    actingParties: string[],
    stakeholders: string[],
    witnessParties: string[],
    lastDescendantNodeId: number,
    more: Partial<ExercisedEvent> = {},
  ): StoredExercise => ({
    kind: 'exercised',
    stakeholders,
    event: {
      offset: off,
      nodeId,
      contractId,
      templateId,
      choice,
      choiceArgument,
      actingParties,
      consuming: true,
      witnessParties,
      lastDescendantNodeId,
      exerciseResult,
      packageName: PACKAGE_NAME,
      implementedInterfaces: [],
      acsDelta: true,
      ...more,
    },
  });
  const note = (author: string, reader: string, title: string) => ({ author, reader, title, body: '', tags: [] as string[] });

  // Pruned: a note created at offset 4 and archived after the pruning point (its create is gone).
  tx('genesis-note', 'genesis-note-1', (off, at) => [
    create(off, at, 0, 'pruned-create-note', NOTE, note(Bank, Alice, 'created before pruning'), [Bank], [Alice]),
  ]);
  offset = 11;
  clock = Date.parse('2026-11-02T09:14:05.000Z');
  tx(
    'issue-alice',
    'issue-iou-alice-1',
    (off, at) => [create(off, at, 0, 'active-iou', IOU, iou(Bank, Alice, '1000.0000000000'), [Bank], [Alice], {}, holdingView(Alice, '1000.0000000000'))],
    { workflowId: 'onboarding' },
  );
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
  tx(
    'transfer',
    'transfer-alice-bob-7f3a',
    (off, at) => [
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
    ],
    { externalTransactionHash: Buffer.from(hex('external-hash:transfer'), 'hex').toString('base64') },
  );
  tx(
    'hostile',
    texts.noteCommandId,
    (off, at) => [
      create(
        off,
        at,
        0,
        'hostile-note',
        NOTE,
        {
          author: Bank,
          reader: Alice,
          title: strings[0],
          body: strings.join('\n'),
          tags: strings,
          link: strings[2],
          related: contractIdFor('active-iou'),
          deep: nested(50),
          emptyText: '',
          optional: null,
          amount: '-0.0000000001',
        },
        [Bank],
        [Alice, Carol],
      ),
    ],
    { workflowId: texts.noteWorkflowId },
  );
  tx('batch', 'batch-issue-2026-11', (off, at) => {
    const events: StoredEvent[] = [];
    for (let i = 0; i < bigCount; i++) {
      const owner = i % 3 === 0 ? Bob : Alice;
      events.push(create(off, at, i, `batch-${i}`, IOU, iou(Bank, owner, `${(i + 1) * 10}.0000000000`, i % 2 ? 'CHF' : 'USD'), [Bank], [owner]));
    }
    return events;
  });
  tx('bank-only', 'bank-internal-1', (off, at) => [create(off, at, 0, 'bank-only', IOU, iou(Bank, Bank, '5.0000000000'), [Bank], [])]);
  tx('external-dana', 'external-dana-1', (off, at) => [create(off, at, 0, 'dana-iou', IOU, iou(Bank, Dana, '42.0000000000'), [Bank], [Dana])]);
  // After the pruning point: the archive of the pruned note is still there.
  tx('close-note', 'close-note-1', (off) => [
    exercise(off, 0, contractIdFor('pruned-create-note'), NOTE, 'Note_Close', { reason: 'read' }, {}, [Bank], [Bank, Alice], [Bank, Alice], 0),
  ]);

  // A settlement, as a debugger's call trace: nested exercises, one through an interface, a
  // non-consuming one, hostile values in arguments and results.
  tx('settlement-setup', 'settlement-setup-1', (off, at) => [
    create(off, at, 0, 'settlement', SETTLEMENT, { operator: Bank, buyer: Alice, seller: Bob, legs: '2', memo: strings[3] }, [Bank], [Alice, Bob]),
    create(off, at, 1, 'leg-1-iou', IOU, iou(Bank, Alice, '100.0000000000'), [Bank], [Alice], {}, holdingView(Alice, '100.0000000000')),
    create(off, at, 2, 'leg-2-iou', IOU, iou(Bank, Bob, '80.0000000000'), [Bank], [Bob], {}, holdingView(Bob, '80.0000000000')),
  ]);
  tx(
    'settlement',
    'settle-dvp-2026-11-02',
    (off, at) => [
      exercise(
        off,
        0,
        contractIdFor('settlement'),
        SETTLEMENT,
        'Settlement_Execute',
        { note: strings[1], legs: [contractIdFor('leg-1-iou'), contractIdFor('leg-2-iou')], deep: nested(8) },
        { settled: [contractIdFor('settled-1'), contractIdFor('split-a'), contractIdFor('split-b')], log: strings[0] },
        [Bank],
        [Bank, Alice, Bob],
        [Bank, Alice, Bob],
        6,
      ),
      exercise(
        off,
        1,
        contractIdFor('leg-1-iou'),
        IOU,
        'Iou_Transfer',
        { newOwner: Bob },
        contractIdFor('settled-1'),
        [Alice],
        [Bank, Alice],
        [Bank, Alice, Bob],
        2,
        { implementedInterfaces: [HOLDING] },
      ),
      create(off, at, 2, 'settled-1', IOU, iou(Bank, Bob, '100.0000000000'), [Bank], [Bob]),
      exercise(
        off,
        3,
        contractIdFor('leg-2-iou'),
        IOU,
        'Holding_Split',
        { amounts: ['30.0000000000', '50.0000000000'], memo: strings[4] },
        { _1: contractIdFor('split-a'), _2: contractIdFor('split-b') },
        [Bob],
        [Bank, Bob],
        [Bank, Alice, Bob],
        5,
        { interfaceId: HOLDING, implementedInterfaces: [HOLDING] },
      ),
      create(off, at, 4, 'split-a', IOU, iou(Bank, Alice, '30.0000000000'), [Bank], [Alice]),
      create(off, at, 5, 'split-b', IOU, iou(Bank, Bob, '50.0000000000'), [Bank], [Bob]),
      exercise(off, 6, contractIdFor('keyed-account'), ACCOUNT, 'Account_Log', { entry: strings[6] }, {}, [Bank], [Bank, Bob], [Bank, Alice, Bob], 6, {
        consuming: false,
        acsDelta: false,
      }),
    ],
    { workflowId: 'settlement-2026-11' },
  );

  // A generated call tree: jobs of up to 100 nodes, each a non-consuming run with steps that create.
  const treeNodes = options.bigTreeNodes ?? 200;
  tx('big-tree', 'batch-jobs-2026-11', (off, at) => {
    const events: StoredEvent[] = [];
    for (let job = 0; events.length < treeNodes; job++) {
      const root = events.length;
      const size = Math.min(100, treeNodes - root);
      events.push(
        exercise(
          off,
          root,
          contractIdFor(`job-${job}`),
          BATCH,
          'Job_Run',
          { job, label: job % 97 === 0 ? strings[job % strings.length] : `job ${job}` },
          job,
          [Bank],
          [Bank, Alice],
          [Bank, Alice],
          root + size - 1,
          { consuming: false, acsDelta: false },
        ),
      );
      for (let n = root + 1; n < root + size; n += 2) {
        if (n + 1 < root + size) {
          events.push(
            exercise(
              off,
              n,
              contractIdFor(`job-${job}`),
              BATCH,
              'Job_Step',
              { step: n - root },
              contractIdFor(`job-${job}-out-${n}`),
              [Bank],
              [Bank, Alice],
              [Bank, Alice],
              n + 1,
              { consuming: false, acsDelta: false },
            ),
          );
          events.push(create(off, at, n + 1, `job-${job}-out-${n}`, NOTE, note(Bank, Alice, `output of step ${n - root}`), [Bank], [Alice]));
        } else {
          events.push(create(off, at, n, `job-${job}-out-${n}`, NOTE, note(Bank, Alice, `last output of job ${job}`), [Bank], [Alice]));
        }
      }
    }
    return events;
  });

  // A contract that moves to the other synchronizer: created, unassigned, assigned.
  const moved = contractIdFor('moved-iou');
  tx('move-setup', 'issue-iou-moved', (off, at) => [create(off, at, 0, 'moved-iou', IOU, iou(Bank, Alice, '77.0000000000'), [Bank], [Alice])]);
  const reassignmentId = `${hex('reassignment:moved-iou').slice(0, 40)}`;
  const reassign = (seed: string, commandId: string, event: StoredReassignment['event'], synchronizer: string) => {
    offset += 1;
    clock += 2_000_000;
    reassignments.push({
      updateId: updateIdFor(seed),
      commandId,
      workflowId: '',
      offset,
      recordTime: micros(clock),
      synchronizerId: synchronizer,
      traceContext: trace(seed),
      event,
    });
  };
  reassign(
    'unassign-moved',
    'move-iou-1',
    {
      kind: 'unassigned',
      contractId: moved,
      templateId: IOU,
      packageName: PACKAGE_NAME,
      stakeholders: [Bank, Alice],
      source: synchronizerId,
      target: otherSynchronizerId,
      reassignmentId,
      submitter: Alice,
      reassignmentCounter: 1,
    },
    synchronizerId,
  );
  const movedCreate = create(offset + 1, micros(clock + 2_000_000), 0, 'moved-iou', IOU, iou(Bank, Alice, '77.0000000000'), [Bank], [Alice]);
  reassign(
    'assign-moved',
    'move-iou-1',
    {
      kind: 'assigned',
      create: movedCreate,
      source: synchronizerId,
      target: otherSynchronizerId,
      reassignmentId,
      submitter: Alice,
      reassignmentCounter: 1,
    },
    otherSynchronizerId,
  );

  offset += 1;
  clock += 1_000_000;
  topology.push({
    updateId: updateIdFor('topology-carol'),
    offset,
    recordTime: micros(clock),
    synchronizerId,
    events: [{ partyId: Carol, participantId, participantPermission: 'PARTICIPANT_PERMISSION_OBSERVATION' }],
  });
  const history = seedHistory({ tx, create, exercise, contractIdFor, parties, modelPackage: MODEL_PACKAGE });

  return {
    participantId,
    synchronizerId,
    otherSynchronizerId,
    prunedUpTo,
    reassignments,
    topology,
    parties,
    ...demoUsers(parties, participantNamespace, options),
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
      settlementUpdate: updateIdFor('settlement'),
      bigTreeUpdate: updateIdFor('big-tree'),
      unassignUpdate: updateIdFor('unassign-moved'),
      assignUpdate: updateIdFor('assign-moved'),
      reassignedContract: moved,
      topologyUpdate: updateIdFor('topology-carol'),
      prunedCreateContract: contractIdFor('pruned-create-note'),
      prunedUpdate: updateIdFor('genesis-note'),
      ...history,
    },
  };
}
