// Signatures by package id, decoded once: a package id never changes meaning, so what was decoded
// (or refused) for an id stays true. DARs decode every DALF they hold. No `vscode` import.
import { DarError, parseManifest, zipEntries, zipEntryBytes } from '../darArchive';
import * as l10n from '../../l10n/l10n';
import { decodeArchive, decodePayload, LfError } from './lfDecode';
import type { PackageSignature } from './lfSignatures';
import { formatCount } from '../../l10n/forPeople';

/** The largest archive decoded at once: beyond it the decode says so instead of holding the editor. */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;

export class SignatureCache {
  private readonly known = new Map<string, PackageSignature>();
  private readonly refused = new Map<string, LfError>();

  get size(): number {
    return this.known.size;
  }

  get(packageId: string): PackageSignature | undefined {
    return this.known.get(packageId);
  }

  all(): PackageSignature[] {
    return [...this.known.values()];
  }

  /** Why the package could not be decoded, if it was tried and could not. */
  refusal(packageId: string): LfError | undefined {
    return this.refused.get(packageId);
  }

  /**
   * The signature of the archive `dalf`, which must be package `packageId` when given: from the cache
   * when that id was decoded before, else decoded (a refusal is kept as well and thrown again).
   */
  decode(dalf: Uint8Array, packageId?: string): PackageSignature {
    return this.remember(dalf, packageId, () => decodeArchive(dalf, packageId));
  }

  /** As `decode`, for an ArchivePayload (what `GET /v2/packages/{package-id}` answers). */
  decodePayload(payload: Uint8Array, packageId: string): PackageSignature {
    return this.remember(payload, packageId, () => decodePayload(payload, packageId));
  }

  private remember(bytes: Uint8Array, packageId: string | undefined, decode: () => PackageSignature): PackageSignature {
    const cached = packageId !== undefined ? (this.known.get(packageId) ?? this.refused.get(packageId)) : undefined;
    if (cached instanceof LfError) throw cached;
    if (cached) return cached;
    try {
      if (bytes.length > MAX_ARCHIVE_BYTES)
        throw new LfError(
          l10n.t('The archive is {0} bytes; one of more than {1} bytes is not decoded.', formatCount(bytes.length), formatCount(MAX_ARCHIVE_BYTES)),
        );
      const sig = decode();
      this.known.set(sig.packageId, sig);
      return sig;
    } catch (e) {
      if (e instanceof LfError && packageId !== undefined) this.refused.set(packageId, e);
      throw e;
    }
  }
}

export interface DarSignatures {
  /** The main package's signature. */
  main: PackageSignature;
  /** Every package the DAR holds, main first; those that do not decode are in `refused`. */
  packages: PackageSignature[];
  refused: { entry: string; reason: string }[];
}

/** Decodes every DALF of a DAR. The main one must decode; a dependency that does not is listed with its reason. */
export function decodeDar(bytes: Buffer, cache = new SignatureCache()): DarSignatures {
  const entries = zipEntries(bytes);
  const manifestEntry = entries.find((e) => e.name === 'META-INF/MANIFEST.MF');
  if (!manifestEntry) throw new DarError(l10n.t('The zip archive has no META-INF/MANIFEST.MF, so it is not a DAR.'));
  const mainDalf = parseManifest(zipEntryBytes(bytes, manifestEntry, 1024 * 1024).toString('utf8')).get('Main-Dalf');
  const main = entries.find((e) => e.name === mainDalf);
  if (!mainDalf || !main) throw new DarError(l10n.t('The manifest names no main DALF that the archive holds.'));
  const idOf = (name: string) => /-([0-9a-f]{64})\.dalf$/.exec(name)?.[1];
  const mainSig = cache.decode(zipEntryBytes(bytes, main, MAX_ARCHIVE_BYTES), idOf(main.name));
  const packages = [mainSig];
  const refused: DarSignatures['refused'] = [];
  for (const e of entries) {
    if (e === main || !e.name.endsWith('.dalf')) continue;
    try {
      packages.push(cache.decode(zipEntryBytes(bytes, e, MAX_ARCHIVE_BYTES), idOf(e.name)));
    } catch (err) {
      if (!(err instanceof LfError) && !(err instanceof DarError)) throw err;
      refused.push({ entry: e.name, reason: err.message });
    }
  }
  return { main: mainSig, packages, refused };
}
