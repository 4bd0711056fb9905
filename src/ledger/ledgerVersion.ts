// What a node's version string says about the endpoints it has (docs/ledger-api.md#versions and #auth).

export interface LedgerVersion {
  major: number;
  minor: number;
  patch: number;
  raw: string;
}

/** Parses `3.4.9`, `3.4.0-snapshot.20251003…`, `3.6.0-SNAPSHOT`; undefined for anything else. */
export function parseLedgerVersion(raw: string): LedgerVersion | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(raw.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0), raw };
}

/** transaction-by-id exists up to 3.5 (deprecated) and was removed in 3.6. Unknown versions: try it. */
export function hasTransactionById(version: LedgerVersion | undefined): boolean {
  if (!version) return true;
  return version.major < 3 || (version.major === 3 && version.minor <= 5);
}
