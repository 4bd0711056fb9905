// Party completion in *.prepare.json: where a party id is wanted (found by scanning, as the file
// is rarely valid JSON while typed), and which parties are offered first.
import * as assert from 'node:assert/strict';
import { parseRights } from '../../../src/auth/userRights';
import { partyCandidates, partySlotAt } from '../../../src/execute/partyCandidates';

/** The slot at the `|` of `text`. */
const at = (text: string) => partySlotAt(text.replace('|', ''), text.indexOf('|'));

describe('party completion in a prepare request', () => {
  it('finds actAs and readAs entries, complete or being typed', () => {
    assert.deepEqual(at('{ "actAs": ["|"] }'), { field: 'actAs', typed: '', start: 13 });
    const typing = '{ "userId": "u", "readAs": ["Alice::1220", "Bo|';
    assert.deepEqual(at(typing), { field: 'readAs', typed: 'Bo', start: typing.indexOf('|') - 2 });
    assert.equal(at('{ "actAs": ["A"], "commandId": "c|" }'), undefined, 'another field');
    assert.equal(at('{ "act|'), undefined, 'a key, not a value');
  });

  it("finds string fields of a command's arguments, nested records too, and skips the rest", () => {
    const create = '{ "commands": [ { "CreateCommand": { "templateId": "#m:Iou:Iou", "createArguments": { "issuer": "|" } } } ] }';
    assert.deepEqual(at(create), { field: 'issuer', typed: '', start: create.indexOf('|') });
    assert.equal(at('{ "commands": [ { "CreateCommand": { "templateId": "#m:I|" } } ] }'), undefined, 'the template id is not a party');
    const nested = '{ "commands": [ { "ExerciseCommand": { "choice": "Transfer", "choiceArgument": { "to": { "owner": "Bob|';
    assert.deepEqual(at(nested), { field: 'owner', typed: 'Bob', start: nested.indexOf('|') - 3 });
    assert.equal(at('{ "choice": "Tr|" }'), undefined);
  });

  it('is not fooled by escaped quotes, brackets in strings, or a closed array', () => {
    assert.equal(at('{ "workflowId": "a \\" [ \\"actAs", "x": "|" }'), undefined);
    assert.deepEqual(at('{ "note": "] }", "actAs": ["|"] }')?.field, 'actAs');
    assert.equal(at('{ "actAs": ["A"], "|'), undefined);
  });

  it("offers the user's parties first (act-as before read-only), then other hosted parties, once each", () => {
    const rights = parseRights({
      rights: [{ kind: { CanReadAs: { value: { party: 'Reader::1' } } } }, { kind: { CanActAs: { value: { party: 'Actor::1' } } } }],
    });
    const c = partyCandidates(rights, ['Actor::1', 'Hosted::1']);
    assert.deepEqual(
      c.map((x) => x.party),
      ['Actor::1', 'Reader::1', 'Hosted::1'],
    );
    assert.match(c[0].detail, /CanActAs/);
    assert.match(c[2].detail, /hosted/);
    assert.deepEqual(partyCandidates(undefined, undefined), []);
  });
});
