// Numbers, times and enum values for people: one number format everywhere, times local and
// relative with the exact UTC time on hover, enum names in words with the raw value on hover.
import { html, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

/** `3,333`; one grouping everywhere (panels, hovers, the tree). */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US') : String(n);
}

/** "3 min ago", "in 2 h", "yesterday"-free and locale-neutral: the panel shows the exact time beside it. */
export function relativeTime(iso: string, now = Date.now()): string | undefined {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const seconds = Math.round((now - t) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  const [value, unit] =
    s < 45 ? [s, 's'] : s < 45 * 60 ? [Math.round(s / 60), 'min'] : s < 36 * 3600 ? [Math.round(s / 3600), 'h'] : [Math.round(s / 86400), 'd'];
  if (unit === 's' && s < 5) return l10n.t('just now');
  return future ? l10n.t('in {0} {1}', value, unit) : l10n.t('{0} {1} ago', value, unit);
}

/** A ledger time as the person's local time and how long ago; the exact UTC instant on hover. */
export function timeHtml(iso: string | undefined | null, now = Date.now()): SafeHtml | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return html`${iso}`;
  const local = new Date(t).toLocaleString('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
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
