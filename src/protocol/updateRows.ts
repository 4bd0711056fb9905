// The Follow Updates page's rows and states, as host and page both read them. No `vscode` import.
import type { LedgerErrorKind } from '../ledger/ledgerApiError';

/** One update as a row: what the Follow Updates table shows. */
export interface UpdateRow {
  offset: number;
  updateId: string;
  commandId: string;
  workflowId: string;
  recordTime: string;
  /** created, archived, exercised: each kind once, in order of first appearance. */
  kinds: string[];
  /** Template names (module:entity), each once. */
  templates: string[];
  /** Choices exercised, each once. */
  choices: string[];
  /** Parties that witnessed an event. */
  parties: string[];
  events: number;
}

export type TransportKind = 'websocket' | 'updates' | 'updatesPage';

export type UpdatesState =
  | { state: 'following' }
  | { state: 'reconnecting'; attempt: number; error: string }
  | { state: 'stopped'; reason: 'cancelled' }
  /** The start offset is after the ledger end: offer the ledger end. */
  | { state: 'stopped'; reason: 'beyondEnd'; error: string }
  /** The start offset was pruned: offer the earliest offset. */
  | { state: 'stopped'; reason: 'pruned'; error: string; earliest?: number }
  | { state: 'stopped'; reason: 'error'; error: string; kind: LedgerErrorKind | 'unknown' };

/** A button the page offers: `startAt` restarts at `offset` (none: the ledger end). */
export interface UpdatesOffer {
  action: 'startAt' | 'startAtEarliest' | 'resume' | 'restart' | 'setToken';
  label: string;
  offset?: number;
}
