// Development keys right after they are generated: signing never depends on globalState or the
// secret store having caught up. The memento below hands back an older list after each update,
// as globalState can when its store's change events arrive late.
import * as assert from 'node:assert/strict';
import { DevSigningKeys } from '../../../src/services/devSigningKeys';

class LaggingMemento {
  private values = new Map<string, unknown>();
  private previous = new Map<string, unknown>();
  stale = true;
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T {
    const v = this.stale && this.previous.has(key) ? this.previous.get(key) : this.values.get(key);
    return (v ?? fallback) as T;
  }
  update(key: string, value: unknown): Promise<void> {
    this.previous.set(key, this.values.get(key));
    this.values.set(key, value);
    return Promise.resolve();
  }
}

class SlowSecrets {
  private readonly values = new Map<string, string>();
  readonly onDidChange = () => ({ dispose: () => undefined });
  store(key: string, value: string): Promise<void> {
    // Stored later than the caller's await returns (an asynchronous store).
    setTimeout(() => this.values.set(key, value), 50);
    return Promise.resolve();
  }
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
  keys(): Promise<string[]> {
    return Promise.resolve([...this.values.keys()]);
  }
}

describe('development signing keys', () => {
  it('a key just generated signs at once, and stays listed, while the stores hand back older values', async () => {
    const memento = new LaggingMemento();
    const keys = new DevSigningKeys(new SlowSecrets(), memento);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const info = await keys.generate();
      made.push(info.fingerprint);
      assert.ok(await keys.privateKey(info.fingerprint), `key ${i + 1} can sign right away`);
      assert.deepEqual(
        keys.list().map((k) => k.fingerprint),
        made,
        'every key generated so far is listed',
      );
    }
    // Once the store has caught up, what it holds is every key.
    memento.stale = false;
    assert.deepEqual(
      keys.list().map((k) => k.fingerprint),
      made,
    );
  });

  it('a key of another window whose secret is gone is dropped from the list; delete forgets one of this window', async () => {
    const memento = new LaggingMemento();
    memento.stale = false;
    const secrets = new SlowSecrets();
    const other = new DevSigningKeys(secrets, memento);
    const info = await other.generate();
    // A second window sees the list but not the secret (deleted elsewhere).
    const here = new DevSigningKeys(secrets, memento);
    await new Promise((r) => setTimeout(r, 60)); // the store has caught up
    await secrets.delete(`cantonLens.devSigningKey.${info.fingerprint}`);
    assert.equal(await here.privateKey(info.fingerprint), undefined);
    assert.deepEqual(here.list(), []);
    await other.delete(info.fingerprint);
    assert.equal(await other.privateKey(info.fingerprint), undefined);
  });
});
