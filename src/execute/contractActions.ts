// What a contract panel offers to do with the contract in a `*.commands.json`: the choices it can be
// exercised with (its template's and those of the interfaces the template implements), each with an
// argument skeleton from Daml-LF or from the workspace's Daml source; and the contract as a
// disclosed contract of a request, with which commands use it. Pure.
import { fieldsAt, skeletonOf } from '../daml/damlFields';
import type { DamlIndex } from '../daml/damlIndex';
import { lfArgumentSkeleton, recordFields, resolveEntity } from '../daml/lf/lfCompletions';
import { qualified, showType, type LfChoice, type PackageSignature } from '../daml/lf/lfSignatures';
import * as l10n from '../l10n/l10n';

/** The contract as a panel shows it (the created event's fields that matter here). */
export interface ContractFacts {
  contractId: string;
  /** The package-id form the node writes: `<package id>:Module:Entity`. */
  templateId: string;
  packageName: string;
}

/** One choice that can be exercised on the contract. */
export interface ContractChoice {
  choice: string;
  /** What the command names: the template, or the interface the choice is declared in (`#name:M:E`). */
  templateId: string;
  /** The interface (`#name:M:E`) when the choice is an interface's. */
  viaInterface?: string;
  consuming?: boolean;
  /** `newOwner : Party, amount : Numeric 10 → ContractId Token`, when the types are known. */
  detail?: string;
  /** Where its Daml source is (the index's file and line), when the workspace has it. */
  source?: { file: string; line: number };
}

const split = (id: string) => {
  const [pkg = '', module = '', entity = ''] = id.split(':');
  return { pkg, module, entity };
};

/** `#name:M:E` for a package id's entity, when the signatures know its package's name. */
function byName(sigs: readonly PackageSignature[], packageId: string, module: string, entity: string, fallbackName?: string): string {
  const name = sigs.find((s) => s.packageId === packageId)?.name ?? fallbackName;
  return name ? `#${name}:${module}:${entity}` : `${packageId}:${module}:${entity}`;
}

/**
 * The contract's choices: its template's (the workspace's Daml source first, then Daml-LF), then
 * each implemented interface's from Daml-LF, an interface's under its own id. None known: empty.
 */
export function contractChoices(c: ContractFacts, sigs: readonly PackageSignature[], index?: DamlIndex): ContractChoice[] {
  const { pkg, module, entity } = split(c.templateId);
  const templateRef = byName(sigs, pkg, module, entity, c.packageName);
  const out: ContractChoice[] = [];
  const seen = new Set<string>();
  const push = (x: ContractChoice) => {
    const key = `${x.templateId}\u0000${x.choice}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(x);
  };
  const lf = resolveEntity(sigs, `${pkg}:${module}:${entity}`) ?? resolveEntity(sigs, templateRef);
  const sourceChoices = index ? sourceChoicesOf(index, c) : [];
  const lfChoices = lf?.template?.choices ?? [];
  for (const s of sourceChoices) {
    const typed = lfChoices.find((x) => x.name === s.choice);
    push({ choice: s.choice, templateId: templateRef, consuming: typed?.consuming, detail: typed ? choiceDetail(sigs, typed) : undefined, source: s.source });
  }
  for (const x of lfChoices) push({ choice: x.name, templateId: templateRef, consuming: x.consuming, detail: choiceDetail(sigs, x) });
  if (sourceChoices.length > 0 && !lf) push({ choice: 'Archive', templateId: templateRef, consuming: true });
  for (const ref of lf?.template?.implements ?? []) {
    const iface = resolveEntity(sigs, qualified(ref))?.iface;
    if (!iface) continue;
    const ifaceId = byName(sigs, ref.packageId, ref.module, ref.name);
    for (const x of iface.choices) push({ choice: x.name, templateId: ifaceId, viaInterface: ifaceId, consuming: x.consuming, detail: choiceDetail(sigs, x) });
  }
  return out;
}

/** `nonconsuming · newOwner : Party, amount : Numeric 10 → ContractId Token`. */
function choiceDetail(sigs: readonly PackageSignature[], x: LfChoice): string {
  const args = recordFields(sigs, x.argType)
    .map((f) => `${f.name} : ${showType(f.type)}`)
    .join(', ');
  return `${x.consuming ? '' : `${l10n.t('nonconsuming')} · `}${args || '()'} → ${showType(x.returnType)}`;
}

/** The choices the workspace's Daml source declares in the contract's template (its package's, else any of that name). */
function sourceChoicesOf(index: DamlIndex, c: ContractFacts): { choice: string; source: { file: string; line: number } }[] {
  const match = index.find({ templateId: c.templateId, packageName: c.packageName });
  const target = match?.exact ? match.targets[0] : undefined;
  const file = target ? index.file(target.file) : undefined;
  if (!target || !file) return [];
  return file.decls
    .filter((d) => d.kind === 'choice' && d.parent === target.entity)
    .map((d) => ({ choice: d.name, source: { file: file.file, line: d.line } }));
}

/**
 * The choice argument's skeleton: from the Daml source when the choice has one (`sourceText` is
 * its file's text), else from Daml-LF; `{}` when neither knows it.
 */
export function choiceSkeleton(
  sigs: readonly PackageSignature[],
  choice: ContractChoice,
  party: string,
  sourceText?: string,
): { value: unknown; notes: string[] } {
  if (choice.source && sourceText !== undefined) {
    const fields = fieldsAt(sourceText, choice.source.line);
    if (fields.length > 0) return { value: skeletonOf(fields, party), notes: [] };
  }
  return lfArgumentSkeleton(sigs, choice.templateId, choice.choice, party) ?? { value: {}, notes: [] };
}

/** A file name for the request: `Token_Transfer.commands.json`. */
export function exerciseFileName(c: ContractFacts, choice: ContractChoice): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${safe(split(c.templateId).entity)}_${safe(choice.choice)}.commands.json`;
}

/** A disclosed contract as JsCommands takes it (DisclosedContract: the blob required, the rest checked against it). */
export interface DisclosedContract {
  contractId: string;
  templateId: string;
  createdEventBlob: string;
  synchronizerId: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The request's text with `d` among its `disclosedContracts` (replacing one of the same contract
 * id), or why it cannot be added (the file does not parse as a JSON object).
 */
export function withDisclosedContract(text: string, d: DisclosedContract): { text: string; replaced: boolean } | { problem: string } {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    return { problem: l10n.t('The file is not valid JSON ({0}): fix it first.', (e as Error).message) };
  }
  if (!isObject(value)) return { problem: l10n.t('The request must be a JSON object (JsCommands).') };
  const list = Array.isArray(value.disclosedContracts) ? [...(value.disclosedContracts as unknown[])] : [];
  const at = list.findIndex((x) => isObject(x) && x.contractId === d.contractId);
  const entry = { contractId: d.contractId, templateId: d.templateId, createdEventBlob: d.createdEventBlob, synchronizerId: d.synchronizerId };
  if (at >= 0) list[at] = entry;
  else list.push(entry);
  return { text: `${JSON.stringify({ ...value, disclosedContracts: list }, null, 2)}\n`, replaced: at >= 0 };
}

/** A disclosed contract of a request and the commands (zero-based) that use it. */
export interface DisclosedUse {
  contractId: string;
  templateId: string;
  synchronizerId?: string;
  /** The blob's length in base64 characters (0: none, which the node refuses). */
  blobLength: number;
  usedBy: number[];
}

/** Whether a JSON value holds the string `id` anywhere. */
function mentions(v: unknown, id: string, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof v === 'string') return v === id;
  if (Array.isArray(v)) return v.some((x) => mentions(x, id, depth + 1));
  if (isObject(v)) return Object.values(v).some((x) => mentions(x, id, depth + 1));
  return false;
}

/** The request's disclosed contracts, each with the commands that exercise it or pass its id in an argument. */
export function disclosedUses(request: { commands?: unknown; disclosedContracts?: unknown }): DisclosedUse[] {
  const commands = Array.isArray(request.commands) ? (request.commands as unknown[]) : [];
  const list = Array.isArray(request.disclosedContracts) ? (request.disclosedContracts as unknown[]) : [];
  return list.filter(isObject).map((d) => {
    const contractId = typeof d.contractId === 'string' ? d.contractId : '';
    return {
      contractId,
      templateId: typeof d.templateId === 'string' ? d.templateId : '',
      synchronizerId: typeof d.synchronizerId === 'string' && d.synchronizerId ? d.synchronizerId : undefined,
      blobLength: typeof d.createdEventBlob === 'string' ? d.createdEventBlob.length : 0,
      usedBy: contractId ? commands.flatMap((c, i) => (mentions(c, contractId) ? [i] : [])) : [],
    };
  });
}

/** What Exercise Contract Choice… and Add as Disclosed Contract are given (a contract panel's contract, a test's). */
export interface ContractArgument extends ContractFacts {
  node: string;
  createdEventBlob?: string;
  synchronizerId?: string;
}

/** A command's argument as a ContractArgument, or undefined when it is not one. */
export function parseContractArgument(v: unknown): ContractArgument | undefined {
  if (!isObject(v)) return undefined;
  const text = (k: string) => (typeof v[k] === 'string' && v[k] !== '' ? v[k] : undefined);
  const [node, contractId, templateId, packageName] = [text('node'), text('contractId'), text('templateId'), text('packageName')];
  if (!node || !contractId || !templateId || templateId.split(':').length !== 3) return undefined;
  const out: ContractArgument = { node, contractId, templateId, packageName: packageName ?? '' };
  const blob = text('createdEventBlob');
  const synchronizerId = text('synchronizerId');
  if (blob) out.createdEventBlob = blob;
  if (synchronizerId) out.synchronizerId = synchronizerId;
  return out;
}
