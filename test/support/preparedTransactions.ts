// Prepared transactions built with the official protobuf bindings, for decode tests beyond the
// two real vectors (test/fixtures/prepared-transaction-vectors.json).
import type * as LedgerProto from '@canton-network/core-ledger-proto' with { 'resolution-mode': 'import' };

import { preparedTransactionHash } from '../../fake-ledger/src/cantonHashes';
import { preapprovalExecuteRequest } from './executeRequests';

const proto = require('@canton-network/core-ledger-proto') as typeof LedgerProto;

export const ALICE = `Alice::1220${'a1'.repeat(32)}`;
export const BOB = `Bob::1220${'b0'.repeat(32)}`;
export const BANK = `Bank::1220${'ba'.repeat(32)}`;
const PKG = 'd'.repeat(64);
const iou = { packageId: PKG, moduleName: 'Iou', entityName: 'Iou' };
export const INPUT_CONTRACT = `00${'c7'.repeat(32)}ca121220${'e1'.repeat(32)}`;

const party = (p: string) => ({ sum: { oneofKind: 'party' as const, party: p } });
const text = (t: string) => ({ sum: { oneofKind: 'text' as const, text: t } });
const record = (fields: Record<string, unknown>) => ({
  sum: { oneofKind: 'record' as const, record: { fields: Object.entries(fields).map(([label, value]) => ({ label, value })) } },
});

/** Alice transfers her Iou to Bob: an exercise of Iou_Transfer consuming an input contract, creating a new Iou. */
export function transferTransaction(options: { note?: string } = {}): string {
  const iouArgument = (owner: string) =>
    record({
      issuer: party(BANK),
      owner: party(owner),
      currency: text('USD'),
      amount: { sum: { oneofKind: 'numeric', numeric: '250.0000000000' } },
      note: text(options.note ?? ''),
    });
  const message = proto.PreparedTransaction.create({
    transaction: {
      version: '2.1',
      roots: ['0'],
      nodes: [
        {
          nodeId: '0',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'exercise',
                exercise: proto.Exercise.create({
                  lfVersion: '2.1',
                  contractId: INPUT_CONTRACT,
                  packageName: 'demo-model',
                  templateId: iou,
                  signatories: [BANK],
                  stakeholders: [BANK, ALICE],
                  actingParties: [ALICE],
                  choiceId: 'Iou_Transfer',
                  chosenValue: record({ newOwner: party(BOB) }) as never,
                  consuming: true,
                  children: ['1'],
                  choiceObservers: [],
                }),
              },
            },
          },
        },
        {
          nodeId: '1',
          versionedNode: {
            oneofKind: 'v1',
            v1: {
              nodeType: {
                oneofKind: 'create',
                create: proto.Create.create({
                  lfVersion: '2.1',
                  contractId: `00${'5e'.repeat(32)}`,
                  packageName: 'demo-model',
                  templateId: iou,
                  argument: iouArgument(BOB) as never,
                  signatories: [BANK],
                  stakeholders: [BANK, BOB],
                }),
              },
            },
          },
        },
      ],
      // Exercises and creates of a submission have node seeds (32 bytes each).
      nodeSeeds: [
        { nodeId: 0, seed: new Uint8Array(32).fill(7) },
        { nodeId: 1, seed: new Uint8Array(32).fill(9) },
      ],
    },
    metadata: {
      submitterInfo: { actAs: [ALICE], commandId: 'transfer-7f3a' },
      synchronizerId: `da1::1220${'d5'.repeat(32)}`,
      mediatorGroup: 0,
      transactionUuid: '6f1d2e3c-4b5a-4c55-9f0a-b3f0c2a48d1e',
      preparationTime: 1_763_719_200_000_000n,
      minLedgerEffectiveTime: 1_763_719_100_000_000n,
      inputContracts: [
        {
          contract: {
            oneofKind: 'v1',
            v1: proto.Create.create({
              lfVersion: '2.1',
              contractId: INPUT_CONTRACT,
              packageName: 'demo-model',
              templateId: iou,
              argument: iouArgument(ALICE) as never,
              signatories: [BANK],
              stakeholders: [BANK, ALICE],
            }),
          },
          createdAt: 1_763_600_000_000_000n,
          eventBlob: new Uint8Array(),
        },
      ],
      globalKeyMapping: [],
    },
  });
  return Buffer.from(proto.PreparedTransaction.toBinary(message)).toString('base64');
}

/**
 * The preapproval request as if prepared at `preparedAt` (the demo: now), so a node does not reject
 * it for its preparation time (24 h tolerance): the vector's metadata with that preparation time,
 * and its hash again. The signature stays a dummy one (the fake checks only keys it knows).
 */
export async function freshPreapprovalExecuteRequest(
  party: string,
  submissionId: string,
  preparedAt: Date,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const request = preapprovalExecuteRequest(party, submissionId, extra);
  const message = proto.PreparedTransaction.fromBinary(Buffer.from(request.preparedTransaction as string, 'base64'));
  message.metadata!.preparationTime = BigInt(preparedAt.getTime()) * 1000n;
  const preparedTransaction = Buffer.from(proto.PreparedTransaction.toBinary(message)).toString('base64');
  const hash = await preparedTransactionHash(preparedTransaction);
  if (!hash) throw new Error('the re-encoded preapproval vector does not hash');
  return { ...request, preparedTransaction, preparedTransactionHash: hash };
}
