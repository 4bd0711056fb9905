// Part of the `packages` section: Daml-LF signatures decoded from the fake node's largest package
// (the partner app's) and from a 5 MB archive written by the fake's encoder, cold and from the cache
// (a package id is decoded once a session). The floor is hashing the payload, which every decode does.
// A decode checks the whole package and builds a module's definitions when first asked for: a row
// says what building every module costs on top (what listing every template of the package asks).
import { createHash } from 'node:crypto';
import { lfArgumentSkeleton, lfChoiceCandidates, lfTemplateCandidates } from '../../src/daml/lf/lfCompletions';
import { SignatureCache } from '../../src/daml/lf/lfPackages';
import { lfArchive, lfPayload, packageIdOfPayload, T, type ModuleDesc } from '../../fake-ledger/src/lfEncode';
import { partnerDalf } from '../../fake-ledger/src/partnerPackage';
import type { BenchRow } from './browseBench';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A package of `modules` modules (named `name`) of 20 templates with 12 fields and 3 choices each. */
export function bigPackage(modules: number, name = 'bench-big'): Uint8Array {
  return lfArchive(bigPayload(modules, name));
}

function bigPayload(modules: number, name: string): Uint8Array {
  const mods: ModuleDesc[] = Array.from({ length: modules }, (_, m) => ({
    name: `Big.M${m}`,
    enums: [{ name: 'Kind', values: ['A', 'B', 'C'] }],
    templates: Array.from({ length: 20 }, (_, t) => ({
      name: `T${t}`,
      fields: Array.from(
        { length: 12 },
        (_, f) => [`field${f}_${t}`, [T.party, T.numeric(10), T.optional(T.text), T.list(T.con(`Big.M${m}:Kind`))][f % 4]] as [string, ReturnType<typeof T.v>],
      ),
      key: T.party,
      choices: Array.from({ length: 3 }, (_, c) => ({
        name: `T${t}_C${c}`,
        fields: [[`arg${c}`, T.numeric(c + 2)]] as [string, ReturnType<typeof T.v>][],
        returns: T.cid(T.con(`Big.M${m}:T${t}`)),
      })),
    })),
  }));
  return lfPayload({ name, version: '1.0.0', modules: mods });
}

function decodeRows(add: (r: BenchRow) => void, label: string, dalf: Uint8Array, coldTarget: number): void {
  const cold: number[] = [];
  const cached: number[] = [];
  const built: number[] = [];
  const floor: number[] = [];
  for (let run = 0; run < 7; run++) {
    const cache = new SignatureCache();
    let t = performance.now();
    createHash('sha256').update(dalf).digest('hex');
    floor.push(performance.now() - t);
    t = performance.now();
    const sig = cache.decode(dalf);
    cold.push(performance.now() - t);
    t = performance.now();
    for (let i = 0; i < 100; i++) cache.decode(dalf, sig.packageId);
    cached.push((performance.now() - t) / 100);
    t = performance.now();
    let templates = 0;
    for (const m of sig.modules) templates += m.templates.length;
    built.push(performance.now() - t);
    if (templates === 0) throw new Error(`${label} has no templates`);
  }
  const size = dalf.length >= 1024 * 1024 ? `${(dalf.length / (1024 * 1024)).toFixed(1)} MB` : `${Math.round(dalf.length / 1024)} KB`;
  add({
    area: 'packages',
    measure: `Daml-LF signatures of ${label} (${size}), cold (floor: hashing it)`,
    value: median(cold),
    unit: 'ms',
    baseline: median(floor),
    target: `≤ ${coldTarget} ms`,
    ok: median(cold) <= coldTarget,
  });
  add({
    area: 'packages',
    measure: `Daml-LF signatures of ${label}, every module's definitions built after the decode`,
    value: median(built),
    unit: 'ms',
  });
  add({
    area: 'packages',
    measure: `Daml-LF signatures of ${label}, from the cache`,
    value: median(cached),
    unit: 'ms',
    target: '≤ 1 ms',
    ok: median(cached) <= 1,
  });
}

export function lfDecodeBench(add: (r: BenchRow) => void): void {
  decodeRows(add, "the fake node's largest package", partnerDalf(), 300);
  let modules = 10;
  let big = bigPackage(modules);
  while (big.length < 5 * 1024 * 1024) big = bigPackage((modules = Math.ceil((modules * 5.2 * 1024 * 1024) / big.length)));
  decodeRows(add, 'a 5 MB archive', big, 300);
}

/**
 * Completion in a *.commands.json with 200 packages on the node (each 2 modules of 20 templates):
 * every template id, then the choices of one with their argument skeletons, from signatures already
 * read, the first time after the node's list is read again (it is reused for 30 s, and the
 * candidates with it; each package's own candidates are kept with its signature, for the session).
 * The floor is listing the template names alone. A row without a target says what the session's
 * first completion costs, each package's modules built and candidates made.
 */
export function lfCompletionBench(add: (r: BenchRow) => void): void {
  const cache = new SignatureCache();
  const sigs = Array.from({ length: 200 }, (_, i) => {
    const payload = bigPayload(2, `bench-pkg-${i}`);
    return cache.decodePayload(payload, packageIdOfPayload(payload));
  });
  const one = `#bench-pkg-7:Big.M1:T3`;
  const floor: number[] = [];
  const took: number[] = [];
  for (let run = 0; run < 7; run++) {
    let t = performance.now();
    const names: string[] = [];
    for (const s of sigs) for (const m of s.modules) for (const x of m.templates) names.push(`${s.packageId}:${m.name}:${x.name}`);
    floor.push(performance.now() - t);
    t = performance.now();
    // A new list each run: the first completion after the node's list is read again.
    const list = [...sigs];
    const templates = lfTemplateCandidates(list);
    const choices = lfChoiceCandidates(list, one).map((c) => lfArgumentSkeleton(list, one, c.label, 'Alice::1220'));
    took.push(performance.now() - t);
    if (templates.length < 200 * 40 || choices.length !== 4) throw new Error(`completion listed ${templates.length} templates, ${choices.length} choices`);
  }
  add({
    area: 'packages',
    measure: 'Completion of template ids and choices, 200 packages on the node, the first of the session',
    value: took[0],
    unit: 'ms',
  });
  add({
    area: 'packages',
    measure: "Completion of template ids and of one template's choices with skeletons, 200 packages on the node (floor: listing the template names)",
    value: median(took),
    unit: 'ms',
    baseline: median(floor),
    target: '≤ 50 ms',
    ok: median(took) <= 50,
  });
}
