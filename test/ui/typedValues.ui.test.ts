/// <reference lib="dom" />
// A transaction of a package with no source in the workspace (the partner app), in Debian's
// Chromium with the real page script: its exercise and its create opened to their whole events as
// the host answers once the node's Daml-LF is read, the choice's argument and result and the create
// argument drawn with their declared types (hovers, a ContractId that says its template, enums
// named), and hostile values still text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeArchive } from '../../src/daml/lf/lfDecode';
import type { LedgerEvent } from '../../src/ledger/apiTypes';
import { exerciseTree } from '../../src/lookups/exerciseTree';
import type { TransactionLookup } from '../../src/lookups/ledgerLookups';
import { eventDetailHtml } from '../../src/panels/html/eventDetailHtml';
import { transactionBody } from '../../src/panels/html/transactionHtml';
import { PARTNER_PACKAGE, PARTNER_PACKAGE_NAME, partnerDalf } from '../../fake-ledger/src/partnerPackage';
import { EVIL_ASKER } from '../support/hostileLookups';
import { usePanelPages, type PanelPage } from './pageFixture';
import { SCREENSHOT_DIR } from './workbench';

const sigs = [decodeArchive(partnerDalf())];
const TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
const ALICE = `Alice::1220${'3f'.repeat(32)}`;
const BOB = `Bob::1220${'7a'.repeat(32)}`;
const BANK = `Bank::1220${'c4'.repeat(32)}`;
const cid = (seed: string) => `00${seed.repeat(32).slice(0, 64)}ca1220${'d1'.repeat(32)}`;
const OLD = cid('4e');
const NEW = cid('9b');
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

const token = (owner: string, amount: string, previous: string | null) => ({
  issuer: BANK,
  owner,
  amount,
  decimals: '2',
  tags: ['partner'],
  meta: { values: { desk: HOSTILE }, extra: null },
  locks: [],
  kind: 'Escrow',
  settlement: { tag: 'Deferred', value: '2026-12-01' },
  previous,
  active: true,
});

const events: LedgerEvent[] = [
  {
    ExercisedEvent: {
      offset: 42,
      nodeId: 0,
      contractId: OLD,
      templateId: TOKEN,
      choice: 'Transfer',
      choiceArgument: { newOwner: BOB, amount: '25.0000000000', kind: 'Escrow' },
      actingParties: [ALICE],
      consuming: true,
      witnessParties: [ALICE, BOB],
      lastDescendantNodeId: 1,
      packageName: PARTNER_PACKAGE_NAME,
      exerciseResult: NEW,
      implementedInterfaces: [`${PARTNER_PACKAGE}:Partner.Token:Holding`],
      acsDelta: true,
    },
  },
  {
    CreatedEvent: {
      offset: 42,
      nodeId: 1,
      contractId: NEW,
      templateId: TOKEN,
      contractKey: BANK,
      createArgument: token(BOB, '25.0000000000', OLD),
      witnessParties: [ALICE, BOB],
      signatories: [BANK],
      observers: [BOB],
      createdAt: '2026-11-28T06:00:00.000000Z',
      packageName: PARTNER_PACKAGE_NAME,
      representativePackageId: PARTNER_PACKAGE,
      acsDelta: true,
    },
  },
];

const updateId = `1220${'5c'.repeat(32)}`;
const lookup: TransactionLookup = {
  kind: 'transaction',
  found: true,
  update: 'transaction',
  updateId,
  transaction: {
    updateId,
    commandId: 'transfer-to-bob',
    workflowId: '',
    effectiveAt: '2026-11-28T06:00:00.000000Z',
    events,
    offset: 42,
    synchronizerId: `global-domain::1220${'e0'.repeat(32)}`,
    recordTime: '2026-11-28T06:00:00.100000Z',
  },
  route: 'update-by-id',
  query: { requestingParties: [ALICE] },
  asked: 'an update on demo',
  askedAs: EVIL_ASKER,
};

describe('UI: transaction events typed from the Daml-LF of a package without source', function () {
  this.timeout(120_000);
  const pages = usePanelPages({ viewport: { width: 1200, height: 1800 } });
  const tree = exerciseTree(events);

  /** Answers the page's detail requests as the panel does once the signatures are read. */
  const answerDetails = async (page: PanelPage) => {
    for (const m of await page.messages()) {
      if (m.type !== 'eventDetail' || typeof m.index !== 'number' || m.requestId === undefined) continue;
      await pages.post(page, { type: 'answer', requestId: m.requestId, html: eventDetailHtml(tree[m.index].node, tree, m.index, sigs).toString() });
    }
    await page.clearMessages();
  };

  before(() =>
    pages.publish('partner-transfer', transactionBody(lookup, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'), {
      title: 'Transaction',
      nodeName: 'demo',
      state: { history: [{ kind: 'update', id: updateId, node: 'demo', shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }], index: 0 },
    }),
  );

  it("shows the choice's argument and result and the create argument with their declared types", async () => {
    const page = await pages.open('partner-transfer');
    await page.locator('[data-detail="tree"][data-index="0"]').click();
    await answerDetails(page);
    await page.locator('.detail-row').first().waitFor();
    await page.locator('[data-detail="tree"][data-index="1"]').click();
    await answerDetails(page);
    await page.locator('.detail-row').nth(1).waitFor();

    const exercise = page.locator('.detail-row').first();
    assert.equal(await exercise.locator('th[title="exerciseResult: ContractId Token"]').count(), 1, "the result's type beside its name");
    assert.match(await exercise.innerText(), /TransferKind\.Escrow/, 'an enum named with its type');
    assert.equal(await exercise.locator('.v-cid-type').innerText(), 'Token', 'the result says which template it points to');
    const created = page.locator('.detail-row').nth(1);
    assert.equal(await created.locator('.v-key[title="Numeric 10"]').first().innerText(), 'amount', "a field's declared type on hover");
    assert.match(await created.innerText(), /Settlement\.Deferred/, 'a variant named with its constructor');
    assert.equal(await created.locator('.v-key[title="Optional (ContractId Token)"]').count(), 1);
    assert.equal(await page.locator('.detail-row img').count(), 0, 'hostile values stay text');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(await page.violations(), []);

    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // The tree and its two opened events, whole: the page is tall enough that nothing scrolls under the toolbar.
    await page.locator('section[aria-labelledby="tree-h"]').screenshot({ path: path.join(SCREENSHOT_DIR, 'typed-values.png') });
  });
});
