// What a node's last check found: unchecked, checking (keeping what was shown), reachable with its
// version and features, or unreachable and why. Its own module: the registry and the facts both
// read it, and neither imports the other for it.
import type { FeaturesDescriptor } from '../ledger/apiTypes';
import type { LedgerApiError } from '../ledger/ledgerApiError';

export type CheckedStatus =
  | { state: 'reachable'; version: string; features: FeaturesDescriptor; latencyMs: number; checkedAt: number }
  | { state: 'unreachable'; error: LedgerApiError; checkedAt: number };

export type NodeStatus = { state: 'unchecked' } | { state: 'checking'; previous?: NodeStatus } | CheckedStatus;
