// A lookup panel's back and forward, and the state a window reload brings back.
import * as assert from 'node:assert/strict';
import { HISTORY_LIMIT, PanelHistory } from '../../../src/panels/panelHistory';
import type { PanelTarget } from '../../../src/panels/panelTargets';

const target = (n: number): PanelTarget => ({ kind: 'contract', id: `00${String(n).padStart(64, '0')}`, node: 'p1' });

describe('panel history', () => {
  it('goes back and forward, and only as far as there is', () => {
    const h = new PanelHistory({ history: [target(1)], index: 0 });
    assert.equal(h.canGoBack, false);
    assert.equal(h.back(), false);
    h.navigate(target(2));
    h.navigate(target(3));
    assert.deepEqual(h.current, target(3));
    assert.equal(h.forward(), false);
    assert.equal(h.back(), true);
    assert.deepEqual(h.current, target(2));
    assert.equal(h.canGoForward, true);
    assert.equal(h.forward(), true);
    assert.deepEqual(h.current, target(3));
  });

  it('drops what was ahead when it goes somewhere new, as a browser does', () => {
    const h = new PanelHistory({ history: [target(1), target(2), target(3)], index: 2 });
    h.back();
    h.back();
    h.navigate(target(4));
    assert.deepEqual(h.state, { history: [target(1), target(4)], index: 1 });
    assert.equal(h.canGoForward, false);
  });

  it(`keeps the last ${HISTORY_LIMIT} targets`, () => {
    const h = new PanelHistory({ history: [target(0)], index: 0 });
    for (let i = 1; i <= HISTORY_LIMIT + 10; i++) h.navigate(target(i));
    const { history, index } = h.state;
    assert.equal(history.length, HISTORY_LIMIT);
    assert.equal(index, HISTORY_LIMIT - 1);
    assert.deepEqual(history[0], target(11));
    assert.deepEqual(h.current, target(HISTORY_LIMIT + 10));
  });

  it('changes the current target in place (another shape) without moving', () => {
    const h = new PanelHistory({ history: [target(1), target(2)], index: 0 });
    h.replaceCurrent({ ...target(1), recordedAs: 'alice' });
    assert.deepEqual(h.state, { history: [{ ...target(1), recordedAs: 'alice' }, target(2)], index: 0 });
  });

  it('hands out its state as a copy, and takes a restored one as a copy', () => {
    const restored = { history: [target(1)], index: 0 };
    const h = new PanelHistory(restored);
    const saved = h.state;
    h.navigate(target(2));
    assert.deepEqual(saved, { history: [target(1)], index: 0 }, 'a state already sent does not change');
    assert.deepEqual(restored.history, [target(1)]);
  });

  it('keeps an index out of range within the history', () => {
    assert.deepEqual(new PanelHistory({ history: [target(1), target(2)], index: 7 }).current, target(2));
    assert.deepEqual(new PanelHistory({ history: [target(1), target(2)], index: -3 }).current, target(1));
  });
});
