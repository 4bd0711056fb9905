// Thousands of generated bodies against every route of the fake node, on each version: random
// JSON, valid bodies with one field mutated, truncated bodies. Every answer must be one the spec
// allows, no handler may fail, and the node must still answer afterwards. Seeded: a failure
// names its seed and case, and repeats.
import * as assert from 'node:assert/strict';
import { FakeLedgerNode, type FakeVersion } from '../src/testing';
import { ApiSchemas } from '../src/spec/apiSchemas';
import { send, USER_FOR, validBodies } from '../../test/support/specBodies';

const CASES_PER_ROUTE = 240;
const SEED = 0x5eed;

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(random: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const strings = [
    '',
    'x',
    'TRANSACTION_SHAPE_ACS_DELTA',
    'HASHING_SCHEME_VERSION_V2',
    'Alice::1220',
    '<script>',
    '\u0000',
    '💥',
    'a'.repeat(300),
    '1220'.padEnd(68, 'f'),
    '00'.padEnd(138, 'a'),
  ];
  const value = (depth: number): unknown => {
    const kind = Math.floor(random() * (depth > 2 ? 5 : 8));
    switch (kind) {
      case 0:
        return null;
      case 1:
        return random() < 0.5;
      case 2:
        return pick([0, -1, 1.5, 2 ** 63, Number.MAX_SAFE_INTEGER]);
      case 3:
      case 4:
        return pick(strings);
      case 5:
        return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: Math.floor(random() * 3) }, () => [
            pick(['value', 'cumulative', 'filtersByParty', 'WildcardFilter', 'x', '__proto__', 'constructor']),
            value(depth + 1),
          ]),
        );
    }
  };
  /** Every path into a JSON value: where a mutation may land. */
  const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] => {
    const out = [at];
    if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
    return out;
  };
  const mutate = (body: Record<string, unknown>): unknown => {
    const copy = structuredClone<Record<string, unknown>>(body);
    const target = pick(paths(copy).filter((p) => p.length > 0));
    let parent: Record<string | number, unknown> = copy;
    for (const k of target.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = target[target.length - 1];
    if (random() < 0.3 && !Array.isArray(parent)) delete parent[last];
    else parent[last] = value(1);
    return copy;
  };
  return { pick, value, mutate };
}

for (const version of ['3.4', '3.5', '3.6'] as FakeVersion[]) {
  describe(`the fake node on ${version} under generated bad input`, function () {
    this.timeout(60_000);
    let node: FakeLedgerNode;
    const failures: unknown[] = [];

    before(async () => {
      node = await FakeLedgerNode.start({ version, bigTransactionEvents: 10, checkResponses: true, onInternalError: (e) => failures.push(e) });
    });
    after(() => node.close());

    it(`answers ${CASES_PER_ROUTE} bodies per route as the spec allows, and stays up`, async () => {
      const random = rng(SEED + Number(version.slice(2)));
      const g = generator(random);
      const tokens = ['alice', 'dana', 'reader', 'participant_admin'].map((u) => node.mintToken(u));
      const statuses = new Map<number, number>();
      for (const [route, valid] of Object.entries(validBodies(node))) {
        if (!ApiSchemas.for(version).route(route)) continue;
        const path = route.split(' ')[1];
        const cases = Array.from({ length: CASES_PER_ROUTE }, (_, i) => {
          const text = JSON.stringify(valid);
          const body =
            i % 4 === 0 ? JSON.stringify(g.value(0)) : i % 4 === 1 ? text.slice(0, Math.floor(random() * text.length)) : JSON.stringify(g.mutate(valid));
          const token = random() < 0.7 ? node.mintToken(USER_FOR[route]) : g.pick(tokens);
          return { body: body ?? '', token };
        });
        for (let i = 0; i < cases.length; i += 16) {
          const replies = await Promise.all(
            cases.slice(i, i + 16).map((c) => send(node, 'POST', path, c.body, { authorization: `Bearer ${c.token}` }).then((r) => ({ ...r, body: c.body }))),
          );
          for (const r of replies) {
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            assert.ok([200, 400, 403, 404].includes(r.status), `${route} answered ${r.status} to ${r.body.slice(0, 200)}: ${r.text.slice(0, 200)}`);
          }
        }
      }
      assert.deepEqual(failures, [], 'no handler failed');
      assert.deepEqual(node.responseProblems, [], 'every answer is one the spec allows');
      assert.equal((await send(node, 'GET', '/v2/version')).status, 200, 'the node still answers');
      // The bodies reached past decoding too: some were refused for rights or ids, some found.
      for (const s of [200, 400, 403]) assert.ok((statuses.get(s) ?? 0) > 0, `some answers were ${s}: ${JSON.stringify([...statuses])}`);
    });
  });
}
