/// <reference lib="dom" />
// The Active Contracts page read by interface, in Debian's Chromium with the real page script: the
// field columns are named by the view's fields the extension sends, each row shows its view under
// them, its template in the template column, and a view that failed shows its status in the error
// colour.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AcsBatchEncoder } from '../../src/browse/acsBatchEncoder';
import { interfaceRows } from '../../src/browse/interfaceRows';
import type { CreatedEvent } from '../../src/ledger/apiTypes';
import { acsPageHtml } from '../../src/panels/html/browseHtml';
import { usePanelPages } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

const PKG = 'ab'.repeat(32);
const HOLDING = `${PKG}:Partner.Token:Holding`;
const ALICE = `Alice::1220${'cd'.repeat(32)}`;

const event = (i: number, template: string, view: Record<string, unknown> | undefined): CreatedEvent =>
  ({
    contractId: `00${i.toString(16).padStart(4, '0')}${'ef'.repeat(33)}`,
    templateId: `${PKG}:Partner.Token:${template}`,
    createArgument: { issuer: ALICE, hidden: 'the template argument' },
    interfaceViews: [
      view
        ? { interfaceId: HOLDING, viewStatus: { code: 0, message: '' }, viewValue: view }
        : { interfaceId: HOLDING, viewStatus: { code: 9, message: 'DAML_FAILURE(9,0): <b>no</b> view' } },
    ],
    signatories: [ALICE],
    observers: [],
    witnessParties: [ALICE],
    createdAt: `2026-11-03T08:00:0${i}.000000Z`,
    packageName: 'canton-lens-partner-app',
    offset: i,
    nodeId: 0,
  }) as unknown as CreatedEvent;

describe('UI: the Active Contracts page read by interface', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1700, height: 700 } });
  before(() =>
    pages.publishPage('acs', (origin) =>
      acsPageHtml({
        nonce: 'bm9uY2U=',
        cspSource: origin,
        scriptUris: [`${origin}/media/acs.js`],
        styleUris: [`${origin}/media/panel.css`, `${origin}/media/browse.css`],
        title: 'Active Holding',
        nodeName: 'Demo Ledger',
        scope: `interface ${HOLDING}`,
      }),
    ),
  );

  it("names the field columns by the view, shows each row's view and a failed view's status", async () => {
    const page = await pages.open('acs');
    const columns = ['owner', 'amount', 'instrument'];
    const rows = interfaceRows(
      [
        event(1, 'Token', { instrument: 'PTK', owner: ALICE, amount: '250.0' }),
        event(2, 'LockedToken', { owner: ALICE, amount: '100.0', instrument: 'PTK' }),
        event(3, 'LockedToken', undefined),
      ],
      HOLDING,
      columns,
    );
    await pages.post(page, { type: 'columns', names: columns } as never);
    await pages.post(page, { type: 'rows', batch: new AcsBatchEncoder().encode(rows), activeAtOffset: 3 } as never);
    await pages.post(page, { type: 'done' } as never);
    await page.locator('#status', { hasText: '3 contracts' }).waitFor();
    const heads = await page.locator('#table .vt-head th').allInnerTexts();
    assert.deepEqual(
      heads.slice(6).map((h) => h.trim()),
      columns,
    );
    const cells = await page
      .locator('#table .vt-body tr:not([hidden])')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => [td.textContent ?? '', td.className])));
    const texts = cells.map((r) => r.map(([t]) => t));
    assert.deepEqual(texts.map((r) => r[1]).sort(), ['Partner.Token:LockedToken', 'Partner.Token:LockedToken', 'Partner.Token:Token'], "each row's template");
    const token = texts.find((r) => r[1] === 'Partner.Token:Token')!;
    assert.deepEqual(token.slice(7), ['250.0', 'PTK'], 'the view, in the view type’s order');
    assert.ok(token[6].startsWith('Alice'), `the owner: ${token[6]}`);
    const failed = cells.find((r) => r[6][0].startsWith('The view failed'))!;
    assert.ok(failed, JSON.stringify(texts));
    assert.match(failed[6][0], /code 9\): DAML_FAILURE\(9,0\): <b>no<\/b> view/, 'the status as text, never markup');
    assert.match(failed[6][1], /view-failed/);
    assert.deepEqual(await page.violations(), []);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'acs-by-interface.png'), clip: { x: 0, y: 0, width: 1700, height: 240 } });
  });
});
