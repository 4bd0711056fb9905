// The panel renderers: every field shown, every ledger string escaped.
import * as assert from 'node:assert/strict';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { contentSecurityPolicy, lookupActions, renderPanelPage } from '../../../src/panels/html/panelPage';
import { escapeHtml, html, ledgerText } from '../../../src/panels/html/safeHtml';
import { eventRows, jsonForScript, transactionBody } from '../../../src/panels/html/transactionHtml';
import { FIRST_EVENT_ROWS, isPackedTreeRows, unpackEventRows, type PackedEventRows } from '../../../src/protocol/transactionRows';
import { lookupMarkdown } from '../../../src/panels/lookupMarkdown';
import { escapeMarkdown, hoverMarkdown } from '../../../src/lookups/hoverMarkdown';
import { EVIL, EVIL_PARTY, hostileContract, hostileTransaction, notFoundContract } from '../../support/hostileLookups';

/** Markup outside the data script: what the browser parses as HTML. */
function markup(page: string): string {
  return page.replace(/<script type="application\/json" id="event-data">[^<]*<\/script>/, '');
}

function assertNoInjectedMarkup(page: string): void {
  const m = markup(page);
  assert.ok(!/<img|<svg|<iframe|<object|<embed/i.test(m), 'an element came from ledger data');
  assert.equal((m.match(/<script/g) ?? []).length, page.includes('nonce=') ? 1 : 0, 'a script came from ledger data');
  // Attribute values are quoted and their quotes escaped: drop them, then look for handlers.
  const tags = (m.match(/<[a-z][^>]*>/gi) ?? []).map((t) => t.replace(/"[^"]*"/g, '""'));
  assert.ok(!tags.some((t) => /\son[a-z]+\s*=/i.test(t)), 'an inline handler came from ledger data');
  assert.ok(!/href="javascript:/i.test(m));
}

describe('panel HTML', () => {
  it('escapes text and makes bidi overrides and control characters visible', () => {
    assert.equal(html`<b>${'<i>&"\''}</b>`.text, '<b>&lt;i&gt;&amp;&quot;&#39;</b>');
    const t = ledgerText('a\u202Eb\u0000c').text;
    assert.equal(t, '<bdi>a<span class="ctrl" title="control character">\\u202e</span>b<span class="ctrl" title="control character">\\u0000</span>c</bdi>');
  });

  it('renders every field of a contract, and nothing hostile as markup', () => {
    const body = contractBody(hostileContract()).text;
    for (const label of [
      'Template',
      'Package name',
      'Representative package id',
      'Contract id',
      'Offset',
      'Node id',
      'Created at',
      'Synchronizer',
      'Signatories',
      'Observers',
      'Witnesses',
      'ACS delta',
      'Contract key',
      'Contract key hash',
      'Created event blob',
      'Create argument',
      'Interface views',
      'View value',
      'Archived',
      'Implemented interfaces',
    ]) {
      assert.ok(body.includes(`>${label}<`), `no "${label}"`);
    }
    assert.ok(body.includes('Archived</span>'), 'archived badge');
    assert.ok(body.includes(`title="${EVIL_PARTY}"`), 'parties keep their full id on hover');
    assert.ok(body.includes('Eve-xxxxxxxxxx::1220ab…'), 'parties are shortened');
    assert.ok(body.includes('&lt;img src=x onerror=&quot;window.__pwned=1'), 'hostile text is shown as text');
    assertNoInjectedMarkup(body);
  });

  it('renders a not-found contract with its explanation, escaped', () => {
    const body = contractBody(notFoundContract()).text;
    assert.match(body, /Not found/);
    assertNoInjectedMarkup(body);
  });

  it('puts transaction events in a JSON block that cannot close its script', () => {
    const l = hostileTransaction(30);
    const body = transactionBody(l).text;
    for (const label of [
      'Update id',
      'Offset',
      'Effective at',
      'Record time',
      'Command id',
      'Workflow id',
      'Synchronizer',
      'Trace context',
      'External transaction hash',
      'Paid traffic cost',
    ]) {
      assert.ok(body.includes(`>${label}<`), `no "${label}"`);
    }
    const json = /<script type="application\/json" id="event-data">([^<]*)<\/script>/.exec(body);
    assert.ok(json, 'the event data block is intact: nothing in it contains "<"');
    assert.ok(l.found && l.update === 'transaction');
    const sent = unpackEventRows(JSON.parse(json[1]) as PackedEventRows);
    assert.deepEqual(
      sent.rows.map(([n, k, t, id, d, p]) => [n, k, t, sent.contractIdOf(id), d, p]),
      eventRows(l.transaction.events),
    );
    assertNoInjectedMarkup(body);
  });

  it('writes the first rows of a large transaction into its page, with the count and every template, not all of its rows', () => {
    const l = hostileTransaction(FIRST_EVENT_ROWS + 700);
    assert.ok(l.found && l.update === 'transaction');
    const body = transactionBody(l).text;
    const json = /<script type="application\/json" id="event-data">([^<]*)<\/script>/.exec(body);
    assert.ok(json);
    const sent = JSON.parse(json[1]) as PackedEventRows;
    assert.deepEqual([sent.from, sent.rows.length, sent.total], [0, FIRST_EVENT_ROWS, FIRST_EVENT_ROWS + 700]);
    assert.match(body, new RegExp(`<span id="event-count">${(FIRST_EVENT_ROWS + 700).toLocaleString('en-US')}</span>`));
    const templates = new Set(eventRows(l.transaction.events).map((r) => r[2])).size;
    assert.equal((body.match(/<option value="[^"]*"><\/option>/g) ?? []).length, templates, 'the template list names those of rows not sent yet too');
  });

  it('writes the first rows of a large exercise tree into its page, packed, with the count of all its nodes', () => {
    const l = hostileTransaction(FIRST_EVENT_ROWS + 700);
    assert.ok(l.found && l.update === 'transaction');
    const body = transactionBody(l, 'TRANSACTION_SHAPE_LEDGER_EFFECTS').text;
    const json = /<script type="application\/json" id="tree-data">([^<]*)<\/script>/.exec(body);
    assert.ok(json);
    const sent: unknown = JSON.parse(json[1]);
    assert.ok(isPackedTreeRows(sent), "the page's check takes them");
    assert.deepEqual([sent.from, sent.rows.length, sent.total], [0, FIRST_EVENT_ROWS, FIRST_EVENT_ROWS + 700]);
    assert.match(body, new RegExp(`<span id="event-count">${(FIRST_EVENT_ROWS + 700).toLocaleString('en-US')}</span>`));
  });

  it('keeps script-closing and line-separator characters out of a JSON block, and plain text as it is', () => {
    const value = { a: '</script><script>x()</script>', b: 'line\u2028para\u2029end' };
    const text = jsonForScript(value).text;
    assert.doesNotMatch(text, /[<\u2028\u2029]/);
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(escapeHtml('plain text, nothing to escape'), 'plain text, nothing to escape');
    assert.equal(escapeHtml(`a&b<c>"d'e\`f`), 'a&amp;b&lt;c&gt;&quot;d&#39;e&#96;f');
    assert.equal(ledgerText('Alice::1220ab').text, '<bdi>Alice::1220ab</bdi>');
    assert.equal(ledgerText('<b>').text, '<bdi>&lt;b&gt;</bdi>');
  });

  it('wraps a body in a page with a strict CSP and one nonce script', () => {
    const page = renderPanelPage({
      nonce: 'n0nce',
      cspSource: 'https://webview',
      scriptUri: 'https://webview/panel.js',
      styleUri: 'https://webview/panel.css',
      title: EVIL,
      nodeName: EVIL,
      actions: lookupActions({ canGoBack: false, canGoForward: true, hasResult: true }),
      body: contractBody(hostileContract()),
    });
    assert.equal(
      contentSecurityPolicy('n0nce', 'https://webview'),
      "default-src 'none'; img-src https://webview data:; style-src https://webview; font-src https://webview; script-src 'nonce-n0nce'; base-uri 'none'; form-action 'none'",
    );
    assert.ok(page.includes(`content="${contentSecurityPolicy('n0nce', 'https://webview')}"`.replace(/'/g, '&#39;')));
    assert.ok(page.includes('<script nonce="n0nce" src="https://webview/panel.js"></script>'));
    assert.ok(/<button data-action="back"[^>]*disabled>/.test(page), 'back is disabled at the start of the history');
    assertNoInjectedMarkup(page);
  });

  it('copies as Markdown without breaking out of code spans', () => {
    const md = lookupMarkdown(hostileContract(), 'dev', '3.5.10');
    assert.match(md, /^### Contract `00/);
    assert.match(md, /- Node: dev \(Canton 3\.5\.10\)/);
    assert.match(md, /- Status: archived/);
    assert.match(md, /- As seen by <img[^\n]*: Eve-x{10}::1220ab…/, 'who asked, for the bug report');
    assert.ok(md.includes('```json'));
  });

  it('hovers escape ledger strings and link only to the panel commands', () => {
    const l = hostileContract();
    const md = hoverMarkdown({ match: { kind: 'contract', text: l.contractId, start: 0, end: 138 }, nodeName: EVIL, lookup: l });
    // Outside code spans, ledger strings are escaped; inside one (a template name) Markdown shows
    // every character literally, HTML included (CommonMark code spans).
    const outsideCode = md.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
    assert.ok(!/(^|[^\\])<img/.test(outsideCode), md);
    assert.ok(md.includes('\\<img'), 'shown as text');
    assert.match(md, /\[Open contract\]\(command:cantonLens\.showContract\?%5B%22/);
    assert.ok(!/\]\(javascript:/.test(md));
  });

  it('hovers show a template name as written: no Markdown escapes inside its code span', () => {
    const l = hostileContract();
    const created = l.found ? l.response.created!.createdEvent : undefined;
    assert.ok(created);
    created.templateId = `${'d'.repeat(64)}:Lens.Adversarial:Pay\`load`;
    const md = hoverMarkdown({ match: { kind: 'contract', text: l.contractId, start: 0, end: 138 }, nodeName: 'p1', lookup: l });
    assert.ok(md.includes('`` Lens.Adversarial:Pay`load ``') || md.includes('``Lens.Adversarial:Pay`load``'), md);
    assert.ok(!md.includes('Lens\\.Adversarial'), md);
  });

  it('a hover on an id that is not found names who asked, from the lookup rather than from its English text', () => {
    const l = notFoundContract();
    const md = hoverMarkdown({ match: { kind: 'contract', text: l.contractId, start: 0, end: 138 }, nodeName: 'p1', lookup: l });
    assert.ok(md.includes(`Not found for ${escapeMarkdown(EVIL_PARTY)}`), md);
  });
});
