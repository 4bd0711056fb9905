// The generated ledger's model: its options, the templates generated contracts spread over, what a
// filter needs of a contract, and the deterministic ids, times and hash it is generated from. No
// `vscode` import.
import { createHash } from 'node:crypto';
import { PARTNER_PACKAGE, PARTNER_PACKAGE_NAME } from './partnerPackage';

export interface GeneratedLedgerOptions {
  /** Generated active contracts besides the seeded ones (default 0; the demo ledger uses 2,000). */
  contracts?: number;
  /** Templates they are spread over (default 20; up to 10,000). */
  templates?: number;
  /** Live updates produced per second (default 0: only `advance` produces them). */
  rate?: number;
  /** `http-list-max-elements-limit`: more elements on a list endpoint give 413 (default 200, as Canton's). */
  listLimit?: number;
  /**
   * The largest page the node serves, whatever maxPageSize asks, on both page endpoints (default:
   * Canton's, 10,000 active contracts and 2,000 updates).
   */
  maxPageSize?: number;
  /** How long an ACS page token stays valid (default 10 minutes). */
  pageTokenTtlMs?: number;
  /** Updates up to this offset are pruned (default 0: none). */
  prunedUpTo?: number;
  /**
   * The idle time of a /v2/updates list without `stream_idle_timeout_ms` (default 500 ms, Canton's
   * `http-list-wait-time`).
   */
  defaultIdleTimeoutMs?: number;
  /**
   * The time the node takes to scan one offset of a /v2/updates list, simulated (default 0). It
   * stands in for the idle time elapsing on a busy node: a list the node cuts when no element came
   * for the idle time is cut once the scan since the last element (or the start) would exceed it,
   * whatever the machine's speed. Updates that match every N offsets with a cost of C ms per offset
   * are cut after each element when N × C exceeds the idle time.
   */
  scanMsPerOffset?: number;
  /** The two templates with names no Daml compiler accepts, to test every renderer (default true; the demo ledger: false). */
  hostile?: boolean;
}

export interface TemplateInfo {
  templateId: string;
  packageId: string;
  packageName: string;
  module: string;
  entity: string;
  /** Interface ids it implements. */
  interfaces: string[];
  keyed: boolean;
}

/** What a filter needs to know about a contract, computed without building the event. */
export interface ContractMeta {
  index: number;
  offset: number;
  /** Offset of its archival, if archived (Infinity when never). */
  archivedAt: number;
  template: TemplateInfo;
  stakeholders: string[];
}

export const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');
/** As demoLedgerData names its packages, so the seeded Iou and the generated ones share a package. */
export const packageIdOf = (name: string) => hex(`package:${name}-1.0.0`);
export const HOLDING_INTERFACE = `${hex('package:canton-lens-demo-holding-1.0.0')}:Finance.Holding:Holding`;
export const HOLDING_PACKAGE_NAME = 'canton-lens-demo-holding';

/** The package name of an interface the demo ledger's contracts implement ('' when not known). */
export function interfacePackageName(interfaceId: string): string {
  if (interfaceId === HOLDING_INTERFACE) return HOLDING_PACKAGE_NAME;
  return interfaceId.startsWith(`${PARTNER_PACKAGE}:`) ? PARTNER_PACKAGE_NAME : '';
}

/** The first 20 templates; with more, generated ones follow (`Gen.M<m>:T<t>`). Two are hostile. */
export const BASE_TEMPLATES: [pkg: string, module: string, entity: string, holding?: boolean, keyed?: boolean][] = [
  ['canton-lens-demo-model', 'Iou', 'Iou', true],
  ['canton-lens-demo-model', 'Bank.Account', 'Account', false, true],
  ['canton-lens-demo-model', 'Notes', 'Note'],
  ['acs-finance', 'Finance.Holding', 'Cash', true],
  ['acs-finance', 'Finance.Holding', 'Bond', true],
  ['acs-finance', 'Finance.Lending', 'Loan', false, true],
  ['acs-finance', 'Finance.Lending', 'Collateral'],
  ['acs-finance', 'Finance.Settlement', 'Instruction'],
  ['acs-finance', 'Finance.Settlement', 'Batch'],
  ['acs-trade', 'Trade.Order', 'Order', false, true],
  ['acs-trade', 'Trade.Order', 'Quote'],
  ['acs-trade', 'Trade.Market', 'Listing'],
  ['acs-trade', 'Trade.Market', 'Auction'],
  ['acs-trade', 'Trade.Kyc', 'Attestation'],
  ['acs-registry', 'Registry.Asset', 'Asset', true],
  ['acs-registry', 'Registry.Asset', 'Transfer'],
  ['acs-registry', 'Registry.Identity', 'Membership'],
  ['acs-registry', 'Registry.Identity', 'Role'],
  // A node may send anything: names no Daml compiler accepts, to test every renderer.
  ['acs-hostile<img src=x onerror=alert(1)>', 'Hostile.<script>alert(1)</script>', 'Entity"><svg onload=alert(1)>'],
  ['acs-hostile-\u202Eexe.txt', 'Hostile.\u0000\u001b[31m', '‫مرحبا‬{{constructor}}'],
];

export const MICROS_BASE = Date.parse('2026-11-03T08:00:00.000Z');

export function micros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A small integer hash: the same contract always gets the same template and owner. */
export function mix(i: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const BELIEVABLE_TEMPLATES = BASE_TEMPLATES.filter(([pkg]) => !pkg.startsWith('acs-hostile'));

/** Template t of the generated ones: the base templates (the hostile two only for tests), then made-up ones in generated packages. */
export function templateInfo(t: number, hostile = true): TemplateInfo {
  const [pkg, module, entity, holding, keyed] = (hostile ? BASE_TEMPLATES : BELIEVABLE_TEMPLATES)[t] ?? [
    `acs-generated-${Math.floor(t / 100)}`,
    `Gen.M${Math.floor(t / 10) % 10}`,
    `T${t}`,
    t % 7 === 0,
    t % 5 === 0,
  ];
  const packageId = packageIdOf(pkg);
  return {
    templateId: `${packageId}:${module}:${entity}`,
    packageId,
    packageName: pkg,
    module,
    entity,
    interfaces: holding ? [HOLDING_INTERFACE] : [],
    keyed: Boolean(keyed),
  };
}
