// The types a request's arguments are checked against before it is sent: the node's packages
// (their Daml-LF), and for templates those do not describe the workspace's Daml source, read as
// the node's version reads values (src/execute/argumentValues.ts).
import type { DamlIndex } from '../daml/damlIndex';
import type { NodeSignaturesReader, PackageSignature } from '../daml/lf/lfSignatures';
import type { ValueIssue } from '../daml/lf/lfValueCheck';
import type * as DamlLfModule from '../daml/lf/nodeSignatures';
import type { LedgerClient } from '../ledger/ledgerClient';

export interface ArgumentTypeReaders {
  /** The node's package signatures; none: not read. */
  signatures?: NodeSignaturesReader;
  /** The workspace's Daml source: its index, and a file's text (its editor's, else from disk); none: not read. */
  damlSource?: { index: () => Promise<DamlIndex | undefined>; fileText: (file: string) => string | undefined };
  /** The checks themselves: imported where their code is bundled anyway, else the damlLf bundle's (loadBundle). */
  checks: () => ArgumentChecks;
}

export type ArgumentChecks = Pick<typeof DamlLfModule, 'commandArgumentIssues' | 'sourceArgumentFields' | 'sourceArgumentIssues'>;

/**
 * The commands' arguments against the node's types (`lf`) and the workspace's source (`source`),
 * paths under `prefix`; each undefined when nothing was judged by it.
 */
export async function argumentTypeIssues(
  readers: ArgumentTypeReaders,
  client: LedgerClient,
  commands: readonly unknown[],
  version: string | undefined,
  prefix = '',
): Promise<{ lf?: ValueIssue[]; source?: ValueIssue[] }> {
  let packages: PackageSignature[] = [];
  try {
    if (readers.signatures) packages = (await readers.signatures(client)).packages;
  } catch {
    // Packages the node will not give: the node judges the arguments when it gets them.
  }
  let checks: ArgumentChecks;
  try {
    checks = readers.checks();
  } catch {
    // No checks to load (a build without the bundle): the node judges the arguments.
    return {};
  }
  const { commandArgumentIssues, sourceArgumentFields, sourceArgumentIssues } = checks;
  // The workspace's source is read only for a template the packages do not describe: in a large
  // workspace the first read of its index takes a while.
  const source = readers.damlSource;
  let outsidePackages = false;
  if (source) sourceArgumentIssues(commands, () => void (outsidePackages = true), packages, version, prefix);
  const index = outsidePackages ? await source?.index().catch(() => undefined) : undefined;
  return {
    lf: readers.signatures ? commandArgumentIssues(packages, commands, version, prefix) : undefined,
    source:
      index && source ? sourceArgumentIssues(commands, (t, c) => sourceArgumentFields(index, t, c, source.fileText), packages, version, prefix) : undefined,
  };
}
