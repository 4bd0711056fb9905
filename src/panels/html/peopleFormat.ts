// Numbers, times and enum values for people: one number format everywhere, times local and
// relative with the exact UTC time on hover, enum names in words with the raw value on hover.
import { html, type SafeHtml } from './safeHtml';
import { formatCount, localDateTime, relativeTime } from '../../l10n/forPeople';
import * as l10n from '../../l10n/l10n';

const localTimes = new Map<number, string>();

/** A ledger time as the person's local time and how long ago; the exact UTC instant on hover. */
export function timeHtml(iso: string | undefined | null, now = Date.now()): SafeHtml | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return html`${iso}`;
  // A panel shows the same few times on every refresh; formatting one costs more than finding it.
  let local = localTimes.get(t);
  if (local === undefined) {
    if (localTimes.size >= 1_000) localTimes.clear();
    local = localDateTime(t);
    localTimes.set(t, local);
  }
  return html`<time datetime="${iso}" title="${iso} (UTC)">${local} <span class="muted">(${relativeTime(iso, now) ?? ''})</span></time>`;
}

const ENUM_WORDS: Record<string, string> = {
  TRANSACTION_SHAPE_ACS_DELTA: 'what changed (ACS delta)',
  TRANSACTION_SHAPE_LEDGER_EFFECTS: 'what happened (ledger effects)',
  PARTICIPANT_PERMISSION_SUBMISSION: 'submission',
  PARTICIPANT_PERMISSION_CONFIRMATION: 'confirmation',
  PARTICIPANT_PERMISSION_OBSERVATION: 'observation',
};

/** An enum value in words (`PARTICIPANT_PERMISSION_OBSERVATION` → "observation"), the raw value on hover. */
export function enumHtml(value: string): SafeHtml {
  const words =
    ENUM_WORDS[value] ??
    value
      .replace(/^[A-Z]+(?:_[A-Z]+)*?_(?=[A-Z]+$)/, '')
      .toLowerCase()
      .replace(/_/g, ' ');
  return html`<span title="${value}">${words}</span>`;
}

/** Traffic cost in bytes, as the spec gives it (paidTrafficCost). */
export function trafficCost(bytes: number | undefined | null): string | undefined {
  return typeof bytes === 'number' ? l10n.t('{0} bytes', formatCount(bytes)) : undefined;
}
