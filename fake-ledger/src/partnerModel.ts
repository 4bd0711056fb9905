// The partner app's templates as the fake node runs them (its package is partnerPackage.ts; it has
// no source anywhere, so this is what its source would say): who signs, who observes, who controls
// each choice and what the choice does. Their arguments are not checked here (the fake does not
// transcode LF values; the extension checks them against the package's types). A TransferOffer has no observer: the receiver learns of it
// off the ledger and accepts it with the offer disclosed (explicit disclosure), as Canton Network
// apps hand out their contracts. Only once the package is vetted (a DAR upload) do commands reach
// it. No `vscode` import.
import type { ChoiceModel, TemplateModel } from './commandModel';
import { DEMO_MODEL } from './commandModel';
import { PARTNER_PACKAGE } from './partnerPackage';
import { FAILED_VIEW_STATUS } from './partnerHoldings';

type Args = Record<string, unknown>;
const party = (v: unknown) => (typeof v === 'string' ? v : '');
const nothing = () => ({ creates: [], result: () => ({}) });

const archive = (signatories: (a: Args) => string[]): ChoiceModel => ({ argument: {}, consuming: true, controllers: (c) => signatories(c), run: nothing });

const tokenSignatories = (a: Args) => [party(a.issuer)];
const offerSignatories = (a: Args) => [party(a.sender)];
const lockedSignatories = (a: Args) => [party(a.locker)];
const HOLDING = 'Partner.Token:Holding';

/** A Token's create argument with the partner's defaults (what LockedToken_Unlock gives back, and what tests create). */
export const partnerTokenArgument = (issuer: unknown, owner: unknown, amount: unknown): Args => ({
  issuer,
  owner,
  amount,
  decimals: '2',
  tags: [],
  meta: { values: {}, extra: null },
  locks: [],
  kind: 'Direct',
  settlement: { tag: 'Immediate', value: {} },
  previous: null,
  active: true,
});

/**
 * Holding's choices, as each template implements them: Holding_Lock (controller the holding's
 * owner) locks it into a LockedToken until the given time and returns it as a `ContractId Holding`;
 * Holding_Describe (non-consuming) says what it holds.
 */
const holdingChoices = (locker: (c: Args) => unknown, instrument: (c: Args) => unknown): Record<string, ChoiceModel> => ({
  Holding_Lock: {
    argument: {},
    consuming: true,
    controllers: (c) => [party(c.owner)],
    run: (c, a) => ({
      creates: [
        {
          template: 'Partner.Token:LockedToken',
          argument: { owner: c.owner, locker: locker(c), amount: c.amount, instrument: instrument(c), lockedUntil: a.until ?? null },
        },
      ],
      result: ([id]) => id,
    }),
  },
  Holding_Describe: {
    argument: {},
    consuming: false,
    controllers: (c) => [party(c.owner)],
    run: (c) => ({ creates: [], result: () => `${String(c.amount)} ${String(instrument(c))} held by ${party(c.owner)}` }),
  },
});

/** By `Module:Entity`, as DEMO_MODEL. */
export const PARTNER_MODEL: Record<string, TemplateModel> = {
  'Partner.Token:Token': {
    fields: {},
    signatories: tokenSignatories,
    observers: (a) => [party(a.owner)],
    choices: {
      Archive: archive(tokenSignatories),
      Transfer: {
        argument: {},
        consuming: true,
        controllers: (c) => [party(c.owner)],
        run: (c, a) => ({ creates: [{ template: 'Partner.Token:Token', argument: { ...c, owner: a.newOwner, amount: a.amount } }], result: ([id]) => id }),
      },
      Token_Split: {
        argument: {},
        consuming: true,
        controllers: (c) => [party(c.owner)],
        run: (c, a) => {
          const amounts: unknown[] = Array.isArray(a.amounts) ? (a.amounts as unknown[]) : [];
          return { creates: amounts.map((amount) => ({ template: 'Partner.Token:Token', argument: { ...c, amount } })), result: (ids) => ids };
        },
      },
      Token_Peek: { argument: {}, consuming: false, controllers: (c) => [party(c.owner)], run: (c) => ({ creates: [], result: () => c.amount }) },
    },
    interfaces: {
      [HOLDING]: holdingChoices(
        (c) => c.issuer,
        () => 'PTK',
      ),
    },
    views: (a, pkg) => [{ interfaceId: `${pkg}:${HOLDING}`, viewValue: { owner: a.owner, amount: a.amount, instrument: 'PTK' }, implementationPackageId: pkg }],
  },
  'Partner.Token:LockedToken': {
    fields: {},
    signatories: lockedSignatories,
    observers: (a) => [party(a.owner)],
    choices: {
      Archive: archive(lockedSignatories),
      LockedToken_Unlock: {
        argument: {},
        consuming: true,
        controllers: (c) => [party(c.locker)],
        run: (c) => ({ creates: [{ template: 'Partner.Token:Token', argument: partnerTokenArgument(c.locker, c.owner, c.amount) }], result: ([id]) => id }),
      },
    },
    interfaces: {
      [HOLDING]: holdingChoices(
        (c) => c.locker,
        (c) => c.instrument,
      ),
    },
    views: (a, pkg) => [
      a.lockedUntil === null || a.lockedUntil === undefined
        ? { interfaceId: `${pkg}:${HOLDING}`, viewValue: undefined, implementationPackageId: pkg, failure: FAILED_VIEW_STATUS }
        : { interfaceId: `${pkg}:${HOLDING}`, viewValue: { owner: a.owner, amount: a.amount, instrument: a.instrument }, implementationPackageId: pkg },
    ],
  },
  'Partner.Token:TransferOffer': {
    fields: {},
    signatories: offerSignatories,
    observers: () => [],
    choices: {
      Archive: archive(offerSignatories),
      Accept: { argument: {}, consuming: true, controllers: (c) => [party(c.receiver)], run: (c) => ({ creates: [], result: () => c.token }) },
      Reject: { argument: {}, consuming: true, controllers: (c) => [party(c.receiver)], run: nothing },
    },
  },
};

/** The partner package's template ids (package-id form). */
export const PARTNER_TEMPLATES = new Set(Object.keys(PARTNER_MODEL).map((name) => `${PARTNER_PACKAGE}:${name}`));

/** The partner package's interfaces (package-id form): each one's choices, by the templates that implement it. */
export const PARTNER_INTERFACES = new Map(
  [HOLDING].map((name) => [
    `${PARTNER_PACKAGE}:${name}`,
    { name, choices: new Set(Object.values(PARTNER_MODEL).flatMap((t) => Object.keys(t.interfaces?.[name] ?? {}))) },
  ]),
);

/** The model a command's template runs: the demo's by name, the partner app's by its package. */
export function templateModel(templateId: string, name: string): TemplateModel | undefined {
  return DEMO_MODEL[name] ?? (templateId.startsWith(`${PARTNER_PACKAGE}:`) ? PARTNER_MODEL[name] : undefined);
}
