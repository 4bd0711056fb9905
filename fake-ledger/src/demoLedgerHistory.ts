// The demo ledger's later history, appended after the rest (earlier offsets stay as they were): an
// Iou that lives on through a split and two transfers (each transaction archives it and creates its
// successor), and an Iou template upgraded to a second package version, with an active contract of
// each version. No `vscode` import.
import { hex, HOLDING_INTERFACE } from './generatedModel';
import { seedPartnerHoldings } from './partnerHoldings';
import type { DemoLedger, HistoryKit } from './storedLedger';

/** The version 2.0.0 of the demo model: its Iou has an optional `reference` more. */
export const MODEL_PACKAGE_V2 = hex('package:canton-lens-demo-model-2.0.0');
/** Package ids whose version is not 1.0.0 (the package list names them so). */
export const PACKAGE_VERSIONS: Readonly<Record<string, string>> = { [MODEL_PACKAGE_V2]: '2.0.0' };

export type { HistoryKit };

export function seedHistory(k: HistoryKit): Pick<DemoLedger['samples'], 'workflowChain' | 'upgradedContracts' | 'partnerHoldings'> {
  const { Alice, Bob, Bank, Carol } = k.parties;
  const IOU = `${k.modelPackage}:Iou:Iou`;
  const iou = (owner: string, amount: string) => ({ issuer: Alice, owner, currency: 'USD', amount, observers: [] as string[] });
  const [a, b, c, d] = ['chain-a', 'chain-b', 'chain-c', 'chain-d'].map(k.contractIdFor);
  const viaHolding = { implementedInterfaces: [HOLDING_INTERFACE] };
  // Alice issues, so she is a stakeholder of every link and sees the whole chain.
  const workflow = { workflowId: 'iou-chain-2026-11' };
  k.tx('chain-issue', 'chain-issue-1', (off, at) => [k.create(off, at, 0, 'chain-a', IOU, iou(Bob, '900.0000000000'), [Alice], [Bob])], workflow);
  // The split's other part is not in the chain: the lineage follows one of two creates.
  k.tx(
    'chain-split',
    'chain-split-1',
    (off, at) => [
      k.exercise(
        off,
        0,
        a,
        IOU,
        'Iou_Split',
        { splitAmount: '300.0000000000' },
        { _1: k.contractIdFor('chain-part'), _2: b },
        [Bob],
        [Alice, Bob],
        [Alice, Bob],
        2,
        viaHolding,
      ),
      k.create(off, at, 1, 'chain-part', IOU, iou(Bob, '300.0000000000'), [Alice], [Bob]),
      k.create(off, at, 2, 'chain-b', IOU, iou(Bob, '600.0000000000'), [Alice], [Bob]),
    ],
    workflow,
  );
  k.tx(
    'chain-transfer-bank',
    'chain-transfer-1',
    (off, at) => [
      k.exercise(off, 0, b, IOU, 'Iou_Transfer', { newOwner: Bank }, c, [Bob], [Alice, Bob], [Alice, Bob, Bank], 1, viaHolding),
      k.create(off, at, 1, 'chain-c', IOU, iou(Bank, '600.0000000000'), [Alice], [Bank]),
    ],
    workflow,
  );
  k.tx(
    'chain-transfer-carol',
    'chain-transfer-2',
    (off, at) => [
      k.exercise(off, 0, c, IOU, 'Iou_Transfer', { newOwner: Carol }, d, [Bank], [Alice, Bank], [Alice, Bank, Carol], 1, viaHolding),
      k.create(off, at, 1, 'chain-d', IOU, iou(Carol, '600.0000000000'), [Alice], [Carol]),
    ],
    workflow,
  );

  // One Iou of each version of the model, both active.
  const euro = { issuer: Bank, owner: Alice, currency: 'EUR', amount: '75.0000000000', observers: [] as string[] };
  k.tx('upgrade-v1', 'issue-iou-v1', (off, at) => [k.create(off, at, 0, 'iou-v1', IOU, euro, [Bank], [Alice])]);
  k.tx('upgrade-v2', 'issue-iou-v2', (off, at) => [
    k.create(off, at, 0, 'iou-v2', `${MODEL_PACKAGE_V2}:Iou:Iou`, { ...euro, reference: 'INV-2026-0042' }, [Bank], [Alice]),
  ]);
  const partnerHoldings = seedPartnerHoldings(k);
  return { workflowChain: [a, b, c, d], upgradedContracts: { v1: k.contractIdFor('iou-v1'), v2: k.contractIdFor('iou-v2') }, partnerHoldings };
}
