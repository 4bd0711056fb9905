// Node administration from the editor on 3.4, 3.5 and 3.6: the workspace's canton-setup.json brought
// to a loopback node twice (the second run sends no write), a party allocated and a user created and
// read back, a right granted then revoked twice (the second changes nothing), and the refusals: an
// existing user id (USER_ALREADY_EXISTS) and a token that may not administer (403).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode, type FakeVersion } from '../../../fake-ledger/src/testing';
import type { AdminOutcome } from '../../../src/commands/adminCommands';
import { cantonLens, resetNodes, until } from './testApi';

describe('Node administration', function () {
  this.timeout(60_000);
  const fakes: FakeLedgerNode[] = [];
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const setupFile = () => vscode.Uri.joinPath(folder(), 'admin-test', 'canton-setup.json');

  before(async () => {
    await resetNodes();
    await vscode.workspace.fs.writeFile(
      setupFile(),
      Buffer.from(JSON.stringify({ parties: ['Alice', 'Shop'], users: [{ id: 'shop-backend', primaryParty: 'Shop', actAs: ['Shop'], readAs: ['Alice'] }] })),
    );
  });
  after(async () => {
    await resetNodes();
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'admin-test'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await Promise.all(fakes.map((f) => f.close()));
  });

  const run = (command: string, answers: Record<string, unknown>) => vscode.commands.executeCommand<AdminOutcome>(command, answers);

  for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
    it(`${version}: sets up parties and users twice (the second run changes nothing), allocates, creates, grants and revokes, explains refusals`, async () => {
      const api = await cantonLens();
      const fake = await FakeLedgerNode.start({ version, singleSynchronizer: true });
      fakes.push(fake);
      const name = `admin-${version}`;
      await vscode.workspace.getConfiguration('cantonLens').update('nodes', [{ name, url: fake.url }], vscode.ConfigurationTarget.Global);
      await until('the node', () => api.nodes.find(name));
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('participant_admin'));
      const writes = () => fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

      const first = await run('cantonLens.setUpPartiesAndUsers', { node: name, setupFile: setupFile() });
      assert.ok(first.done, first.message);
      assert.match(first.message, /allocated Shop::1220[0-9a-f]{64}; created user shop-backend\. Already there: Alice\./);
      assert.deepEqual(writes(), ['POST /v2/parties', 'POST /v2/users']);
      fake.requests.length = 0;
      const second = await run('cantonLens.setUpPartiesAndUsers', { node: name, setupFile: setupFile() });
      assert.ok(second.done);
      assert.match(second.message, /already has everything canton-setup\.json lists; nothing was changed/);
      assert.deepEqual(writes(), [], 'the second run sends no write');

      const allocated = await run('cantonLens.allocateParty', { node: name, hint: 'Warehouse' });
      assert.ok(allocated.done, allocated.message);
      assert.match(allocated.message, /^Allocated Warehouse::1220[0-9a-f]{64} on "admin-/);
      const again = await run('cantonLens.allocateParty', { node: name, hint: 'Warehouse' });
      assert.ok(!again.done);
      assert.match(again.message ?? '', /refused by "admin-.*": INVALID_ARGUMENT\. .*already allocated/);
      // A hint Canton would refuse is not sent.
      fake.requests.length = 0;
      const bad = await run('cantonLens.allocateParty', { node: name, hint: 'a::b' });
      assert.ok(!bad.done);
      assert.deepEqual(writes(), []);

      const bob = fake.ledger.parties.Bob;
      const created = await run('cantonLens.createUser', { node: name, userId: 'bob-ui', party: bob });
      assert.ok(created.done, created.message);
      assert.ok(created.message.includes(`primary party: ${bob}; rights: CanActAs ${bob}`), created.message);
      const exists = await run('cantonLens.createUser', { node: name, userId: 'bob-ui', party: bob });
      assert.match(exists.message ?? '', /USER_ALREADY_EXISTS/);

      const granted = await run('cantonLens.grantRight', { node: name, userId: 'alice', right: 'CanReadAs', party: bob });
      assert.match(granted.done ? granted.message : '', /^Granted CanReadAs Bob::.* to "alice"; it now has 2 rights\.$/);
      const revoked = await run('cantonLens.revokeRight', { node: name, userId: 'alice', right: 'CanReadAs', party: bob });
      assert.match(revoked.done ? revoked.message : '', /^Revoked CanReadAs/);
      const nothing = await run('cantonLens.revokeRight', { node: name, userId: 'alice', right: 'CanReadAs', party: bob });
      assert.match(nothing.done ? nothing.message : '', /did not have CanReadAs .*: nothing changed/);

      // A user's primary party, deactivated and active again, then deleted once its id is typed.
      const primary = await run('cantonLens.setPrimaryParty', { node: name, userId: 'bob-ui', party: fake.ledger.parties.Alice });
      assert.match(primary.message ?? '', /^The primary party of "bob-ui" is now Alice::1220/);
      const off = await run('cantonLens.deactivateUser', { node: name, userId: 'bob-ui' });
      assert.match(off.done ? off.message : '', /^"bob-ui" is deactivated/);
      const on = await run('cantonLens.reactivateUser', { node: name, userId: 'bob-ui' });
      assert.match(on.done ? on.message : '', /^"bob-ui" is active again/);
      const self = await run('cantonLens.deactivateUser', { node: name, userId: 'participant_admin' });
      assert.ok(!self.done, 'the token cannot deactivate its own user');
      assert.match(self.message ?? '', /cannot self-deactivate/);
      fake.requests.length = 0;
      const mistyped = await run('cantonLens.deleteUser', { node: name, userId: 'bob-ui', typed: 'bob' });
      assert.ok(!mistyped.done);
      assert.deepEqual(writes(), [], 'nothing sent until the id is typed in full');
      const deleted = await run('cantonLens.deleteUser', { node: name, userId: 'bob-ui', typed: 'bob-ui' });
      assert.match(deleted.done ? deleted.message : '', /^Deleted the user "bob-ui"/);
      assert.deepEqual(writes(), ['DELETE /v2/users/bob-ui'], 'sent once');

      // A token that may not administer: the node's 403, and what the token's user needs.
      await vscode.commands.executeCommand('cantonLens.setToken', name, fake.mintToken('alice'));
      const denied = await run('cantonLens.allocateParty', { node: name, hint: 'ByAlice' });
      assert.ok(!denied.done);
      assert.match(denied.message ?? '', /needs ParticipantAdmin/);
    });
  }
});
