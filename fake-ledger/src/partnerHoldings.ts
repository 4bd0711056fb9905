// Contracts of the partner app's package on the demo ledger: two templates behind its `Holding`
// interface (Token, LockedToken), each create with the view the node computes when a request asks
// for the interface, and one LockedToken whose view fails (its lock has no end: the view's code
// calls `error`), which the node answers with the failure's status and no value
// (LfValueTranslation.toInterfaceView in digital-asset/canton). No `vscode` import.
import { PARTNER_PACKAGE, PARTNER_PACKAGE_NAME } from './partnerPackage';
import type { HistoryKit, PartnerHoldings, StoredCreate } from './storedLedger';

export { PARTNER_PACKAGE_NAME, type PartnerHoldings };
export const PARTNER_HOLDING = `${PARTNER_PACKAGE}:Partner.Token:Holding`;
export const PARTNER_TOKEN = `${PARTNER_PACKAGE}:Partner.Token:Token`;
export const PARTNER_LOCKED = `${PARTNER_PACKAGE}:Partner.Token:LockedToken`;

/** The status of a view whose code failed: a user `error`, as the engine's ResultError becomes a gRPC status (code 9, FAILED_PRECONDITION). */
export const FAILED_VIEW_STATUS = {
  code: 9,
  message:
    'DAML_FAILURE(9,0): Interpretation error: Error: User failure: UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError (error category 9): a lock without an end has no holding view',
};

export function seedPartnerHoldings(k: HistoryKit): PartnerHoldings {
  const { Alice, Bob, Bank } = k.parties;
  const more = { packageName: PARTNER_PACKAGE_NAME, representativePackageId: PARTNER_PACKAGE };
  const view = (owner: string, amount: string, instrument: string): StoredCreate['views'] => [
    { interfaceId: PARTNER_HOLDING, viewValue: { owner, amount, instrument }, implementationPackageId: PARTNER_PACKAGE },
  ];
  const token = (owner: string, amount: string, previous: string | null) => ({
    issuer: Bank,
    owner,
    amount,
    decimals: '2',
    tags: ['partner'],
    meta: { values: {}, extra: null },
    locks: [],
    kind: 'Direct',
    settlement: { tag: 'Immediate', value: {} },
    previous,
    active: true,
  });
  const locked = (owner: string, amount: string, lockedUntil: string | null) => ({ owner, locker: Bank, amount, instrument: 'PTK', lockedUntil });
  k.tx('partner-issue', 'partner-issue-1', (off, at) => [
    k.create(
      off,
      at,
      0,
      'partner-token-alice',
      PARTNER_TOKEN,
      token(Alice, '250.0000000000', null),
      [Bank],
      [Alice],
      more,
      view(Alice, '250.0000000000', 'PTK'),
    ),
    k.create(off, at, 1, 'partner-token-bob', PARTNER_TOKEN, token(Bob, '40.5000000000', null), [Bank], [Bob], more, view(Bob, '40.5000000000', 'PTK')),
    k.create(
      off,
      at,
      2,
      'partner-locked-alice',
      PARTNER_LOCKED,
      locked(Alice, '100.0000000000', '2026-12-31T00:00:00Z'),
      [Bank],
      [Alice],
      more,
      view(Alice, '100.0000000000', 'PTK'),
    ),
    k.create(off, at, 3, 'partner-locked-forever', PARTNER_LOCKED, locked(Alice, '7.0000000000', null), [Bank], [Alice], more, [
      { interfaceId: PARTNER_HOLDING, viewValue: undefined, implementationPackageId: PARTNER_PACKAGE, failure: FAILED_VIEW_STATUS },
    ]),
  ]);
  return {
    tokens: ['partner-token-alice', 'partner-token-bob'].map(k.contractIdFor),
    locked: k.contractIdFor('partner-locked-alice'),
    failedView: k.contractIdFor('partner-locked-forever'),
  };
}
