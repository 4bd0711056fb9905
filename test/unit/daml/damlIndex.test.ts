// The Daml text index: declarations found without the SDK, comments and strings that
// only look like declarations, nested modules, several packages, upgrades, and daml.yaml.
import * as assert from 'node:assert/strict';
import { DamlIndex, parseTemplateId } from '../../../src/daml/damlIndex';
import { compareVersions, parseDamlYaml, projectFor } from '../../../src/daml/damlProject';
import { blankCommentsAndStrings, moduleFromPath, scanDamlSource } from '../../../src/daml/damlSource';

const IOU = `module Iou where

import Daml.Script

-- | An I owe you. "template Fake" in a comment is not a template.
template Iou
  with
    issuer : Party
    owner : Party
    amount : Decimal
  where
    signatory issuer
    observer owner

    choice Iou_Transfer : ContractId Iou
      with newOwner : Party
      controller owner
      do create this with owner = newOwner

    nonconsuming choice Iou_Peek : Decimal
      controller owner
      do pure amount

{- A block comment
   template Hidden
   {- nested: template Deeper -}
   choice StillHidden : ()
-}
describe : Text
describe = "\\
  \\template NotOne with"

template Other with
    p : Party
  where
    signatory p
    choice Other_Archive : () -- template InTrailingComment
      controller p
      do pure ()

arrow = x --> y
  where choiceNotKeyword = '"'

choice Orphan : ()
`;

describe('scanning a Daml file', () => {
  it('finds the module, templates and their choices with lines and columns', () => {
    const s = scanDamlSource(IOU);
    assert.equal(s.module, 'Iou');
    const found = s.decls.map((d) => [d.kind, d.name, d.parent ?? '', d.line, d.column]);
    assert.deepEqual(found, [
      ['template', 'Iou', '', 5, 9],
      ['choice', 'Iou_Transfer', 'Iou', 14, 11],
      ['choice', 'Iou_Peek', 'Iou', 19, 24],
      ['template', 'Other', '', 32, 9],
      ['choice', 'Other_Archive', 'Other', 36, 11],
      ['choice', 'Orphan', '', 43, 7],
    ]);
  });

  it('ignores declarations in comments, nested block comments, strings, string gaps and character literals', () => {
    const names = scanDamlSource(IOU).decls.map((d) => d.name);
    for (const n of ['Fake', 'Hidden', 'Deeper', 'StillHidden', 'NotOne', 'InTrailingComment']) assert.ok(!names.includes(n), n);
    const blanked = blankCommentsAndStrings('x = "a -- b" -- c\ny = \'"\' {- "q" -} z');
    assert.match(blanked, /^x = +\ny = +z$/);
    assert.equal(blanked.length, 'x = "a -- b" -- c\ny = \'"\' {- "q" -} z'.length, 'offsets stay');
  });

  it('reads interfaces (not interface instances), their choices, and nested module names', () => {
    const s = scanDamlSource(
      [
        'module Finance.Holding.V2 (Holding(..)) where',
        'data HoldingView = HoldingView with owner : Party',
        'interface Holding where',
        '  viewtype HoldingView',
        '  getOwner : Party',
        '  choice Holding_Split : [ContractId Holding]',
        '    with amounts : [Decimal]',
        '    controller (view this).owner',
        '    do pure []',
        'template Cash with owner : Party where',
        '  signatory owner',
        '  interface instance Holding for Cash where',
        '    view = HoldingView owner',
        '  postconsuming choice Cash_Burn : ()',
        '    controller owner',
        '    do pure ()',
      ].join('\n'),
    );
    assert.equal(s.module, 'Finance.Holding.V2');
    assert.deepEqual(
      s.decls.map((d) => `${d.kind} ${d.parent ? `${d.parent}.` : ''}${d.name}`),
      ['interface Holding', 'choice Holding.Holding_Split', 'template Cash', 'choice Cash.Cash_Burn'],
    );
    assert.equal(moduleFromPath('Finance/Holding/V2.daml'), 'Finance.Holding.V2');
    assert.equal(moduleFromPath('lower/X.daml'), undefined);
  });

  it('reads a file with no declarations, and every template and choice of a 5,000-line file (its speed: the daml bench)', () => {
    assert.deepEqual(scanDamlSource('x = 1\n'), { decls: [] });
    const big = Array.from(
      { length: 270 },
      (_, i) =>
        `template T${i}\n  with p : Party\n  where\n    signatory p\n    -- choice Fake${i} : ()\n${Array.from({ length: 14 }, (__, k) => `    choice C${i}_${k} : () controller p do pure ()`).join('\n')}\n`,
    ).join('');
    const text = `module Big where\n${big}`;
    assert.ok(text.split('\n').length > 5000);
    const s = scanDamlSource(text);
    assert.equal(s.decls.filter((d) => d.kind === 'template').length, 270);
    assert.equal(s.decls.filter((d) => d.kind === 'choice').length, 270 * 14);
    assert.equal(s.decls.at(-1)!.parent, 'T269');
  });
});

describe('daml.yaml', () => {
  it('reads name, version and the source folder (default daml), ignoring nested keys and comments', () => {
    const p = parseDamlYaml(
      'sdk-version: 3.4.0\nname: "canton-lens-demo-model"   \nsource: src/main # the modules\nversion: 1.2.0\nbuild-options:\n  - --target=2.1\n  name: nested\n',
      '/w/model/',
    );
    assert.deepEqual(p, { root: '/w/model', name: 'canton-lens-demo-model', version: '1.2.0', source: '/w/model/src/main' });
    assert.equal(parseDamlYaml('name: x\n', 'C:\\w\\x').source, 'C:/w/x/daml');
    assert.equal(parseDamlYaml('source: ../common\n', '/w/x').source, '/w/common');
  });

  it('puts a file in the deepest project whose source holds it', () => {
    const outer = parseDamlYaml('name: outer\nsource: .\n', '/w');
    const inner = parseDamlYaml('name: inner\n', '/w/inner');
    assert.equal(projectFor('/w/inner/daml/A.daml', [outer, inner])?.name, 'inner');
    assert.equal(projectFor('/w/other/A.daml', [outer, inner])?.name, 'outer');
    assert.equal(projectFor('/elsewhere/A.daml', [outer, inner]), undefined);
    assert.equal(projectFor('/w/innerdaml/A.daml', [inner]), undefined, 'a folder prefix is not a parent');
  });

  it('orders versions numerically', () => {
    assert.ok(compareVersions('1.10.0', '1.9.0') > 0);
    assert.ok(compareVersions('2.0.0', '10.0.0') < 0);
    assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
  });
});

describe('finding a ledger name in the index', () => {
  const v1 = parseDamlYaml('name: canton-lens-demo-model\nversion: 1.0.0\n', '/w/model-v1');
  const v2 = parseDamlYaml('name: canton-lens-demo-model\nversion: 1.1.0\n', '/w/model-v2');
  const other = parseDamlYaml('name: acs-finance\nversion: 1.0.0\n', '/w/finance');
  const holding = parseDamlYaml('name: canton-lens-demo-holding\nversion: 1.0.0\n', '/w/holding');
  const index = new DamlIndex();
  index.setFile('/w/model-v1/daml/Iou.daml', IOU, v1);
  index.setFile('/w/model-v2/daml/Iou.daml', IOU.replace('nonconsuming choice Iou_Peek', 'nonconsuming choice Iou_Peek2'), v2);
  index.setFile('/w/finance/daml/Iou.daml', 'module Iou where\ntemplate Iou with p : Party where signatory p\n', other);
  index.setFile(
    '/w/holding/daml/Finance/Holding.daml',
    'module Finance.Holding where\ninterface Holding where\n  viewtype V\n  choice Holding_Split : ()\n    controller p\n    do pure ()\n',
    holding,
  );
  index.setFile('/w/loose/Bank/Account.daml', 'template Account with p : Party where signatory p\n', undefined, 'Bank.Account');
  const PKG = 'f'.repeat(64);

  it('matches by package name (from the event, or #name in the id), every version newest first', () => {
    const m = index.find({ templateId: `${PKG}:Iou:Iou`, packageName: 'canton-lens-demo-model' })!;
    assert.equal(m.exact, true);
    assert.deepEqual(
      m.targets.map((t) => [t.packageName, t.packageVersion, t.line]),
      [
        ['canton-lens-demo-model', '1.1.0', 5],
        ['canton-lens-demo-model', '1.0.0', 5],
      ],
    );
    const byRef = index.find({ templateId: '#acs-finance:Iou:Iou' })!;
    assert.deepEqual(
      byRef.targets.map((t) => t.file),
      ['/w/finance/daml/Iou.daml'],
    );
  });

  it('matches a package-id template id by module and entity, offering every package', () => {
    const m = index.find({ templateId: `${PKG}:Iou:Iou` })!;
    assert.deepEqual(
      m.targets.map((t) => t.packageName),
      ['acs-finance', 'canton-lens-demo-model', 'canton-lens-demo-model'],
    );
    assert.deepEqual(index.find({ templateId: 'Iou:Iou' })!.targets.length, 3);
  });

  it('finds a choice inside its template; only the versions that declare it', () => {
    const m = index.find({ templateId: `${PKG}:Iou:Iou`, packageName: 'canton-lens-demo-model', choice: 'Iou_Peek2' })!;
    assert.deepEqual(
      m.targets.map((t) => [t.packageVersion, t.kind, t.choice, t.line, t.column]),
      [['1.1.0', 'choice', 'Iou_Peek2', 19, 24]],
    );
    const missing = index.find({ templateId: `${PKG}:Iou:Iou`, packageName: 'canton-lens-demo-model', choice: 'Nope' })!;
    assert.equal(missing.choiceMissing, true);
    assert.equal(missing.targets.length, 2, 'the template itself, to look around');
    const viaInterface = index.find({ templateId: `${PKG}:Finance.Holding:Holding`, choice: 'Holding_Split' })!;
    assert.deepEqual(
      viaInterface.targets.map((t) => [t.kind, t.entity, t.line]),
      [['choice', 'Holding', 3]],
    );
  });

  it('says when the named package does not define it, and offers the others', () => {
    const m = index.find({ templateId: `${PKG}:Iou:Iou`, packageName: 'some-other' })!;
    assert.equal(m.exact, false);
    assert.equal(m.targets.length, 3);
    const none = index.find({ templateId: `${PKG}:Nowhere:Thing`, packageName: 'x' })!;
    assert.deepEqual([none.targets.length, none.module, none.entity, none.packageName], [0, 'Nowhere', 'Thing', 'x']);
    assert.equal(index.find({ templateId: 'no colon' }), undefined);
  });

  it('uses the module from the path for a file without a header; forgets removed and replaced files', () => {
    assert.equal(index.find({ templateId: 'p:Bank.Account:Account' })!.targets[0].file, '/w/loose/Bank/Account.daml');
    const i = new DamlIndex();
    i.setFile('/a.daml', 'module A where\ntemplate T with p : Party where signatory p\n');
    i.setFile('/a.daml', 'module A where\ntemplate U with p : Party where signatory p\n');
    assert.equal(i.find({ templateId: 'p:A:T' })!.targets.length, 0);
    assert.equal(i.find({ templateId: 'p:A:U' })!.targets.length, 1);
    i.removeFile('/a.daml');
    assert.equal(i.size, 0);
    assert.equal(i.find({ templateId: 'p:A:U' })!.targets.length, 0);
  });

  it('parses template ids of each shape, modules with dots', () => {
    assert.deepEqual(parseTemplateId('abc:A.B.C:E'), { packageId: 'abc', module: 'A.B.C', entity: 'E' });
    assert.deepEqual(parseTemplateId('#my-pkg:A:E'), { packageName: 'my-pkg', module: 'A', entity: 'E' });
    assert.deepEqual(parseTemplateId('A.B:E'), { module: 'A.B', entity: 'E' });
  });
});
