// A developer's node in one step: the `canton-setup.json` of a workspace (parties by hint, users with
// their rights by party hint) read and checked, and the plan that brings a node to it. What exists
// is left as it is, what is missing is created; a second run finds nothing to do. Pure (no
// `vscode`); the schema is media/canton-setup.schema.json.
import type { UserRightJson } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { checkPartyHint, checkUserId, partyRight, type AdminVersion, type PartyRightKind } from './nodeAdmin';

export const SETUP_FILE = 'canton-setup.json';

export interface SetupUser {
  id: string;
  /** A party hint of `parties` (or of a party the node has). */
  primaryParty?: string;
  actAs: string[];
  readAs: string[];
  executeAs: string[];
}

export interface CantonSetup {
  parties: string[];
  users: SetupUser[];
}

/** The file read: the set-up, or every problem found (nothing is sent when there is one). */
export type SetupReading = { ok: true; setup: CantonSetup } | { ok: false; problems: string[] };

const hints = (v: unknown): v is string[] => Array.isArray(v) && v.every((h) => typeof h === 'string');

export function readSetup(text: string, version: AdminVersion): SetupReading {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [l10n.t('{0} is not JSON: {1}', SETUP_FILE, (e as Error).message)] };
  }
  const problems: string[] = [];
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const parties = o.parties ?? [];
  if (!hints(parties)) problems.push(l10n.t('"parties" is a list of party hints.'));
  const setup: CantonSetup = { parties: hints(parties) ? [...new Set(parties)] : [], users: [] };
  for (const h of setup.parties) {
    const bad = checkPartyHint(h, version);
    if (bad) problems.push(l10n.t('Party "{0}": {1}', h.slice(0, 80), bad));
  }
  const users = Array.isArray(o.users) ? (o.users as unknown[]) : o.users === undefined ? [] : undefined;
  if (!users) problems.push(l10n.t('"users" is a list of users.'));
  for (const [i, u] of (users ?? []).entries()) {
    const r = (typeof u === 'object' && u !== null ? u : {}) as Record<string, unknown>;
    const id = typeof r.id === 'string' ? r.id : '';
    const badId = checkUserId(id, version);
    if (badId) problems.push(l10n.t('User {0}: {1}', i + 1, badId));
    const lists = { actAs: r.actAs ?? [], readAs: r.readAs ?? [], executeAs: r.executeAs ?? [] };
    for (const [k, v] of Object.entries(lists)) if (!hints(v)) problems.push(l10n.t('User "{0}": "{1}" is a list of party hints.', id.slice(0, 80), k));
    if (r.primaryParty !== undefined && typeof r.primaryParty !== 'string')
      problems.push(l10n.t('User "{0}": "primaryParty" is a party hint.', id.slice(0, 80)));
    const user: SetupUser = {
      id,
      primaryParty: typeof r.primaryParty === 'string' && r.primaryParty !== '' ? r.primaryParty : undefined,
      actAs: hints(lists.actAs) ? lists.actAs : [],
      readAs: hints(lists.readAs) ? lists.readAs : [],
      executeAs: hints(lists.executeAs) ? lists.executeAs : [],
    };
    if (setup.users.some((s) => s.id === id)) problems.push(l10n.t('User "{0}" is listed twice.', id.slice(0, 80)));
    setup.users.push(user);
  }
  return problems.length ? { ok: false, problems } : { ok: true, setup };
}

/** What the node has now: its party ids (hosted here) and its users with their rights. */
export interface NodeState {
  /** The participant's namespace: a hint `h` is the party `h::<namespace>`. */
  namespace: string;
  parties: string[];
  users: Map<string, { primaryParty?: string; rights: UserRightJson[] }>;
}

export type SetupStep =
  | { kind: 'allocate'; hint: string }
  | { kind: 'createUser'; id: string; primaryHint?: string; rights: { kind: PartyRightKind; hint: string }[] }
  | { kind: 'grant'; id: string; rights: { kind: PartyRightKind; hint: string }[] };

export interface SetupPlan {
  steps: SetupStep[];
  /** Parties and users already there, left as they are. */
  existingParties: string[];
  existingUsers: string[];
  /** Hints a user names that neither the file nor the node has: nothing is sent then. */
  unknownHints: string[];
}

export const partyOf = (hint: string, namespace: string) => `${hint}::${namespace}`;

const wanted = (u: SetupUser): { kind: PartyRightKind; hint: string }[] => [
  ...u.actAs.map((hint) => ({ kind: 'CanActAs' as const, hint })),
  ...u.readAs.map((hint) => ({ kind: 'CanReadAs' as const, hint })),
  ...u.executeAs.map((hint) => ({ kind: 'CanExecuteAs' as const, hint })),
];

/** The steps that bring the node to the set-up: allocations first, then users and their missing rights. */
export function planSetup(setup: CantonSetup, node: NodeState): SetupPlan {
  const hosted = new Set(node.parties);
  const plan: SetupPlan = { steps: [], existingParties: [], existingUsers: [], unknownHints: [] };
  for (const hint of setup.parties) {
    if (hosted.has(partyOf(hint, node.namespace))) plan.existingParties.push(hint);
    else plan.steps.push({ kind: 'allocate', hint });
  }
  const known = (hint: string) => setup.parties.includes(hint) || hosted.has(partyOf(hint, node.namespace));
  for (const u of setup.users) {
    const rights = wanted(u);
    for (const hint of [...rights.map((r) => r.hint), ...(u.primaryParty ? [u.primaryParty] : [])])
      if (!known(hint) && !plan.unknownHints.includes(hint)) plan.unknownHints.push(hint);
    const existing = node.users.get(u.id);
    if (!existing) {
      plan.steps.push({ kind: 'createUser', id: u.id, primaryHint: u.primaryParty, rights });
      continue;
    }
    plan.existingUsers.push(u.id);
    const held = new Set(existing.rights.map((r) => JSON.stringify(r)));
    const missing = rights.filter((r) => !held.has(JSON.stringify(rightFor(r, node.namespace))));
    if (missing.length > 0) plan.steps.push({ kind: 'grant', id: u.id, rights: missing });
  }
  return plan;
}

/** A planned right as the JSON API writes it, its hint made a party id. */
export const rightFor = (r: { kind: PartyRightKind; hint: string }, namespace: string): UserRightJson => partyRight(r.kind, partyOf(r.hint, namespace));

/** The plan in words, one line per step, then what stays. */
export function describePlan(plan: SetupPlan): string[] {
  const lines = plan.steps.map((s) =>
    s.kind === 'allocate'
      ? l10n.t('Allocate the party "{0}".', s.hint)
      : s.kind === 'createUser'
        ? l10n.t('Create the user "{0}" with {1} rights.', s.id, s.rights.length)
        : l10n.t('Grant the user "{0}" {1} missing rights.', s.id, s.rights.length),
  );
  if (plan.existingParties.length) lines.push(l10n.t('Already there, left as they are: parties {0}.', plan.existingParties.join(', ')));
  if (plan.existingUsers.length) lines.push(l10n.t('Already there: users {0} (only missing rights are granted).', plan.existingUsers.join(', ')));
  return lines;
}
