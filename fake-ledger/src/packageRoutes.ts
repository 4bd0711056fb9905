// The fake node's packages: the ids it has (`GET /v2/packages`), what is vetted on which
// synchronizer by which participant (`POST /v2/package-vetting/list`, paged; before 3.4.12
// `GET /v2/package-vetting`), and DARs uploaded or validated (`POST /v2/dars`, `/v2/dars/validate`,
// the DAR's bytes as the body). Judged as Canton does (docs/fake-node.md): listing needs any valid
// token, DARs the ParticipantAdmin right; validating, and uploading with vetting, on a node with
// several synchronizers needs the synchronizer's id; a DAR that is not one is refused with the
// package service's codes; a second package of a name and version already vetted is
// KNOWN_PACKAGE_VERSION. No `vscode` import.
import { NotADar, readUploadedDar, type UploadedDar } from './darFiles';
import { cantonError, invalidField, json, redacted, type ErrorReply } from './cantonErrorBodies';
import type { DemoLedger } from './demoLedgerData';
import type { PackageCatalog } from './generatedLedger';
import { PACKAGE_VERSIONS } from './demoLedgerHistory';
import { createHash } from 'node:crypto';
import { PARTNER_PACKAGE, PARTNER_PAYLOAD } from './partnerPackage';
import type { ConnectedSynchronizer } from './userRoutes';
import { updateVetting } from './vettingUpdate';

export interface PackageContext {
  ledger: () => DemoLedger;
  catalog: () => PackageCatalog;
  isAdmin: (user: string) => boolean;
  /** `packageFeature.maxVettedPackagesPageSize` of the version service. */
  maxVettedPageSize: number;
  version: () => '3.4' | '3.5' | '3.6';
  connected: () => ConnectedSynchronizer[];
  /** Whether `POST /v2/package-vetting/list` is there (from 3.4.12 on). */
  hasVettingList: () => boolean;
}

export interface PackageEndpoint {
  method: 'GET' | 'POST';
  versions?: ('3.4' | '3.5' | '3.6')[];
  /** Whether this node serves the route at all (a patch version that lacks it: 404). */
  served?: () => boolean;
  noBody?: boolean;
  /** The body is the DAR's bytes (application/octet-stream), not JSON. */
  binary?: (user: string, bytes: Buffer, query: URLSearchParams) => ErrorReply;
  rights: (user: string) => ErrorReply | undefined;
  handle: (user: string, body: Record<string, unknown>, query: URLSearchParams, params: Record<string, string>) => ErrorReply;
}

interface NodePackage {
  packageId: string;
  name: string;
  version: string;
  /** Synchronizer id → when the vetting began. */
  vetted: Map<string, string>;
  /** The ArchivePayload whose hash is the id, for the packages the fake holds one of. */
  payload?: Uint8Array;
  /** The packages it depends on (its DAR's other DALFs), when uploaded with them. */
  dependencies?: string[];
}

/** Another participant's vetting on a synchronizer this node is connected to (one topology transaction). */
interface OthersVetting {
  participantId: string;
  synchronizerId: string;
  packages: { packageId: string; name: string; version: string; since: string }[];
}

interface PackageState {
  packages: Map<string, NodePackage>;
  /** The vetting topology transaction's serial per synchronizer: it grows with each change. */
  serial: Map<string, number>;
  others: OthersVetting[];
}

/** A second participant on `da1`: it vets the demo model too, and a partner app this node has but has not vetted. */
export const OTHER_PARTICIPANT = `participant2::1220${createHash('sha256').update('namespace:participant2').digest('hex')}`;
export { PARTNER_PACKAGE };

const states = new WeakMap<DemoLedger, PackageState>();

/** The node's packages: those of its contracts (version 1.0.0 unless upgraded, vetted on the main synchronizer), then the uploads. */
export function packageState(ledger: DemoLedger, catalog: PackageCatalog): PackageState {
  let s = states.get(ledger);
  if (!s) {
    s = { packages: new Map(), serial: new Map([[ledger.synchronizerId, 1]]), others: [] };
    const since = '2026-01-05T09:00:00Z';
    for (const [id, name] of [...catalog.templates, ...catalog.interfaces]) {
      const packageId = id.slice(0, id.indexOf(':'));
      if (!name || s.packages.has(packageId)) continue;
      s.packages.set(packageId, { packageId, name, version: PACKAGE_VERSIONS[packageId] ?? '1.0.0', vetted: new Map([[ledger.synchronizerId, since]]) });
    }
    const partner = { packageId: PARTNER_PACKAGE, name: 'canton-lens-partner-app', version: '1.0.0' };
    s.packages.set(PARTNER_PACKAGE, { ...partner, vetted: new Map(), payload: PARTNER_PAYLOAD });
    const model = [...s.packages.values()].find((p) => p.name === 'canton-lens-demo-model' && p.version === '1.0.0');
    s.others.push({
      participantId: OTHER_PARTICIPANT,
      synchronizerId: ledger.synchronizerId,
      packages: [...(model ? [model] : []), partner].map((p) => ({ packageId: p.packageId, name: p.name, version: p.version, since: '2026-02-01T10:00:00Z' })),
    });
    states.set(ledger, s);
  }
  return s;
}

/** `name-1.2.3` (a DAR manifest's `Name`) → its name and version. */
export function nameAndVersion(label: string): { name: string; version: string } {
  const m = /^(.*)-(\d+(?:\.\d+)*)$/.exec(label);
  return m ? { name: m[1], version: m[2] } : { name: label, version: '0.0.0' };
}

const describe = (p: { packageId: string; name: string; version: string }) => `${p.packageId} (${p.name} v${p.version})`;

/**
 * The fake cannot type-check Daml-LF. A main DALF whose bytes hold
 * `canton-lens-fake:not-valid-upgrade:<reason>` stands for a package that fails the upgrade checks
 * against the latest vetted earlier version of its name: refused as Canton refuses it,
 * NOT_VALID_UPGRADE_PACKAGE (category 8) "Upgrade checks indicate that <new> cannot be an upgrade of
 * <old>. Reason: <reason>" (topology/TopologyManagerError.scala, `Upgradeability`), with the reason
 * in the words of daml-lf/validation/…/Upgrading.scala.
 */
function upgradeCheck(dar: UploadedDar, pkg: NodePackage, known: NodePackage[]): ErrorReply | undefined {
  const text = Buffer.from(dar.main).toString('latin1');
  const m = /canton-lens-fake:not-valid-upgrade:([^\n\0]{1,300})/.exec(text);
  if (!m) return undefined;
  const older = known
    .filter((p) => p.name === pkg.name && p.vetted.size > 0 && p.version.localeCompare(pkg.version, undefined, { numeric: true }) < 0)
    .sort((a, b) => b.version.localeCompare(a.version, undefined, { numeric: true }))[0];
  if (!older) return undefined;
  return cantonError(
    400,
    'NOT_VALID_UPGRADE_PACKAGE',
    `Upgrade checks indicate that ${describe(pkg)} cannot be an upgrade of ${describe(older)}. Reason: ${m[1]}`,
    8,
    3,
  );
}

/** A 3.4 before 3.4.12 has no `POST /v2/package-vetting/list`. */
export function servesVettingList(version: string): boolean {
  const [major, minor, patch] = version.split(/[.-]/).map(Number);
  return major !== 3 || minor !== 4 || patch >= 12;
}

export function packageEndpoints(ctx: PackageContext): Record<string, PackageEndpoint> {
  const state = () => packageState(ctx.ledger(), ctx.catalog());
  const adminOnly = (user: string) => (ctx.isAdmin(user) ? undefined : redacted(403));

  /**
   * Where the DAR is vetted or validated, as CantonSyncService.autoDetectSynchronizer decides: the
   * synchronizer asked for if connected, else the only one; none when an upload does not vet.
   */
  const synchronizerFor = (query: URLSearchParams, vets: boolean): { synchronizerId?: string } | ErrorReply => {
    const asked = query.get('synchronizerId') || undefined;
    // Parsed first, vetting or not (ApiPackageManagementService, UniqueIdentifier.fromProtoPrimitive_).
    const pos = asked?.indexOf('::') ?? -1;
    if (asked && pos <= 0) {
      const why = `Invalid unique identifier \`${asked.slice(0, 200)}\` with ${pos === 0 ? 'empty identifier' : 'missing namespace'}.`;
      return cantonError(400, 'PROTO_DESERIALIZATION_FAILURE', 'Deserialization of protobuf message failed', 8, 3, [], null, {
        reason: `ValueConversionError(synchronizer_id,${why})`,
      });
    }
    if (!vets) return {};
    const connected = ctx.connected();
    if (asked)
      return connected.some((c) => c.id === asked)
        ? { synchronizerId: asked }
        : cantonError(
            400,
            'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
            `Cannot upload a dar because the participant is not connected to synchronizer '${asked.slice(0, 300)}'.`,
            9,
            9,
          );
    if (connected.length === 1) return { synchronizerId: connected[0].id };
    // Canton prints each id's namespace as its first 12 characters and "...".
    const shown = connected.map((c) => c.id.replace(/::(.{12}).+$/, '::$1...'));
    const why = shown.length ? `currently connected synchronizers ${shown.join(', ')}` : 'no synchronizers currently connected';
    return cantonError(400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', `Cannot autodetect synchronizer: ${why}`, 9, 9);
  };

  /** The DAR's main package and where it is vetted, or the package service's refusal. */
  const judgeDar = (bytes: Buffer, query: URLSearchParams, vets: boolean): { pkg: NodePackage; deps: NodePackage[]; synchronizerId?: string } | ErrorReply => {
    const vet = query.get('vetAllPackages');
    if (vet !== null && vet !== 'true' && vet !== 'false')
      return { status: 400, contentType: 'text/plain; charset=UTF-8', body: 'Invalid value for: query parameter vetAllPackages' };
    const where = synchronizerFor(query, vets);
    if ('status' in where) return where;
    let dar: UploadedDar;
    try {
      dar = readUploadedDar(bytes);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // No zip at all; a zip without a manifest (the legacy layout); a DALF that does not parse.
      if (!bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')) || (e instanceof NotADar && e.kind === 'zip'))
        return cantonError(400, 'INVALID_DAR', 'Dar file is corrupt', 8, 3, [], null, { entries: '[]' });
      if (e instanceof NotADar && e.kind === 'manifest') return cantonError(400, 'INVALID_LEGACY_DAR', 'Unsupported legacy Dar zip file', 8, 3);
      return cantonError(400, 'DAR_PARSE_ERROR', 'Failed to parse the dar file content.', 8, 3, [], null, { reason: message.slice(0, 200) });
    }
    const { name, version } = nameAndVersion(dar.name ?? dar.mainDalf.replace(/^.*\//, '').replace(/\.dalf$/, ''));
    const pkg: NodePackage = {
      packageId: dar.packageId,
      name,
      version,
      vetted: new Map(),
      payload: dar.payload,
      dependencies: dar.dependencies.map((d) => d.packageId),
    };
    // Upgrade checks against what is vetted: one name and version is one package.
    const clash = [...state().packages.values()].find((p) => p.name === name && p.version === version && p.packageId !== pkg.packageId && p.vetted.size > 0);
    if (clash)
      return cantonError(
        400,
        'KNOWN_PACKAGE_VERSION',
        `Tried to vet two packages with the same name and version: ${describe(clash)} and ${describe(pkg)}.`,
        8,
        3,
      );
    const refused = upgradeCheck(dar, pkg, [...state().packages.values()]);
    if (refused) return refused;
    // A DALF is named `<name>-<version>-<package id>.dalf` by damlc.
    const deps = dar.dependencies.map((d): NodePackage => {
      const label = d.dalf
        .replace(/^.*\//, '')
        .replace(/\.dalf$/, '')
        .replace(new RegExp(`-${d.packageId}$`), '');
      return { ...nameAndVersion(label), packageId: d.packageId, vetted: new Map(), payload: d.payload };
    });
    return { pkg, deps, synchronizerId: where.synchronizerId };
  };

  /** Every participant's vetting on every synchronizer, sorted by synchronizer then participant, as PackageOps.getVettedPackages pages it. */
  const listVetting = (b: Record<string, unknown>): ErrorReply => {
    const meta = (b.packageMetadataFilter ?? {}) as { packageIds?: string[]; packageNamePrefixes?: string[] };
    const topo = (b.topologyStateFilter ?? {}) as { participantIds?: string[]; synchronizerIds?: string[] };
    const ledger = ctx.ledger();
    const s = state();
    const matches = (p: { packageId: string; name: string }) =>
      (!meta.packageIds?.length && !meta.packageNamePrefixes?.length) ||
      Boolean(meta.packageIds?.includes(p.packageId)) ||
      Boolean(meta.packageNamePrefixes?.some((prefix) => p.name.startsWith(prefix)));
    const byOrder = (x: { name: string; version: string; packageId: string }, y: typeof x) =>
      x.name.localeCompare(y.name) || x.version.localeCompare(y.version, undefined, { numeric: true }) || x.packageId.localeCompare(y.packageId);
    const own = [...new Set([...s.packages.values()].flatMap((p) => [...p.vetted.keys()]))].map((sync) => ({
      participantId: ledger.participantId,
      synchronizerId: sync,
      topologySerial: s.serial.get(sync) ?? 1,
      packages: [...s.packages.values()]
        .filter((p) => p.vetted.has(sync))
        .map((p) => ({ packageId: p.packageId, name: p.name, version: p.version, since: p.vetted.get(sync) ?? '' })),
    }));
    const others = s.others.map((o) => ({ ...o, topologySerial: 1 }));
    const entries = [...own, ...others]
      .filter((e) => !topo.synchronizerIds?.length || topo.synchronizerIds.includes(e.synchronizerId))
      .filter((e) => !topo.participantIds?.length || topo.participantIds.includes(e.participantId))
      .sort((x, y) => x.synchronizerId.localeCompare(y.synchronizerId) || x.participantId.localeCompare(y.participantId))
      .map((e) => ({
        participantId: e.participantId,
        synchronizerId: e.synchronizerId,
        topologySerial: e.topologySerial,
        packages: e.packages
          .filter(matches)
          .sort(byOrder)
          .map((p) => ({ packageId: p.packageId, packageName: p.name, packageVersion: p.version, validFromInclusive: p.since })),
      }))
      .filter((e) => e.packages.length > 0);
    const size = Math.min(typeof b.pageSize === 'number' && b.pageSize > 0 ? b.pageSize : ctx.maxVettedPageSize, ctx.maxVettedPageSize);
    const start = typeof b.pageToken === 'string' && b.pageToken ? Number(Buffer.from(b.pageToken, 'base64').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0) return invalidField('page_token', 'the page token is not one this node gave');
    const page = entries.slice(start, start + size);
    const next = start + size < entries.length ? Buffer.from(String(start + size)).toString('base64') : '';
    return json(200, { vettedPackages: page, nextPageToken: next });
  };

  return {
    '/v2/packages': {
      method: 'GET',
      noBody: true,
      rights: () => undefined,
      handle: () => json(200, { packageIds: [...state().packages.keys()] }),
    },
    // The package's ArchivePayload as bytes and its id in Canton-Package-Hash (JsPackageService.downloadPackageEndpoint);
    // an id the node does not have is PACKAGE_NOT_FOUND (RequestValidationErrors.NotFound.Package).
    // The fake holds the payloads of the packages it encodes (lfEncode.ts) and of uploads, no others.
    '/v2/packages/{package-id}': {
      method: 'GET',
      noBody: true,
      rights: () => undefined,
      handle: (_user, _body, _query, params) => {
        const id = params['package-id'] ?? '';
        const payload = state().packages.get(id)?.payload;
        if (!payload) return cantonError(404, 'PACKAGE_NOT_FOUND', 'Could not find package.', 11, 5, [['PACKAGE', id]]);
        return { status: 200, contentType: 'application/octet-stream', body: '', bytes: Buffer.from(payload), headers: { 'Canton-Package-Hash': id } };
      },
    },
    '/v2/package-vetting/list': { method: 'POST', served: ctx.hasVettingList, rights: () => undefined, handle: (_user, b) => listVetting(b) },
    // Deprecated in 3.4.12 and 3.5, gone in 3.6; the only vetting list before 3.4.12. A GET with a body.
    '/v2/package-vetting': { method: 'GET', versions: ['3.4', '3.5'], rights: () => undefined, handle: (_user, b) => listVetting(b) },
    // From 3.4.12 on (before: POST /v2/package-vetting, not served); a ParticipantAdmin only (RequiredClaim.Admin).
    '/v2/package-vetting/update': {
      method: 'POST',
      served: ctx.hasVettingList,
      rights: adminOnly,
      handle: (_user, b) =>
        updateVetting(
          {
            store: () => [...state().packages.values()],
            participantId: ctx.ledger().participantId,
            synchronizer: (asked) => synchronizerFor(new URLSearchParams(asked ? { synchronizerId: asked } : {}), true),
            serial: (sync) => state().serial.get(sync) ?? 1,
            bumpSerial: (sync) => state().serial.set(sync, (state().serial.get(sync) ?? 1) + 1),
            now: () => new Date().toISOString(),
            checksDependencies: ctx.version() === '3.4',
          },
          b,
        ),
    },
    '/v2/dars': {
      method: 'POST',
      rights: adminOnly,
      handle: () => json(200, {}),
      binary: (_user, bytes, query) => {
        const judged = judgeDar(bytes, query, query.get('vetAllPackages') !== 'false');
        if ('status' in judged) return judged;
        const s = state();
        // The DAR's packages are all stored and, with vetting, all vetted (the dependencies too).
        let changed = false;
        for (const p of [judged.pkg, ...judged.deps]) {
          const known = s.packages.get(p.packageId) ?? p;
          s.packages.set(known.packageId, known);
          if (judged.synchronizerId && !known.vetted.has(judged.synchronizerId)) {
            known.vetted.set(judged.synchronizerId, new Date().toISOString());
            changed = true;
          }
        }
        if (changed && judged.synchronizerId) s.serial.set(judged.synchronizerId, (s.serial.get(judged.synchronizerId) ?? 0) + 1);
        return json(200, {});
      },
    },
    '/v2/dars/validate': {
      method: 'POST',
      rights: adminOnly,
      handle: () => json(200, {}),
      binary: (_user, bytes, query) => {
        const judged = judgeDar(bytes, query, true);
        return 'status' in judged ? judged : { status: 200, contentType: 'application/json', body: '' };
      },
    },
  };
}
