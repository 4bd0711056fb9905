// What the Follow Updates panel says and offers: its scope in words, the start offset a person typed,
// the buttons a stop offers, and what it counts of the rows it sent. No `vscode` import.
import * as l10n from '../l10n/l10n';
import { asSeenBy } from './browseForms';
import type { UpdatesOffer, UpdateRow, UpdatesState, TransportKind } from '../protocol/updateRows';
import { formatCount } from '../l10n/forPeople';

export interface UpdatesTarget {
  node: string;
  parties?: string[];
  templates?: string[];
  /** An offset to start after; none: the ledger end. */
  start?: number;
  transport?: TransportKind;
}

/** Rows each Follow Updates panel remembers for What Changed's points. */
export const RECENT_ROWS = 20;

export function updatesScope(t: UpdatesTarget, parties: readonly string[] | undefined): string {
  const what = t.templates?.length ? l10n.t('templates {0}', t.templates.join(', ')) : l10n.t('every template');
  return `${what}, ${asSeenBy(parties)}`;
}

/** The start offset as typed (digits, with `,` `_` or spaces between): a number, none for the ledger end, or why not. */
export function parseStartOffset(typed: string): { start: number | undefined } | { error: string } {
  const text = typed.replace(/[,_\s]/g, '');
  if (text === '') return { start: undefined };
  if (!/^\d{1,15}$/.test(text)) return { error: l10n.t('"{0}" is not an offset: enter a whole number, or nothing for the ledger end.', text.slice(0, 40)) };
  return { start: Number(text) };
}

/** What a stopped Follow Updates panel offers: the ledger end, the earliest offset, another try, a new token. */
export function stopOffers(s: Extract<UpdatesState, { state: 'stopped' }>): UpdatesOffer[] {
  const offers: UpdatesOffer[] = [];
  if (s.reason === 'beyondEnd') offers.push({ action: 'startAt', label: l10n.t('Start at the Ledger End') });
  // Without the offset in the error, the node's pruning point is asked when the button is pressed.
  if (s.reason === 'pruned')
    offers.push(
      s.earliest !== undefined
        ? { action: 'startAt', label: l10n.t('Start at the Earliest Offset ({0})', formatCount(s.earliest)), offset: s.earliest }
        : { action: 'startAtEarliest', label: l10n.t('Start at the Earliest Offset') },
    );
  if (s.reason === 'error') {
    offers.push({ action: 'resume', label: l10n.t('Try Again') });
    if (s.kind === 'unauthenticated' || s.kind === 'permissionDenied') offers.push({ action: 'setToken', label: l10n.t('Set Token') });
  }
  return offers;
}

/** What a Follow Updates panel sent to its page (tests read it: no gap, no duplicate), and its latest rows. */
export class UpdatesTally {
  readonly shown = {
    rows: 0,
    offsetSum: 0,
    duplicates: 0,
    start: undefined as number | undefined,
    position: undefined as number | undefined,
    state: 'starting' as string,
    message: '',
    reconnects: 0,
    offers: [] as UpdatesOffer[],
  };
  /** The last rows shown, oldest first. */
  readonly recent: UpdateRow[] = [];

  /** Rows read as a previous token are not offered to the next. */
  forget(): void {
    this.recent.length = 0;
  }

  started(start: number): void {
    Object.assign(this.shown, { rows: 0, offsetSum: 0, start, position: start });
  }

  rows(rows: readonly UpdateRow[], position: number, duplicates: number): void {
    this.shown.rows += rows.length;
    for (const r of rows) this.shown.offsetSum += r.offset;
    this.recent.push(...rows.slice(-RECENT_ROWS));
    if (this.recent.length > RECENT_ROWS) this.recent.splice(0, this.recent.length - RECENT_ROWS);
    this.shown.duplicates = duplicates;
    this.shown.position = position;
  }
}
