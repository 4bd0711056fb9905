// A contract panel's actions on a commands file: the contract's choices (its template's and its
// interfaces') with argument skeletons from Daml-LF or the Daml source, and the contract as a
// disclosed contract of a request, with the commands that use it.
import * as assert from 'node:assert/strict';
import { PARTNER_PACKAGE, partnerDalf } from '../../../fake-ledger/src/partnerPackage';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { checkCommandsRequest, exerciseRequest } from '../../../src/execute/commandsRequest';
import { commandsReviewBody } from '../../../src/panels/html/commandsReviewHtml';
import { choiceSkeleton, contractChoices, disclosedUses, exerciseFileName, withDisclosedContract } from '../../../src/execute/contractActions';

const ALICE = 'Alice::1220aa';
const partner = [decodeArchive(partnerDalf())];
const token = { contractId: `00${'ab'.repeat(32)}`, templateId: `${PARTNER_PACKAGE}:Partner.Token:Token`, packageName: 'canton-lens-partner-app' };
const TOKEN = '#canton-lens-partner-app:Partner.Token:Token';
const HOLDING = '#canton-lens-partner-app:Partner.Token:Holding';

describe("a contract panel's actions", () => {
  it("lists the template's choices and its interfaces' choices from Daml-LF, an interface's under the interface id", () => {
    const choices = contractChoices(token, partner);
    assert.deepEqual(
      choices.map((c) => `${c.templateId} ${c.choice}${c.viaInterface ? ' (interface)' : ''}`),
      [
        `${TOKEN} Archive`,
        `${TOKEN} Transfer`,
        `${TOKEN} Token_Split`,
        `${TOKEN} Token_Peek`,
        `${HOLDING} Holding_Lock (interface)`,
        `${HOLDING} Holding_Describe (interface)`,
      ],
    );
    assert.equal(choices.find((c) => c.choice === 'Transfer')?.detail, 'newOwner : Party, amount : Numeric 10, kind : TransferKind → ContractId Token');
    assert.equal(choices.find((c) => c.choice === 'Holding_Describe')?.detail, 'nonconsuming · () → Text');
  });

  it('writes a request the commands check accepts, with the skeleton of the choice argument from Daml-LF', () => {
    const transfer = contractChoices(token, partner).find((c) => c.choice === 'Transfer')!;
    const skeleton = choiceSkeleton(partner, transfer, ALICE);
    assert.deepEqual(skeleton.value, { newOwner: ALICE, amount: '0.0', kind: 'Direct' });
    assert.deepEqual(skeleton.notes, ['TransferKind: Direct (also Escrow, Burn)']);
    const text = exerciseRequest({
      commandId: 'c1',
      party: ALICE,
      templateId: transfer.templateId,
      choice: 'Transfer',
      contractId: token.contractId,
      choiceArgument: skeleton.value,
    });
    const checked = checkCommandsRequest(text.replace(ALICE, `Alice::1220${'a'.repeat(64)}`));
    assert.deepEqual(checked.problems, []);
    const lock = contractChoices(token, partner).find((c) => c.choice === 'Holding_Lock')!;
    assert.deepEqual(choiceSkeleton(partner, lock, ALICE).value, { until: '1970-01-01T00:00:00Z' });
    assert.equal(exerciseFileName(token, lock), 'Token_Holding_Lock.commands.json');
  });

  it("takes the template's choices and their fields from the workspace's Daml source when it has the template", () => {
    const index = new DamlIndex();
    const source = [
      'module Iou where',
      'template Iou',
      '  with',
      '    issuer : Party',
      '  where',
      '    signatory issuer',
      '    choice Iou_Split : ContractId Iou',
      '      with',
      '        splitAmount : Decimal',
      '      controller issuer',
      '      do pure self',
    ].join('\n');
    index.setFile('file:///w/daml/Iou.daml', source, { root: '/w', name: 'my-app', version: '0.1.0', source: '/w/daml' });
    const iou = { contractId: token.contractId, templateId: `${'cd'.repeat(32)}:Iou:Iou`, packageName: 'my-app' };
    const choices = contractChoices(iou, [], index);
    assert.deepEqual(
      choices.map((c) => `${c.templateId} ${c.choice}`),
      ['#my-app:Iou:Iou Iou_Split', '#my-app:Iou:Iou Archive'],
    );
    assert.deepEqual(choices[0].source, { file: 'file:///w/daml/Iou.daml', line: 6 });
    assert.deepEqual(choiceSkeleton([], choices[0], ALICE, source).value, { splitAmount: '0.0' });
    // Another package's template of the same name is not this contract's.
    assert.deepEqual(contractChoices({ ...iou, packageName: 'other' }, [], index), []);
  });

  it('adds a disclosed contract to a request (once per contract id), and refuses a file that does not parse', () => {
    const d = { contractId: token.contractId, templateId: token.templateId, createdEventBlob: 'CgMyLjES', synchronizerId: `da::1220${'0'.repeat(64)}` };
    const first = withDisclosedContract('{\n  "commandId": "c",\n  "commands": []\n}\n', d);
    assert.ok('text' in first && !first.replaced);
    const again = withDisclosedContract((first as { text: string }).text, { ...d, createdEventBlob: 'new' });
    assert.ok('text' in again && again.replaced);
    const parsed = JSON.parse((again as { text: string }).text) as { commandId: string; disclosedContracts: unknown[] };
    assert.equal(parsed.commandId, 'c', 'the rest of the request stays');
    assert.deepEqual(parsed.disclosedContracts, [{ ...d, createdEventBlob: 'new' }]);
    assert.ok('problem' in withDisclosedContract('{ "commandId": ', d));
    assert.ok('problem' in withDisclosedContract('[]', d));
    const request = (disclosedContracts: unknown) =>
      JSON.stringify({
        commandId: 'c',
        actAs: [`Alice::1220${'a'.repeat(64)}`],
        commands: [{ CreateCommand: { templateId: TOKEN, createArguments: {} } }],
        disclosedContracts,
      });
    assert.deepEqual(checkCommandsRequest(request([d])).problems, []);
    assert.deepEqual(
      checkCommandsRequest(request([{ ...d, createdEventBlob: '' }, 'x'])).problems.map((p) => p.path),
      ['$.disclosedContracts[0].createdEventBlob', '$.disclosedContracts[1]'],
    );
  });

  it('says which commands use each disclosed contract: as the exercised contract or in an argument', () => {
    const id = token.contractId;
    const other = `00${'ef'.repeat(32)}`;
    const uses = disclosedUses({
      commands: [
        { ExerciseCommand: { templateId: TOKEN, contractId: id, choice: 'Token_Peek', choiceArgument: {} } },
        { CreateCommand: { templateId: TOKEN, createArguments: { previous: id } } },
        { ExerciseCommand: { templateId: TOKEN, contractId: other, choice: 'Archive', choiceArgument: {} } },
      ],
      disclosedContracts: [
        { contractId: id, templateId: token.templateId, createdEventBlob: 'abcd', synchronizerId: 'da::1220' },
        { contractId: `00${'99'.repeat(32)}`, templateId: token.templateId, createdEventBlob: '' },
        'not an object',
      ],
    });
    assert.deepEqual(
      uses.map((u) => [u.usedBy, u.blobLength, u.synchronizerId]),
      [
        [[0, 1], 4, 'da::1220'],
        [[], 0, undefined],
      ],
    );
  });

  it('the review lists each disclosed contract with the commands that use it, its blob and synchronizer, escaped', () => {
    const id = token.contractId;
    const request = {
      commandId: 'c',
      actAs: [ALICE],
      commands: [{ ExerciseCommand: { templateId: TOKEN, contractId: id, choice: 'Token_Peek', choiceArgument: {} } }],
      disclosedContracts: [
        { contractId: id, templateId: token.templateId, createdEventBlob: 'abcd', synchronizerId: 'da::1220<b>' },
        { contractId: `00${'99'.repeat(32)}`, templateId: 'p:M:<img src=x>', createdEventBlob: '' },
      ],
    };
    const body = commandsReviewBody({
      fileName: 'x.commands.json',
      node: 'n',
      commandId: 'c',
      actAs: [ALICE],
      readAs: [],
      deduplication: 'd',
      lines: [],
      disclosed: disclosedUses(request),
      findings: [],
      sent: 0,
    }).text;
    assert.match(body, /Disclosed contracts \(2\)/);
    assert.match(body, /used by command 1</);
    assert.match(body, /created event blob: 4 base64 characters/);
    assert.match(body, /no command uses it: the node ignores it/);
    assert.match(body, /no created event blob: the node refuses it/);
    assert.ok(!body.includes('<img') && !body.includes('<b>'), 'ledger strings are escaped');
  });
});
