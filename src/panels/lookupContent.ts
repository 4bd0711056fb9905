// What a lookup panel shows, built without VS Code: the body of an answer, of a failure or of a
// lookup under way, the identity bar, the content message the page gets (body, toolbar and the
// navigation the page keeps), one row's whole event, and the answer as JSON. Pure: no `vscode` import.
import { askedAsLine, identityChangeNotice, identityName, type AskedAs } from '../auth/ledgerIdentity';
import { shortenPartyId, shortId } from '../ids/ledgerIds';
import * as l10n from '../l10n/l10n';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { exerciseTree, treeEvent, type FlatTreeNode } from '../lookups/exerciseTree';
import { updateValue, type LedgerLookup } from '../lookups/ledgerLookups';
import { contractBody } from './html/contractHtml';
import type { PackageSignature } from '../daml/lf/lfSignatures';
import { errorDetailsHtml } from './html/errorDetailsHtml';
import { eventDetailHtml } from './html/eventDetailHtml';
import { eventRowsFrom, treeRowsFrom } from './html/eventRowsData';
import type { PackedEventRows } from '../protocol/transactionRows';
import { identityBar } from './html/identityHtml';
import { errorBody, foundKindOf, loadingBody, lookupActions } from './html/panelPage';
import { html, type SafeHtml } from './html/safeHtml';
import { transactionBody } from './html/transactionHtml';
import { contentMessage, eventRowsAnswerMessage, type ContentMessage, type EventRowsAnswer, type EventRowsRequest } from '../protocol/panelMessages';
import type { PanelHistory } from './panelHistory';
import { idKind, sameTarget, type PanelTarget } from './panelTargets';

export type Notice = { text: string; button: string };

/**
 * The body of an answer: a contract (its values typed when the node's signatures `sigs` are read),
 * or an update in the target's shape with its highlighted node.
 */
export function answerBody(result: LedgerLookup, target: PanelTarget, sigs?: readonly PackageSignature[]): SafeHtml {
  return result.kind === 'contract' ? contractBody(result, sigs) : transactionBody(result, target.shape, target.highlight, sigs);
}

/** The package a found contract's template is of, whose signature would type its values; none otherwise. */
export function typedPackageOf(result: LedgerLookup): string | undefined {
  return result.kind === 'contract' && result.found ? result.response.created?.createdEvent.templateId.split(':')[0] : undefined;
}

/**
 * The packages whose signatures type an answer's values: a contract's template's; the templates' and
 * interfaces' a transaction's events name; an assigned contract's template's.
 */
export function typedPackagesOf(result: LedgerLookup): string[] {
  if (result.kind === 'contract') return [typedPackageOf(result)].filter((id): id is string => id !== undefined);
  if (!result.found || result.update === 'topology') return [];
  if (result.update === 'reassignment') {
    const assigned = (result.reassignment.events ?? []).map((e) => (e as { JsAssignmentEvent?: { createdEvent?: { templateId: string } } }).JsAssignmentEvent);
    return [...new Set(assigned.flatMap((a) => (a?.createdEvent ? [a.createdEvent.templateId.split(':')[0]] : [])))];
  }
  const ids = new Set<string>();
  for (const e of result.transaction.events) {
    const x = 'CreatedEvent' in e ? e.CreatedEvent : 'ArchivedEvent' in e ? e.ArchivedEvent : e.ExercisedEvent;
    ids.add(x.templateId.split(':')[0]);
    const viaInterface = (x as { interfaceId?: string | null }).interfaceId;
    if (viaInterface) ids.add(viaInterface.split(':')[0]);
  }
  return [...ids];
}

/** The target being looked up on `nodeName`, with a Cancel button. */
export function lookingUpBody(target: PanelTarget, nodeName: string): SafeHtml {
  return loadingBody(`${target.kind === 'everywhere' ? idKind(target.id) : target.kind} ${shortId(target.id)}`, nodeName);
}

/** The same view of one target (a shape switch is another): what a refresh keeps on the page while it runs. */
export function sameView(a: PanelTarget, b: PanelTarget): boolean {
  return sameTarget(a, b) && (a.shape ?? 'TRANSACTION_SHAPE_ACS_DELTA') === (b.shape ?? 'TRANSACTION_SHAPE_ACS_DELTA');
}

/** Said beside an answer whose refresh was cancelled: it stays, and is what was read before. */
export function notRefreshedNote(): string {
  return l10n.t('Not refreshed: the lookup was cancelled. This is the earlier answer.');
}

export function missingNodeBody(target: PanelTarget): SafeHtml {
  return errorBody(target.id, l10n.t('The node "{0}" is no longer configured.', target.node), [{ action: 'selectNode', label: l10n.t('Select Active Node') }]);
}

export function cancelledBody(target: PanelTarget): SafeHtml {
  return errorBody(shortId(target.id), l10n.t('The lookup was cancelled.'), [{ action: 'retry', label: l10n.t('Retry') }]);
}

/**
 * A lookup that failed: what happened, what to do (a token the node refused: Set Token; a read right
 * missing, where another node of that URL may grant it: Grant…), and all the node said.
 */
export function failureBody(target: PanelTarget, nodeName: string, error: unknown, grantVia?: string): SafeHtml {
  const apiError = isLedgerApiError(error) ? error : undefined;
  const cancelled = apiError?.kind === 'cancelled';
  const actions: { action: string; label: string }[] = [];
  const missing = apiError?.missingRight;
  // The fix first, where there is one.
  if (missing && grantVia)
    actions.push({
      action: 'grantMissingRight',
      label: l10n.t('Grant CanReadAs {0} to {1} (as {2})…', missing.parties.map(shortenPartyId).join(', '), missing.user, grantVia),
    });
  actions.push({ action: 'retry', label: l10n.t('Retry') });
  if (apiError?.kind === 'unauthenticated' || apiError?.kind === 'permissionDenied') actions.push({ action: 'setToken', label: l10n.t('Set Token') });
  actions.push({ action: 'selectNode', label: l10n.t('Use Another Node') });
  return errorBody(
    l10n.t('{0} on {1}', shortId(target.id), nodeName),
    cancelled ? l10n.t('The lookup was cancelled.') : (apiError?.explanation ?? (error as Error).message),
    actions,
    apiError && !cancelled ? errorDetailsHtml(apiError) : undefined,
  );
}

/** The exercise tree of a transaction shown as what happened, for its rows' details; else none. */
export function shownTree(result: LedgerLookup, target: PanelTarget): FlatTreeNode[] | undefined {
  return result.kind === 'transaction' && result.found && result.update === 'transaction' && target.shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS'
    ? exerciseTree(result.transaction.events)
    : undefined;
}

/**
 * One row's whole event, of the event table (`events`) or the exercise tree (`tree`); none for a row
 * that is not there. `sigs`: the node's package signatures when read, to type its values.
 */
export function eventDetail(
  result: LedgerLookup | undefined,
  tree: readonly FlatTreeNode[] | undefined,
  source: 'events' | 'tree',
  index: number,
  sigs?: readonly PackageSignature[],
): SafeHtml | undefined {
  if (!result || result.kind !== 'transaction' || !result.found || result.update !== 'transaction') return undefined;
  if (source === 'tree') return tree?.[index] ? eventDetailHtml(tree[index].node, tree, index, sigs) : undefined;
  const event = result.transaction.events[index];
  return event ? eventDetailHtml(treeEvent(event), undefined, undefined, sigs) : undefined;
}

/**
 * The event rows from `from` on that the page of a transaction asks for after its first paint (its
 * content carried the first ones); none when the answer shown is not a transaction's.
 */
export function eventRowsAnswer(result: LedgerLookup | undefined, from: number): PackedEventRows | undefined {
  if (!result || result.kind !== 'transaction' || !result.found || result.update !== 'transaction') return undefined;
  return eventRowsFrom(result.transaction.events, from);
}

/**
 * The answer to a page's request for rows: of the event table (the answer shown's), or of the
 * exercise tree shown (`tree`, none when the answer is not shown as what happened).
 */
export function rowsAnswer(result: LedgerLookup | undefined, tree: readonly FlatTreeNode[] | undefined, m: EventRowsRequest): EventRowsAnswer {
  return m.source === 'tree'
    ? eventRowsAnswerMessage(m.requestId, 'tree', tree ? treeRowsFrom(tree, m.from) : undefined)
    : eventRowsAnswerMessage(m.requestId, 'events', eventRowsAnswer(result, m.from));
}

/** The answer as JSON (Open as JSON): what the node answered, or the request and the node's error. */
export function answerJson(result: LedgerLookup): unknown {
  if (result.kind === 'contract') return result.found ? result.response : { request: result.request, error: result.error.cantonError };
  return result.found ? updateValue(result) : { error: result.error.cantonError };
}

/** One notice per node whose identity now (`now`) is not the one that asked what is shown. */
export function staleNotices(shownAs: ReadonlyMap<string, AskedAs>, now: (node: string) => AskedAs | undefined): Notice[] {
  const notices: Notice[] = [];
  for (const [name, asked] of shownAs) {
    const current = now(name);
    const notice = current && identityChangeNotice(name, asked, current);
    if (notice) notices.push(notice);
  }
  return notices;
}

/**
 * Who the panel shows: a line per node asked (none for the matrix, whose rows say it), the
 * stale-identity banner, and, for a reopened recent lookup asked then as someone else, a note.
 */
export function identityHtml(target: PanelTarget, shownAs: ReadonlyMap<string, AskedAs>, notices: Notice[]): SafeHtml {
  if (shownAs.size === 0) return html``;
  const lines = target.kind === 'everywhere' ? [] : [...shownAs.values()].map(askedAsLine);
  const now = shownAs.get(target.node);
  const note =
    target.recordedAs !== undefined && now && target.recordedAs !== (now.identity.user ?? '')
      ? l10n.t(
          'Recent Lookups had this as asked by {0}; it was asked again as {1}.',
          target.recordedAs || l10n.t('an unnamed token'),
          identityName(now.identity),
        )
      : undefined;
  return identityBar({ lines, notices, note });
}

/**
 * The page's new content: the identity bar and the body, the toolbar (back and forward as the
 * history allows, what the answer offers) naming the target's node, and the navigation the page
 * keeps for a window reload.
 */
export function lookupContent(o: {
  identity: SafeHtml;
  body: SafeHtml;
  history: PanelHistory;
  result: LedgerLookup | undefined;
  seenAs?: string;
}): ContentMessage {
  const { history, result } = o;
  return contentMessage(html`${o.identity}${o.body}`.text, {
    actions: lookupActions({ canGoBack: history.canGoBack, canGoForward: history.canGoForward, hasResult: result !== undefined, found: foundKindOf(result) }),
    state: history.state,
    node: history.current.node,
    seenAs: o.seenAs,
  });
}

/**
 * Who asked what is shown, as a label the page may compare: each identity is numbered in the order
 * the panel met it (`numbers`, kept by the panel), so equal labels are the same identities and the
 * page learns nothing of a token.
 */
export function seenAsLabel(shownAs: ReadonlyMap<string, AskedAs>, numbers: Map<string, number>): string {
  const number = (key: string) => {
    if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
    return numbers.get(key)!;
  };
  return [...shownAs]
    .map(([node, asked]) => `${node}=${number(asked.identity.key)}`)
    .sort()
    .join(',');
}
