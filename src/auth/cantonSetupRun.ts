// Runs a `canton-setup.json` plan against a node: reads what the node has, sends each missing
// allocation, user and grant once (never again by itself), stops at the first refusal, then reads
// the node back and reports what was created and what was already there. No `vscode` import.
import { allocateParty, createUser, getUser, grantRights, listAllParties } from '../ledger/adminRequests';
import type { UserRightJson } from '../ledger/apiTypes';
import type { CallOptions, LedgerClient } from '../ledger/ledgerClient';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { partyOf, planSetup, rightFor, type CantonSetup, type NodeState, type SetupPlan } from './cantonSetup';

/** What the node has of the set-up: its parties and the set-up's users (a 404 is a user to create). */
export async function readNodeState(client: LedgerClient, setup: CantonSetup, opts: CallOptions = {}): Promise<NodeState> {
  const { participantId } = await client.getParticipantId(opts);
  const namespace = participantId.split('::')[1] ?? '';
  const parties = (await listAllParties(client, opts)).map((p) => p.party);
  const users = new Map<string, { primaryParty?: string; rights: UserRightJson[] }>();
  for (const u of setup.users) {
    try {
      const got = await getUser(client, u.id, opts);
      const rights = (await client.listUserRights(u.id, opts)).rights ?? [];
      users.set(u.id, { primaryParty: got.user.primaryParty || undefined, rights });
    } catch (e) {
      if (!(isLedgerApiError(e) && e.code === 'USER_NOT_FOUND')) throw e;
    }
  }
  return { namespace, parties, users };
}

export interface SetupReport {
  plan: SetupPlan;
  /** Parties allocated (their ids) and users created or granted rights, in order. */
  allocated: string[];
  createdUsers: string[];
  grantedUsers: string[];
  /** The refusal that stopped the run, if any: later steps were not sent. */
  failure?: { step: string; error: unknown };
  /** After the run: the state read back. */
  after?: NodeState;
}

/**
 * Sends the plan's steps in order; `synchronizerId` for allocations on a node with several.
 * A step that fails stops the run: nothing is sent twice, nothing after a refusal.
 */
export async function runSetup(
  client: LedgerClient,
  setup: CantonSetup,
  options: { synchronizerId?: string; before?: NodeState } & CallOptions = {},
): Promise<SetupReport> {
  const { synchronizerId, before, ...opts } = options;
  const state = before ?? (await readNodeState(client, setup, opts));
  const plan = planSetup(setup, state);
  const report: SetupReport = { plan, allocated: [], createdUsers: [], grantedUsers: [] };
  if (plan.unknownHints.length > 0) return report;
  const ns = state.namespace;
  for (const step of plan.steps) {
    const name = step.kind === 'allocate' ? step.hint : step.id;
    try {
      if (step.kind === 'allocate') {
        const res = await allocateParty(client, { partyIdHint: step.hint, ...(synchronizerId ? { synchronizerId } : {}) }, opts);
        report.allocated.push(res.partyDetails.party);
      } else if (step.kind === 'createUser') {
        const user = { id: step.id, primaryParty: step.primaryHint ? partyOf(step.primaryHint, ns) : '', isDeactivated: false, identityProviderId: '' };
        await createUser(
          client,
          user,
          step.rights.map((r) => rightFor(r, ns)),
          opts,
        );
        report.createdUsers.push(step.id);
      } else {
        await grantRights(
          client,
          step.id,
          step.rights.map((r) => rightFor(r, ns)),
          opts,
        );
        report.grantedUsers.push(step.id);
      }
    } catch (error) {
      report.failure = { step: `${step.kind} ${name}`, error };
      break;
    }
  }
  report.after = await readNodeState(client, setup, opts).catch(() => undefined);
  return report;
}
