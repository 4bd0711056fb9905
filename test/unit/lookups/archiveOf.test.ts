// A CONTRACT_NOT_FOUND names its contract; the refusal then says which update archived it, and the
// review offers the pick of an active one.
import * as assert from 'node:assert/strict';
import { archivedSentence, missingContractId } from '../../../src/lookups/archiveOf';
import { commandsReviewBody } from '../../../src/panels/html/commandsReviewHtml';
import { explainFailure } from '../../../src/execute/commandFailure';

const CID = `00${'ab'.repeat(32)}ca111220${'cd'.repeat(32)}`;
const UPDATE = `1220${'ef'.repeat(32)}`;

describe('a refusal for a contract that was archived', () => {
  it('reads the contract id from the resource, else from the cause, only for CONTRACT_NOT_FOUND', () => {
    assert.equal(missingContractId({ code: 'CONTRACT_NOT_FOUND', cause: '', resources: [['CONTRACT_ID', CID]] }), CID);
    assert.equal(missingContractId({ code: 'CONTRACT_NOT_FOUND', cause: `Contract could not be found with id ${CID}`, resources: [] }), CID);
    assert.equal(missingContractId({ code: 'DAML_FAILURE', cause: CID, resources: [['CONTRACT_ID', CID]] }), undefined);
  });

  it('says which update archived it, at which offset and when, as far as the node answered', () => {
    assert.match(
      archivedSentence({ contractId: CID, offset: 42, updateId: UPDATE, at: '2026-11-27T10:00:00Z' }),
      /^Contract 00abababab…cdcdcd was archived by update 1220efefef…efefef at offset 42, 27 Nov 2026/,
    );
    assert.equal(archivedSentence({ contractId: CID, offset: 42 }), 'Contract 00abababab…cdcdcd was archived at offset 42.');
  });

  it('shows the sentence (escaped) and Pick an Active Contract… in the review', () => {
    const why = explainFailure({ code: 'CONTRACT_NOT_FOUND', cause: 'x', context: {}, resources: [['CONTRACT_ID', CID]] });
    const view = {
      fileName: 'a.commands.json',
      node: 'n',
      commandId: 'c',
      actAs: [],
      readAs: [],
      deduplication: '',
      lines: [],
      findings: [],
      sent: 1,
      outcome: { state: 'failed' as const, why, request: 'POST', archived: 'archived <b>by</b> 1220', pick: true },
    };
    const text = commandsReviewBody(view).text;
    assert.match(text, /archived &lt;b&gt;by&lt;\/b&gt; 1220/);
    assert.match(text, /data-action="pickActiveContract"/);
    assert.doesNotMatch(commandsReviewBody({ ...view, outcome: { ...view.outcome, pick: false } }).text, /pickActiveContract/);
  });
});
