// The messages between the Follow Updates page (src/webview/updates/) and its panel (updatesPanel.ts):
// one union per direction, each checked where it is received.
import type { UpdatesOffer, UpdateRow } from './updateRows';
import { isButton, isIndex, isRecord, isString, isStrings, isText, optional, type Fields } from './messageChecks';

export type { UpdatesOffer };

export const TAIL_STATES = ['starting', 'following', 'paused', 'reconnecting', 'stopped'] as const;
export type UpdatesStateName = (typeof TAIL_STATES)[number];

export interface UpdatesStateMessage {
  type: 'state';
  state: UpdatesStateName;
  /** The last offset shown. */
  position?: number;
  attempt?: number;
  error?: string;
  message?: string;
  offers?: UpdatesOffer[];
  /** Stopped, but Resume may go on from the position (an error, not the end of the road). */
  canResume?: boolean;
}

/** From the extension to the page. */
export type UpdatesToPage =
  | { type: 'scope'; text: string }
  /** The table starts again, following from `position`. */
  | { type: 'reset'; position: number }
  | { type: 'rows'; rows: UpdateRow[]; position?: number }
  | UpdatesStateMessage;

// Rows in one message at most: the page parses a message in one task, and a batch of 500 rows
// (the websocket channel gives what came meanwhile) took over 30 ms of it on a loaded machine.
export const ROWS_PER_MESSAGE = 100;

/** A batch of followed rows as the messages that carry it to the page, the last with the position. */
export function rowsMessages(rows: UpdateRow[], position: number): Extract<UpdatesToPage, { type: 'rows' }>[] {
  if (rows.length <= ROWS_PER_MESSAGE) return [{ type: 'rows', rows, position }];
  const out: Extract<UpdatesToPage, { type: 'rows' }>[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
    const part = rows.slice(i, i + ROWS_PER_MESSAGE);
    out.push({ type: 'rows', rows: part, position: i + ROWS_PER_MESSAGE >= rows.length ? position : part[part.length - 1].offset });
  }
  return out;
}

export const TAIL_PAGE_ACTIONS = ['ready', 'pause', 'resume', 'setToken', 'startAtEarliest'] as const;
export type UpdatesPageAction = (typeof TAIL_PAGE_ACTIONS)[number];

/** From the page to the extension: `restart` from an offset as typed (the extension checks it). */
export type UpdatesFromPage = { type: UpdatesPageAction } | { type: 'restart'; start: string } | { type: 'openUpdate'; id: string };

export function parseTailFromPage(raw: unknown): UpdatesFromPage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'restart':
      return isText(100)(raw.start) ? { type: 'restart', start: raw.start } : undefined;
    case 'openUpdate':
      return isString(raw.id) && /^1220[0-9a-f]{64}$/.test(raw.id) ? { type: 'openUpdate', id: raw.id } : undefined;
    default:
      return (TAIL_PAGE_ACTIONS as readonly unknown[]).includes(raw.type) ? { type: raw.type as UpdatesPageAction } : undefined;
  }
}

const isOffset = (v: unknown): v is number => isIndex(v);
const isRow = (v: unknown): v is UpdateRow =>
  isRecord(v) &&
  isOffset(v.offset) &&
  isString(v.updateId) &&
  isString(v.commandId) &&
  isString(v.workflowId) &&
  isString(v.recordTime) &&
  isStrings(v.kinds) &&
  isStrings(v.templates) &&
  isStrings(v.choices) &&
  isStrings(v.parties) &&
  isIndex(v.events);
const OFFERS: readonly unknown[] = ['startAt', 'startAtEarliest', 'resume', 'restart', 'setToken'] satisfies UpdatesOffer['action'][];
const isOffer = (v: unknown): v is UpdatesOffer => isButton(v) && OFFERS.includes(v.action) && optional((v as { offset?: unknown }).offset, isOffset);
const isState = (v: unknown): v is UpdatesStateName => (TAIL_STATES as readonly unknown[]).includes(v);

export function parseTailToPage(raw: unknown): UpdatesToPage | undefined {
  if (!isRecord(raw)) return undefined;
  const m: Fields = raw;
  switch (m.type) {
    case 'scope':
      return isString(m.text) ? { type: 'scope', text: m.text } : undefined;
    case 'reset':
      return isOffset(m.position) ? { type: 'reset', position: m.position } : undefined;
    case 'rows':
      return Array.isArray(m.rows) && m.rows.every(isRow) && optional(m.position, isOffset) ? { type: 'rows', rows: m.rows, position: m.position } : undefined;
    case 'state':
      return isState(m.state) &&
        optional(m.position, isOffset) &&
        optional(m.attempt, isIndex) &&
        optional(m.error, isString) &&
        optional(m.message, isString) &&
        optional(m.offers, (o): o is UpdatesOffer[] => Array.isArray(o) && o.every(isOffer)) &&
        optional(m.canResume, (b): b is boolean => typeof b === 'boolean')
        ? {
            type: 'state',
            state: m.state,
            position: m.position,
            attempt: m.attempt,
            error: m.error,
            message: m.message,
            offers: m.offers,
            canResume: m.canResume,
          }
        : undefined;
    default:
      return undefined;
  }
}
