// What a lookup panel shows, built without VS Code: bodies, the identity bar, the content message
// (body, toolbar, navigation), one row's whole event, the answer as JSON. Ledger strings stay text.
import * as assert from 'node:assert/strict';
import { identityOfToken, type AskedAs } from '../../../src/auth/ledgerIdentity';
import { LedgerApiError } from '../../../src/ledger/ledgerApiError';
import {
  answerBody,
  answerJson,
  cancelledBody,
  eventDetail,
  eventRowsAnswer,
  failureBody,
  identityHtml,
  lookingUpBody,
  lookupContent,
  missingNodeBody,
  notRefreshedNote,
  rowsAnswer,
  sameView,
  seenAsLabel,
  shownTree,
  staleNotices,
} from '../../../src/panels/lookupContent';
import { html } from '../../../src/panels/html/safeHtml';
import { PanelHistory } from '../../../src/panels/panelHistory';
import type { PanelTarget } from '../../../src/panels/panelTargets';
import { EVIL, hostileContract, hostileTransaction, notFoundContract } from '../../support/hostileLookups';

const jwt = (sub: string) => `e30.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;
const as = (user: string, parties: string[] = []): AskedAs => ({ identity: identityOfToken(jwt(user)), parties });
const tx = hostileTransaction(9);
const update: PanelTarget = { kind: 'update', id: tx.updateId, node: 'p1' };
const effects: PanelTarget = { ...update, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
const contract = hostileContract();
const contractTarget: PanelTarget = { kind: 'contract', id: contract.contractId, node: 'p1' };

describe('lookup panel content', () => {
  it('renders an answer in the shape the target asks for, its ledger strings escaped', () => {
    assert.match(answerBody(tx, update).text, /id="event-data"/);
    assert.doesNotMatch(answerBody(tx, update).text, /id="tree-data"/);
    assert.match(answerBody(tx, effects).text, /id="tree-data"/);
    assert.match(answerBody(tx, { ...effects, highlight: 5 }).text, /data-highlight="5"/);
    const body = answerBody(contract, contractTarget).text;
    assert.match(body, /Create argument/);
    assert.ok(!body.includes(EVIL), 'the attack is escaped');
  });

  it('says what is being looked up, on which node, with Cancel', () => {
    assert.match(lookingUpBody(update, 'p1').text, /Looking up update 1220[0-9a-f]{6}…[0-9a-f]{6} on p1…/);
    assert.match(lookingUpBody({ ...update, kind: 'everywhere' }, 'p1').text, /Looking up update /, 'an id on every node by its own kind');
    assert.match(lookingUpBody(contractTarget, 'p1').text, /data-action="cancel"/);
  });

  it('keeps an answer on the page for a refresh of the same view only; a cancelled one says so', () => {
    assert.ok(sameView(update, { ...update }));
    assert.ok(sameView(update, { ...update, shape: 'TRANSACTION_SHAPE_ACS_DELTA' }), 'what changed is the default shape');
    assert.ok(sameView(update, { ...update, highlight: 3, recordedAs: 'reader' }), 'the same view, another row brought into view');
    assert.ok(!sameView(update, effects), 'a shape switch is another view');
    assert.ok(!sameView(update, { ...update, node: 'p2' }));
    assert.ok(!sameView(update, { ...update, kind: 'everywhere' }));
    assert.ok(!sameView({ ...update, kind: 'everywhere' }, { ...update, kind: 'everywhere', asParty: 'Bob::1220' }));
    assert.match(notRefreshedNote(), /^Not refreshed: the lookup was cancelled\./);
  });

  it('explains a failure with what to do: Set Token only for a token the node refused', () => {
    const refused = failureBody(update, 'p1', new LedgerApiError({ kind: 'unauthenticated', explanation: `no ${EVIL}`, status: 401 })).text;
    assert.match(refused, /data-action="retry"[\s\S]*data-action="setToken"[\s\S]*data-action="selectNode"/);
    assert.ok(!refused.includes(EVIL));
    const down = failureBody(update, 'p1', new LedgerApiError({ kind: 'network', explanation: 'Nothing is listening' })).text;
    assert.match(down, /Nothing is listening/);
    assert.doesNotMatch(down, /setToken/);
    const cancelled = failureBody(update, 'p1', new LedgerApiError({ kind: 'cancelled', explanation: 'x' })).text;
    assert.match(cancelled, /The lookup was cancelled\./);
    assert.match(failureBody(update, 'p1', new Error('boom')).text, /boom/);
    assert.match(cancelledBody(update).text, /The lookup was cancelled\.[\s\S]*data-action="retry"/);
    assert.match(missingNodeBody(update).text, /The node &quot;p1&quot; is no longer configured\.[\s\S]*data-action="selectNode"/);
  });

  it('offers Grant for a read right the user lacks only where another node of that URL may grant it', () => {
    const bob = `Bob${EVIL}::1220${'ab'.repeat(32)}`;
    const error = new LedgerApiError({
      kind: 'permissionDenied',
      status: 403,
      explanation: 'alice lacks CanReadAs (or CanActAs) for Bob.',
      missingRight: { user: 'alice', parties: [bob] },
    });
    assert.doesNotMatch(failureBody(update, 'p1', error).text, /grantMissingRight/);
    const offered = failureBody(update, 'p1', error, 'p1-admin').text;
    assert.match(offered, /data-action="grantMissingRight">Grant CanReadAs Bob.*::1220ab… to alice \(as p1-admin\)…/);
    assert.ok(!offered.includes(EVIL), 'the party is text');
    // The error keeps what is missing through a change of its explanation.
    assert.deepEqual(error.with({ explanation: 'x' }).missingRight, { user: 'alice', parties: [bob] });
  });

  it("builds one row's whole event, of the table or the tree, and nothing for a row that is not there", () => {
    assert.equal(shownTree(tx, update), undefined, 'what changed has no tree');
    const tree = shownTree(tx, effects);
    assert.equal(tree?.length, 9);
    assert.match(eventDetail(tx, undefined, 'events', 2)?.text ?? '', /Choice argument/);
    assert.match(eventDetail(tx, tree, 'tree', 0)?.text ?? '', /<table/);
    assert.ok(!(eventDetail(tx, tree, 'tree', 2)?.text ?? '').includes(EVIL));
    assert.equal(eventDetail(tx, undefined, 'tree', 0), undefined, 'no tree shown');
    assert.equal(eventDetail(tx, tree, 'events', 9), undefined);
    assert.equal(eventDetail(contract, tree, 'events', 0), undefined, 'a contract has no rows');
    assert.equal(eventDetail(undefined, tree, 'tree', 0), undefined, 'nothing shown yet');
  });

  it("gives the page a transaction's event rows after the first ones it was sent, and none of anything else", () => {
    const rows = eventRowsAnswer(tx, 4);
    assert.deepEqual(rows && [rows.from, rows.rows.map((r) => r[0]), rows.total], [4, [4, 5, 6, 7, 8], 9]);
    assert.deepEqual(eventRowsAnswer(tx, 9)?.rows, [], 'none left');
    assert.equal(eventRowsAnswer(contract, 0), undefined, 'a contract has no rows');
    assert.equal(eventRowsAnswer(undefined, 0), undefined, 'nothing shown yet');
    assert.equal(eventRowsAnswer(notFoundContract(), 0), undefined);
  });

  it("answers the page's request for rows of its source: the event table's, or the tree's shown", () => {
    const tree = shownTree(tx, effects);
    const events = rowsAnswer(tx, tree, { type: 'eventRows', requestId: 3, source: 'events', from: 4 });
    assert.deepEqual([events.source, events.requestId, events.rows?.from, events.rows?.total], ['events', 3, 4, 9]);
    const nodes = rowsAnswer(tx, tree, { type: 'eventRows', requestId: 4, source: 'tree', from: 6 });
    assert.ok(nodes.source === 'tree' && nodes.rows);
    assert.deepEqual([nodes.requestId, nodes.rows.from, nodes.rows.rows.length, nodes.rows.total], [4, 6, 3, 9]);
    assert.deepEqual(
      rowsAnswer(tx, undefined, { type: 'eventRows', requestId: 5, source: 'tree', from: 0 }),
      { type: 'eventRows', requestId: 5, source: 'tree' },
      'no tree shown',
    );
  });

  it('opens as JSON what the node answered, or the request and its error', () => {
    assert.ok(contract.found && tx.found && tx.update === 'transaction');
    assert.equal(answerJson(contract), contract.response);
    const missing = notFoundContract();
    assert.deepEqual(answerJson(missing), { request: missing.request, error: undefined });
    assert.equal(answerJson(tx), tx.transaction);
  });

  it('names who asked, and says when the node is now someone else', () => {
    const shownAs = new Map([['p1', as('reader')]]);
    assert.deepEqual(
      staleNotices(shownAs, () => as('reader')),
      [],
    );
    const notices = staleNotices(shownAs, () => as('participant_admin'));
    assert.equal(notices.length, 1);
    assert.match(notices[0].button, /Ask Again as participant_admin/);
    assert.deepEqual(
      staleNotices(shownAs, () => undefined),
      [],
      'a node no longer known says nothing',
    );
    const bar = identityHtml(update, shownAs, notices).text;
    assert.match(bar, /As seen by reader/);
    assert.match(bar, /id="stale-identity"/);
    assert.doesNotMatch(identityHtml({ ...update, kind: 'everywhere' }, shownAs, []).text, /As seen by/, 'the matrix names them per row');
    assert.equal(identityHtml(update, new Map(), []).text, '');
    assert.match(
      identityHtml({ ...update, recordedAs: 'alice' }, shownAs, []).text,
      /Recent Lookups had this as asked by alice; it was asked again as reader\./,
    );
    assert.doesNotMatch(identityHtml({ ...update, recordedAs: 'reader' }, shownAs, []).text, /Recent Lookups/);
  });

  it('sends the page its body, a toolbar of what the history and the answer allow, and the navigation to keep', () => {
    const history = new PanelHistory({ history: [contractTarget], index: 0 });
    const loading = lookupContent({ identity: html``, body: lookingUpBody(contractTarget, 'p1'), history, result: undefined });
    const enabled = (m: typeof loading) => Object.fromEntries((m.actions ?? []).map((a) => [a.action, a.enabled ?? true]));
    assert.equal(loading.type, 'content');
    assert.deepEqual(
      { back: enabled(loading).back, forward: enabled(loading).forward, openJson: enabled(loading).openJson, debug: enabled(loading).debug },
      { back: false, forward: false, openJson: false, debug: undefined },
    );
    assert.deepEqual(loading.state, { history: [contractTarget], index: 0 });
    assert.equal(loading.node, 'p1');
    history.navigate({ ...update, node: 'p2' });
    const shown = lookupContent({ identity: html`<p class="identity">who</p>`, body: answerBody(tx, update), history, result: tx });
    assert.equal(enabled(shown).back, true);
    assert.equal(enabled(shown).debug, true, 'a transaction can be debugged');
    assert.equal(enabled(shown).copyMarkdown, true);
    assert.equal(shown.node, 'p2', "the toolbar names the target's node");
    assert.deepEqual(shown.state, history.state);
    assert.ok(shown.html.startsWith('<p class="identity">who</p>'), 'the identity bar comes first');
    assert.ok(!shown.html.includes(EVIL));
    assert.ok(!JSON.stringify(shown.actions).includes('<'), 'labels are text');
  });

  it('labels who asked by numbers the panel gives identities: equal for the same ones, never the token', () => {
    const numbers = new Map<string, number>();
    const alice = as('alice');
    const bob = as('bob');
    const first = seenAsLabel(new Map([['n1', alice]]), numbers);
    assert.equal(first, 'n1=1');
    assert.equal(seenAsLabel(new Map([['n1', as('alice', ['P'])]]), numbers), first, 'the same identity, whatever it reads as');
    assert.equal(seenAsLabel(new Map([['n1', bob]]), numbers), 'n1=2');
    assert.equal(
      seenAsLabel(
        new Map([
          ['n2', bob],
          ['n1', alice],
        ]),
        numbers,
      ),
      'n1=1,n2=2',
    );
    assert.ok(!seenAsLabel(new Map([['n1', alice]]), numbers).includes(alice.identity.key));
    assert.equal(seenAsLabel(new Map(), numbers), '');
  });
});
