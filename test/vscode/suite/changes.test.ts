// Mark Ledger Point and What Changed in the extension host, on 3.4, 3.5 and 3.6: a point marked
// before a "test run" (the fake ledger advancing), the range read as the token's parties, rows by
// kind and template, and everything dropped when the token changes; a range the node cuts each
// list of (its updates slow to find) read whole.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { AcsPanel } from '../../../src/panels/acsPanel';
import type { ChangesPanel } from '../../../src/panels/changesPanel';
import type { LedgerPoint } from '../../../src/services/ledgerPointStore';
import { compileFilter } from '../../../src/browse/payloadFilter';
import { cantonLens, resetNodes, until, useFakeNode } from './testApi';

describe('What Changed', function () {
  this.timeout(90_000);
  const fakes: FakeLedgerNode[] = [];
  before(resetNodes);
  after(async () => {
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: what changed since a marked point, by kind and template; a new token clears it`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, generated: { contracts: 50 } });
      fakes.push(fake);
      const name = `changes-${version}`;
      await useFakeNode(api, fake, name, 'bank');
      const point = await vscode.commands.executeCommand<LedgerPoint>('cantonLens.markLedgerPoint', name, 'before the test');
      assert.equal(point.offset, fake.generated.ledgerEnd());
      // The "test run": 30 updates, each creating a contract, every second one archiving the one before.
      fake.generated.advance(30);
      const panel = await vscode.commands.executeCommand<ChangesPanel>('cantonLens.whatChanged', 'before the test', 'end', name);
      await panel.done;
      const shown = panel.shown;
      assert.equal(shown.error, undefined, shown.error);
      assert.deepEqual([shown.counts.created, shown.counts.createdAndArchived, shown.counts.archived, shown.counts.transactions], [15, 15, 0, 30]);
      assert.match(shown.reason ?? '', /short range/);
      panel.setView({ kind: 'createdAndArchived' });
      assert.equal(panel.shown.matching, 15);
      assert.ok(panel.shown.rows.every((r) => r.kind === 'createdAndArchived' && r.archived && r.created));
      const template = panel.shown.rows[0].templateId;
      panel.setView({ kind: undefined, template });
      assert.ok(panel.shown.rows.length > 0 && panel.shown.rows.every((r) => r.templateId === template));
      // The table as it was at the marked point: the 15 contracts still active since are not in it.
      const acsAt = async (offset: number | undefined) => {
        const p = await vscode.commands.executeCommand<AcsPanel>(
          offset === undefined ? 'cantonLens.showActiveContracts' : 'cantonLens.showActiveContractsAt',
          ...(offset === undefined ? [name] : [offset, name]),
        );
        await until('the table read', () => (p.shown.done || p.shown.error ? true : undefined), 60_000).catch((e: Error) => {
          throw new Error(`${e.message}: ${JSON.stringify({ ...p.shown, templates: undefined, firstIds: undefined })}`);
        });
        assert.equal(p.shown.error, '');
        return p;
      };
      const then = await acsAt(point.offset);
      assert.equal(then.shown.activeAtOffset, point.offset);
      const now = await acsAt(undefined);
      assert.equal(now.shown.contracts - then.shown.contracts, 15);
      // The table narrowed by a payload filter, applied as rows arrive.
      const usd = compileFilter('currency = USD');
      assert.ok(usd.ok);
      await now.filterBy({ text: 'currency = USD', test: usd.test });
      await until('the filtered table read', () => (now.shown.done || now.shown.error ? true : undefined), 30_000);
      assert.ok(now.shown.contracts > 0 && now.shown.filteredOut > 0, `${now.shown.contracts} kept, ${now.shown.filteredOut} left out`);
      then.dispose();
      now.dispose();
      // The contracts no longer active in the range, read in ledger-effects shape: each names its archiving choice.
      const inactive = await vscode.commands.executeCommand<ChangesPanel>('cantonLens.whatChanged', point.offset, 'end', name, {
        ledgerEffects: true,
        kind: 'inactive',
      });
      await inactive.done;
      assert.equal(inactive.shown.matching, 15);
      assert.ok(inactive.shown.rows.every((r) => r.kind === 'createdAndArchived' && typeof r.archived?.choice === 'string'));
      inactive.dispose();
      // Follow Updates' latest rows are points What Changed offers.
      const tail = await vscode.commands.executeCommand<{ shown: { rows: number }; dispose(): void }>(
        'cantonLens.followUpdates',
        name,
        undefined,
        undefined,
        point.offset,
      );
      await until('Follow Updates shows the test run', () => (tail.shown.rows >= 30 ? true : undefined), 60_000);
      const offered = api.browse.updates.recentRows(name);
      assert.equal(offered.length, 20);
      assert.equal(offered[0].offset, fake.generated.ledgerEnd(), 'newest first');
      tail.dispose();
      // Another identity: what was read as the bank's is not shown to it.
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('alice'));
      await until('the rows cleared', () => (panel.shown.counts.transactions === 0 && panel.shown.error ? true : undefined));
      assert.match(panel.shown.error ?? '', /token of changes-.* changed/);
      panel.dispose();
    });

    it(`${version}: a range whose updates the node is slow to find, and cuts each list at, is read whole`, async () => {
      const api = await cantonLens();
      // 2 s of simulated scan an offset, Alice's every 4th: 8 s between hers, past the 5 s idle time asked for.
      const fake = await FakeLedgerNode.start({ version, generated: { scanMsPerOffset: 2_000 } });
      fakes.push(fake);
      const name = `sparse-${version}`;
      await useFakeNode(api, fake, name, 'alice');
      const from = fake.generated.ledgerEnd();
      fake.generated.advance(296);
      const panel = await vscode.commands.executeCommand<ChangesPanel>('cantonLens.whatChanged', from, 'end', name);
      await panel.done;
      assert.equal(panel.shown.error, undefined, panel.shown.error);
      assert.equal(panel.shown.complete, true);
      assert.deepEqual([panel.shown.counts.transactions, panel.shown.counts.created], [74, 74], 'every one of hers, not the first');
      panel.dispose();
    });
  }

  it('Mark Ledger Point asks a name (the time by default) and says where the point is found', async function () {
    const api = await cantonLens();
    const fake = await FakeLedgerNode.start({ version: '3.5' });
    fakes.push(fake);
    const name = 'changes-mark';
    await useFakeNode(api, fake, name, 'bank');
    type Window = { showInputBox: typeof vscode.window.showInputBox; showInformationMessage: typeof vscode.window.showInformationMessage };
    const win = vscode.window as unknown as Window;
    const original = { showInputBox: win.showInputBox, showInformationMessage: win.showInformationMessage };
    const asked: (vscode.InputBoxOptions | undefined)[] = [];
    const told: string[] = [];
    const answers: (string | undefined)[] = [undefined, 'before the demo'];
    try {
      win.showInputBox = async (o?: vscode.InputBoxOptions) => {
        asked.push(o);
        return answers.shift();
      };
      win.showInformationMessage = async (m: string) => {
        told.push(m);
        return undefined;
      };
    } catch {
      this.skip();
    }
    if (vscode.window.showInputBox !== win.showInputBox) this.skip();
    try {
      // Escape: nothing is marked.
      assert.equal(await vscode.commands.executeCommand('cantonLens.markLedgerPoint', name), undefined);
      const point = await vscode.commands.executeCommand<LedgerPoint>('cantonLens.markLedgerPoint', name);
      assert.equal(point.label, 'before the demo');
      assert.equal(point.offset, fake.generated.ledgerEnd());
      assert.equal(asked.length, 2);
      assert.match(asked[1]?.value ?? '', /\d{2}:\d{2}:\d{2}/, 'the time is the default name');
      const said = told.find((m) => m.includes('before the demo')) ?? '';
      assert.match(said, /What Changed/);
      assert.match(said, new RegExp(`offset ${point.offset}`));
    } finally {
      Object.assign(win, original);
    }
  });
});
