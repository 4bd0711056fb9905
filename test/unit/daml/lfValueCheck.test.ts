// A request's arguments checked against Daml-LF types before sending: the fake node's partner
// package (every type form) and the real compiler's DAR.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { lfArgumentSkeleton } from '../../../src/daml/lf/lfCompletions';
import { decodeDar } from '../../../src/daml/lf/lfPackages';
import { argumentType } from '../../../src/daml/lf/lfCompletions';
import { commandArgumentIssues, lfValueIssues, issueLines } from '../../../src/daml/lf/lfValueCheck';
import { partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const ALICE = `Alice::1220${'aa'.repeat(32)}`;
const TOKEN = '#canton-lens-partner-app:Partner.Token:Token';
const partner = [decodeArchive(partnerDalf())];
const tokenType = argumentType(partner, TOKEN, undefined)!;
const skeleton = () => structuredClone(lfArgumentSkeleton(partner, TOKEN, undefined, ALICE)!.value) as Record<string, unknown>;

describe('arguments checked against Daml-LF types', () => {
  it('accepts the skeleton it writes, and numbers, maps and lists in the JSON forms', () => {
    assert.deepEqual(issueLines(lfValueIssues(partner, tokenType, skeleton(), '$'))!, []);
    const full = {
      ...skeleton(),
      amount: 12.5,
      decimals: 2,
      tags: ['a', 'b'],
      meta: { values: { k: 'v' }, extra: 'x' },
      kind: 'Burn',
      settlement: { tag: 'Deferred', value: {} },
    };
    const problems = issueLines(lfValueIssues(partner, tokenType, full, '$'))!;
    // Only what the partner package's types say is wrong, if anything, about a settlement's value.
    assert.ok(
      problems.every((p) => p.startsWith('$.settlement')),
      problems.join('\n'),
    );
  });

  it('names a wrong field, a missing one, text where a party goes, an unknown enum value and constructor, and a wrong kind', () => {
    const v = skeleton();
    v.ownr = v.owner;
    delete v.owner;
    v.issuer = 'alice';
    v.kind = 'Teleport';
    v.settlement = { tag: 'Never', value: {} };
    v.amount = 'lots';
    v.tags = 'a';
    delete v.previous; // Optional: missing reads as None
    const problems = issueLines(lfValueIssues(partner, tokenType, v, '$'))!;
    const at = (p: string) => problems.find((x) => x.startsWith(`${p}:`));
    assert.match(at('$.ownr') ?? '', /Token has no field ownr \(its fields: issuer, owner, /);
    assert.match(at('$.owner') ?? '', /missing: Token needs owner \(Party\)/);
    assert.match(at('$.issuer') ?? '', /a party id goes here \(hint::1220…\), not "alice"/);
    assert.match(at('$.kind') ?? '', /TransferKind has no value "Teleport" \(its values: Direct, Escrow, Burn\)/);
    assert.match(at('$.settlement.tag') ?? '', /Settlement has no constructor "Never" \(its constructors: Immediate, Deferred, Netted\)/);
    assert.match(at('$.amount') ?? '', /a Numeric is written like "10\.5"; Canton refuses "lots" \(INVALID_ARGUMENT "Could not read Numeric string"\)/);
    assert.match(at('$.tags') ?? '', /a list is written as a JSON array, not text: .*internal error \(500\)/);
    assert.equal(at('$.previous'), undefined, 'a missing Optional is None');
    assert.equal(problems.length, 7, problems.join('\n'));
    const untagged = issueLines(lfValueIssues(partner, tokenType, { ...skeleton(), settlement: { tag: 'Deferred' } }, '$'))!;
    assert.deepEqual(untagged, ['$.settlement.value: missing: Settlement Deferred needs its value (Date)'], 'a variant without its value');
  });

  it('checks every command of a request, and judges nothing of templates the signatures lack', () => {
    const wrong = skeleton();
    wrong.ownr = ALICE;
    const commands = [
      { CreateCommand: { templateId: TOKEN, createArguments: skeleton() } },
      { ExerciseCommand: { templateId: TOKEN, contractId: '00ab', choice: 'Transfer', choiceArgument: { newOwner: 'bob', amount: '1.0', kind: 'Direct' } } },
      { CreateCommand: { templateId: TOKEN, createArguments: wrong } },
    ];
    assert.deepEqual(issueLines(commandArgumentIssues(partner, commands)), [
      'commands[1].ExerciseCommand.choiceArgument.newOwner: a party id goes here (hint::1220…), not "bob"',
      'commands[2].CreateCommand.createArguments.ownr: Token has no field ownr (its fields: issuer, owner, amount, decimals, tags, meta, locks, kind, settlement, previous, active)',
    ]);
    assert.equal(issueLines(commandArgumentIssues(partner, [{ CreateCommand: { templateId: '#other:M:T', createArguments: {} } }])), undefined);
  });

  it('reads the real compiler’s types: a type argument put in, a record field of another package', () => {
    const dar = decodeDar(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'dars', 'DamlDefinitionsServiceMain.dar')));
    const id = '#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo';
    const good = lfArgumentSkeleton(dar.packages, id, undefined, ALICE)!.value;
    assert.deepEqual(issueLines(commandArgumentIssues(dar.packages, [{ CreateCommand: { templateId: id, createArguments: good } }])), []);
    const bad = { ...(good as object), someRecordTyped: { foo: { tag: 'SomeVariant', value: 'x' } } };
    assert.deepEqual(issueLines(commandArgumentIssues(dar.packages, [{ CreateCommand: { templateId: id, createArguments: bad } }])), [
      'commands[0].CreateCommand.createArguments.someRecordTyped.foo.value: an Int64 is a whole number written as text, like "10"; Canton refuses "x" (INVALID_ARGUMENT "For input string")',
    ]);
  });
});
