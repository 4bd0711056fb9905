// Decodes a Daml-LF 2 archive (a DALF, or what `GET /v2/packages/{package-id}` answers) into its
// signature. Field numbers are those of daml_lf.proto (Archive, ArchivePayload) and daml_lf2.proto
// (Package and below) in digital-asset/canton's
// community/daml-lf/archive/src/main/protobuf/com/digitalasset/daml/lf/archive/ (formerly in
// digital-asset/daml's sdk/daml-lf/archive), read with protobuf-ts's BinaryReader. 2.dev adds
// curried type application (Type.tapp = 9) and package imports (Package.package_imports = 9,
// SelfOrImportedPackageId.package_import_id = 4); TEXTMAP moved from 1001 to 19.
// Expressions are stepped over unread: a signature needs none of them. Strings, dotted names and
// types are interned per package (Package fields 2, 3, 5) and decoded when first used.
import { createHash } from 'node:crypto';
import { WireType } from '@protobuf-ts/runtime';
import * as l10n from '../../l10n/l10n';
import { LfError, PackageReader, readMessage } from './lfPackageReader';
import type { PackageSignature } from './lfSignatures';

export { LfError };

/** The LF 2 minor versions this reader knows (ArchivePayload.minor); any other is refused, not guessed at. */
export const LF2_MINORS: readonly string[] = ['1', '2', 'dev'];

const wrap = (e: unknown): never => {
  if (e instanceof LfError) throw e;
  throw new LfError(l10n.t('The archive is truncated or is not a Daml-LF archive ({0}).', (e as Error).message));
};

function decodePackage(packageId: string, lfVersion: string, bytes: Uint8Array): PackageSignature {
  const { name, version, modules } = new PackageReader(packageId, bytes).read();
  return { packageId, name, version, lfVersion, modules };
}

/**
 * Decodes a DALF: checks its hash (and that it is the `expectedId` when given), its LF version,
 * then its package. Throws an LfError saying what is wrong, never a partial signature.
 */
export function decodeArchive(dalf: Uint8Array, expectedId?: string): PackageSignature {
  let payload: Uint8Array | undefined;
  let stated: string | undefined;
  let hashFunction = 0;
  try {
    // Archive (hash_function = 1, payload = 3, hash = 4).
    readMessage(dalf, {
      1: (r) => {
        hashFunction = r.int32();
      },
      3: (r) => {
        payload = r.bytes();
      },
      4: (r) => {
        stated = r.string();
      },
    });
  } catch (e) {
    wrap(e);
  }
  if (!payload || payload.length === 0) throw new LfError(l10n.t('The archive is not a Daml-LF archive: it has no payload.'));
  if (hashFunction !== 0) throw new LfError(l10n.t('The archive is hashed with function {0}; only SHA-256 is known.', hashFunction));
  const id = createHash('sha256').update(payload).digest('hex');
  if (stated !== undefined && stated !== id)
    throw new LfError(l10n.t('The archive is damaged: its payload does not hash to the package id it states ({0}).', stated));
  return decodePayload(payload, expectedId ?? id);
}

/**
 * Decodes an ArchivePayload, what `GET /v2/packages/{package-id}` answers (the id in its
 * Canton-Package-Hash header): it must hash to `packageId`.
 */
export function decodePayload(payload: Uint8Array, packageId: string): PackageSignature {
  const id = createHash('sha256').update(payload).digest('hex');
  if (id !== packageId) throw new LfError(l10n.t('The archive is not package {0}: its payload hashes to {1}.', packageId, id));
  let minor = '';
  let lf1 = false;
  let lf2: Uint8Array | undefined;
  try {
    // ArchivePayload (minor = 3, daml_lf_1 = 2, daml_lf_2 = 4).
    readMessage(payload, {
      3: (r) => {
        minor = r.string();
      },
      2: (r) => {
        r.skip(WireType.LengthDelimited);
        lf1 = true;
      },
      4: (r) => {
        lf2 = r.bytes();
      },
    });
  } catch (e) {
    wrap(e);
  }
  if (lf1) throw new LfError(l10n.t('The package is Daml-LF 1.{0}, which Canton 3 does not run; only Daml-LF 2 is read.', minor || '?'));
  if (!lf2) throw new LfError(l10n.t('The archive holds no Daml-LF 2 package.'));
  if (!LF2_MINORS.includes(minor))
    throw new LfError(l10n.t('The package is Daml-LF 2.{0}, a version this reader does not know (it reads 2.{1}).', minor || '?', LF2_MINORS.join(', 2.')));
  try {
    return decodePackage(id, `2.${minor}`, lf2);
  } catch (e) {
    return wrap(e);
  }
}
