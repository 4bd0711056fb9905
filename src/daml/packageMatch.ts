// The node's packages beside the workspace's Daml projects: each package with its name, version
// and where it is vetted, and for each project (its daml.yaml name and version, and the package id
// of its built DAR when there is one) which of these holds: not uploaded, uploaded but not vetted,
// vetted, or another build with the same name and version (the node runs code that is not what
// the workspace holds). No `vscode` import.
import type { VettedPackages } from '../ledger/apiTypes';

export interface NodePackage {
  packageId: string;
  /** From the vetting list; unknown for a package that is vetted nowhere. */
  name?: string;
  version?: string;
  vetting: { synchronizerId: string; validFrom?: string; validUntil?: string }[];
}

/** The node's packages: every id it has, with the names and vetting the vetting list gives. */
export function nodePackages(packageIds: readonly string[], vetted: readonly VettedPackages[]): NodePackage[] {
  const byId = new Map<string, NodePackage>(packageIds.map((id) => [id, { packageId: id, vetting: [] }]));
  for (const v of vetted) {
    for (const p of v.packages ?? []) {
      const pkg = byId.get(p.packageId) ?? { packageId: p.packageId, vetting: [] };
      pkg.name ??= p.packageName || undefined;
      pkg.version ??= p.packageVersion || undefined;
      pkg.vetting.push({ synchronizerId: v.synchronizerId, validFrom: p.validFromInclusive ?? undefined, validUntil: p.validUntilExclusive ?? undefined });
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
