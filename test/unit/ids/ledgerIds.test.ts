import * as assert from 'node:assert/strict';
import { classifyLedgerId, findLedgerIds, ledgerIdAt } from '../../../src/ids/ledgerIds';
import { REAL_CONTRACT_IDS, REAL_PARTY_IDS, REAL_UPDATE_IDS } from '../../fixtures/realIds';

const [cid, cid2] = REAL_CONTRACT_IDS as [string, string];
const [uid] = REAL_UPDATE_IDS as [string];
const [alice] = REAL_PARTY_IDS as [string];

function found(text: string) {
  return findLedgerIds(text).map((m) => [m.kind, m.text, text.slice(m.start, m.end)] as const);
}

describe('ledger ids: classify one token', () => {
  it('knows real contract, update and party ids', () => {
    for (const c of REAL_CONTRACT_IDS) assert.deepEqual(classifyLedgerId(c), { kind: 'contract', format: 'Canton contract id (V1)' });
    for (const u of REAL_UPDATE_IDS) assert.equal(classifyLedgerId(u).kind, 'update');
    for (const p of REAL_PARTY_IDS) assert.equal(classifyLedgerId(p).kind, 'party');
  });

  it('accepts quotes around a token and the generic V1/V2 contract id forms', () => {
    assert.equal(classifyLedgerId(`"${cid}"`).kind, 'contract');
    assert.equal(classifyLedgerId(`01${'ab'.repeat(12)}80${'cd'.repeat(32)}`).kind, 'contract');
    assert.equal(classifyLedgerId(`00${'ab'.repeat(32)}${'ef'.repeat(10)}`).kind, 'contract');
  });

  it('says why a near miss is not an id', () => {
    const cases: [string, RegExp][] = [
      [cid.slice(0, -1), /Wrong length: 137 characters; a Canton contract id has 138/],
      [cid.toUpperCase(), /lower-case hex; this one has upper-case/],
      [`${uid.slice(0, 20)}g${uid.slice(21)}`, /Unexpected character "g" at position 21/],
      [uid.slice(0, 67), /Wrong length: 67 characters; an update id has 68/],
      [cid.slice(0, 66), /without its suffix/],
      ['Alice::1220ABC', /fingerprint has upper-case hex/],
      [`Al!ce::${uid}`, /party hint "Al!ce" has characters/],
      [`Alice::${uid.slice(0, 60)}`, /fingerprint has 60 characters instead of 68/],
      ['hello', /Unexpected character "h"/],
      ['', /empty/],
      ['deadbeef', /contract ids start with 00 or 01/],
    ];
    for (const [token, reason] of cases) {
      const c = classifyLedgerId(token);
      assert.equal(c.kind, 'none', token);
      assert.match((c as { reason: string }).reason, reason, token);
    }
  });
});

describe('ledger ids: find in text', () => {
  it('finds ids in JSON, with exact ranges', () => {
    const text = JSON.stringify({ contractId: cid, updateId: uid, owner: alice }, null, 2);
    assert.deepEqual(found(text), [
      ['contract', cid, cid],
      ['update', uid, uid],
      ['party', alice, alice],
    ]);
  });

  it('finds ids in log lines, URLs, Daml code and quotes', () => {
    const log = `2026-11-02T09:14:05.120Z INFO c.d.c.p.TransactionProcessor - updateId=${uid}, contract ${cid2}; tx:${uid}.`;
    assert.deepEqual(
      found(log).map(([k]) => k),
      ['update', 'contract', 'update'],
    );
    const url = `https://scan.example/contracts/${cid}?party=${alice}&tx=${uid}#x`;
    assert.deepEqual(
      found(url).map(([k, t]) => [k, t]),
      [
        ['contract', cid],
        ['party', alice],
        ['update', uid],
      ],
    );
    const daml = `  let cid = ContractId "${cid}"\n  submit (party "${alice}") do exercise cid Archive`;
    assert.deepEqual(
      found(daml).map(([k]) => k),
      ['contract', 'party'],
    );
    assert.deepEqual(
      found(`'${uid}'`).map(([k]) => k),
      ['update'],
    );
  });

  it('does not take long hex, hashes or fragments for ids', () => {
    const sha256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const texts = [
      sha256,
      `01${sha256}`,
      `${cid}ab`, // a contract id followed by more hex is not a contract id
      `x${uid}`,
      `${uid}0`,
      `${'0'.repeat(200)}`,
      `00${'a'.repeat(64)}`, // relative contract id: not a ledger id
      cid.toUpperCase(),
    ];
    for (const t of texts) assert.deepEqual(found(t), [], t);
  });

  it('does not report the fingerprint of a party id as an update id', () => {
    assert.deepEqual(
      found(`"${alice}"`).map(([k]) => k),
      ['party'],
    );
    assert.deepEqual(found(`::${uid}`), []);
  });

  it('does not take a key fingerprint or a hash for an update id where the text says what it is', () => {
    for (const t of [
      `{ "signedBy": "${uid}" }`,
      `"fingerprint":"${uid}"`,
      `"preparedTransactionHash": "${uid}"`,
      `"namespace" : "${uid}"`,
      `key fingerprint ${uid}`,
      `Fingerprint: ${uid}`,
      `signed by ${uid}`,
    ])
      assert.deepEqual(found(t), [], t);
    // Said of something else, it is still an update id.
    assert.deepEqual(
      found(`{ "updateId": "${uid}" }`).map(([k]) => k),
      ['update'],
    );
    assert.deepEqual(
      found(`committed update ${uid} hash e3b0`).map(([k]) => k),
      ['update'],
    );
    assert.equal(ledgerIdAt(`"signedBy": "${uid}"`, 20), undefined, 'no hover either');
  });

  it('finds V2 contract ids under the cursor, and in bulk only when asked', () => {
    const v2 = `01${'ab'.repeat(12)}80${'cd'.repeat(32)}`;
    const text = `cid=${v2} and ${uid}`;
    assert.deepEqual(
      found(text).map(([k]) => k),
      ['update'],
      'bulk scans (links) leave V2 out',
    );
    assert.deepEqual(
      findLedgerIds(text, Infinity, { v2ContractIds: true }).map((m) => m.kind),
      ['contract', 'update'],
    );
    assert.deepEqual(ledgerIdAt(text, 10), { kind: 'contract', text: v2, start: 4, end: 96 });
    assert.deepEqual([...findLedgerIds(`x${v2}`, Infinity, { v2ContractIds: true })], [], 'bounded like the others');
  });

  it('stops at the limit', () => {
    const text = Array.from({ length: 50 }, () => uid).join('\n');
    assert.equal(findLedgerIds(text).length, 50);
    assert.equal(findLedgerIds(text, 7).length, 7);
  });

  it('keeps its matches as offsets and kinds, and makes each one as it is read', () => {
    const party = `Alice::${uid}`;
    const text = `a ${uid} b ${party} c`;
    const found = findLedgerIds(text);
    assert.equal(found.length, 2);
    assert.deepEqual([found.kindAt(1), found.startAt(1), found.endAt(1)], ['party', text.indexOf(party), text.length - 2]);
    assert.deepEqual(found.at(-1), { kind: 'party', text: party, start: text.indexOf(party), end: text.length - 2 });
    assert.deepEqual(found.at(0), { kind: 'update', text: uid, start: 2, end: 2 + uid.length });
    assert.equal(found.at(2), undefined);
    // Past the first thousand matches the scan's space grows, keeping what it held; a scan after
    // it has its own matches.
    const lines = Array.from({ length: 1500 }, (_, i) => `${i} ${uid}`).join('\n');
    const many = findLedgerIds(lines);
    assert.equal(many.length, 1500);
    assert.deepEqual(new Set(many.map((m) => m.text)), new Set([uid]));
    assert.deepEqual([many.startAt(1499), many.endAt(1499)], [lines.length - 68, lines.length]);
    assert.equal(findLedgerIds(text).length, 2);
    assert.equal(many.length, 1500);
    assert.equal(many.at(0)!.start, 2);
  });

  it('finds the id under a cursor offset, or none', () => {
    const text = `before ${cid} middle ${uid} after`;
    const at = text.indexOf(uid) + 10;
    assert.equal(ledgerIdAt(text, at)?.text, uid);
    assert.equal(ledgerIdAt(text, text.indexOf(cid))?.kind, 'contract');
    assert.equal(ledgerIdAt(text, text.indexOf('middle') + 2), undefined);
    const long = `${'x'.repeat(5000)} ${uid} ${'y'.repeat(5000)}`;
    assert.equal(ledgerIdAt(long, long.indexOf(uid) + 67)?.start, long.indexOf(uid));
  });
});
