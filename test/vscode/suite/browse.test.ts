// Browsing in a real VS Code, per version, against fake nodes: Show Active Contracts
// with its arguments, the tree's Active Contracts grouping and counts, Follow Updates as the fake
// node generates updates (pause, resume, a node restart without gap or duplicate), a pruned start
// offset that offers the earliest one, and one beyond the ledger end that offers the end.
// The node reads as Alice and Bob (the auditor's rights), so a party argument narrows something.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { AcsPanel } from '../../../src/panels/acsPanel';
import type { UpdatesPanel } from '../../../src/panels/updatesPanel';
import { expectedAcs, expectedTailOffsets } from '../../support/browseExpectations';
import { cantonLens, find, renderTree, resetNodes, until } from './testApi';

const VERSIONS: FakeVersion[] = ['3.4', '3.5', '3.6'];

/** The updates `parties` see in (from, to]: how many, and the sum of their offsets (a gap or a duplicate changes one). */
function expectedTail(node: FakeLedgerNode, parties: string[], from: number, to: number) {
  const offsets = expectedTailOffsets(node, parties, from, to);
  return { rows: offsets.length, offsetSum: offsets.reduce((a, b) => a + b, 0) };
}

for (const version of VERSIONS) {
  describe(`Browsing a ${version} node: active contracts and followed updates`, function () {
    this.timeout(90_000);
    let node: FakeLedgerNode;
    const name = `browse ${version}`;
    const alice = () => node.ledger.parties.Alice;
    const bob = () => node.ledger.parties.Bob;
    const both = () => [alice(), bob()];

    before(async () => {
      await resetNodes();
      node = await FakeLedgerNode.start({ version, bigTransactionEvents: 10, generated: { contracts: 3000, listLimit: 10_000, maxPageSize: 500 } });
      await vscode.commands.executeCommand('cantonLens.addNode', { name, url: node.url, parties: both() });
      await vscode.commands.executeCommand('cantonLens.setToken', name, node.mintToken('auditor'));
      await vscode.commands.executeCommand('cantonLens.selectNode', name);
    });
    after(async () => {
      const api = await cantonLens();
      api.browse.acs.dispose();
      api.browse.updates.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      node.generated.setRate(0);
      await resetNodes();
      await node.close();
    });

    it("Show Active Contracts (node, party, template) shows that party's contracts of that template at the active-at offset", async () => {
      const template = node.generated.template(3).templateId;
      const panel = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, bob(), template);
      assert.ok(panel, 'a panel was opened');
      assert.deepEqual(panel.target, { node: name, parties: [bob()], templateId: template });
      await until('every page read', () => panel.shown.done || panel.shown.error !== '', 30_000);
      assert.equal(panel.shown.error, '');
      const activeAt = panel.shown.activeAtOffset!;
      assert.ok(activeAt >= node.generated.generatedEnd && activeAt <= node.generated.ledgerEnd(), String(activeAt));
      const expected = expectedAcs(node, [bob()], activeAt, template);
      assert.ok(expected.ids.length > 10, String(expected.ids.length));
      // Bob alone, not every party the node reads as.
      assert.ok(expectedAcs(node, both(), activeAt, template).ids.length > expected.ids.length);
      assert.equal(panel.shown.contracts, expected.ids.length);
      assert.deepEqual(panel.shown.firstIds, expected.ids.slice(0, 20));
      assert.deepEqual([...panel.shown.templates], [template]);
      assert.equal(panel.shown.notice, '');
      // The same arguments reveal the same panel.
      const again = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, bob(), template);
      assert.equal(again, panel);
    });

    it("Show Active Contracts without arguments reads every template the node's parties see, on the active node", async () => {
      const panel = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts');
      assert.deepEqual(panel.target, { node: name, parties: undefined, templateId: undefined });
      await until('every page read', () => panel.shown.done || panel.shown.error !== '', 30_000);
      assert.equal(panel.shown.error, '');
      const expected = expectedAcs(node, both(), panel.shown.activeAtOffset!);
      assert.equal(panel.shown.contracts, expected.ids.length);
      assert.deepEqual(panel.shown.firstIds, expected.ids.slice(0, 20));
      assert.ok(panel.shown.templates.size > 5, String(panel.shown.templates.size));
      if (version !== '3.4') assert.ok(panel.shown.pages > 1, 'read page by page');
    });

    it("a template's table opened from the tree while every contract's table is open shows its own read", async () => {
      const template = node.generated.template(3).templateId;
      const api = await cantonLens();
      api.browse.acs.dispose();
      const all = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name);
      // Opened while the other still reads (its page has loaded and said ready).
      await until('the first page of every contract', () => all.shown.pages > 0 || all.shown.error !== '', 30_000);
      const one = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, undefined, template);
      assert.notEqual(one, all);
      await until('both read', () => (all.shown.done || all.shown.error !== '') && (one.shown.done || one.shown.error !== ''), 30_000);
      assert.equal(all.shown.error, '');
      assert.equal(one.shown.error, '');
      const expectedOne = expectedAcs(node, both(), one.shown.activeAtOffset!, template);
      assert.deepEqual([...one.shown.templates], [template]);
      assert.equal(one.shown.contracts, expectedOne.ids.length);
      assert.deepEqual(one.shown.firstIds, expectedOne.ids.slice(0, 20));
      assert.equal(all.shown.contracts, expectedAcs(node, both(), all.shown.activeAtOffset!).ids.length);
      assert.ok(all.shown.templates.size > 5, String(all.shown.templates.size));
      all.webviewPanel.dispose();
      one.webviewPanel.dispose();
    });

    for (const user of ['reader', 'alice'])
      it(`as ${user} (no parties configured), a template's table opened while every contract's table still reads shows its own rows; the first read of a new node is whole`, async () => {
        const big = await FakeLedgerNode.start({ version, bigTransactionEvents: 1, generated: { contracts: 20_000, listLimit: 200, maxPageSize: 200 } });
        const bigName = `${name} big ${user}`;
        try {
          await vscode.commands.executeCommand('cantonLens.addNode', { name: bigName, url: big.url });
          await vscode.commands.executeCommand('cantonLens.setToken', bigName, big.mintToken(user));
          const all = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', bigName);
          await until('the first page of every contract', () => all.shown.pages > 0 || all.shown.error !== '', 30_000);
          const template = [...all.shown.templates][1];
          const one = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', bigName, null, template);
          const readingAll = !all.shown.done;
          await until('both read', () => (all.shown.done || all.shown.error !== '') && (one.shown.done || one.shown.error !== ''), 60_000);
          assert.equal(one.shown.error, '');
          const parties = [...(one.shown.parties ?? [])];
          assert.deepEqual([...one.shown.templates], [template], `readingAll=${readingAll}`);
          assert.equal(one.shown.contracts, expectedAcs(big, parties, one.shown.activeAtOffset!, template).ids.length);
          // The first read of a node just added (its version not known yet) is whole: on 3.4 over the channel, never the list.
          assert.equal(all.shown.error, '');
          assert.equal(all.shown.notice, '');
          assert.equal(all.shown.contracts, expectedAcs(big, parties, all.shown.activeAtOffset!).ids.length);
          assert.equal(big.requests.filter((r) => r.path === '/v2/state/active-contracts').length, 0, 'no HTTP list');
          all.webviewPanel.dispose();
          one.webviewPanel.dispose();
        } finally {
          await vscode.commands.executeCommand('cantonLens.removeNode', bigName);
          await big.close();
        }
      });

    it('counts the active contracts in the tree by package, at an offset', async () => {
      const api = await cantonLens();
      api.browse.tree.refresh(name);
      await renderTree(api, 3);
      const root = await until(
        'the counts',
        async () => {
          const n = find(await renderTree(api, 3), name);
          const acs = n && find(n.children, 'Active Contracts');
          return acs && /at offset/.test(acs.description) ? acs : undefined;
        },
        30_000,
      );
      const [total, activeAt] = root.description.match(/[\d,]+/g)!.map((x) => Number(x.replace(/,/g, '')));
      const expected = expectedAcs(node, both(), activeAt);
      assert.equal(total, expected.ids.length, root.description);
      const tree = find(await renderTree(api, 4), name)!;
      const acs = find(tree.children, 'Active Contracts')!;
      assert.equal(acs.children[0].label, 'Show All in a Table');
      for (const [pkg, count] of expected.byPackage) {
        const row = find(acs.children, pkg);
        assert.ok(row, `a row for ${pkg}`);
        assert.equal(row.description, count.toLocaleString('en-US'), pkg);
        assert.ok(row.children.length > 0, 'modules under the package');
      }
    });

    it('Follow Updates shows updates as they are generated; pause holds, resume goes on; a node restart loses and repeats nothing', async () => {
      const panel = await vscode.commands.executeCommand<UpdatesPanel>('cantonLens.followUpdates', name);
      await until('Follow Updates starts', () => panel.shown.state === 'following' || undefined, 15_000);
      const start = panel.shown.start!;
      assert.equal(start, node.generated.ledgerEnd(), 'from the ledger end');
      node.generated.setRate(50);
      await until('new updates shown', () => panel.shown.rows > 5 || undefined, 15_000);

      panel.pause();
      assert.equal(panel.shown.state, 'paused');
      const held = { rows: panel.shown.rows, position: panel.shown.position! };
      // The node goes on committing; the paused panel neither asks nor shows.
      await until('the node commits past the paused position', () => node.generated.ledgerEnd() > held.position + 30 || undefined, 15_000);
      assert.deepEqual({ rows: panel.shown.rows, position: panel.shown.position }, held, 'nothing arrives while paused');
      panel.resume();
      await until('it goes on after resume', () => panel.shown.rows > held.rows + 5 || undefined, 15_000);

      // A restart of the node: the same generated ledger on the same port, offsets kept.
      const g = node.generated;
      const port = Number(new URL(node.url).port);
      await node.close();
      await until('Follow Updates notices the node is gone', () => panel.shown.reconnects > 0 || undefined, 20_000);
      assert.equal(panel.shown.state, 'reconnecting');
      const endAtRestart = g.ledgerEnd();
      node = await FakeLedgerNode.start({ version, port, bigTransactionEvents: 10, generated: g });
      await until('updates committed after the restart are shown', () => (panel.shown.position ?? 0) > endAtRestart + 5 || undefined, 20_000);
      g.setRate(0);
      const end = g.ledgerEnd();
      await until('Follow Updates catches up with the ledger end', () => panel.shown.position === end || undefined, 20_000);
      assert.equal(panel.shown.state, 'following');
      assert.equal(panel.shown.duplicates, 0);
      const expected = expectedTail(node, both(), start, end);
      assert.ok(expected.rows > 20, String(expected.rows));
      assert.deepEqual({ rows: panel.shown.rows, offsetSum: panel.shown.offsetSum }, expected, 'every update Alice and Bob see, once');
      panel.webviewPanel.dispose();
    });

    it('a start offset the node has pruned stops and offers the earliest offset, which then follows', async () => {
      assert.equal(node.prunedUpTo, 10);
      const panel = await vscode.commands.executeCommand<UpdatesPanel>('cantonLens.followUpdates', name, undefined, undefined, 3);
      await until('Follow Updates stops', () => panel.shown.state === 'stopped' || undefined, 15_000);
      assert.match(panel.shown.message, /pruned the updates before offset 10/);
      assert.equal(panel.shown.rows, 0);
      const offer = panel.shown.offers.find((o) => o.action === 'startAt');
      assert.deepEqual(offer && { offset: offer.offset, label: offer.label }, { offset: 10, label: 'Start at the Earliest Offset (10)' });
      await panel.start(offer!.offset);
      const end = node.generated.ledgerEnd();
      await until('it follows from the earliest offset to the ledger end', () => panel.shown.position === end || undefined, 30_000);
      assert.equal(panel.shown.state, 'following');
      assert.deepEqual({ rows: panel.shown.rows, offsetSum: panel.shown.offsetSum }, expectedTail(node, both(), 10, end));
      panel.webviewPanel.dispose();
    });

    it('a start offset beyond the ledger end stops and offers the ledger end, which then follows', async () => {
      const end = node.generated.ledgerEnd();
      const panel = await vscode.commands.executeCommand<UpdatesPanel>('cantonLens.followUpdates', name, [bob()], undefined, end + 1000);
      await until('Follow Updates stops', () => panel.shown.state === 'stopped' || undefined, 15_000);
      assert.match(panel.shown.message, /after the ledger end/);
      assert.equal(panel.shown.rows, 0);
      const offer = panel.shown.offers.find((o) => o.action === 'startAt');
      assert.deepEqual(offer && { offset: offer.offset, label: offer.label }, { offset: undefined, label: 'Start at the Ledger End' });
      await panel.start(offer!.offset);
      assert.equal(panel.shown.start, end);
      node.generated.advance(40);
      await until('the new updates are shown', () => panel.shown.position === end + 40 || undefined, 20_000);
      assert.deepEqual({ rows: panel.shown.rows, offsetSum: panel.shown.offsetSum }, expectedTail(node, [bob()], end, end + 40), "Bob's updates only");
      assert.ok(expectedTail(node, both(), end, end + 40).rows > panel.shown.rows, 'fewer than Alice and Bob see');
      panel.webviewPanel.dispose();
    });

    it('reads a 3.4 node over the websocket channel (no list limit), over HTTP where the upgrade is refused, saying so; a node that pages, in pages', async () => {
      const upgrades = () => node.channels.upgrades.filter((u) => u.url.startsWith('/v2/state/active-contracts')).length;
      const lists = () => node.requests.filter((r) => r.path === '/v2/state/active-contracts').length;
      const [upgradesBefore, listsBefore] = [upgrades(), lists()];
      const acs = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, [alice()]);
      await until('every page read', () => acs.shown.done || acs.shown.error !== '', 30_000);
      assert.equal(acs.shown.error, '');
      assert.equal(acs.shown.contracts, expectedAcs(node, [alice()], acs.shown.activeAtOffset!).ids.length);
      acs.webviewPanel.dispose();
      if (version !== '3.4') {
        assert.equal(upgrades(), upgradesBefore, 'a node that pages is read in pages');
        return;
      }
      assert.equal(upgrades(), upgradesBefore + 1, 'read on the channel');
      assert.equal(lists(), listsBefore, 'no HTTP list');
      const upgrade = node.channels.upgrades.at(-1)!;
      assert.ok(upgrade.protocols.startsWith('jwt.token.') && !upgrade.url.includes('token'), 'the token in the subprotocol, never the URL');
      node.channels.faults.refuseUpgrades = 502;
      try {
        const again = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', name, [bob()]);
        await until('every page read', () => again.shown.done || again.shown.error !== '', 30_000);
        assert.equal(again.shown.error, '');
        assert.match(again.shown.notice, /refused[\s\S]*Reading over HTTP instead/);
        assert.equal(again.shown.contracts, expectedAcs(node, [bob()], again.shown.activeAtOffset!).ids.length);
        assert.ok(lists() > listsBefore, 'read over HTTP');
        again.webviewPanel.dispose();
      } finally {
        node.channels.faults.refuseUpgrades = undefined;
      }
    });

    it("with no parties configured, an ordinary user's token browses as its own parties: the table, the counts and Follow Updates", async () => {
      const plain = `${name} (rights)`;
      await vscode.commands.executeCommand('cantonLens.addNode', { name: plain, url: node.url });
      await vscode.commands.executeCommand('cantonLens.setToken', plain, node.mintToken('alice'));
      try {
        const acs = await vscode.commands.executeCommand<AcsPanel>('cantonLens.showActiveContracts', plain);
        await until('every page read', () => acs.shown.done || acs.shown.error !== '', 30_000);
        assert.equal(acs.shown.error, '', 'not refused (a read as any party is 403 for alice)');
        assert.deepEqual(acs.shown.parties, [alice()]);
        assert.equal(acs.shown.contracts, expectedAcs(node, [alice()], acs.shown.activeAtOffset!).ids.length);
        acs.webviewPanel.dispose();

        const api = await cantonLens();
        api.browse.tree.refresh(plain);
        const root = await until(
          'the counts',
          async () => {
            const n = find(await renderTree(api, 3), plain);
            const row = n && find(n.children, 'Active Contracts');
            return row && /at offset/.test(row.description) ? row : undefined;
          },
          30_000,
        );
        const [total, activeAt] = root.description.match(/[\d,]+/g)!.map((x) => Number(x.replace(/,/g, '')));
        assert.equal(total, expectedAcs(node, [alice()], activeAt).ids.length, root.description);

        const tail = await vscode.commands.executeCommand<UpdatesPanel>('cantonLens.followUpdates', plain);
        await until('Follow Updates starts', () => tail.shown.state === 'following' || undefined, 15_000);
        const start = tail.shown.start!;
        node.generated.advance(30);
        const end = node.generated.ledgerEnd();
        await until('the new updates are shown', () => tail.shown.position === end || undefined, 20_000);
        assert.equal(tail.shown.state, 'following');
        assert.deepEqual({ rows: tail.shown.rows, offsetSum: tail.shown.offsetSum }, expectedTail(node, [alice()], start, end), "Alice's updates");
        // Another token: the rows read as Alice go (the page is kept while hidden), and it follows on as Bob.
        await vscode.commands.executeCommand('cantonLens.setToken', plain, node.mintToken('bob'));
        await until('Follow Updates follows on as the new token', () => (tail.shown.state === 'following' && tail.shown.rows === 0) || undefined, 15_000);
        assert.deepEqual(tail.recent, [], "Alice's rows are not offered as points any more");
        const again = tail.shown.start!;
        node.generated.advance(30);
        const later = node.generated.ledgerEnd();
        await until("Bob's new updates are shown", () => tail.shown.position === later || undefined, 20_000);
        assert.deepEqual({ rows: tail.shown.rows, offsetSum: tail.shown.offsetSum }, expectedTail(node, [bob()], again, later), "Bob's updates");
        tail.webviewPanel.dispose();
      } finally {
        await vscode.commands.executeCommand('cantonLens.removeNode', plain);
      }
    });
  });
}
