// What a node checks of an executed prepared transaction's times, once the execute is accepted:
// the ledger time is the node's time clamped to the prepared bounds (PreparedTransactionDecoder,
// adjustLedgerTimeToBounds); the request must be sequenced by its max sequencing time (ledger time
// + ledgerTimeRecordTimeTolerance; on 3.4 (protocol 34) also no later than the max record time),
// else NOT_SEQUENCED_TIMEOUT; then the confirming participant's TimeValidator compares the record
// time with the ledger time, the preparation time and (protocol 35, Canton 3.5+) the max record time,
// and rejects with a LOCAL_VERDICT_* code. The synchronizer parameters are Canton's defaults.
// Sources: docs/fake-node.md ("Execute: the prepared transaction's times"). No `vscode` import.
import type { FakeVersion } from './ledgerQueries';

/** DynamicSynchronizerParameters' defaults (SynchronizerParameters.scala). */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS = 60_000_000n;
export const PREPARATION_TIME_RECORD_TIME_TOLERANCE_MICROS = 24n * 3600n * 1_000_000n;

/** The times of a prepared transaction's metadata, in microseconds since the epoch (0 or absent: not set). */
export interface PreparedTimes {
  preparationTime?: bigint;
  minLedgerEffectiveTime?: bigint;
  maxLedgerEffectiveTime?: bigint;
  maxRecordTime?: bigint;
}

export interface TimeRejection {
  code:
    | 'NOT_SEQUENCED_TIMEOUT'
    | 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND'
    | 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND'
    | 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED';
  cause: string;
  /** ContentionOnSharedResources: category 2, gRPC ABORTED. */
  category: 2;
  grpcCode: 10;
}

const set = (t: bigint | undefined) => (t !== undefined && t > 0n ? t : undefined);

/** A timestamp as Canton prints one (java.time.Instant: fraction digits in groups of three, none when zero). */
export function cantonInstant(micros: bigint): string {
  const iso = new Date(Number(micros / 1000n)).toISOString().replace(/\.\d{3}Z$/, '');
  const fraction = micros % 1_000_000n;
  if (fraction === 0n) return `${iso}Z`;
  const digits = String(fraction).padStart(6, '0');
  return `${iso}.${digits.endsWith('000') ? digits.slice(0, 3) : digits}Z`;
}

const duration = (micros: bigint) => `NonNegativeFiniteDuration(${micros % 3_600_000_000n === 0n ? `${micros / 3_600_000_000n}h` : `${micros / 1_000_000n}s`})`;

const reject = (code: TimeRejection['code'], cause: string): TimeRejection => ({ code, cause, category: 2, grpcCode: 10 });

/** Why the node rejects the transaction when it is sequenced at `recordTime` (µs), or undefined: its times pass. */
export function timeRejection(times: PreparedTimes, recordTime: bigint, version: FakeVersion): TimeRejection | undefined {
  const min = set(times.minLedgerEffectiveTime);
  const max = set(times.maxLedgerEffectiveTime);
  const maxRecord = set(times.maxRecordTime);
  const prepared = set(times.preparationTime);
  // The tentative ledger time is the node's time, moved into the prepared bounds.
  const ledgerTime = min !== undefined && recordTime < min ? min : max !== undefined && recordTime > max ? max : recordTime;
  const maxSequencing = ledgerTime + LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS;
  const protocol34 = version === '3.4';
  if (recordTime > maxSequencing || (protocol34 && maxRecord !== undefined && recordTime > maxRecord))
    return reject('NOT_SEQUENCED_TIMEOUT', 'Transaction was not sequenced within the pre-defined max sequencing time and has therefore timed out');
  const tooFar = (t: bigint, tolerance: bigint) => t < recordTime - tolerance || t > recordTime + tolerance;
  if (tooFar(ledgerTime, LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS))
    return reject(
      'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
      `Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=${cantonInstant(ledgerTime)}, recordTime=${cantonInstant(recordTime)}, maxDelta=${duration(LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS)}`,
    );
  if (prepared !== undefined && tooFar(prepared, PREPARATION_TIME_RECORD_TIME_TOLERANCE_MICROS))
    return reject(
      'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      `Rejected transaction as delta of the preparation time and the record time exceed the time tolerance preparationTime=${cantonInstant(prepared)}, recordTime=${cantonInstant(recordTime)}, maxDelta=${duration(PREPARATION_TIME_RECORD_TIME_TOLERANCE_MICROS)}`,
    );
  if (!protocol34 && maxRecord !== undefined && recordTime > maxRecord)
    return reject(
      'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED',
      `Rejected transaction as record time exceeds the maximum record time: recordTime=${cantonInstant(recordTime)}, maxRecordTime=${cantonInstant(maxRecord)}`,
    );
  return undefined;
}
