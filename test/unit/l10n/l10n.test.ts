// The pure modules' strings go through the translator the extension sets (vscode.l10n.t): a
// pseudo-locale shows which strings are routed, and that a translation cannot inject markup.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { t, useTranslator, type Translator } from '../../../src/l10n/l10n';
import { errorFromResponse } from '../../../src/ledger/ledgerApiError';
import { checkExecuteRequest } from '../../../src/execute/executeRequestCheck';
import { featureRows } from '../../../src/nodes/featureRows';
import { classifyLedgerId } from '../../../src/ids/ledgerIds';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { pageStrings, renderPanelPage, lookupActions } from '../../../src/panels/html/panelPage';
import { transactionBody } from '../../../src/panels/html/transactionHtml';
import { hostileContract, hostileTransaction } from '../../support/hostileLookups';

/** A pseudo-locale: «message» with the placeholders filled, as vscode.l10n.t would. */
const pseudo: Translator = (message, args) => `«${message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]))}»`;

describe('localized strings of the pure modules', () => {
  afterEach(() => useTranslator(undefined));

  it('are English with placeholders filled until a translator is set, and again after it is removed', () => {
    assert.equal(t('Update {0} is a {1}, not a transaction.', 'u', 'Reassignment'), 'Update u is a Reassignment, not a transaction.');
    assert.equal(t('{0} of {1}', 'a'), 'a of {1}', 'a missing argument leaves its placeholder');
    useTranslator(pseudo);
    assert.equal(t('No token'), '«No token»');
    useTranslator(undefined);
    assert.equal(t('No token'), 'No token');
  });

  it('fill placeholders in odd messages as the regex replace they replaced did', () => {
    const byRegex = (m: string, args: string[]) => m.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? args[Number(i)] : whole));
    const args = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'];
    for (const m of ['{0}', '{11}{10}', '{12}', '{x}', '{}', '{0', '0}', '{{0}}', '{-1}', 'a {0} b {1} c', '{ 0}', '{0}{', '}{0}{1}', '{00}', '']) {
      for (const n of [1, 2, 12]) assert.equal(t(m, ...args.slice(0, n)), byRegex(m, args.slice(0, n)), `${m} with ${n}`);
    }
  });

  it('substitute arguments once: an argument holding "{1}" is not filled again', () => {
    assert.equal(t('{0} and {1}', '{1}', 'x'), '{1} and x');
  });

  it('route error explanations, id reasons, feature rows and execute checks', () => {
    useTranslator(pseudo);
    const e = errorFromResponse({
      method: 'POST',
      path: '/v2/events/events-by-contract-id',
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'NA',
        cause: 'A security-sensitive error has been received',
        correlationId: 'c1',
        traceId: 't1',
        context: {},
        resources: [],
        errorCategory: 6,
        grpcCodeValue: 16,
        retryInfo: null,
        definiteAnswer: null,
      }),
    });
    assert.match(e.explanation, /^«The node did not accept the token \(401\)/);
    const reason = classifyLedgerId('1220abc');
    assert.equal(reason.kind, 'none');
    assert.match((reason as { reason: string }).reason, /^«Wrong length: 7 characters/);
    assert.ok(featureRows(undefined).every((r) => r.label.startsWith('«') && r.tooltip.startsWith('«')));
    const checked = checkExecuteRequest('{"preparedTransaction": 1}');
    assert.ok(checked.problems.length > 0 && checked.problems.every((p) => p.message.startsWith('«')), JSON.stringify(checked.problems));
  });

  it('route panel text; ledger data inside a translated sentence stays escaped, and so does a hostile translation', () => {
    useTranslator(pseudo);
    const contract = contractBody(hostileContract()).text;
    assert.match(contract, /<h2 id="created-h">«Created»<\/h2>/);
    assert.match(contract, /<h1>«Contract <code title="00[0-9a-f]+">00[0-9a-f]{8}…[0-9a-f]{6}<\/code>»<\/h1>/, 'markup arguments keep their markup');
    assert.match(transactionBody(hostileTransaction(3)).text, /«Events \(<span id="event-count">3<\/span>\)»/);
    useTranslator((message, args) => `<img src=x onerror=alert(1)>${message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]))}`);
    const page = renderPanelPage({
      nonce: 'n',
      cspSource: 'vscode-resource:',
      scriptUri: 's.js',
      styleUri: 's.css',
      title: 'x',
      nodeName: 'p1',
      actions: lookupActions({ canGoBack: false, canGoForward: false, hasResult: true }),
      body: contractBody(hostileContract()),
    });
    assert.ok(!/<img/i.test(page.replace(/data-strings="[^"]*"/, '')), 'a translation is text, never markup');
    assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;Created/);
  });

  it('are written as literal messages, so a translation bundle can list them (three plumbing calls aside)', () => {
    const src = path.join(__dirname, '..', '..', '..', '..', 'src');
    const dynamic: string[] = [];
    for (const file of fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*([^'"\s])/g)) dynamic.push(`${file}:${text.slice(0, m.index).split('\n').length}`);
    }
    assert.deepEqual(
      dynamic.map((d) => d.replace(/:\d+$/, '')).sort(),
      ['extension.ts', 'panels/html/panelPage.ts', 'panels/html/safeHtml.ts'],
      dynamic.join(', '),
    );
  });

  it('give the page script its strings with their placeholders intact', () => {
    useTranslator(pseudo);
    const s = pageStrings();
    assert.equal(s.eventsMatch, '«{0} of {1} events match»');
    assert.equal(s.matches, '«{0} matches»');
    assert.equal(s.created, '«created»');
  });
});
