// When a lookup panel reads the node's Daml-LF signatures and draws again: a contract at once after
// its first paint; a transaction only once a row opens (a panel nobody opens a row of reads no
// package), a row opened while they are read drawn typed when they come in time, else drawn again.
import * as assert from 'node:assert/strict';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import type { PackageSignature } from '../../../src/daml/lf/lfSignatures';
import type { LedgerLookup } from '../../../src/lookups/ledgerLookups';
import { AnswerTyping } from '../../../src/panels/answerTyping';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';
import { hostileContract, hostileTransaction } from '../../support/hostileLookups';

const sigs = [decodeArchive(partnerDalf())];
const TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
const target = { kind: 'update' as const, id: 'x', node: 'n' };

function contract(): LedgerLookup {
  const l = hostileContract({});
  if (l.found && l.response.created) l.response.created.createdEvent.templateId = TOKEN;
  return l;
}

function transaction(templateId = TOKEN): LedgerLookup {
  const l = hostileTransaction(1);
  if (l.found && l.update === 'transaction') {
    const e = l.transaction.events[0];
    if ('CreatedEvent' in e) e.CreatedEvent.templateId = templateId;
  }
  return l;
}

/** A typing whose redraws are recorded, and a read of the signatures that counts its calls. */
function setUp(answer: () => Promise<readonly PackageSignature[]> = () => Promise.resolve(sigs)) {
  const redraws: { result: LedgerLookup; packages: readonly PackageSignature[] }[] = [];
  const typing = new AnswerTyping((result, _target, packages) => redraws.push({ result, packages }));
  let reads = 0;
  const read = () => {
    reads++;
    return answer();
  };
  return { typing, redraws, read, reads: () => reads };
}

describe('a lookup panel typing its answer', () => {
  it('reads the signatures of a contract at once and draws it again with them', async () => {
    const { typing, redraws, read, reads } = setUp();
    const l = contract();
    typing.shown(l, target, read);
    assert.equal(reads(), 1);
    await typing.settle(l, 10_000);
    assert.deepEqual(redraws, [{ result: l, packages: sigs }]);
  });

  it('reads nothing for a transaction until a row opens; a row opened while they come waits for them and is drawn once', async () => {
    const { typing, redraws, read, reads } = setUp();
    const l = transaction();
    typing.shown(l, target, read);
    assert.equal(reads(), 0, 'no package is downloaded for a panel nobody opens a row of');
    await typing.settle(l, 10_000);
    assert.equal(reads(), 1);
    assert.equal(typing.forRow(l), sigs);
    assert.deepEqual(redraws, [], 'the row was drawn typed: nothing to draw again');
  });

  it('a row drawn before the signatures came: the page is drawn again once they do, and the rows typed', async () => {
    let resolve: (s: readonly PackageSignature[]) => void = () => undefined;
    const pending = new Promise<readonly PackageSignature[]>((r) => (resolve = r));
    const { typing, redraws, read } = setUp(() => pending);
    const l = transaction();
    typing.shown(l, target, read);
    assert.equal(typing.forRow(l), undefined, 'untyped for now');
    resolve(sigs);
    await typing.settle(l, 10_000);
    assert.deepEqual(redraws, [{ result: l, packages: sigs }]);
    assert.equal(typing.forRow(l), sigs);
  });

  it('leaves alone an answer replaced meanwhile, signatures that lack its packages, and a read that fails', async () => {
    let resolve: (s: readonly PackageSignature[]) => void = () => undefined;
    const pending = new Promise<readonly PackageSignature[]>((r) => (resolve = r));
    const replaced = setUp(() => pending);
    const first = contract();
    replaced.typing.shown(first, target, replaced.read);
    const second = transaction(`${'0'.repeat(64)}:M:T`);
    replaced.typing.shown(second, target, replaced.read);
    resolve(sigs);
    await pending;
    await replaced.typing.settle(second, 10_000);
    assert.deepEqual(replaced.redraws, []);
    assert.equal(replaced.typing.forRow(first), undefined);
    assert.equal(replaced.typing.forRow(second), undefined, "the node's signatures lack its package");

    const failing = setUp(() => Promise.reject(new Error('403')));
    const l = transaction();
    failing.typing.shown(l, target, failing.read);
    assert.equal(failing.typing.forRow(l), undefined);
    await failing.typing.settle(l, 10_000);
    assert.deepEqual(failing.redraws, []);
    assert.equal(failing.typing.forRow(l), undefined);
  });

  it('with no reader (no signatures), or an answer with nothing to type, reads nothing', async () => {
    const { typing, read, reads } = setUp();
    const l = contract();
    typing.shown(l, target, undefined);
    assert.equal(typing.forRow(l), undefined);
    await typing.settle(l, 10);
    typing.shown(hostileTransaction(0), target, read);
    assert.equal(typing.forRow(hostileTransaction(0)), undefined);
    assert.equal(reads(), 0);
  });
});
