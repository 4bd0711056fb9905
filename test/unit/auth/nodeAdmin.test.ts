// Administration's pure parts: ids checked by Canton's rules per version, what a change will send,
// the canton-setup.json file read and planned (what exists stays, what is missing is created, a
// second plan over the result is empty).
import * as assert from 'node:assert/strict';
import { planSetup, readSetup, rightFor, type CantonSetup, type NodeState } from '../../../src/auth/cantonSetup';
import {
  adminVersion,
  allocatePartyChange,
  checkPartyHint,
  checkUserId,
  createUserChange,
  describeChange,
  deleteUserChange,
  grantRightsChange,
  updateUserChange,
  partyRight,
  revokeRightsChange,
  type AdminVersion,
} from '../../../src/auth/nodeAdmin';

const NS = `1220${'ab'.repeat(32)}`;
const VERSIONS: AdminVersion[] = ['3.4', '3.5', '3.6'];

describe('administration: ids by Canton’s rules', () => {
  for (const v of VERSIONS)
    it(`user ids and party hints on ${v}`, () => {
      assert.equal(checkUserId('alice', v), undefined);
      assert.equal(checkUserId("a@b^c$d.e!f`g-h#i+j'k~l_m|n:o(p)", v), undefined);
      assert.equal(checkUserId('x'.repeat(128), v), undefined);
      assert.match(checkUserId('x'.repeat(129), v) ?? '', /at most 128/);
      assert.match(checkUserId('', v) ?? '', /empty/);
      assert.match(checkUserId('a/b', v) ?? '', /"\/" \(U\+002F\)/);
      // Control and bidi characters are named by code point, never shown.
      assert.match(checkUserId('a\u202Eb', v) ?? '', /U\+202E/);
      assert.doesNotMatch(checkUserId('a\u202Eb', v) ?? '', /\u202E/);
      assert.equal(checkPartyHint('Carol:-_ x9', v), undefined);
      assert.match(checkPartyHint('a::b', v) ?? '', /::/);
      assert.match(checkPartyHint('x'.repeat(186), v) ?? '', /185/);
      assert.equal(checkPartyHint('x'.repeat(185), v), undefined);
      assert.match(checkPartyHint('bad.hint', v) ?? '', /"\."/);
    });

  it('takes the node version’s rules, the newest for an unknown one', () => {
    assert.equal(adminVersion({ major: 3, minor: 4 }), '3.4');
    assert.equal(adminVersion({ major: 3, minor: 5 }), '3.5');
    assert.equal(adminVersion(undefined), '3.6');
  });
});

describe('administration: what a change will send', () => {
  it('says each effect, then the request itself', () => {
    const bob = `Bob::${NS}`;
    const alloc = allocatePartyChange('Shop', 'da1::x');
    assert.deepEqual(alloc.body, { partyIdHint: 'Shop', synchronizerId: 'da1::x' });
    assert.match(describeChange(alloc), /Allocate a new party with the hint "Shop" on da1::x\.\n\nPOST \/v2\/parties\n\{/);
    assert.deepEqual(allocatePartyChange('Shop').body, { partyIdHint: 'Shop' });
    const create = createUserChange('shop', bob, [partyRight('CanActAs', bob)]);
    assert.deepEqual(create.summary, [`Create the user "shop" with the primary party ${bob}.`, `Grant it CanActAs ${bob}.`]);
    assert.deepEqual(create.body?.rights, [{ kind: { CanActAs: { value: { party: bob } } } }]);
    const deactivate = updateUserChange('shop', { isDeactivated: true });
    assert.deepEqual(
      [deactivate.method, deactivate.path, deactivate.body],
      ['PATCH', '/v2/users/shop', { user: { id: 'shop', isDeactivated: true }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } }],
    );
    assert.deepEqual(updateUserChange('shop', { primaryParty: bob }).body?.updateMask, { paths: ['primary_party'], unknownFields: { fields: {} } });
    const del = deleteUserChange('a/b');
    assert.deepEqual([del.method, del.path, del.body], ['DELETE', '/v2/users/a%2Fb', undefined]);
    assert.equal(describeChange(del), 'Delete the user "a/b" and all its rights.\n\nDELETE /v2/users/a%2Fb');
    const grant = grantRightsChange('a/b', [partyRight('CanReadAs', bob)]);
    assert.equal(grant.path, '/v2/users/a%2Fb/rights');
    assert.equal(grant.method, 'POST');
    assert.deepEqual(grant.body, { userId: 'a/b', rights: [{ kind: { CanReadAs: { value: { party: bob } } } }] });
    const revoke = revokeRightsChange('alice', [partyRight('CanReadAs', bob)]);
    assert.equal(revoke.method, 'PATCH');
    assert.deepEqual(revoke.summary, [`Revoke CanReadAs ${bob} from the user "alice".`]);
  });
});

describe('administration: canton-setup.json', () => {
  const file = JSON.stringify({
    parties: ['Alice', 'Shop'],
    users: [
      { id: 'shop-backend', primaryParty: 'Shop', actAs: ['Shop'], readAs: ['Alice'] },
      { id: 'alice', actAs: ['Alice'], readAs: ['Shop'] },
    ],
  });

  it('reads the parties and users, and lists every problem of a bad file', () => {
    const read = readSetup(file, '3.5');
    assert.ok(read.ok);
    assert.deepEqual(read.setup.parties, ['Alice', 'Shop']);
    assert.deepEqual(read.setup.users[0], { id: 'shop-backend', primaryParty: 'Shop', actAs: ['Shop'], readAs: ['Alice'], executeAs: [] });
    const bad = readSetup(JSON.stringify({ parties: ['a::b', 7], users: [{ id: 'a/b', actAs: 'Shop' }, { id: 'x' }, { id: 'x' }] }), '3.5');
    assert.ok(!bad.ok);
    assert.equal(bad.problems.length, 4, bad.problems.join('\n'));
    assert.ok(!readSetup('{', '3.4').ok);
  });

  it('plans only what is missing: existing parties and users stay, missing rights are granted', () => {
    const read = readSetup(file, '3.6');
    assert.ok(read.ok);
    const node: NodeState = {
      namespace: NS,
      parties: [`Alice::${NS}`],
      users: new Map([['alice', { rights: [rightFor({ kind: 'CanActAs', hint: 'Alice' }, NS)] }]]),
    };
    const plan = planSetup(read.setup, node);
    assert.deepEqual(plan.steps, [
      { kind: 'allocate', hint: 'Shop' },
      {
        kind: 'createUser',
        id: 'shop-backend',
        primaryHint: 'Shop',
        rights: [
          { kind: 'CanActAs', hint: 'Shop' },
          { kind: 'CanReadAs', hint: 'Alice' },
        ],
      },
      { kind: 'grant', id: 'alice', rights: [{ kind: 'CanReadAs', hint: 'Shop' }] },
    ]);
    assert.deepEqual(plan.existingParties, ['Alice']);
    assert.deepEqual(plan.existingUsers, ['alice']);
    // The node after the plan: nothing left to do.
    const after: NodeState = {
      namespace: NS,
      parties: [`Alice::${NS}`, `Shop::${NS}`],
      users: new Map(
        read.setup.users.map((u) => [
          u.id,
          {
            rights: [...u.actAs.map((hint) => rightFor({ kind: 'CanActAs', hint }, NS)), ...u.readAs.map((hint) => rightFor({ kind: 'CanReadAs', hint }, NS))],
          },
        ]),
      ),
    };
    assert.deepEqual(planSetup(read.setup, after).steps, []);
  });

  it('names hints that neither the file nor the node has', () => {
    const setup: CantonSetup = { parties: [], users: [{ id: 'u', actAs: ['Ghost'], readAs: [], executeAs: [] }] };
    assert.deepEqual(planSetup(setup, { namespace: NS, parties: [], users: new Map() }).unknownHints, ['Ghost']);
  });
});
