// Which of the asked templates a 404 says the node lacks, for each of Canton's four codes.
import * as assert from 'node:assert/strict';
import { refsUnknownToNode } from '../../../src/browse/unknownTemplates';
import type { JsCantonError } from '../../../src/ledger/apiTypes';

const error = (code: string, cause: string, resources: [string, string][] = []): JsCantonError => ({ code, cause, context: {}, resources, errorCategory: 11 });

describe('templates the node lacks, from its 404', () => {
  const refs = ['#app:Main:Iou', '#app:Main:New', '#lib:A:B', 'ab12:M:T', '#a,b:X:Y'];

  it('reads each code, whatever the order Canton printed its set in', () => {
    assert.deepEqual(
      refsUnknownToNode(
        error('PACKAGE_NAMES_NOT_FOUND', 'The following package names do not match upgradable packages uploaded on this participant: [other, lib].'),
        refs,
      ),
      ['#lib:A:B'],
    );
    assert.deepEqual(
      refsUnknownToNode(
        error(
          'NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
          'The following package-name/template qualified-name pairs do not reference any template-id uploaded on this participant: [(lib,A:C), (app,Main:New)].',
        ),
        refs,
      ),
      ['#app:Main:New'],
    );
    assert.deepEqual(
      refsUnknownToNode(error('TEMPLATES_OR_INTERFACES_NOT_FOUND', 'Templates do not exist: [ab12:M:T].', [['TEMPLATE_ID', 'ab12:M:T']]), refs),
      ['ab12:M:T'],
    );
  });

  it('is undefined for other errors, and names nothing it cannot match', () => {
    assert.equal(refsUnknownToNode(error('CONTRACT_EVENTS_NOT_FOUND', 'x'), refs), undefined);
    assert.equal(refsUnknownToNode(undefined, refs), undefined);
    assert.deepEqual(refsUnknownToNode(error('PACKAGE_NAMES_NOT_FOUND', 'garbled <b>'), refs), []);
    assert.deepEqual(refsUnknownToNode(error('PACKAGE_NAMES_NOT_FOUND', 'no match: [app:Main]'), refs), []);
  });
});
