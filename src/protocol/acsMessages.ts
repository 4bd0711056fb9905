// The messages between the Active Contracts page (src/webview/acs/) and its panel (acsPanel.ts):
// one union per direction, each checked where it is received.
import type { AcsBatch } from './acsRows';
import { isButton, isIndex, isIndices, isRecord, isString, isStrings, isText, optional, type Fields, type PageButton } from './messageChecks';

/** From the extension to the page. */
export type AcsToPage =
  /** Who reads and what, in words (known once the token's rights are). */
  | { type: 'scope'; text: string }
  /** A new read: the rows and the dictionary go. */
  | { type: 'reset' }
  /** A page of rows; `restarted`: the read started again, the rows before go (the dictionary stays). */
  | { type: 'rows'; batch: AcsBatch; activeAtOffset: number; restarted?: boolean }
  /** A table read by interface: the view's fields, which the field columns show (sent before the rows). */
  | { type: 'columns'; names: string[] }
  | { type: 'notice'; text: string }
  | { type: 'done'; cancelled?: boolean }
  | { type: 'error'; text: string; actions: PageButton[] };

export const ACS_PAGE_ACTIONS = ['ready', 'refresh', 'retry', 'cancel', 'setToken', 'selectNode', 'filterPayload', 'showInactive', 'showAllInRange'] as const;
export type AcsPageAction = (typeof ACS_PAGE_ACTIONS)[number];

/** From the page to the extension. */
export type AcsFromPage = { type: AcsPageAction } | { type: 'openContract'; id: string } | { type: 'openDaml'; templateId: string; packageName?: string };

const isContractId = (v: unknown): v is string => isString(v) && v.length <= 1_000 && /^[0-9a-f]{4,}$/.test(v);

export function parseAcsFromPage(raw: unknown): AcsFromPage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'openContract':
      return isContractId(raw.id) ? { type: 'openContract', id: raw.id } : undefined;
    case 'openDaml':
      return isText(1_000)(raw.templateId) && optional(raw.packageName, isText(1_000))
        ? { type: 'openDaml', templateId: raw.templateId, ...(raw.packageName ? { packageName: raw.packageName } : {}) }
        : undefined;
    default:
      return (ACS_PAGE_ACTIONS as readonly unknown[]).includes(raw.type) ? { type: raw.type as AcsPageAction } : undefined;
  }
}

/** Every column as long as the ids; word numbers are checked where they are read (an unknown one reads as ''). */
function isBatch(v: unknown): v is AcsBatch {
  if (!isRecord(v) || !isStrings(v.ids)) return false;
  const n = v.ids.length;
  const column = (c: unknown, check: (x: unknown) => boolean) => Array.isArray(c) && c.length === n && check(c);
  return (
    isStrings(v.words) &&
    typeof v.hexIds === 'boolean' &&
    column(v.createdAt, isStrings) &&
    column(v.templates, isIndices) &&
    column(v.packages, isIndices) &&
    column(v.signatories, isIndices) &&
    column(v.observers, isIndices) &&
    column(v.shapes, isIndices) &&
    column(v.args, isStrings) &&
    pairs(v.keyRows, v.keys, n, isString) &&
    pairs(v.fieldRows, v.fields, n, isFields)
  );
}

const isFields = (v: unknown): v is [string, string][] => Array.isArray(v) && v.every((f) => Array.isArray(f) && f.length === 2 && isStrings(f));
/** Row numbers inside the batch and one value for each. */
const pairs = (rows: unknown, values: unknown, n: number, check: (x: unknown) => boolean) =>
  isIndices(rows) && rows.every((r) => r < n) && Array.isArray(values) && values.length === rows.length && values.every(check);

export function parseAcsToPage(raw: unknown): AcsToPage | undefined {
  if (!isRecord(raw)) return undefined;
  const m: Fields = raw;
  switch (m.type) {
    case 'scope':
    case 'notice':
      return isString(m.text) ? { type: m.type, text: m.text } : undefined;
    case 'reset':
      return { type: 'reset' };
    case 'columns':
      return isStrings(m.names) && m.names.length <= 1_000 && m.names.every(isText(1_000)) ? { type: 'columns', names: m.names } : undefined;
    case 'rows':
      return isBatch(m.batch) && isIndex(m.activeAtOffset) && optional(m.restarted, (x): x is boolean => typeof x === 'boolean')
        ? { type: 'rows', batch: m.batch, activeAtOffset: m.activeAtOffset, ...(m.restarted ? { restarted: true } : {}) }
        : undefined;
    case 'done':
      return { type: 'done', ...(m.cancelled === true ? { cancelled: true } : {}) };
    case 'error':
      return isString(m.text) && Array.isArray(m.actions) && m.actions.every(isButton) ? { type: 'error', text: m.text, actions: m.actions } : undefined;
    default:
      return undefined;
  }
}
