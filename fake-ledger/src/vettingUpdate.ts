// The fake node's `POST /v2/package-vetting/update` (3.4.12, 3.5, 3.6): vet or unvet packages on a
// synchronizer, as Canton's UpdateVettedPackagesOpts.fromProto, PackageService.resolveTargetVettingReferences
// and PackageOps decide it (docs/fake-node.md): a ParticipantAdmin only; each change a Vet or an
// Unvet of package references (an id, a name, a name and version, or all three); a vetting reference
// that matches no package is UNRESOLVED_VETTING_REFERENCE, one that matches several
// AMBIGUOUS_VETTING_REFERENCE; an unvetting one that matches none is ignored; a stale
// `expectedTopologySerial` is TOPOLOGY_SERIAL_MISMATCH; on 3.4 a package vets only with its
// dependencies (TOPOLOGY_DEPENDENCIES_NOT_VETTED); `dryRun` changes nothing. The answer is the
// participant's vetting on the synchronizer before and after. No `vscode` import.
import { cantonError, json, type ErrorReply } from './cantonErrorBodies';

export interface VettablePackage {
  packageId: string;
  name: string;
  version: string;
  /** Synchronizer id → when the vetting began. */
  vetted: Map<string, string>;
  /** The packages it depends on, when the node knows them (its DAR's other DALFs). */
  dependencies?: string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The parse failure ApiPackageManagementService answers (ProtoDeserializationFailure.Wrap). */
const deserialization = (reason: string) =>
  cantonError(400, 'PROTO_DESERIALIZATION_FAILURE', 'Deserialization of protobuf message failed', 8, 3, [], null, { reason });

interface Ref {
  id?: string;
  name?: string;
  version?: string;
}

/** VettedPackagesRef.process: an id, a name, a name and version, or all three. */
function readRef(raw: unknown): Ref | ErrorReply {
  const r = obj(raw);
  const ref: Ref = { id: text(r.packageId) || undefined, name: text(r.packageName) || undefined, version: text(r.packageVersion) || undefined };
  const ok = (ref.id && ref.name && ref.version) || (!ref.id && ref.name) || (ref.id && !ref.name && !ref.version);
  if (!ok || (!ref.name && ref.version))
    return deserialization(
      'InvariantViolation(package_name,Either package_id must be set, or package_name and package_version must be set, or all three must be set.)',
    );
  return ref;
}

/** How Canton prints a reference in its errors. */
function pretty(ref: Ref): string {
  if (ref.id && ref.name) return `All(id = ${ref.id}, name = ${ref.name}, version = ${ref.version})`;
  if (ref.id) return `package-id: '${ref.id}'`;
  if (ref.version) return `NameAndVersion(name = ${ref.name}, version = ${ref.version})`;
  return `package-name: '${ref.name}'`;
}

/** VettedPackagesRef.findMatchingPackages over the node's package store. */
function matching(ref: Ref, store: VettablePackage[]): VettablePackage[] | string {
  if (ref.id) {
    const p = store.find((x) => x.packageId === ref.id);
    if (!p) return `No packages with package ID ${ref.id}`;
    if (ref.name && (p.name !== ref.name || p.version !== ref.version))
      return `Package with package ID ${ref.id} has name ${p.name} and version ${p.version}, but filter specifies name ${ref.name} and version ${ref.version}`;
    return [p];
  }
  const named = store.filter((x) => x.name === ref.name);
  if (!ref.version) return named.length ? named : `No packages with name ${ref.name}`;
  if (!named.length) return `Name ${ref.name} did not match any packages.`;
  const versioned = named.filter((x) => x.version === ref.version);
  return versioned.length ? versioned : `No packages with name ${ref.name} have version ${ref.version}.`;
}

/**
 * PriorTopologySerial.fromProto: none (no check), `NoPrior` (no vetting transaction yet), or
 * `Prior` with a positive serial (ProtoConverter.parsePositiveInt).
 */
function expectedSerial(raw: unknown): number | 'none' | undefined | ErrorReply {
  const serial = obj(obj(raw).serial);
  if ('NoPrior' in serial) return 'none';
  if (!('Prior' in serial)) return undefined;
  const value = obj(serial.Prior).value;
  const n = typeof value === 'number' ? value : 0;
  if (n <= 0)
    return deserialization(`InvariantViolation(expected_topology_serial,Received the non-positive ${n} as argument, but we require a positive value here.)`);
  return n;
}

/**
 * ParticipantTopologyValidation.checkPackageDependencies: the dependencies (recursively) of each
 * package newly vetted that would not be vetted, and the packages unvetted that a package still
 * vetted depends on directly.
 */
function unvettedDependencies(store: VettablePackage[], sync: string, after: Map<string, string | undefined>): string[] {
  const byId = new Map(store.map((p) => [p.packageId, p]));
  const vettedAfter = new Set(store.filter((p) => after.get(p.packageId) !== undefined).map((p) => p.packageId));
  const added = [...vettedAfter].filter((id) => byId.get(id)?.vetted.get(sync) === undefined);
  const removed = new Set(store.filter((p) => p.vetted.get(sync) !== undefined && !vettedAfter.has(p.packageId)).map((p) => p.packageId));
  const deps = new Set<string>();
  const queue = added.flatMap((id) => byId.get(id)?.dependencies ?? []);
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (deps.has(id)) continue;
    deps.add(id);
    queue.push(...(byId.get(id)?.dependencies ?? []));
  }
  const removedDeps = [...vettedAfter].flatMap((id) => byId.get(id)?.dependencies ?? []).filter((id) => removed.has(id));
  return [...new Set([...[...deps].filter((id) => !vettedAfter.has(id)), ...removedDeps])];
}

export interface VettingUpdateContext {
  store: () => VettablePackage[];
  participantId: string;
  /** The synchronizer, as CantonSyncService.autoDetectSynchronizer picks it (the given id or the only one). */
  synchronizer: (asked: string | undefined) => { synchronizerId?: string } | ErrorReply;
  serial: (synchronizerId: string) => number;
  bumpSerial: (synchronizerId: string) => void;
  now: () => string;
  /** Whether a vetted package's dependencies must be vetted too (protocol version 34 and below: the fake's 3.4). */
  checksDependencies: boolean;
}

export function updateVetting(ctx: VettingUpdateContext, body: Json): ErrorReply {
  const changes: { vet: boolean; refs: Ref[]; from?: string }[] = [];
  for (const raw of Array.isArray(body.changes) ? body.changes : []) {
    const op = obj(obj(raw).operation);
    const vet = 'Vet' in op;
    if (!vet && !('Unvet' in op)) return deserialization('FieldNotSet(operation)');
    const value = obj(obj(op[vet ? 'Vet' : 'Unvet']).value);
    const refs: Ref[] = [];
    for (const r of Array.isArray(value.packages) ? value.packages : []) {
      const ref = readRef(r);
      if ('status' in ref) return ref;
      refs.push(ref);
    }
    changes.push({ vet, refs, from: text(value.newValidFromInclusive) || undefined });
  }
  const expected = expectedSerial(body.expectedTopologySerial);
  if (typeof expected === 'object') return expected;
  const where = ctx.synchronizer(text(body.synchronizerId) || undefined);
  if ('status' in where) return where;
  const sync = where.synchronizerId!;
  const store = ctx.store();
  // Resolved first, all of them, before anything changes.
  const targets: { pkg: VettablePackage; vet: boolean; from?: string }[] = [];
  for (const c of changes)
    for (const ref of c.refs) {
      const found = matching(ref, store);
      if (typeof found === 'string') {
        if (!c.vet) continue;
        return cantonError(
          404,
          'UNRESOLVED_VETTING_REFERENCE',
          `The vetted package reference ${pretty(ref)} does not match any package in the package store. Reason: ${found}`,
          11,
          5,
        );
      }
      if (c.vet && found.length > 1)
        return cantonError(
          400,
          'AMBIGUOUS_VETTING_REFERENCE',
          `The package reference ${pretty(ref)} matches multiple packages: ${found.map((p) => p.packageId).join(', ')}`,
          9,
          9,
        );
      targets.push(...found.map((pkg) => ({ pkg, vet: c.vet, from: c.from })));
    }
  // PackageOps.checkCurrentSerial, before any change and in a dry run too. The fake's participant
  // always has a vetting transaction on its synchronizers: "no prior" never holds.
  const current = ctx.serial(sync);
  if (expected !== undefined && expected !== current) {
    const shown = expected === 'none' ? 'None' : `Some(${expected})`;
    return cantonError(400, 'TOPOLOGY_SERIAL_MISMATCH', `The provided serial Some(${current}) did not match the expected serial ${shown}.`, 9, 9, [], null, {
      actual: `Some(${current})`,
      expected: shown,
    });
  }
  const snapshot = (serial: number, vetted: (p: VettablePackage) => string | undefined) => {
    const packages = store
      .filter((p) => vetted(p) !== undefined)
      .map((p) => ({ packageId: p.packageId, packageName: p.name, packageVersion: p.version, validFromInclusive: vetted(p) }));
    return { packages, participantId: ctx.participantId, synchronizerId: sync, topologySerial: serial };
  };
  const before = snapshot(ctx.serial(sync), (p) => p.vetted.get(sync));
  // Applied in order on a copy; kept unless a dry run.
  const after = new Map(store.map((p) => [p.packageId, p.vetted.get(sync)]));
  for (const t of targets) {
    if (t.vet) after.set(t.pkg.packageId, t.from ?? after.get(t.pkg.packageId) ?? ctx.now());
    else after.set(t.pkg.packageId, undefined);
  }
  const changed = store.some((p) => after.get(p.packageId) !== p.vetted.get(sync));
  // TopologyManager.validatePackageVetting: on a change, and on every dry run.
  const unvetted = ctx.checksDependencies && (changed || body.dryRun === true) ? unvettedDependencies(store, sync, after) : [];
  if (unvetted.length > 0)
    return cantonError(400, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED', 'Package vetting failed due to dependencies not being vetted', 9, 9, [], null, {
      unvetted: `Set(${unvetted.join(', ')})`,
    });
  if (changed && body.dryRun !== true) {
    for (const p of store) {
      const v = after.get(p.packageId);
      if (v === undefined) p.vetted.delete(sync);
      else p.vetted.set(sync, v);
    }
    ctx.bumpSerial(sync);
  }
  const serialAfter = changed ? ctx.serial(sync) + (body.dryRun === true ? 1 : 0) : ctx.serial(sync);
  return json(200, {
    ...(before.packages.length ? { pastVettedPackages: before } : {}),
    newVettedPackages: snapshot(serialAfter, (p) => after.get(p.packageId)),
  });
}
