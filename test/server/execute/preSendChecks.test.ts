// The checks before an execute request is sent, and how a failed submission is judged.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { identityOfToken } from '../../../src/auth/ledgerIdentity';
import { executeRightsOf } from '../../../src/auth/userRights';
import { blocking, partiesPrepareCannotRead, preSendChecks, transactionHiddenFrom, type PreSendInput } from '../../../src/execute/preSendChecks';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { LedgerClient } from '../../../src/ledger/ledgerClient';
import { createUndiciTransport } from '../../../src/ledger/undiciTransport';
import { learnAccess } from '../../../src/nodes/nodeAccess';
import { judgeFailure } from '../../../src/execute/submissionOutcome';
import { errorFromResponse, LedgerApiError } from '../../../src/ledger/ledgerApiError';
import { ALICE, BOB } from '../../support/preparedTransactions';

describe('pre-send checks', () => {
  const hash = Buffer.alloc(32, 4).toString('base64');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const fp = `1220${'ab'.repeat(32)}`;
  const sig = (data: string) => sign(null, Buffer.from(data, 'base64'), privateKey).toString('base64');
  const input = (over: Partial<PreSendInput> = {}): PreSendInput => ({
    party: ALICE,
    actAs: [ALICE],
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    computedHash: hash,
    claimedHash: hash,
    signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: sig(hash), signedBy: fp, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
    knownPublicKey: (f) => (f === fp ? spki : undefined),
    tokenUser: 'alice',
    now: new Date('2026-01-01T00:00:00Z'),
    ...over,
  });

  it('passes a request signed by the acting party with a verifying signature', () => {
    const f = preSendChecks(input());
    assert.deepEqual(blocking(f), []);
    assert.ok(f.some((x) => x.id === 'signature' && x.severity === 'ok'));
    assert.ok(
      f.some((x) => x.id === 'rights' && x.severity === 'warn'),
      'rights not read: said so',
    );
  });

  it('blocks a signature by Alice over a transaction acting as Bob, naming both', () => {
    const [b] = blocking(preSendChecks(input({ actAs: [BOB] })));
    assert.equal(b?.id, 'actingParty');
    assert.ok(b.text.includes(ALICE) && b.text.includes(BOB));
  });

  it("blocks a locally known key's signature over another hash, and a hash mismatch", () => {
    const other = Buffer.alloc(32, 9).toString('base64');
    const f = blocking(
      preSendChecks(
        input({
          signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: sig(other), signedBy: fp, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
        }),
      ),
    );
    assert.deepEqual(
      f.map((x) => x.id),
      ['signature'],
    );
    assert.deepEqual(
      blocking(preSendChecks(input({ claimedHash: other }))).map((x) => x.id),
      ['hash'],
      'the signature verifies over the recomputed hash; the claim is wrong',
    );
    // An unknown key is not verified (the node does it).
    assert.deepEqual(
      blocking(
        preSendChecks(
          input({
            knownPublicKey: () => undefined,
            signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: sig(other), signedBy: fp, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
          }),
        ),
      ),
      [],
    );
  });

  it('blocks missing rights when they are known, and a userId of another user', () => {
    assert.equal(blocking(preSendChecks(input({ rights: [{ canReadAs: ALICE }] })))[0]?.id, 'rights');
    assert.deepEqual(blocking(preSendChecks(input({ rights: [{ canExecuteAs: ALICE }] }))), []);
    assert.deepEqual(blocking(preSendChecks(input({ rights: ['canExecuteAsAnyParty'] }))), []);
    assert.equal(blocking(preSendChecks(input({ userId: 'bob' })))[0]?.id, 'rights');
  });

  it('flags times the node will reject, once: the first of its checks that fails (executeTimeWarnings.test.ts holds the rest)', () => {
    const f = preSendChecks(
      input({
        maxRecordTime: '2025-12-31T00:00:00Z',
        maxLedgerEffectiveTime: '2025-12-31T00:00:00Z',
        minLedgerEffectiveTime: '2026-01-02T00:00:00Z',
        preparationTime: '2025-12-30T00:00:00Z',
      }),
    );
    assert.deepEqual(
      f.filter((x) => x.id === 'time').map((x) => [x.severity, /LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND/.test(x.text)]),
      [['warn', true]],
    );
    assert.deepEqual(
      preSendChecks(input({ preparationTime: '2025-12-31T23:00:00Z' })).filter((x) => x.id === 'time'),
      [],
    );
  });

  it('says plainly that a V3 hash is not checked locally', () => {
    const f = preSendChecks(input({ hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3', computedHash: undefined }));
    assert.match(f.find((x) => x.id === 'scheme')!.text, /not checked locally for HASHING_SCHEME_VERSION_V3/);
  });
});

describe('judging a failed submission', () => {
  const res = (status: number, contentType: string, body: string) =>
    errorFromResponse({ method: 'POST', path: '/v2/interactive-submission/execute', status, contentType, body });
  const canton = (status: number, errorCategory: number, definiteAnswer: boolean | null = null) =>
    res(
      status,
      'application/json',
      JSON.stringify({ code: errorCategory === -1 ? 'NA' : 'SOME_ERROR', cause: 'x', context: {}, errorCategory, definiteAnswer }),
    );

  it('is a definite rejection only when the node said so', () => {
    assert.equal(judgeFailure(canton(400, 8)).definite, true);
    assert.equal(judgeFailure(canton(403, -1)).definite, true);
    assert.equal(judgeFailure(canton(401, -1)).definite, true);
    assert.equal(judgeFailure(canton(409, 10)).definite, true);
    assert.equal(judgeFailure(canton(503, 1, true)).definite, true);
    assert.equal(
      judgeFailure(res(400, 'text/plain; charset=UTF-8', "Invalid value for: body (Invalid base64 string at 'preparedTransaction')")).definite,
      true,
    );
    assert.equal(judgeFailure(res(404, 'text/plain', 'The requested resource could not be found.')).definite, true);
  });

  it("is unknown for an HTML 500, a proxy's 502/503/504, a cut body, a timeout, and errors without a definite answer", () => {
    const html = '<!DOCTYPE html><html><body>nginx</body></html>';
    for (const status of [500, 502, 503, 504]) assert.equal(judgeFailure(res(status, 'text/html', html)).definite, false, `HTML ${status}`);
    assert.equal(judgeFailure(res(400, 'text/html', html)).definite, false, "a proxy's HTML 400");
    assert.equal(judgeFailure(canton(500, 4)).definite, false);
    assert.equal(judgeFailure(canton(503, 1)).definite, false);
    assert.equal(judgeFailure(canton(504, 3)).definite, false);
    assert.equal(judgeFailure(canton(500, -1)).definite, false);
    assert.equal(judgeFailure(new LedgerApiError({ kind: 'timeout', explanation: 't' })).definite, false);
    assert.equal(judgeFailure(new LedgerApiError({ kind: 'network', explanation: 'n' })).definite, false);
    assert.equal(judgeFailure(new LedgerApiError({ kind: 'badResponse', status: 200, explanation: 'cut' })).definite, false);
  });
});

describe("pre-send checks with the rights the node lists for the token's user", function () {
  this.timeout(20_000);
  let node: FakeLedgerNode;
  before(async () => {
    node = await FakeLedgerNode.start({ extraUsers: { dev: ['participantAdmin', { canReadAs: ALICE }], deputy: [{ canExecuteAs: ALICE }] } });
  });
  after(() => node.close());

  const rightsOf = async (user: string) => {
    const token = node.mintToken(user);
    const client = new LedgerClient({ baseUrl: node.url, transport: createUndiciTransport(), getToken: async () => token });
    try {
      return executeRightsOf(await learnAccess({ url: node.url, identity: identityOfToken(token), token, client }));
    } finally {
      await client.close();
    }
  };
  const check = (user: string, rights: PreSendInput['rights'], party = ALICE) =>
    preSendChecks({ party, actAs: [party], signatures: [], tokenUser: user, rights }).find((f) => f.id === 'rights')!;

  it('flags a user that may read but not act or execute as the party, naming the rights and the party', async () => {
    const rights = await rightsOf('dev');
    assert.deepEqual(rights, [{ canReadAs: ALICE }, 'participantAdmin']);
    const f = check('dev', rights);
    assert.equal(f.severity, 'block');
    assert.equal(f.text, `User dev has neither CanActAs nor CanExecuteAs for ${ALICE}: the node would refuse it (403). Grant the right first.`);
  });

  it('passes CanExecuteAs, CanActAs and the any-party forms, as the node lists them', async () => {
    assert.equal(check('deputy', await rightsOf('deputy')).severity, 'ok');
    assert.equal(check('alice', await rightsOf('alice'), node.ledger.parties.Alice).severity, 'ok');
    assert.equal(check('alice', await rightsOf('alice')).severity, 'block', 'CanActAs for another Alice is not enough');
    assert.equal(check('executor', await rightsOf('executor')).severity, 'ok');
    assert.equal(check('bob', await rightsOf('bob')).severity, 'block');
  });

  it('says what each step needs: preparing and showing the transaction read as the party, and CanExecuteAs is no read right', async () => {
    const show = (user: string, rights: PreSendInput['rights'], party = ALICE) =>
      preSendChecks({ party, actAs: [party], signatures: [], tokenUser: user, rights }).find((f) => f.id === 'showRights');
    const deputy = await rightsOf('deputy');
    assert.equal(check('deputy', deputy).severity, 'ok', 'it may execute');
    assert.equal(show('deputy', deputy)?.severity, 'warn');
    assert.match(show('deputy', deputy)!.text, /may execute as Alice but not read as it .*executeAndWait instead/);
    assert.equal(transactionHiddenFrom(deputy, ALICE, 'deputy'), show('deputy', deputy)!.text);
    assert.deepEqual(partiesPrepareCannotRead(deputy!, [ALICE]), [ALICE], 'it may not prepare');
    const executor = await rightsOf('executor');
    assert.ok(show('executor', executor), 'CanExecuteAsAnyParty reads nothing either');
    const wallet = await rightsOf('wallet');
    assert.equal(show('wallet', wallet), undefined);
    assert.deepEqual(partiesPrepareCannotRead(wallet!, [ALICE, node.ledger.parties.Bob]), []);
    const alice = await rightsOf('alice');
    assert.equal(show('alice', alice, node.ledger.parties.Alice), undefined, 'CanActAs reads');
    assert.equal(transactionHiddenFrom(undefined, ALICE, 'x'), undefined, 'nothing said when the rights are not known');
  });

  it('a deactivated user holds nothing; rights that could not be read are a warning with the reason', async () => {
    assert.deepEqual(
      executeRightsOf({
        state: 'known',
        user: { id: 'gone', isDeactivated: true },
        rights: { byParty: new Map([[ALICE, ['CanActAs']]]), anyParty: new Set(), admin: new Set(), unknown: 0, total: 1 },
      }),
      [],
    );
    assert.equal(executeRightsOf({ state: 'unknown', reason: 'the node has no user management' }), undefined);
    const f = preSendChecks({ party: ALICE, actAs: [ALICE], signatures: [], tokenUser: 'x', rightsUnknownReason: 'a proxy answered 403' }).find(
      (x) => x.id === 'rights',
    )!;
    assert.equal(f.severity, 'warn');
    assert.match(f.text, /could not be read from the node \(a proxy answered 403\)/);
  });

  it('an unsigned request is blocked, saying how to sign it', () => {
    const f = preSendChecks({ party: ALICE, actAs: [ALICE], signatures: [], unsigned: true });
    assert.match(blocking(f).find((x) => x.id === 'signature')!.text, /^Not signed yet: sign the hash as Alice/);
  });
});
