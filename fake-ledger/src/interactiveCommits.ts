// The commit of an interactive submission: the official library decodes and hashes what was
// sent, and what commits is what the fake prepared under that hash (interactiveSubmissions.ts),
// its local contract ids completed as Canton completes them.
import { cantonError, invalidArgument, json, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger, StoredEvent, StoredTransaction } from './demoLedgerData';
import { decodePrepared, preparedTransactionHash } from './cantonHashes';
import { nodesOfPrepared } from './preparedNodes';
import { contractIdOf, digest, interactiveState, recordCompletion, tickClock, type SubmissionRecord } from './interactiveSubmissions';
import { timeRejection } from './executeTimeChecks';
import type { FakeVersion } from './ledgerQueries';

/** What the node answers about the commit of a submission (completion, committed transaction). */
export interface CommitOptions {
  /** Takes the commit's offset: the one after the ledger end, which moves to it (a tail and ledger-end see the commit). */
  nextOffset: () => number;
  /** Makes the committed transaction findable by update-by-id, update-by-offset and transaction-by-id. */
  index: (t: StoredTransaction) => void;
  /** Which Canton the node is: 3.4 runs protocol 34, which checks the max record time when sequencing, not when confirming. */
  version?: FakeVersion;
}

const micros = (m: bigint) => new Date(Number(m / 1000n)).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(m % 1000n).padStart(3, '0')}Z`);

/** A prepared transaction that does not decode is refused as Canton refuses it, before anything commits. */
export function judgePrepared(body: Record<string, unknown>): ErrorReply | undefined {
  return decodePrepared(body.preparedTransaction as string) ? undefined : invalidArgument('Cannot parse prepared_transaction', body.submissionId as string);
}

/**
 * The submission commits at once: the node records its completion (for the completions and
 * completion-by-hash routes) and the committed transaction, built from the prepared one's nodes,
 * at an offset after the ledger end and every earlier commit. With `holdCompletions` set (tests,
 * "outcome unknown") it is accepted but nothing commits.
 */
export async function commitSubmission(
  ledger: DemoLedger,
  user: string,
  body: Record<string, unknown>,
  party: string,
  options: CommitOptions,
): Promise<SubmissionRecord | undefined> {
  const state = interactiveState(ledger);
  const submissionId = body.submissionId as string;
  const seed = `${submissionId}:${state.submittedCount++}`;
  if (state.holdCompletions) return undefined;
  const updateId = `1220${digest(`update:${seed}`).toString('hex')}`;
  // The official library decodes and hashes what was sent; what commits is what the fake prepared
  // under that hash, else what the decoding reads (changed after prepare, or prepared elsewhere).
  // Both before the offset is taken, so the ledger end moves only when the transaction is indexed.
  const sent = decodePrepared(body.preparedTransaction as string);
  const hash = sent ? await preparedTransactionHash(body.preparedTransaction as string) : undefined;
  const offset = options.nextOffset();
  tickClock(state);
  const at = micros(state.clockMicros);
  const prepared = hash ? state.prepared.get(hash) : undefined;
  const commandId = sent?.metadata?.submitterInfo?.commandId || prepared?.commandId || submissionId;
  const traceContext = {
    traceparent: `00-${digest(`trace:${seed}`).toString('hex').slice(0, 32)}-${digest(`span:${seed}`).toString('hex').slice(0, 16)}-01`,
    tracestate: null,
  };
  // Accepted, then rejected for its times: a failed completion, nothing committed.
  const late = sent?.metadata ? timeRejection(sent.metadata, state.clockMicros, options.version ?? '3.5') : undefined;
  if (late) {
    const rejected: SubmissionRecord = {
      submissionId,
      updateId: '',
      completionOffset: offset,
      userId: (body.userId as string) || user,
      actAs: [party],
      commandId,
      hash,
      recordTime: at,
      synchronizerId: sent?.metadata?.synchronizerId || ledger.synchronizerId,
      traceContext,
      status: { code: late.grpcCode, message: `${late.code}(${late.category},${submissionId.slice(0, 8)}): ${late.cause}`, details: [] },
    };
    recordCompletion(ledger, rejected);
    return rejected;
  }
  const nodes = prepared?.nodes ?? (sent ? nodesOfPrepared(sent) : []);
  // Canton completes the local ids of the contracts created here with a suffix (ca12 + a hash) at commit.
  const local = new Set(nodes.flatMap((n) => (n.kind === 'create' ? [n.contractId] : [])));
  const committedId = (id: string) => (local.has(id) ? `${id}ca121220${digest(`suffix:${id}`).toString('hex')}` : id);
  const withIds = (v: unknown): unknown =>
    typeof v === 'string'
      ? committedId(v)
      : Array.isArray(v)
        ? v.map(withIds)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withIds(x)]))
          : v;
  const events: StoredEvent[] = nodes.flatMap((n, i): StoredEvent[] => {
    const stakeholders = n.stakeholders ?? n.signatories ?? [party];
    if (n.kind === 'create') {
      const signatories = n.signatories ?? [party];
      return [
        {
          kind: 'created',
          views: [],
          event: {
            offset,
            nodeId: i,
            contractId: committedId(n.contractId ?? contractIdOf(`${seed}:${i}`)),
            templateId: n.templateId ?? '',
            contractKey: null,
            createArgument: withIds(n.argument ?? {}),
            createdEventBlob: '',
            interfaceViews: [],
            witnessParties: stakeholders,
            signatories,
            observers: stakeholders.filter((p) => !signatories.includes(p)),
            createdAt: at,
            packageName: n.packageName || 'canton-lens-demo-model',
            representativePackageId: (n.templateId ?? '').split(':')[0] ?? '',
            acsDelta: true,
          },
        },
      ];
    }
    if (n.kind === 'exercise') {
      return [
        {
          kind: 'exercised',
          stakeholders,
          event: {
            offset,
            nodeId: i,
            contractId: committedId(n.contractId ?? ''),
            templateId: n.templateId ?? '',
            ...(n.interfaceId ? { interfaceId: n.interfaceId } : {}),
            choice: n.choice ?? '',
            choiceArgument: withIds(n.argument ?? {}),
            actingParties: n.actingParties ?? [party],
            consuming: n.consuming ?? true,
            witnessParties: stakeholders,
            lastDescendantNodeId: i,
            exerciseResult: null,
            packageName: n.packageName || 'canton-lens-demo-model',
            implementedInterfaces: [],
            acsDelta: n.consuming ?? true,
          },
        },
      ];
    }
    return [];
  });
  const transaction: StoredTransaction = {
    updateId,
    commandId,
    workflowId: '',
    effectiveAt: at,
    recordTime: at,
    offset,
    synchronizerId: sent?.metadata?.synchronizerId || ledger.synchronizerId,
    traceContext,
    ...(hash ? { externalTransactionHash: hash } : {}),
    events,
  };
  const record: SubmissionRecord = {
    submissionId,
    updateId,
    completionOffset: offset,
    userId: (body.userId as string) || user,
    actAs: [party],
    commandId,
    hash,
    recordTime: at,
    synchronizerId: transaction.synchronizerId,
    traceContext: transaction.traceContext,
    transaction,
  };
  recordCompletion(ledger, record);
  options.index(transaction);
  return record;
}

/** executeAndWait: the submission commits at once; the answer names its update and completion offset. */
export async function executeAndWait(
  ledger: DemoLedger,
  user: string,
  body: Record<string, unknown>,
  party: string,
  options: CommitOptions,
): Promise<ErrorReply> {
  const record = await commitSubmission(ledger, user, body, party, options);
  // Held: the node would wait until its timeout; a deadline exceeded leaves the outcome unknown.
  if (!record) return cantonError(504, 'REQUEST_TIME_OUT', 'Timed out while awaiting for a completion corresponding to a command submission.', 3, 4);
  // A rejection (the transaction's times): the completion's code and cause, as a definite answer.
  if (record.status) {
    const [, code = '', category = '2', cause = ''] = /^([A-Z_]+)\((\d+),[^)]*\): ([\s\S]*)$/.exec(record.status.message) ?? [];
    return cantonError(409, code, cause, Number(category), record.status.code, [], record.submissionId, { definite_answer: 'true' });
  }
  return json(200, { updateId: record.updateId, completionOffset: record.completionOffset });
}
