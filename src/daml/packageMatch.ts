// The node's packages beside the workspace's Daml projects: each package with its name, version
// and where this participant vetted it (other participants' vetting, which the vetting list also
// answers, kept apart: it says nothing of what this node runs), and for each project (its daml.yaml name and version, and the package id
// of its built DAR when there is one) which of these holds: not uploaded, uploaded but not vetted,
// vetted, or another build with the same name and version (the node runs code that is not what
// the workspace holds). No `vscode` import.
import type { VettedPackages } from '../ledger/apiTypes';

export interface NodePackage {
  packageId: string;
  /** From the vetting list; unknown for a package that is vetted nowhere. */
  name?: string;
  version?: string;
  /** This participant's vetting. */
  vetting: { synchronizerId: string; validFrom?: string; validUntil?: string }[];
  /** Other participants' vetting of this package (only of packages this node has). */
  others?: { participantId: string; synchronizerId: string }[];
}

/**
 * The node's packages: every id it has, with the names and vetting the vetting list gives. With
 * `participantId`, only that participant's entries count as vetting; the others' go to `others`.
 */
export function nodePackages(packageIds: readonly string[], vetted: readonly VettedPackages[], participantId?: string): NodePackage[] {
  const byId = new Map<string, NodePackage>(packageIds.map((id) => [id, { packageId: id, vetting: [] }]));
  for (const v of vetted) {
    const own = participantId === undefined || v.participantId === participantId;
    for (const p of v.packages ?? []) {
      const known = byId.get(p.packageId);
      if (!own && !known) continue;
      const pkg = known ?? { packageId: p.packageId, vetting: [] };
      pkg.name ??= p.packageName || undefined;
      pkg.version ??= p.packageVersion || undefined;
      if (own)
        pkg.vetting.push({ synchronizerId: v.synchronizerId, validFrom: p.validFromInclusive ?? undefined, validUntil: p.validUntilExclusive ?? undefined });
      else (pkg.others ??= []).push({ participantId: v.participantId, synchronizerId: v.synchronizerId });
      byId.set(p.packageId, pkg);
    }
  }
  return [...byId.values()].sort(
    (a, b) =>
      Number(!a.name) - Number(!b.name) ||
      (a.name ?? '').localeCompare(b.name ?? '') ||
      (a.version ?? '').localeCompare(b.version ?? '', undefined, { numeric: true }) ||
      a.packageId.localeCompare(b.packageId),
  );
}

/** How many other participants vetted a package (on any synchronizer). */
export function otherVetters(pkg: NodePackage): number {
  return new Set((pkg.others ?? []).map((o) => o.participantId)).size;
}

export interface WorkspaceBuild {
  name: string;
  version: string;
  /** The package id of the built DAR (`.daml/dist/<name>-<version>.dar`), when it was built. */
  packageId?: string;
}

export type ProjectOnNode =
  | { state: 'notUploaded' }
  | { state: 'uploadedNotVetted' }
  | { state: 'vetted'; synchronizers: string[] }
  /** The node has this name and version under other ids: not the code of this build. */
  | { state: 'otherBuild'; packageIds: string[]; vetted: boolean }
  /** Not built here: the node has this name and version (ids unknown to compare). */
  | { state: 'onNodeNotBuilt'; packageIds: string[] };

export function projectOnNode(build: WorkspaceBuild, packages: readonly NodePackage[]): ProjectOnNode {
  const same = build.packageId ? packages.find((p) => p.packageId === build.packageId) : undefined;
  if (same)
    return same.vetting.length > 0
      ? { state: 'vetted', synchronizers: [...new Set(same.vetting.map((v) => v.synchronizerId))] }
      : { state: 'uploadedNotVetted' };
  const namesake = packages.filter((p) => p.name === build.name && p.version === build.version);
  if (namesake.length === 0) return { state: 'notUploaded' };
  const ids = namesake.map((p) => p.packageId);
  return build.packageId
    ? { state: 'otherBuild', packageIds: ids, vetted: namesake.some((p) => p.vetting.length > 0) }
    : { state: 'onNodeNotBuilt', packageIds: ids };
}

/** Where `daml build` puts a project's DAR, relative to its root. */
export function builtDarPath(build: Pick<WorkspaceBuild, 'name' | 'version'>): string {
  return `.daml/dist/${build.name}-${build.version}.dar`;
}
