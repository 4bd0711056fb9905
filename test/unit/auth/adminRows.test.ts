// The Administration view's rows: who may administer, users and parties read from hostile JSON,
// rights grouped by party, the filter, and annotations edited as text and turned into the change
// UpdateUser / UpdatePartyDetails expect (a removed key sent empty).
import * as assert from 'node:assert/strict';
import {
  adminAccess,
  annotationKeyOk,
  annotationsChanged,
  annotationsDelta,
  annotationsText,
  asText,
  partyDetails,
  partyLine,
  parseAnnotations,
  partyMatches,
  readAdminParty,
  readAdminUser,
  userDetails,
  userLine,
  userMatches,
} from '../../../src/auth/adminRows';
import { moveUserChange, partyMetadataChange, userAnnotationsChange, vettingChange } from '../../../src/auth/nodeAdmin';
import { parseRights, type LearnedAccess } from '../../../src/auth/userRights';

const NS = `1220${'ab'.repeat(32)}`;
const known = (rights: string[]): LearnedAccess => ({
  state: 'known',
  user: { id: 'someone', isDeactivated: false },
  rights: parseRights({ rights: rights.map((r) => ({ kind: { [r]: { value: {} } } })) }),
});

describe('administration view: rows', () => {
  it('tells who may administer, and what a token without the right needs', () => {
    assert.deepEqual(adminAccess(known(['ParticipantAdmin'])), { may: 'participantAdmin' });
    assert.deepEqual(adminAccess(known(['IdentityProviderAdmin'])), { may: 'identityProviderAdmin' });
    const no = adminAccess(known(['CanReadAsAnyParty']));
    assert.equal(no.may, false);
    assert.match(
      no.may === false ? no.why : '',
      /"someone" holds no administration right\. .*ParticipantAdmin, or IdentityProviderAdmin within its identity provider/,
    );
    assert.match((adminAccess({ state: 'refused', status: 401, reason: 'expired' }) as { why: string }).why, /refused the token \(401\): expired/);
    assert.equal(adminAccess(undefined).may, false);
  });

  it('reads users and parties defensively, hostile text kept as text', () => {
    assert.equal(readAdminUser({ id: 42 }), undefined);
    assert.equal(readAdminParty(null), undefined);
    const u = readAdminUser({
      id: 'evil\u202e\nname',
      primaryParty: `Alice::${NS}`,
      isDeactivated: true,
      identityProviderId: 'acme-idp',
      metadata: { resourceVersion: '3', annotations: { 'ex.com/owner': '<img src=x>', bad: 7 } },
    })!;
    assert.deepEqual(u.annotations, { 'ex.com/owner': '<img src=x>' }, 'a value that is not text is dropped');
    assert.equal(u.resourceVersion, '3');
    const line = userLine(u);
    assert.equal(line.label, 'evil<U+202E><U+000A>name', 'bidi overrides and line breaks are shown as code points');
    assert.match(line.description, /^Alice::1220ab… · deactivated$/);
    assert.equal(asText('a\u0000b'), 'a<U+0000>b');
  });

  it('groups a user’s rights by party, then any-party and admin rights, then annotations', () => {
    const u = readAdminUser({ id: 'app', primaryParty: '', metadata: { annotations: { z: '1', a: '2' } } })!;
    const rights = parseRights({
      rights: [
        { kind: { CanActAs: { value: { party: `Alice::${NS}` } } } },
        { kind: { CanReadAs: { value: { party: `Bob::${NS}` } } } },
        { kind: { CanReadAs: { value: { party: `Alice::${NS}` } } } },
        { kind: { CanReadAsAnyParty: { value: {} } } },
        { kind: { IdentityProviderAdmin: { value: {} } } },
      ],
    });
    const rows = userDetails(u, rights).map((d) => `${d.kind}|${d.label}|${d.value}`);
    assert.deepEqual(rows, [
      'primaryParty|Primary party|—',
      'identityProvider|Identity provider|the default identity provider',
      'status|Status|active',
      'rights|Alice::1220ab…|CanActAs, CanReadAs',
      'rights|Bob::1220ab…|CanReadAs',
      'anyParty|Any party|CanReadAsAnyParty',
      'admin|Administration|IdentityProviderAdmin',
      'annotation|a|2',
      'annotation|z|1',
    ]);
    assert.equal(userDetails(u, parseRights({ rights: [] })).find((d) => d.kind === 'none')?.value, 'none');
    assert.equal(userDetails(u, rights)[3].party, `Alice::${NS}`, 'a rights row names its party for Grant and Revoke');
  });

  it('says whether a party is hosted here, with its local metadata', () => {
    const p = readAdminParty({ party: `Shop::${NS}`, isLocal: false, localMetadata: { resourceVersion: '0', annotations: { team: 'ops' } } })!;
    assert.deepEqual(partyLine(p), { label: 'Shop::1220ab…', description: 'not hosted here' });
    assert.deepEqual(
      partyDetails(p).map((d) => d.value),
      ['not on this participant', 'the default identity provider', 'ops'],
    );
  });

  it('filters by id, party, identity provider and annotations, case-insensitively', () => {
    const u = readAdminUser({
      id: 'shop-backend',
      primaryParty: `Shop::${NS}`,
      identityProviderId: 'acme-idp',
      metadata: { annotations: { owner: 'Team-X' } },
    })!;
    for (const f of ['', 'SHOP', 'acme', 'team-x', 'owner']) assert.ok(userMatches(u, f), f);
    assert.ok(!userMatches(u, 'alice'));
    const p = readAdminParty({ party: `Alice::${NS}`, localMetadata: { annotations: { k: 'v' } } })!;
    assert.ok(partyMatches(p, 'alice'));
    assert.ok(!partyMatches(p, 'shop'));
  });
});

describe('administration view: annotations edited', () => {
  it('reads key=value entries, refuses keys Canton refuses', () => {
    assert.deepEqual(parseAnnotations('a=1; ex.com/b = two=2\n\n'), { ok: true, value: { a: '1', 'ex.com/b': 'two=2' } });
    assert.equal(parseAnnotations('novalue').ok, false);
    assert.equal(parseAnnotations('-bad=1').ok, false);
    assert.ok(annotationKeyOk('example.com/app.name'));
    assert.ok(!annotationKeyOk('Example.com/x'), 'a prefix is a lower-case DNS subdomain');
    assert.ok(!annotationKeyOk(`${'a'.repeat(64)}`), 'a name has at most 63 characters');
    assert.equal(annotationsText({ b: '2', a: '1' }), 'a=1\nb=2');
  });

  it('sends only what changed, a removed key with an empty value, and says what changed', () => {
    const before = { keep: '1', change: 'old', drop: 'x' };
    const after = { keep: '1', change: 'new', add: 'y' };
    assert.deepEqual(annotationsDelta(before, after), { change: 'new', add: 'y', drop: '' });
    assert.deepEqual(annotationsDelta(before, before), {});
    assert.deepEqual(annotationsChanged(before, after), ['added add', 'changed change', 'removed drop']);
  });

  it('builds UpdateUser and UpdatePartyDetails with their update masks and resource versions, and the identity provider move', () => {
    const user = userAnnotationsChange('app', { owner: 'x', old: '' }, '4');
    assert.equal(user.method, 'PATCH');
    assert.equal(user.path, '/v2/users/app');
    assert.deepEqual(user.body, {
      user: { id: 'app', metadata: { resourceVersion: '4', annotations: { owner: 'x', old: '' } } },
      updateMask: { paths: ['metadata.annotations'], unknownFields: { fields: {} } },
    });
    assert.deepEqual(user.summary.slice(1), ['Remove the annotation old.', 'Set the annotation owner to "x".']);
    const party = partyMetadataChange(`Alice::${NS}`, { team: 'ops' }, '0');
    assert.equal(party.path, `/v2/parties/Alice%3A%3A${NS}`);
    assert.deepEqual((party.body as { updateMask: { paths: string[] } }).updateMask.paths, ['local_metadata.annotations']);
    const move = moveUserChange('a/b', '', 'acme-idp');
    assert.equal(move.path, '/v2/users/a%2Fb/identity-provider-id');
    assert.deepEqual(move.body, { userId: 'a/b', sourceIdentityProviderId: '', targetIdentityProviderId: 'acme-idp' });
    assert.match(move.summary[0], /from the default identity provider to acme-idp/);
  });
});

describe('administration: vetting a package', () => {
  it('sends one Vet or Unvet by package id, on the synchronizer given, and names the templates it affects', () => {
    const pkg = { packageId: 'ab'.repeat(32), name: 'shop-app', version: '1.2.0' };
    const vet = vettingChange('vet', pkg, 'da1::1220cd', ['Shop:Order', 'Shop:Invoice']);
    assert.equal(vet.method, 'POST');
    assert.equal(vet.path, '/v2/package-vetting/update');
    assert.deepEqual(vet.body, {
      changes: [{ operation: { Vet: { value: { packages: [{ packageId: pkg.packageId }] } } } }],
      dryRun: false,
      synchronizerId: 'da1::1220cd',
    });
    assert.equal(vet.summary[0], 'Vet shop-app 1.2.0 (abababababab…) on da1::1220cd.');
    assert.match(vet.summary[1], /accepts transactions that use its templates: Shop:Order, Shop:Invoice\.$/);
    const unvet = vettingChange('unvet', { packageId: pkg.packageId }, undefined, []);
    assert.deepEqual(Object.keys(unvet.body ?? {}), ['changes', 'dryRun'], 'no synchronizer: the node picks its only one');
    assert.ok('Unvet' in (unvet.body as { changes: { operation: object }[] }).changes[0].operation);
    assert.equal(unvet.summary[1], 'It defines no template.');
    assert.equal(vettingChange('unvet', pkg, undefined, undefined).summary[1], 'Its templates could not be read.');
    const many = vettingChange(
      'unvet',
      pkg,
      undefined,
      Array.from({ length: 20 }, (_, i) => `M:T${i}`),
    );
    assert.match(many.summary[1], /can no longer be used through this package: M:T0, .*M:T11, …\.$/);
  });
});
