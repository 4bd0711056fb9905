// The demo ledger's Daml model as the fake node runs it (test/fixtures/workspace/daml-model): each
// template's fields, signatories, observers and `ensure`, and each choice's argument, controllers,
// whether it consumes, and what its body does. Enough to interpret a create or an exercise the way
// the Daml engine would decide it (authorization, precondition, assertion), not a Daml engine.
// No `vscode` import.
import { atScale, decimalAtScale } from './numericValues';

export type FieldType = 'Party' | 'Text' | 'Decimal' | 'Int' | '[Party]' | '[Text]';
export type Fields = Record<string, FieldType>;
type Args = Record<string, unknown>;

/** What a choice body does: creates (template key and argument) and its result; or a Daml failure. */
export type ChoiceOutcome = { creates: { template: string; argument: Args }[]; result: (createdIds: string[]) => unknown } | { assertionFailed: string };

export interface ChoiceModel {
  argument: Fields;
  consuming: boolean;
  controllers: (contract: Args, argument: Args) => string[];
  run: (contract: Args, argument: Args) => ChoiceOutcome;
}

export interface TemplateModel {
  fields: Fields;
  signatories: (a: Args) => string[];
  observers: (a: Args) => string[];
  /** False: `ensure` does not hold. */
  ensure?: (a: Args) => boolean;
  choices: Record<string, ChoiceModel>;
  /** By the interface's `Module:Entity`: the interface's choices as this template implements them. */
  interfaces?: Record<string, Record<string, ChoiceModel>>;
  /** The interface views a create of it carries, by interface id (the package's). */
  views?: (
    a: Args,
    packageId: string,
  ) => { interfaceId: string; viewValue: unknown; implementationPackageId: string; failure?: { code: number; message: string } }[];
}

const party = (v: unknown) => (typeof v === 'string' ? v : '');
const parties = (v: unknown) => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []);
/** Decimals travel as strings (or numbers from hand-written JSON). */
export const decimal = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const nothing = () => ({ creates: [], result: () => ({}) });

/** Archive: every template has it, its controllers are the signatories. */
function withArchive(t: Omit<TemplateModel, 'choices'> & { choices: Record<string, ChoiceModel> }): TemplateModel {
  return { ...t, choices: { ...t.choices, Archive: { argument: {}, consuming: true, controllers: (c) => t.signatories(c), run: nothing } } };
}

export const DEMO_MODEL: Record<string, TemplateModel> = {
  'Iou:Iou': withArchive({
    fields: { issuer: 'Party', owner: 'Party', currency: 'Text', amount: 'Decimal', observers: '[Party]' },
    signatories: (a) => [party(a.issuer)],
    observers: (a) => [party(a.owner), ...parties(a.observers)],
    ensure: (a) => decimal(a.amount) > 0,
    choices: {
      Iou_Transfer: {
        argument: { newOwner: 'Party' },
        consuming: true,
        controllers: (c) => [party(c.owner)],
        run: (c, a) => ({ creates: [{ template: 'Iou:Iou', argument: { ...c, owner: a.newOwner } }], result: ([id]) => id }),
      },
      Iou_Split: {
        argument: { splitAmount: 'Decimal' },
        consuming: true,
        controllers: (c) => [party(c.owner)],
        run: (c, a) => {
          // Exact, as Daml's Numeric 10 is: in doubles 1.1 - 0.2 is 0.9000000000000001.
          const split = atScale(a.splitAmount) ?? 0n;
          const amount = atScale(c.amount) ?? 0n;
          if (!(split > 0n && split < amount)) return { assertionFailed: 'the split amount must be more than 0 and less than the amount' };
          return {
            creates: [
              { template: 'Iou:Iou', argument: { ...c, amount: decimalAtScale(split) } },
              { template: 'Iou:Iou', argument: { ...c, amount: decimalAtScale(amount - split) } },
            ],
            result: ([first, rest]) => ({ _1: first, _2: rest }),
          };
        },
      },
    },
  }),
  'Notes:Note': withArchive({
    fields: { author: 'Party', reader: 'Party', title: 'Text', body: 'Text', tags: '[Text]' },
    signatories: (a) => [party(a.author)],
    observers: (a) => [party(a.reader)],
    choices: { Note_Close: { argument: { reason: 'Text' }, consuming: true, controllers: (c) => [party(c.author)], run: nothing } },
  }),
  'Bank.Account:Account': withArchive({
    fields: { bank: 'Party', owner: 'Party', number: 'Text' },
    signatories: (a) => [party(a.bank)],
    observers: (a) => [party(a.owner)],
    choices: { Account_Log: { argument: { entry: 'Text' }, consuming: false, controllers: (c) => [party(c.bank)], run: nothing } },
  }),
  'Settlement:Settlement': withArchive({
    fields: { operator: 'Party', buyer: 'Party', seller: 'Party', legs: 'Int', memo: 'Text' },
    signatories: (a) => [party(a.operator)],
    observers: (a) => [party(a.buyer), party(a.seller)],
    choices: { Settlement_Execute: { argument: {}, consuming: true, controllers: (c) => [party(c.operator)], run: nothing } },
  }),
  'Batch.Job:Job': withArchive({
    fields: { operator: 'Party', reader: 'Party' },
    signatories: (a) => [party(a.operator)],
    observers: (a) => [party(a.reader)],
    choices: {
      Job_Run: {
        argument: { job: 'Int', label: 'Text' },
        consuming: false,
        controllers: (c) => [party(c.operator)],
        run: (_c, a) => ({ creates: [], result: () => a.job }),
      },
      Job_Step: {
        argument: { step: 'Int' },
        consuming: false,
        controllers: (c) => [party(c.operator)],
        run: (c, a) => ({
          creates: [{ template: 'Notes:Note', argument: { author: c.operator, reader: c.reader, title: `step ${String(a.step)}`, body: '', tags: [] } }],
          result: ([id]) => id,
        }),
      },
    },
  }),
};

/** The fields a record lacks and the fields it has that the Daml type does not (the JSON layer's transcoding checks). */
export function fieldProblems(fields: Fields, value: unknown): { missing: string[]; unexpected: string[] } {
  const v = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Args) : {};
  return {
    missing: Object.keys(fields).filter((f) => v[f] === undefined || v[f] === null),
    unexpected: Object.keys(v).filter((f) => !(f in fields)),
  };
}
