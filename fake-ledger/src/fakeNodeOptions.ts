// What a fake ledger node is started with (fakeLedgerNode.ts), and what it records of each request.
// No `vscode` import.
import type { JsonWebKey } from 'node:crypto';
import type { DefinitionsOptions } from './definitionsRoutes';
import type { DemoLedgerOptions } from './demoLedgerData';
import type { GeneratedLedger, GeneratedLedgerOptions } from './generatedLedger';
import type { TokenTargets } from './ledgerJwtPayload';
import type { FakeVersion } from './ledgerQueries';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, without its `?`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The client's port: the same port on two requests means a kept-alive connection. */
  remotePort: number | undefined;
}

export interface FakeLedgerNodeOptions extends DemoLedgerOptions, DefinitionsOptions {
  version?: FakeVersion;
  port?: number;
  /** Served under this prefix, e.g. `/api/json`, like `http-ledger-api.path-prefix`. */
  pathPrefix?: string;
  /** HS256 secret of the node's auth service. */
  secret?: string;
  /** The identity provider's public keys (`jwt-jwks`): its RS256/ES256 tokens are accepted too. */
  jwks?: JsonWebKey[];
  /** Without auth (a default sandbox), any or no token works. */
  auth?: boolean;
  /** The auth service's `target-audience` / `target-scope` (ledgerJwtPayload.ts); neither by default. */
  tokenTargets?: TokenTargets;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /**
   * Check every routed response against the version's spec and record problems in
   * `responseProblems` and `FakeLedgerNode.allResponseProblems` (tests). Defaults to on when
   * CANTON_LENS_CHECK_RESPONSES=1, as every test tier sets (test/support/specConformance.ts).
   */
  checkResponses?: boolean;
  /**
   * How many requests `requests` (and executions `executed`) keep, the oldest dropped first; 0
   * keeps none. Tests read them; the demo ledger, which runs for days, keeps none. Default 10,000.
   */
  requestLog?: number;
  /** What is prepared and committed takes the wall clock's time (the demo ledger), not the deterministic clock of tests. */
  wallClock?: boolean;
  /** Told of a handler that threw (the node answers 500 and stays up); stderr when unset. */
  onInternalError?: (error: unknown) => void;
  /**
   * The generated active contracts and live updates (browseRoutes.ts). Pass the `generated` of a
   * closed node to a new one on the same port: a restart that keeps offsets.
   */
  generated?: GeneratedLedgerOptions | GeneratedLedger;
  /** The advertised `partyManagement.maxPartiesPageSize` (default 10,000, as Canton's). */
  maxPartiesPageSize?: number;
  /** The advertised `userManagement.maxRightsPerUser` (default 1,000, as Canton's). */
  maxRightsPerUser?: number;
  /** Connected to `da1` only, not also to `global`: DARs are then vetted there without naming it. */
  singleSynchronizer?: boolean;
  /** What `/v2/version` tells (default VERSION_STRINGS): a 3.4 before 3.4.12 has no `POST /v2/package-vetting/list`. */
  versionString?: string;
}
