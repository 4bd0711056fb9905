// The messages between a panel's page script and the extension: one union per direction, checked
// where they are received (a page is a webview; anything it sends is untrusted input).

/** Buttons of the panels' toolbars and bodies: a message with nothing but its type. */
export const PAGE_ACTIONS = [
  'ready',
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
  'submit',
  'submitAndWait',
  'submitAndWaitForTransaction',
  'submitAgain',
  'sign',
  'reload',
  'openRequest',
  'findOutcome',
  'pause',
  'resume',
  'filterAll',
  'filterFailed',
  'filterSucceeded',
  'filterText',
  'clearFilter',
  'showMore',
  'readUpdates',
  'readActiveSets',
  'readLedgerEffects',
] as const;

export type PageAction = (typeof PAGE_ACTIONS)[number];
export type TransactionShapeName = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

/** From the page to the extension. */
export type PageMessage =
  | { type: PageAction }
  | { type: 'openId'; id: string; kind?: string; node?: string; asParty?: string }
  | { type: 'setTokenFor'; node: string }
  | { type: 'openDaml'; templateId: string; choice?: string; packageName?: string }
  | { type: 'copy'; text: string }
  | { type: 'setShape'; shape: TransactionShapeName }
  | { type: 'eventDetail'; source: 'events' | 'tree'; index: number }
  | { type: 'openOffset'; offset: number; nodeId?: number; shape?: TransactionShapeName }
  | { type: 'setView'; key: 'kind' | 'template'; value: string };

/**
 * From the extension to the page: a row's whole event, or the panel's new content (panels on
 * HtmlPanelHost keep their page and get their content as a message), rendered and escaped by the extension.
 */
export type HostMessage =
  | { type: 'eventDetail'; source: 'events' | 'tree'; index: number; html: string }
  | { type: 'content'; html: string; actions?: ToolbarButton[]; state?: unknown };

/** A toolbar button the page draws (its label as text). */
export interface ToolbarButton {
  action: string;
  label: string;
  enabled?: boolean;
}
const isButton = (v: unknown): v is ToolbarButton =>
  typeof v === 'object' && v !== null && isString((v as ToolbarButton).action) && isString((v as ToolbarButton).label);

const isShape = (v: unknown): v is TransactionShapeName => v === 'TRANSACTION_SHAPE_ACS_DELTA' || v === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isSource = (v: unknown): v is 'events' | 'tree' => v === 'events' || v === 'tree';
const optional = <T>(v: unknown, check: (x: unknown) => x is T): v is T | undefined => v === undefined || check(v);
const isString = (v: unknown): v is string => typeof v === 'string';

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
      return isSource(m.source) && isIndex(m.index) ? { type: 'eventDetail', source: m.source, index: m.index } : undefined;
    case 'openOffset':
      return isIndex(m.offset) && m.offset > 0 && optional(m.nodeId, isIndex) && optional(m.shape, isShape)
        ? { type: 'openOffset', offset: m.offset, nodeId: m.nodeId, shape: m.shape }
        : undefined;
    case 'setView':
      return (m.key === 'kind' || m.key === 'template') && isString(m.value) && m.value.length <= 1_000
        ? { type: 'setView', key: m.key, value: m.value }
        : undefined;
    default:
      return (PAGE_ACTIONS as readonly unknown[]).includes(m.type) ? { type: m.type as PageAction } : undefined;
  }
}

export function parseHostMessage(raw: unknown): HostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'content') {
    if (!isString(m.html) || !optional(m.actions, (a): a is ToolbarButton[] => Array.isArray(a) && a.every(isButton))) return undefined;
    return { type: 'content', html: m.html, ...(m.actions ? { actions: m.actions } : {}), ...(m.state !== undefined ? { state: m.state } : {}) };
  }
  return m.type === 'eventDetail' && isSource(m.source) && isIndex(m.index) && isString(m.html)
    ? { type: 'eventDetail', source: m.source, index: m.index, html: m.html }
    : undefined;
}
