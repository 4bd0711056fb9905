// The messages between a panel's page script and the extension: one union per direction, checked
// where they are received (a page is a webview; anything it sends is untrusted input).
import { isButton, isIndex, isString, optional } from './messageChecks';
import { isPackedRowsOf, type PackedRowsOf, type RowSource } from './transactionRows';

export type TransactionShapeName = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

/** What every panel's page sends: that it is ready, and the links and copy buttons of any content. */
export type BaseMessage =
  | { type: 'ready' }
  | { type: 'openId'; id: string; kind?: string; node?: string; asParty?: string }
  | { type: 'openDaml'; templateId: string; choice?: string; packageName?: string }
  | { type: 'copy'; text: string };

/** The actions each panel takes besides the base: the host refuses the others (see `acceptedBy`). */
export const LOOKUP_ACTIONS = [
  'back',
  'forward',
  'refresh',
  'retry',
  'cancel',
  'openJson',
  'copyId',
  'copyMarkdown',
  'copyCurl',
  'copyArgument',
  'allNodes',
  'debug',
  'compare',
  'setToken',
  'selectNode',
  'askAgain',
  'grantMissingRight',
  'exercise',
  'addDisclosed',
] as const;
export const COMMANDS_REVIEW_ACTIONS = ['submit', 'submitAgain', 'reload', 'openRequest', 'findOutcome', 'pickActiveContract'] as const;
export const EXECUTE_REVIEW_ACTIONS = ['submit', 'submitAndWait', 'submitAndWaitForTransaction', 'submitAgain', 'sign', 'reload', 'openRequest'] as const;
export const COMPLETIONS_ACTIONS = ['pause', 'resume', 'filterAll', 'filterFailed', 'filterSucceeded', 'filterText', 'clearFilter'] as const;
export const CHANGES_ACTIONS = [
  'refresh',
  'retry',
  'cancel',
  'showMore',
  'readUpdates',
  'readActiveSets',
  'readLedgerEffects',
  'filterText',
  'clearFilter',
] as const;
export const DIFF_ACTIONS = ['refresh'] as const;

/** Buttons of the panels' toolbars and bodies, a message with nothing but its type: every panel's. */
export const PAGE_ACTIONS = [
  'ready',
  ...LOOKUP_ACTIONS,
  ...COMMANDS_REVIEW_ACTIONS,
  ...EXECUTE_REVIEW_ACTIONS,
  ...COMPLETIONS_ACTIONS,
  ...CHANGES_ACTIONS,
  ...DIFF_ACTIONS,
] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** The lookup panels' page: its toolbar, the transaction's shape and events, the token's node. */
export type LookupMessage =
  | BaseMessage
  | { type: (typeof LOOKUP_ACTIONS)[number] }
  | { type: 'setTokenFor'; node: string }
  | { type: 'setShape'; shape: TransactionShapeName }
  | PageRequest
  | EventRowsRequest
  | { type: 'openOffset'; offset: number; nodeId?: number; shape?: TransactionShapeName };
export type CommandsReviewMessage = BaseMessage | { type: (typeof COMMANDS_REVIEW_ACTIONS)[number] };
export type ExecuteReviewMessage = BaseMessage | { type: (typeof EXECUTE_REVIEW_ACTIONS)[number] };
export type CompletionsMessage = BaseMessage | { type: (typeof COMPLETIONS_ACTIONS)[number] };
export type ChangesMessage = BaseMessage | { type: (typeof CHANGES_ACTIONS)[number] } | { type: 'setView'; key: 'kind' | 'template'; value: string };
export type DiffMessage = BaseMessage | { type: (typeof DIFF_ACTIONS)[number] };

/** From the page to the extension: what any panel's page may send (one page script serves them all). */
export type PageMessage = LookupMessage | CommandsReviewMessage | ExecuteReviewMessage | CompletionsMessage | ChangesMessage | DiffMessage;

/** The message types a panel takes: the base's, its actions, and its own messages. */
const BASE_TYPES: readonly string[] = ['ready', 'openId', 'openDaml', 'copy'];
const OWN_TYPES: Record<string, readonly string[]> = {
  lookup: ['setTokenFor', 'setShape', 'eventDetail', 'eventRows', 'openOffset'],
  changes: ['setView'],
};

/**
 * A parser for one panel's messages: a message another panel takes (a page is untrusted input) is
 * refused as an unknown one is. `own` names the panel's messages beyond actions.
 */
export function acceptedBy<M extends PageMessage>(actions: readonly PageAction[], own?: 'lookup' | 'changes'): (raw: unknown) => M | undefined {
  const types = new Set<string>([...BASE_TYPES, ...actions, ...(own ? OWN_TYPES[own] : [])]);
  return (raw) => {
    const m = parsePageMessage(raw);
    return m && types.has(m.type) ? (m as M) : undefined;
  };
}

/**
 * What the page asks and the extension answers (`answer`, with the same `requestId`): the answer
 * goes back to the part of the page that asked, not to whatever matches it by then.
 */
export type PageRequest = { type: 'eventDetail'; requestId: number; source: 'events' | 'tree'; index: number };

/**
 * The page asks for a transaction's rows, of its event table or its exercise tree (`source`), from
 * `from` on (its content carried the first ones), after its first paint; the extension answers
 * `eventRows` with the same `requestId` and source: rows from there, or none (the answer shown is
 * not that transaction, or not in that shape, any more).
 */
export type EventRowsRequest = { type: 'eventRows'; requestId: number; source: RowSource; from: number };
export type EventRowsAnswer = { [S in RowSource]: { type: 'eventRows'; requestId: number; source: S; rows?: PackedRowsOf[S] } }[RowSource];

/** An answer to a request for rows, without `rows` when there are none to give. */
export function eventRowsAnswerMessage<S extends RowSource>(requestId: number, source: S, rows: PackedRowsOf[S] | undefined): EventRowsAnswer {
  return { type: 'eventRows', requestId, source, ...(rows !== undefined ? { rows } : {}) } as EventRowsAnswer;
}

/**
 * From the extension to the page: an answer to a request, or the panel's new content (panels on
 * HtmlPanelHost keep their page and get their content as a message), rendered and escaped by the
 * extension. `state` is the page's to keep (`setState`), `node` the node its toolbar names.
 */
export type HostMessage = { type: 'answer'; requestId: number; html?: string } | EventRowsAnswer | ContentMessage | BusyMessage;
export type ContentMessage = {
  type: 'content';
  html: string;
  actions?: ToolbarButton[];
  state?: unknown;
  node?: string;
  /** Who the content was asked as, as an opaque label (never a token or its digest): equal labels, the same identities. */
  seenAs?: string;
};
/**
 * The content shown is being read again (`busy`: it stays until the new content replaces it), or
 * no longer (`note`: why it was not replaced, as text). New content ends a busy page by itself.
 */
export type BusyMessage = { type: 'busy'; busy: boolean; note?: string };

/** A busy message, without a note when none is given. */
export function busyMessage(busy: boolean, note?: string): BusyMessage {
  return { type: 'busy', busy, ...(note !== undefined ? { note } : {}) };
}

/** A content message, without the fields not given. */
export function contentMessage(html: string, o: { actions?: ToolbarButton[]; state?: unknown; node?: string; seenAs?: string } = {}): ContentMessage {
  return {
    type: 'content',
    html,
    ...(o.actions ? { actions: o.actions } : {}),
    ...(o.state !== undefined ? { state: o.state } : {}),
    ...(o.node !== undefined ? { node: o.node } : {}),
    ...(o.seenAs !== undefined ? { seenAs: o.seenAs } : {}),
  };
}

/** A toolbar button the page draws (its label as text). */
export interface ToolbarButton {
  action: string;
  label: string;
  enabled?: boolean;
  /** In the "More actions" menu rather than on the toolbar. */
  more?: boolean;
}

const isShape = (v: unknown): v is TransactionShapeName => v === 'TRANSACTION_SHAPE_ACS_DELTA' || v === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
const isSource = (v: unknown): v is 'events' | 'tree' => v === 'events' || v === 'tree';

/** The message if it is one the page may send, with the fields its type needs; else undefined. */
export function parsePageMessage(raw: unknown): PageMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'openId':
      return isString(m.id) && optional(m.kind, isString) && optional(m.node, isString) && optional(m.asParty, isString)
        ? { type: 'openId', id: m.id, kind: m.kind, node: m.node, ...(m.asParty ? { asParty: m.asParty } : {}) }
        : undefined;
    case 'setTokenFor':
      return isString(m.node) ? { type: 'setTokenFor', node: m.node } : undefined;
    case 'openDaml':
      return isString(m.templateId) && optional(m.choice, isString) && optional(m.packageName, isString)
        ? { type: 'openDaml', templateId: m.templateId, choice: m.choice, packageName: m.packageName }
        : undefined;
    case 'copy':
      return isString(m.text) ? { type: 'copy', text: m.text } : undefined;
    case 'setShape':
      return isShape(m.shape) ? { type: 'setShape', shape: m.shape } : undefined;
    case 'eventDetail':
      return isIndex(m.requestId) && isSource(m.source) && isIndex(m.index)
        ? { type: 'eventDetail', requestId: m.requestId, source: m.source, index: m.index }
        : undefined;
    case 'eventRows':
      return isIndex(m.requestId) && isSource(m.source) && isIndex(m.from)
        ? { type: 'eventRows', requestId: m.requestId, source: m.source, from: m.from }
        : undefined;
    case 'openOffset':
      return isIndex(m.offset) && m.offset > 0 && optional(m.nodeId, isIndex) && optional(m.shape, isShape)
        ? { type: 'openOffset', offset: m.offset, nodeId: m.nodeId, shape: m.shape }
        : undefined;
    case 'setView':
      return (m.key === 'kind' || m.key === 'template') && isString(m.value) && m.value.length <= 1_000
        ? { type: 'setView', key: m.key, value: m.value }
        : undefined;
    default:
      return (PAGE_ACTIONS as readonly unknown[]).includes(m.type) ? ({ type: m.type } as PageMessage) : undefined;
  }
}

export function parseHostMessage(raw: unknown): HostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'content') {
    if (
      !isString(m.html) ||
      !optional(m.actions, (a): a is ToolbarButton[] => Array.isArray(a) && a.every(isButton)) ||
      !optional(m.node, isString) ||
      !optional(m.seenAs, isString)
    )
      return undefined;
    return contentMessage(m.html, { actions: m.actions, state: m.state, node: m.node, seenAs: m.seenAs });
  }
  if (m.type === 'eventRows')
    return isIndex(m.requestId) && isSource(m.source) && optional(m.rows, isPackedRowsOf(m.source))
      ? eventRowsAnswerMessage(m.requestId, m.source, m.rows)
      : undefined;
  if (m.type === 'busy')
    return typeof m.busy === 'boolean' && optional(m.note, (n): n is string => isString(n) && n.length <= 1_000) ? busyMessage(m.busy, m.note) : undefined;
  return m.type === 'answer' && isIndex(m.requestId) && optional(m.html, isString)
    ? { type: 'answer', requestId: m.requestId, ...(m.html !== undefined ? { html: m.html } : {}) }
    : undefined;
}
