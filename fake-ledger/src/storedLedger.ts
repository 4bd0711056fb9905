// The shapes of the fake node's ledger: the users' rights, and the transactions, reassignments and
// topology updates it holds as the node stores them (creates with their interface views, exercises
// with their stakeholders), with the seeded ids worth showing. No `vscode` import.
import type { CreatedEvent, ExercisedEvent } from './apiTypes';

export type UserRight =
  | { canActAs: string }
  | { canReadAs: string }
  | { canExecuteAs: string }
  | 'canReadAsAnyParty'
  | 'canActAsAnyParty'
  | 'canExecuteAsAnyParty'
  | 'participantAdmin'
  | 'identityProviderAdmin';

/** A user's record besides its rights; the identity provider is the default one when unset. */
export interface UserDetails {
  primaryParty?: string;
  isDeactivated?: boolean;
  identityProviderId?: string;
  annotations?: Record<string, string>;
  /** Bumped on every change of the record (not of its rights), as `metadata.resourceVersion`. */
  resourceVersion?: number;
  primaryPartyAuthentication?: boolean;
}

export interface StoredCreate {
  kind: 'created';
  event: CreatedEvent;
  /** Views computed when a request asks for the interface (InterfaceFilter with includeInterfaceView). */
  views: {
    interfaceId: string;
    viewValue: unknown;
    implementationPackageId: string;
    /** The view's code failed: the node sends this status and no value. */
    failure?: { code: number; message: string };
  }[];
}

/**
 * The views of a create that a request asked for: a computed one with status OK and its value, a
 * failed one with its status and no value (LfValueTranslation.toInterfaceView; the JSON API leaves
 * `viewValue` out, ProtocolConverters.InterfaceView.toJson). 3.4 has no implementationPackageId.
 */
export function interfaceViewsOf(create: StoredCreate, asked: (interfaceId: string) => boolean, withImplementation = true): CreatedEvent['interfaceViews'] {
  return create.views
    .filter((v) => asked(v.interfaceId))
    .map((v) => ({
      interfaceId: v.interfaceId,
      viewStatus: v.failure ? { ...v.failure, details: [] } : { code: 0, message: '' },
      ...(v.failure ? {} : { viewValue: v.viewValue }),
      ...(withImplementation ? { implementationPackageId: v.implementationPackageId } : {}),
    }));
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

/** A reassignment update: a contract leaving one synchronizer (unassigned) or arriving on another (assigned). */
export interface StoredReassignment {
  updateId: string;
  commandId: string;
  workflowId: string;
  offset: number;
  recordTime: string;
  synchronizerId: string;
  traceContext: { traceparent: string; tracestate: string | null };
  event:
    | {
        kind: 'unassigned';
        contractId: string;
        templateId: string;
        packageName: string;
        stakeholders: string[];
        source: string;
        target: string;
        reassignmentId: string;
        submitter: string;
        reassignmentCounter: number;
      }
    | { kind: 'assigned'; create: StoredCreate; source: string; target: string; reassignmentId: string; submitter: string; reassignmentCounter: number };
}

/** A topology transaction: parties' hosting on this participant changed. */
export interface StoredTopology {
  updateId: string;
  offset: number;
  recordTime: string;
  synchronizerId: string;
  events: {
    partyId: string;
    participantId: string;
    participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' | 'PARTICIPANT_PERMISSION_CONFIRMATION' | 'PARTICIPANT_PERMISSION_OBSERVATION';
  }[];
}

export interface DemoLedger {
  participantId: string;
  synchronizerId: string;
  /** A second synchronizer, named like the global one (its id has a party id's shape). */
  otherSynchronizerId: string;
  /** Updates at or below this offset are pruned: gone from update lookups, creates of archived contracts gone. */
  prunedUpTo: number;
  reassignments: StoredReassignment[];
  topology: StoredTopology[];
  parties: { Alice: string; Bob: string; Bank: string; Carol: string; Dana: string };
  users: Record<string, UserRight[]>;
  /** What GET /v2/authenticated-user tells of a user besides its id; a deactivated user is refused everywhere. */
  userDetails: Record<string, UserDetails>;
  /** Parties this participant hosts besides the five named ones (GET /v2/parties pages through them). */
  extraHostedParties: string[];
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
    /** Ledger effects with nested exercises, one through an interface, hostile choice values. */
    settlementUpdate: string;
    /** A generated ledger-effects transaction of `bigTreeNodes` nodes. */
    bigTreeUpdate: string;
    unassignUpdate: string;
    assignUpdate: string;
    reassignedContract: string;
    topologyUpdate: string;
    /** Created before the pruning offset, archived after it: only its archive event is left. */
    prunedCreateContract: string;
    /** A transaction at or below the pruning offset. */
    prunedUpdate: string;
    /** One Iou through a split and two transfers, oldest first: each archived by the transaction that created the next. */
    workflowChain: string[];
    /** Active Ious of the demo model's versions 1.0.0 and 2.0.0 (an upgraded template). */
    upgradedContracts: { v1: string; v2: string };
    /** Partner app contracts behind its Holding interface (partnerHoldings.ts). */
    partnerHoldings: PartnerHoldings;
  };
}

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

/** The seeding helpers of demoLedgerData.ts, so these transactions are built the same way. */
export interface HistoryKit {
  tx: (seed: string, commandId: string, events: (off: number, at: string) => StoredEvent[], extra?: Partial<StoredTransaction>) => void;
  create: (
    off: number,
    at: string,
    nodeId: number,
    seed: string,
    templateId: string,
    createArgument: unknown,
    signatories: string[],
    observers: string[],
    more?: Partial<CreatedEvent>,
    views?: StoredCreate['views'],
  ) => StoredCreate;
  exercise: (
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
    more?: Partial<ExercisedEvent>,
  ) => StoredExercise;
  contractIdFor: (seed: string) => string;
  parties: DemoLedger['parties'];
  modelPackage: string;
}

/** The partner app's contracts behind its Holding interface (partnerHoldings.ts). */
export interface PartnerHoldings {
  /** Active Token and LockedToken contracts whose Holding view succeeds, and the one whose view fails. */
  tokens: string[];
  locked: string;
  failedView: string;
}
