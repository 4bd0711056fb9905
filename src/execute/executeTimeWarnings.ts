// What the node checks of a prepared transaction's times once its execute is accepted, told
// before it is sent: the node's time (here: now) becomes the ledger time, moved into the prepared
// bounds; the request must be sequenced within ledgerTimeRecordTimeTolerance of that ledger time
// (on Canton 3.4 also by its max record time), else its completion says NOT_SEQUENCED_TIMEOUT; then
// the record time is checked against the ledger time, the preparation time and the max record
// time, each failure a LOCAL_VERDICT_* rejection. The first that fails is what the node answers,
// in this order (Canton's TimeValidator; docs/execute.md). Synchronizer parameters at Canton's
// defaults. No `vscode` import.
import * as l10n from '../l10n/l10n';
import { localDateTime } from '../l10n/forPeople';

/** Canton's default ledgerTimeRecordTimeTolerance and preparationTimeRecordTimeTolerance. */
export const LEDGER_TIME_TOLERANCE_MS = 60_000;
export const PREPARATION_TOLERANCE_MS = 24 * 3600_000;

export interface PreparedTimesInput {
  preparationTime?: string;
  minLedgerEffectiveTime?: string;
  maxLedgerEffectiveTime?: string;
  maxRecordTime?: string;
  /** The node's version: 3.4 checks the max record time when sequencing. Unknown: as 3.5+, naming 3.4's code too. */
  nodeVersion?: string;
}

export interface TimeWarning {
  /** The code the node's completion will carry. */
  code:
    | 'NOT_SEQUENCED_TIMEOUT'
    | 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND'
    | 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND'
    | 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED';
  text: string;
}

const at = (s: string | undefined) => (s ? Date.parse(s) : NaN);

/** Why the node will reject the transaction if it is executed at `now`, or undefined: its times pass. */
export function executeTimeWarning(input: PreparedTimesInput, now: number): TimeWarning | undefined {
  const min = at(input.minLedgerEffectiveTime);
  const max = at(input.maxLedgerEffectiveTime);
  const maxRecord = at(input.maxRecordTime);
  const prepared = at(input.preparationTime);
  const v34 = /^3\.4\b/.test(input.nodeVersion ?? '');
  const unknownVersion = !/^\d+\.\d+/.test(input.nodeVersion ?? '');
  const ledgerTime = !Number.isNaN(min) && now < min ? min : !Number.isNaN(max) && now > max ? max : now;
  const when = (ms: number) => localDateTime(ms);
  const outcome = l10n.t('The node accepts the execute, then rejects the transaction: nothing commits.');

  if (now > ledgerTime + LEDGER_TIME_TOLERANCE_MS)
    return {
      code: 'NOT_SEQUENCED_TIMEOUT',
      text: l10n.t(
        'Its ledger time can be at most {0}: the node must have it sequenced within 60 s of that (the default ledgerTimeRecordTimeTolerance), which has passed. {1} Its completion says NOT_SEQUENCED_TIMEOUT. Prepare it again.',
        when(max),
        outcome,
      ),
    };
  if (v34 && !Number.isNaN(maxRecord) && now > maxRecord)
    return {
      code: 'NOT_SEQUENCED_TIMEOUT',
      text: l10n.t(
        'Its max record time {0} has passed: a Canton 3.4 node cannot have it sequenced by then. {1} Its completion says NOT_SEQUENCED_TIMEOUT. Prepare it again.',
        when(maxRecord),
        outcome,
      ),
    };
  if (ledgerTime > now + LEDGER_TIME_TOLERANCE_MS)
    return {
      code: 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
      text: l10n.t(
        'Its ledger time must be at least {0}, more than 60 s after now (the default ledgerTimeRecordTimeTolerance). {1} Its completion says LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND. Execute it from {2} on.',
        when(min),
        outcome,
        when(min - LEDGER_TIME_TOLERANCE_MS),
      ),
    };
  if (!Number.isNaN(prepared) && Math.abs(now - prepared) > PREPARATION_TOLERANCE_MS)
    return {
      code: 'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
      text: l10n.t(
        'It was prepared at {0}, more than 24 hours from now (the default preparationTimeRecordTimeTolerance). {1} Its completion says LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND. Prepare it again.',
        when(prepared),
        outcome,
      ),
    };
  if (!Number.isNaN(maxRecord) && now > maxRecord)
    return {
      code: 'LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED',
      text: unknownVersion
        ? l10n.t(
            'Its max record time {0} has passed. {1} Its completion says LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED (NOT_SEQUENCED_TIMEOUT on Canton 3.4). Prepare it again.',
            when(maxRecord),
            outcome,
          )
        : l10n.t(
            'Its max record time {0} has passed. {1} Its completion says LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED. Prepare it again.',
            when(maxRecord),
            outcome,
          ),
    };
  return undefined;
}
