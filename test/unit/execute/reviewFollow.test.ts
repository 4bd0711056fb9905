// A review follows its request file: one read after a burst of edits, none while a send is in
// flight (it tries again after), none for a text the review already shows.
import * as assert from 'node:assert/strict';
import { Debounced, followStep, type Timers } from '../../../src/execute/reviewFollow';
import { requestProblemsBody } from '../../../src/panels/html/requestProblemsHtml';

/** Timers run by hand: `tick` runs what is due. */
function manualTimers(): Timers & { pending: () => number; tick: () => Promise<void> } {
  let next = 0;
  const due = new Map<number, () => void>();
  return {
    setTimeout: (run) => {
      due.set(++next, run);
      return next;
    },
    clearTimeout: (h) => void due.delete(h as number),
    pending: () => due.size,
    tick: async () => {
      const runs = [...due.values()];
      due.clear();
      for (const r of runs) r();
      // Let the run's promise settle.
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('a review following its file', () => {
  it('reloads a new text, keeps a text it shows, and waits while a send is in flight', () => {
    assert.equal(followStep('{"a":2}', '{"a":1}', false), 'reload');
    assert.equal(followStep('{"a":1}', '{"a":1}', false), 'same');
    assert.equal(followStep('{"a":2}', '{"a":1}', true), 'wait');
    assert.equal(followStep('{', undefined, false), 'reload');
  });

  it('reads once after a burst of edits', async () => {
    const timers = manualTimers();
    let runs = 0;
    const d = new Debounced(() => void runs++, 300, timers);
    d.poke();
    d.poke();
    d.poke();
    assert.equal(timers.pending(), 1, 'one timer for the burst');
    await timers.tick();
    assert.equal(runs, 1);
    assert.equal(timers.pending(), 0);
  });

  it('tries again after a send in flight, and stops once disposed', async () => {
    const timers = manualTimers();
    let busy = true;
    let reloads = 0;
    const d = new Debounced(
      () => {
        const step = followStep('new', 'old', busy);
        if (step === 'reload') reloads++;
        return step;
      },
      300,
      timers,
    );
    d.poke();
    await timers.tick();
    assert.equal(reloads, 0, 'not while busy');
    assert.equal(timers.pending(), 1, 'tries again later');
    busy = false;
    await timers.tick();
    assert.equal(reloads, 1);
    assert.equal(timers.pending(), 0);
    d.poke();
    d.dispose();
    assert.equal(timers.pending(), 0);
    d.poke();
    assert.equal(timers.pending(), 0, 'nothing after dispose');
  });
});

describe('the problems a review shows in place of a stale request', () => {
  it('names the file and each problem, escaped, with no Submit', () => {
    const text = requestProblemsBody({
      fileName: 'split.commands.json',
      node: 'Demo',
      title: 'Review commands',
      problems: [{ path: '$', message: 'Not valid JSON: <img src=x onerror=alert(1)>' }],
    }).text;
    assert.match(text, /split\.commands\.json/);
    assert.match(text, /Not valid JSON: &lt;img/);
    assert.doesNotMatch(text, /<img/);
    assert.doesNotMatch(text, /data-action="submit"/);
  });
});
