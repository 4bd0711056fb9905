import * as assert from 'node:assert/strict';
import { defType, signatureFromDefinitions, type DefTypeSig } from '../../../src/daml/lf/lfDefinitions';
import { showType } from '../../../src/daml/lf/lfSignatures';

// The definitions service's JSON (circe's derived codecs of Canton's TypeSig) read as the decoder's types.
const P = 'p'.repeat(64);

describe("the definitions service's answers as signatures", () => {
  it('reads every serializable type form', () => {
    const shown = (t: Parameters<typeof defType>[0]) => showType(defType(t));
    assert.equal(shown({ Int64: {} }), 'Int64');
    assert.equal(shown({ Unit: {} }), '()');
    assert.equal(shown({ Numeric: { scale: 10 } }), 'Numeric 10');
    assert.equal(shown({ List: { typ: { Party: {} } } }), '[Party]');
    assert.equal(shown({ Optional: { typ: { ContractId: { typeId: { Template: { tycon: `${P}:M:Iou` } } } } } }), 'Optional (ContractId Iou)');
    assert.equal(shown({ ContractId: { typeId: { Interface: { tycon: `${P}:M:Holding` } } } }), 'ContractId Holding');
    assert.equal(shown({ ContractId: { typeId: null } }), 'ContractId t', 'a contract id of a type it does not name');
    assert.equal(shown({ GenMap: { k: { Text: {} }, v: { Date: {} } } }), 'Map Text Date');
    assert.equal(shown({ Record: { tyCon: `${P}:M:Pair`, params: [{ Var: { name: 'a' } }, { Bool: {} }] } }), 'Pair a Bool');
    assert.equal(shown({ Variant: { tyCon: `${P}:M:Either`, params: [] } }), 'Either');
    assert.deepEqual(defType({ Enum: { tycon: `${P}:A.B:Color` } }), { kind: 'con', ref: { packageId: P, module: 'A.B', name: 'Color' }, args: [] });
  });

  it('groups definitions by module, templates with their keys, choices and interfaces, interfaces with their views', () => {
    const sig: DefTypeSig = {
      enumDefs: { [`${P}:M:Color`]: { constructor: ['Red', 'Green'] } },
      variantDefs: {},
      recordDefs: {
        [`${P}:M:Iou`]: { params: [], fields: { owner: { Party: {} }, amount: { Numeric: { scale: 10 } } } },
        [`${P}:N:View`]: { params: [], fields: {} },
      },
      templateDefs: {
        [`${P}:M:Iou`]: {
          key: { Party: {} },
          choices: { Archive: { consuming: true, argType: { Record: { tyCon: `${P}:M:Archive`, params: [] } }, returnType: { Unit: {} } } },
          implements: [`${P}:N:Holding`],
        },
      },
      interfaceDefs: { [`${P}:N:Holding`]: { choices: {}, viewType: { Record: { tyCon: `${P}:N:View`, params: [] } } } },
    };
    const s = signatureFromDefinitions(P, 'pkg', '1.0.0', sig);
    assert.deepEqual(
      s.modules.map((m) => m.name),
      ['M', 'N'],
    );
    const [m, n] = s.modules;
    assert.deepEqual(
      m.dataTypes.map((d) => `${d.kind} ${d.name}`),
      ['record Iou', 'enum Color'],
    );
    assert.equal(m.templates[0].keyType && showType(m.templates[0].keyType), 'Party');
    assert.deepEqual(m.templates[0].implements, [{ packageId: P, module: 'N', name: 'Holding' }]);
    assert.equal(showType(n.interfaces[0].viewType), 'View');
    assert.equal(s.lfVersion, '');
  });
});
