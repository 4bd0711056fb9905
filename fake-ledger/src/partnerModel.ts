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

type Args = Record<string, unknown>;
const party = (v: unknown) => (typeof v === 'string' ? v : '');
const nothing = () => ({ creates: [], result: () => ({}) });

const archive = (signatories: (a: Args) => string[]): ChoiceModel => ({ argument: {}, consuming: true, controllers: (c) => signatories(c), run: nothing });

const tokenSignatories = (a: Args) => [party(a.issuer)];
const offerSignatories = (a: Args) => [party(a.sender)];

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

/** The model a command's template runs: the demo's by name, the partner app's by its package. */
export function templateModel(templateId: string, name: string): TemplateModel | undefined {
  return DEMO_MODEL[name] ?? (templateId.startsWith(`${PARTNER_PACKAGE}:`) ? PARTNER_MODEL[name] : undefined);
}
