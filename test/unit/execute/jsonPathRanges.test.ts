import * as assert from 'node:assert/strict';
import { jsonValueSpans, spanOf } from '../../../src/execute/jsonPathRanges';

describe('JSON path spans', () => {
  const text = '{\n  "a": { "b": [ 1, { "c": "x\\"y" } ] },\n  "d": true\n}';
  const spans = jsonValueSpans(text);
  const at = (p: string) => {
    const s = spanOf(spans, p)!;
    return text.slice(s.start, s.end);
  };

  it('finds the text of values by path', () => {
    assert.equal(at('$.a.b[1].c'), '"x\\"y"');
    assert.equal(at('$.a.b[0]'), '1');
    assert.equal(at('$.d'), 'true');
    assert.ok(at('$').startsWith('{') && at('$').endsWith('}'));
  });

  it('falls back to the nearest parent for missing fields, and survives broken JSON', () => {
    assert.equal(at('$.a.b[1].missing'), '{ "c": "x\\"y" }');
    assert.equal(at('$.nope.deeper'), text);
    assert.doesNotThrow(() => jsonValueSpans('{ "a": [1, '));
  });
});
