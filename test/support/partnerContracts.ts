// The partner app on a fake node, as its operator would set it up: its DAR uploaded and vetted by
// the participant's administrator, then contracts of it created over the Ledger API (a Token, a
// TransferOffer its receiver cannot see). For tests of packages with no source in the workspace.
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';
import { partnerTokenArgument } from '../../fake-ledger/src/partnerModel';
import { PARTNER_PACKAGE, PARTNER_PAYLOAD } from '../../fake-ledger/src/partnerPackage';
import { dar } from './darBuilder';

export const PARTNER_TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
export const PARTNER_OFFER = `${PARTNER_PACKAGE}:Partner.Token:TransferOffer`;

async function post(fake: FakeLedgerNode, path: string, user: string, body: BodyInit, type = 'application/json'): Promise<Record<string, unknown>> {
  const res = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${fake.mintToken(user)}` }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Uploads the partner app's DAR and vets it on the node's first synchronizer. */
export async function vetPartnerApp(fake: FakeLedgerNode): Promise<void> {
  const bytes = new Uint8Array(dar({ name: 'canton-lens-partner-app-1.0.0', payload: Buffer.from(PARTNER_PAYLOAD) }));
  await post(fake, `/v2/dars?synchronizerId=${encodeURIComponent(fake.ledger.synchronizerId)}`, 'participant_admin', bytes, 'application/octet-stream');
}

let made = 0;

/** Creates a partner contract as `party` (through `userId`'s token); its contract id. */
export async function createPartner(fake: FakeLedgerNode, userId: string, party: string, templateId: string, createArguments: unknown): Promise<string> {
  const answer = await post(
    fake,
    '/v2/commands/submit-and-wait-for-transaction',
    userId,
    JSON.stringify({
      commands: { commandId: `partner-${made++}-${Date.now()}`, actAs: [party], commands: [{ CreateCommand: { templateId, createArguments } }] },
    }),
  );
  const events = (answer.transaction as { events: { CreatedEvent?: { contractId: string } }[] }).events;
  return events[0].CreatedEvent!.contractId;
}

/** A Token's create argument: `issuer` issues `amount` to `owner`. */
export function tokenArgument(issuer: string, owner: string, amount = '10.0'): Record<string, unknown> {
  return partnerTokenArgument(issuer, owner, amount);
}
