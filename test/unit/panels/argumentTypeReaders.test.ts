// Which types a request's arguments are checked against: the node's packages, and the workspace's
// Daml source only for templates those do not describe (its index is read only then).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DamlIndex } from '../../../src/daml/damlIndex';
import { decodeArchive } from '../../../src/daml/lf/lfDecode';
import { lfArgumentSkeleton } from '../../../src/daml/lf/lfCompletions';
import { commandArgumentIssues, issueLines } from '../../../src/daml/lf/lfValueCheck';
import { sourceArgumentFields, sourceArgumentIssues } from '../../../src/execute/sourceArgumentTypes';
import type { LedgerClient } from '../../../src/ledger/ledgerClient';
import { argumentTypeIssues, type ArgumentTypeReaders } from '../../../src/panels/argumentTypeReaders';
import { partnerDalf } from '../../../fake-ledger/src/partnerPackage';

const ALICE = `Alice::1220${'aa'.repeat(32)}`;
const TOKEN = '#canton-lens-partner-app:Partner.Token:Token';
const partner = [decodeArchive(partnerDalf())];
const root = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'workspace', 'daml-model');
const file = `file://${root}/daml/Settlement.daml`;
const text = fs.readFileSync(path.join(root, 'daml', 'Settlement.daml'), 'utf8');
// Never called: the readers here answer without a node.
const client = {} as LedgerClient;

function readers(): { readers: ArgumentTypeReaders; indexReads: () => number } {
  let reads = 0;
  const index = new DamlIndex();
  index.setFile(file, text, { root, name: 'canton-lens-demo-model', version: '1.0.0', source: `${root}/daml` });
  return {
    readers: {
      signatures: async () => ({ packages: partner }),
      damlSource: { index: async () => (reads++, index), fileText: (f) => (f === file ? text : undefined) },
      checks: () => ({ commandArgumentIssues, sourceArgumentFields, sourceArgumentIssues }),
    },
    indexReads: () => reads,
  };
}

describe('the types arguments are checked against', () => {
  const token = (over: Record<string, unknown>) => ({
    CreateCommand: { templateId: TOKEN, createArguments: { ...(lfArgumentSkeleton(partner, TOKEN, undefined, ALICE)!.value as object), ...over } },
  });
  const settlement = (legs: unknown) => ({
    CreateCommand: {
      templateId: '#canton-lens-demo-model:Settlement:Settlement',
      createArguments: { operator: ALICE, buyer: ALICE, seller: ALICE, legs, memo: 'm' },
    },
  });

  it("reads the workspace's Daml index only for a template the node's packages do not describe", async () => {
    const r = readers();
    const judged = await argumentTypeIssues(r.readers, client, [token({ active: 'true' })], '3.5.2');
    assert.equal(r.indexReads(), 0, 'every template is in the packages: the index is not read');
    assert.match(issueLines(judged.lf)![0], /createArguments\.active: a Bool is written as true or false/);
    assert.equal(judged.source, undefined);

    const both = await argumentTypeIssues(r.readers, client, [token({}), settlement(2)], '3.5.2');
    assert.equal(r.indexReads(), 1);
    assert.deepEqual(both.lf, []);
    assert.match(issueLines(both.source)![0], /^commands\[1\]\.CreateCommand\.createArguments\.legs: an Int64 is written as text/);
  });

  it('judges nothing by the source without it, and nothing at all without the checks', async () => {
    const r = readers();
    const { damlSource: _, ...noSource } = r.readers;
    assert.deepEqual(await argumentTypeIssues(noSource, client, [settlement(2)], '3.5.2'), { lf: undefined, source: undefined });
    const noChecks = {
      ...r.readers,
      checks: () => {
        throw new Error('no bundle');
      },
    };
    assert.deepEqual(await argumentTypeIssues(noChecks, client, [settlement(2)], '3.5.2'), {});
    assert.equal(r.indexReads(), 0);
  });
});
