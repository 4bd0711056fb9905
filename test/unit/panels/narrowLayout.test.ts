// The rules that keep the pages usable in half an editor, as the renderers and the stylesheets write
// them: tables in a container that scrolls sideways, header cells with a resize handle, the virtual
// tables' first widths, the rarer toolbar actions in the "More actions" menu. The Chromium test
// (test/ui/narrowPanels.ui.test.ts) checks what a person sees of them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acsPageHtml, ACS_WIDTHS, updatesPageHtml, TAIL_WIDTHS } from '../../../src/panels/html/browseHtml';
import { completionsBody } from '../../../src/panels/html/completionsHtml';
import { dataTable } from '../../../src/panels/html/dataTable';
import { lookupActions, renderPanelPage } from '../../../src/panels/html/panelPage';
import { html } from '../../../src/panels/html/safeHtml';
import { transactionBody } from '../../../src/panels/html/transactionHtml';
import { contentMessage, parseHostMessage } from '../../../src/protocol/panelMessages';
import { EVIL, hostileContract, hostileTransaction } from '../../support/hostileLookups';
import { contractBody } from '../../../src/panels/html/contractHtml';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const media = (name: string) => fs.readFileSync(path.join(ROOT, 'media', name), 'utf8');
/** The header cells of the first table in `page`. */
const headerCells = (page: string) => page.match(/<th scope="col"[^>]*>.*?<\/th>/g) ?? [];
const browse = {
  nonce: 'n',
  cspSource: 'https://webview',
  scriptUris: ['a.js'],
  styleUris: ['panel.css', 'browse.css'],
  title: 'T',
  nodeName: EVIL,
  scope: 's',
};

describe('pages in half an editor', () => {
  it('a data table sits in a sideways scroll container; every header cell carries a keyboard-reachable resize handle', () => {
    const t = dataTable({ kind: 'k', className: 'c', columns: [{ label: 'Created at', min: 22 }, { label: EVIL }], body: html`<tbody></tbody>` }).text;
    assert.match(t, /^<div class="table-scroll"><table class="data-table c" data-columns-kind="k">/);
    const cells = headerCells(t);
    assert.equal(cells.length, 2);
    for (const th of cells)
      assert.match(th, /<span class="col-resize" role="separator" aria-orientation="vertical" tabindex="0" aria-label="Resize column [^"]+"/);
    assert.match(cells[0], /data-min="22"/);
    assert.ok(!t.includes('<img'), 'a label is text');
    // A table whose header sticks under the toolbar is not put in a scroll container (it would hold the header).
    const sticky = dataTable({ kind: 'k', className: 'events', columns: [{ label: 'a' }], body: html``, scroll: false }).text;
    assert.match(sticky, /^<table class="data-table events"/);
  });

  it("the panels' tables are data tables: Follow Completions, a transaction's events", () => {
    const completions = completionsBody({
      node: 'n',
      parties: ['Alice::1220ab'],
      state: 's',
      paused: false,
      filter: {},
      rows: [
        {
          offset: 3,
          commandId: 'c',
          actAs: ['Alice::1220ab'],
          status: 'succeeded',
          updateId: `1220${'a'.repeat(64)}`,
          recordTime: '2026-11-02T09:42:56Z',
          source: 'completion',
          at: 0,
        },
      ],
      total: 1,
      lastOffset: 3,
    }).text;
    assert.match(completions, /<div class="table-scroll"><table class="data-table completions" data-columns-kind="completions">/);
    assert.equal(headerCells(completions).length, 6);
    assert.ok(headerCells(completions).every((th) => th.includes('class="col-resize"')));
    const tx = transactionBody(hostileTransaction(3)).text;
    assert.match(tx, /<table class="data-table events" data-columns-kind="events"><thead>/);
    assert.equal(headerCells(tx).filter((th) => th.includes('class="col-resize"')).length, 6);
  });

  it('the stylesheets: every page has the layout rules; a table container scrolls sideways; headers and times keep to one line', () => {
    const panel = media('panel.css');
    assert.match(panel.split('\n')[1], /^@import url\('layout\.css'\);$/, 'imported first (an @import after a rule is ignored)');
    const layout = media('layout.css');
    assert.match(layout, /\.table-scroll \{\s*overflow-x: auto;/);
    assert.match(layout, /table\.data-table th,\s*\.vt th \{\s*white-space: nowrap;/);
    assert.match(layout, /table\.data-table time,[^{]*\{\s*white-space: nowrap;/);
    assert.match(layout, /\.col-resize \{[^}]*cursor: col-resize;/);
    assert.ok(!/#[0-9a-f]{3,6}\b/i.test(layout), 'theme variables only, no fixed colours');
    const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(shipped, /^!media\/layout\.css$/m, 'the packaged extension has it');
  });

  it('the virtual tables: a first width in ch for every column, each enough for the head of what it holds', () => {
    for (const [page, widths] of [
      [acsPageHtml(browse), ACS_WIDTHS],
      [updatesPageHtml({ ...browse, start: '' }), TAIL_WIDTHS],
    ] as const) {
      const columns = JSON.parse(page.match(/data-columns="([^"]*)"/)![1].replace(/&quot;/g, '"')) as string[];
      const sent = JSON.parse(page.match(/data-widths="([^"]*)"/)![1]) as number[];
      assert.deepEqual(sent, widths);
      assert.equal(widths.length, columns.length);
      assert.ok(widths.every((w) => w >= 6));
    }
    // Ids (a shortened one is 17 characters) and times to the second (22) show whole.
    assert.ok(ACS_WIDTHS[0] >= 17 && ACS_WIDTHS[2] >= 22 && TAIL_WIDTHS[2] >= 17);
  });

  it('the toolbar: the frequent actions as buttons, the rarer ones in the More actions menu, every action reachable', () => {
    const actions = lookupActions({ canGoBack: true, canGoForward: false, hasResult: true, found: 'transaction' });
    const page = renderPanelPage({
      nonce: 'n',
      cspSource: 'c',
      scriptUri: 's',
      styleUri: 't',
      title: 'T',
      nodeName: 'N',
      actions,
      body: contractBody(hostileContract()),
    });
    const nav = page.slice(page.indexOf('<nav'), page.indexOf('</nav>'));
    const menu = nav.slice(nav.indexOf('<div class="menu" id="more-menu" role="menu"'));
    const bar = nav.slice(0, nav.indexOf('<span class="more-actions">'));
    const inBar = [...bar.matchAll(/<button data-action="(\w+)"/g)].map((m) => m[1]);
    const inMenu = [...menu.matchAll(/<button role="menuitem" tabindex="-1" data-action="(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(inBar, ['back', 'forward', 'refresh', 'copyId', 'debug']);
    assert.deepEqual(inMenu, ['openJson', 'copyMarkdown', 'copyCurl', 'allNodes']);
    assert.deepEqual([...inBar, ...inMenu].sort(), actions.map((a) => a.action).sort(), 'every action is reachable');
    assert.match(
      nav,
      /<button class="more-button" id="more-actions" title="More actions" aria-label="More actions" aria-haspopup="menu" aria-expanded="false" aria-controls="more-menu">/,
    );
    assert.match(menu, /role="menu" aria-label="More actions" hidden>/, 'closed until opened');
    // The node's name may be cut at the toolbar's end: the whole of it on hover.
    assert.match(nav, /<span class="node" title="The ledger node: N">/);
    // The content message carries where each action goes, and the page keeps it.
    const message = parseHostMessage(JSON.parse(JSON.stringify(contentMessage('<p></p>', { actions }))));
    assert.deepEqual(message?.type === 'content' ? message.actions?.filter((a) => a.more).map((a) => a.action) : undefined, [
      'openJson',
      'copyMarkdown',
      'copyCurl',
      'allNodes',
    ]);
    // Active Contracts: its rarer actions (the payload filter, the ranges in What Changed) in the same menu.
    const acs = acsPageHtml(browse);
    const acsMenu = acs.slice(acs.indexOf('id="more-menu"'), acs.indexOf('</nav>'));
    assert.deepEqual(
      [...acsMenu.matchAll(/role="menuitem" tabindex="-1" data-action="(\w+)"/g)].map((m) => m[1]),
      ['filterPayload', 'showInactive', 'showAllInRange'],
    );
  });
});
