// The events of the generated ledger's contracts (generatedLedger.ts): the created event of a
// generated or live contract, and the consuming choice (or archive) of a live update, built from the
// contract's index alone so every run shows the same. No `vscode` import.
import type { CreatedEvent, ExercisedEvent, JsTransaction } from './apiTypes';
import { contractIdFor, HOSTILE_STRINGS } from './demoLedgerData';
import { hex, micros, MICROS_BASE, mix, type ContractMeta } from './generatedModel';

export interface GeneratedCreate {
  meta: ContractMeta;
  /** The contract's seed (`acs-i`, `live-k`) and number (i or k). */
  seed: string;
  n: number;
  live: boolean;
  createdAtMs: number;
  bank: string;
  hostile: boolean;
  witnessParties: string[];
  blob: boolean;
  views: string[];
}

/** The created event of a generated (`acs-i`) or live (`live-k`) contract for the given witnesses. */
export function generatedCreatedEvent(g: GeneratedCreate): CreatedEvent {
  const { meta, seed, n, live, bank } = g;
  const t = meta.template;
  const owner = meta.stakeholders[meta.stakeholders.length - 1];
  const h = mix(n + (live ? 7_000_000 : 0));
  const id = `${t.entity.slice(0, 24)}-${n}`;
  const amount = `${Math.floor(h % 10_000_000) / 100}`;
  const createArgument: Record<string, unknown> = {
    issuer: bank,
    owner,
    id,
    amount: `${amount}${amount.includes('.') ? '' : '.0'}000000000`.replace(/(\.\d{10})\d*$/, '$1'),
    currency: ['USD', 'CHF', 'EUR', 'GBP'][h % 4],
    note: n % 97 === 0 && g.hostile ? HOSTILE_STRINGS[Math.floor(n / 97) % HOSTILE_STRINGS.length] : `generated ${live ? 'live' : 'acs'} ${n}`,
    maturity: micros(MICROS_BASE + (h % 1000) * 86_400_000).slice(0, 10),
    observers: [],
  };
  const interfaceViews = t.interfaces
    .filter((x) => g.views.includes(x))
    .map((interfaceId) => ({
      interfaceId,
      viewStatus: { code: 0, message: '' },
      viewValue: { owner, instrument: { issuer: bank, id: createArgument.currency }, amount: createArgument.amount },
      implementationPackageId: t.packageId,
    }));
  const event: CreatedEvent = {
    offset: meta.offset,
    nodeId: 0,
    contractId: contractIdFor(seed),
    templateId: t.templateId,
    contractKey: t.keyed ? { _1: bank, _2: id } : null,
    createArgument,
    createdEventBlob: g.blob ? Buffer.from(`CgMyLjES${hex(`blob:${seed}`)}`, 'utf8').toString('base64') : '',
    interfaceViews,
    witnessParties: g.witnessParties,
    signatories: [bank],
    observers: meta.stakeholders.filter((p) => p !== bank),
    createdAt: micros(g.createdAtMs),
    packageName: t.packageName,
    representativePackageId: t.packageId,
    acsDelta: true,
  };
  if (t.keyed) event.contractKeyHash = hex(`key:${seed}`);
  return event;
}

/**
 * Live update k (even) consumes the contract of update k-1: its consuming choice in the
 * ledger-effects shape, its archive in the ACS-delta shape.
 */
export function liveSettleEvent(
  offset: number,
  k: number,
  prev: ContractMeta,
  witnesses: string[],
  bank: string,
  ledgerEffects: boolean,
): JsTransaction['events'][number] {
  const contractId = contractIdFor(`live-${k - 1}`);
  if (!ledgerEffects)
    return {
      ArchivedEvent: {
        offset,
        nodeId: 0,
        contractId,
        templateId: prev.template.templateId,
        witnessParties: witnesses,
        packageName: prev.template.packageName,
        implementedInterfaces: prev.template.interfaces,
      },
    };
  const exercised: ExercisedEvent = {
    offset,
    nodeId: 0,
    contractId,
    templateId: prev.template.templateId,
    choice: `${prev.template.entity.slice(0, 40)}_Settle`,
    choiceArgument: { settledBy: bank, step: k },
    actingParties: [bank],
    consuming: true,
    witnessParties: witnesses,
    lastDescendantNodeId: 1,
    exerciseResult: contractIdFor(`live-${k}`),
    packageName: prev.template.packageName,
    implementedInterfaces: prev.template.interfaces,
    acsDelta: true,
  };
  return { ExercisedEvent: exercised };
}
