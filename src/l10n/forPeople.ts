// Numbers and times for people, as text: one number format everywhere, times relative to now.
// No `vscode` import; hovers and panels share it.
import * as l10n from './l10n';

/** `3,333`; one grouping everywhere (panels, hovers, the tree). */
export function formatCount(n: number): string {
  countFormat ??= new Intl.NumberFormat('en-US');
  return Number.isFinite(n) ? countFormat.format(n) : String(n);
}
// One formatter: toLocaleString builds a new one for every number.
let countFormat: Intl.NumberFormat | undefined;

// One formatter for every time shown ("2 Nov 2026, 09:42:56"): toLocaleString with options builds a new one per call.
let localTime: Intl.DateTimeFormat | undefined;

/** A time as the person's local time, in the one format every panel, page, hover and tree uses. */
export function localDateTime(ms: number): string {
  localTime ??= new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return localTime.format(new Date(ms));
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
