// The Administration view on 3.4, 3.5 and 3.6: a ParticipantAdmin's token sees the users (rights by
// party, deactivated), parties and identity providers, filtered; an IdentityProviderAdmin's sees its
// provider's users and is told identity providers need ParticipantAdmin; any other token one row.
// The edits from it: a user's annotations (hostile text escaped in the tooltip; an edit that changes
// nothing sends nothing), a party's local metadata, a user moved to another identity provider, and
// the move refused (403) for an IdentityProviderAdmin; a package vetted and unvetted, an unknown one refused.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PARTNER_PACKAGE } from '../../../fake-ledger/src/partnerPackage';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { AdminOutcome } from '../../../src/commands/adminCommands';
import type { AdminElement, AdminTreeProvider } from '../../../src/views/adminTree';
import { cantonLens, resetNodes, until, useFakeNode } from './testApi';

const label = (view: AdminTreeProvider, e: AdminElement) => {
  const l = view.getTreeItem(e).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
};

describe('Administration view', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  before(resetNodes);
  after(async () => {
    await resetNodes();
    await Promise.all(fakes.map((f) => f.close()));
  });

  const run = (command: string, answers: Record<string, unknown>) => vscode.commands.executeCommand<AdminOutcome>(command, answers);

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: shows users, parties and identity providers by the token's rights, and edits annotations, metadata and identity providers`, async () => {
      const api = await cantonLens();
      const view = api.adminView;
      const fake = await FakeLedgerNode.start({ version, singleSynchronizer: true });
      fakes.push(fake);
      const name = `adminview-${version}`;
      await useFakeNode(api, fake, name, 'participant_admin');
      // POST /v2/package-vetting/list only reads.
      const writes = () => fake.requests.filter((r) => r.method !== 'GET' && !r.path.endsWith('/list')).map((r) => `${r.method} ${r.path}`);
      const labels = async (e?: AdminElement) => (await view.getChildren(e)).map((c) => label(view, c));
      const section = async (title: string) => (await view.getChildren()).find((e) => label(view, e) === title)!;

      view.refresh();
      await until('the sections', async () => ((await labels()).join() === 'Users,Parties,Identity providers' ? true : undefined));
      const users = await view.getChildren(await section('Users'));
      const byId = (id: string) => users.find((u) => label(view, u) === id)!;
      assert.ok(byId('alice') && byId('auditor'));
      assert.equal(byId('acme_app'), undefined, "another identity provider's user is not listed (the JSON layer asks for the default one's)");
      assert.match(String(view.getTreeItem(byId('former')).description), /deactivated/);
      assert.equal(view.getTreeItem(byId('former')).contextValue, 'cantonLens.admin.user.deactivated');
      const auditor = (await view.getChildren(byId('auditor'))).map((d) => `${label(view, d)}: ${String(view.getTreeItem(d).description)}`);
      assert.ok(
        auditor.some((l) => /^Alice::.*: CanReadAs$/.test(l)),
        auditor.join('\n'),
      );
      assert.ok(
        auditor.some((l) => /^Bob::.*: CanReadAs$/.test(l)),
        auditor.join('\n'),
      );
      const parties = await view.getChildren(await section('Parties'));
      assert.ok(parties.some((p) => label(view, p).startsWith('Alice::') && view.getTreeItem(p).description === 'hosted here'));
      assert.deepEqual(await labels(await section('Identity providers')), ['acme-idp']);

      view.setFilter('aud');
      assert.deepEqual(await labels(await section('Users')), ['auditor']);
      view.setFilter('no-such-user');
      assert.deepEqual(await labels(await section('Users')), ['None matches the filter']);
      view.setFilter('');

      // A user's annotations: hostile text is escaped in the tooltip; an edit that changes nothing sends nothing.
      const added = await run('cantonLens.editUserAnnotations', { node: name, userId: 'alice', annotations: 'team=ops; note=**bold** <b>x</b>' });
      assert.equal(added.message, `The annotations of "alice" on "${name}": added note, added team.`);
      const alice = (await view.getChildren(await section('Users'))).find((u) => label(view, u) === 'alice')!;
      const tip = view.getTreeItem(alice).tooltip as vscode.MarkdownString;
      assert.ok(tip.value.includes('\\*\\*bold\\*\\* \\<b\\>x\\</b\\>'), tip.value);
      assert.ok(!tip.isTrusted);
      const removed = await run('cantonLens.editUserAnnotations', { node: name, userId: 'alice', annotations: 'team=ops' });
      assert.match(removed.message ?? '', /removed note\.$/);
      fake.requests.length = 0;
      const same = await run('cantonLens.editUserAnnotations', { node: name, userId: 'alice', annotations: 'team=ops' });
      assert.ok(!same.done);
      assert.match(same.message ?? '', /nothing was sent/);
      assert.deepEqual(writes(), []);
      const badKey = await run('cantonLens.editUserAnnotations', { node: name, userId: 'alice', annotations: '-x=1' });
      assert.match(badKey.message ?? '', /not one Canton accepts/);
      assert.deepEqual(writes(), []);

      // A party's local metadata, read back.
      const meta = await run('cantonLens.editPartyMetadata', { node: name, party: fake.ledger.parties.Alice, annotations: 'desk=fx' });
      assert.match(meta.done ? meta.message : '', /^The local metadata of Alice::.* added desk\.$/);

      // A user moved to another identity provider: no longer among the default provider's users.
      fake.requests.length = 0;
      const moved = await run('cantonLens.moveUserIdentityProvider', { node: name, userId: 'bob', identityProviderId: 'acme-idp' });
      assert.equal(moved.message, '"bob" is now in acme-idp.');
      assert.deepEqual(writes(), ['PATCH /v2/users/bob/identity-provider-id'], 'sent once');
      await until('bob gone from the view', async () => ((await labels(await section('Users'))).includes('bob') ? undefined : true));
      // And back, as from his row, which knows his provider: Canton finds him only when it is named.
      const back = await run('cantonLens.moveUserIdentityProvider', { node: name, userId: 'bob', userIdentityProviderId: 'acme-idp', identityProviderId: '' });
      assert.equal(back.message, '"bob" is now in the default identity provider.');
      const again = await run('cantonLens.moveUserIdentityProvider', { node: name, userId: 'bob', identityProviderId: 'acme-idp' });
      assert.equal(again.message, '"bob" is now in acme-idp.');
      await until('bob gone from the view', async () => ((await labels(await section('Users'))).includes('bob') ? undefined : true));

      // A package vetted, then unvetted, on the node's synchronizer: the templates it affects are named; an unknown one is refused.
      fake.requests.length = 0;
      const vetted = await run('cantonLens.vetPackage', { node: name, packageId: PARTNER_PACKAGE });
      assert.match(
        vetted.done ? vetted.message : '',
        /^canton-lens-partner-app is vetted on .+; \d+ packages are vetted there\. This participant then accepts transactions that use its templates: \w/,
      );
      assert.deepEqual(writes(), ['POST /v2/package-vetting/update'], 'sent once');
      const unvetted = await run('cantonLens.unvetPackage', { node: name, packageId: PARTNER_PACKAGE });
      assert.match(unvetted.done ? unvetted.message : '', /^canton-lens-partner-app is not vetted on .+ refuses transactions that use its templates/);
      const unknownPackage = await run('cantonLens.vetPackage', { node: name, packageId: 'f'.repeat(64) });
      assert.ok(!unknownPackage.done);
      assert.match(unknownPackage.message ?? '', /refused by .*: UNRESOLVED_VETTING_REFERENCE\. .*does not match any package/);

      // An IdentityProviderAdmin: its provider's users; identity providers need ParticipantAdmin; moving is refused.
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('idp_admin'));
      view.refresh();
      await until('the IdP admin’s users', async () => ((await labels(await section('Users'))).join() === 'acme_app,bob,idp_admin' ? true : undefined));
      assert.deepEqual(await labels(await section('Identity providers')), ['Needs ParticipantAdmin']);
      fake.requests.length = 0;
      const denied = await run('cantonLens.moveUserIdentityProvider', { node: name, userId: 'acme_app', identityProviderId: '' });
      assert.ok(!denied.done);
      assert.match(denied.message ?? '', /refused by .*403.*needs ParticipantAdmin/);
      assert.deepEqual(writes(), ['PATCH /v2/users/acme_app/identity-provider-id']);
      const noVetting = await run('cantonLens.vetPackage', { node: name, packageId: PARTNER_PACKAGE });
      assert.match(noVetting.message ?? '', /403.*needs ParticipantAdmin/);

      // A token that may not administer: one row, saying which right.
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('alice'));
      view.refresh();
      await until('one row', async () => ((await labels()).join() === 'Needs ParticipantAdmin or IdentityProviderAdmin' ? true : undefined));
      const [row] = await view.getChildren();
      assert.match(view.getTreeItem(row).tooltip as string, /"alice" holds no administration right/);
    });
  }
});
