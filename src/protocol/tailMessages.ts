// The messages between the Follow Updates page (src/webview/tail/) and its panel (tailPanel.ts):
// one union per direction, each checked where it is received.
import type { TailOffer, TailRow } from './tailRows';
import { isButton, isIndex, isRecord, isString, isStrings, isText, optional, type Fields } from './messageChecks';

export type { TailOffer };

export const TAIL_STATES = ['starting', 'following', 'paused', 'reconnecting', 'stopped'] as const;
export type TailStateName = (typeof TAIL_STATES)[number];

export interface TailStateMessage {
  type: 'state';
  state: TailStateName;
  /** The last offset shown. */
  position?: number;
  attempt?: number;
  error?: string;
  message?: string;
  offers?: TailOffer[];
  /** Stopped, but Resume may go on from the position (an error, not the end of the road). */
  canResume?: boolean;
}

/** From the extension to the page. */
export type TailToPage =
  | { type: 'scope'; text: string }
  /** The table starts again, following from `position`. */
  | { type: 'reset'; position: number }
  | { type: 'rows'; rows: TailRow[]; position?: number }
  | TailStateMessage;

export const TAIL_PAGE_ACTIONS = ['ready', 'pause', 'resume', 'setToken', 'startAtEarliest'] as const;
export type TailPageAction = (typeof TAIL_PAGE_ACTIONS)[number];

/** From the page to the extension: `restart` from an offset as typed (the extension checks it). */
export type TailFromPage = { type: TailPageAction } | { type: 'restart'; start: string } | { type: 'openUpdate'; id: string };

export function parseTailFromPage(raw: unknown): TailFromPage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'restart':
      return isText(100)(raw.start) ? { type: 'restart', start: raw.start } : undefined;
    case 'openUpdate':
      return isString(raw.id) && /^1220[0-9a-f]{64}$/.test(raw.id) ? { type: 'openUpdate', id: raw.id } : undefined;
    default:
      return (TAIL_PAGE_ACTIONS as readonly unknown[]).includes(raw.type) ? { type: raw.type as TailPageAction } : undefined;
  }
}

const isOffset = (v: unknown): v is number => isIndex(v);
const isRow = (v: unknown): v is TailRow =>
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
const OFFERS: readonly unknown[] = ['startAt', 'startAtEarliest', 'resume', 'restart', 'setToken'] satisfies TailOffer['action'][];
const isOffer = (v: unknown): v is TailOffer => isButton(v) && OFFERS.includes(v.action) && optional((v as { offset?: unknown }).offset, isOffset);
const isState = (v: unknown): v is TailStateName => (TAIL_STATES as readonly unknown[]).includes(v);

export function parseTailToPage(raw: unknown): TailToPage | undefined {
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
        optional(m.offers, (o): o is TailOffer[] => Array.isArray(o) && o.every(isOffer)) &&
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
