// Decodes a prepared transaction (base64 of the protobuf PreparedTransaction) into what a person
// checks before signing off, and recomputes its hash where the scheme allows (V2). Uses
// @canton-network/core-tx-visualizer; built as its own bundle, loaded only by the execute command.
import * as l10n from '../l10n/l10n';
import type * as TxVisualizer from '@canton-network/core-tx-visualizer' with { 'resolution-mode': 'import' };

// The package ships CommonJS too: require it (esbuild bundles the literal require).
const { decodePreparedTransaction, hashPreparedTransaction } = require('@canton-network/core-tx-visualizer') as typeof TxVisualizer;

export interface ReviewNode {
  nodeId: string;
  kind: 'create' | 'exercise' | 'fetch' | 'rollback';
  templateId?: string;
  contractId?: string;
  choice?: string;
  consuming?: boolean;
  actingParties?: string[];
  signatories?: string[];
  stakeholders?: string[];
  /** The create argument or choice argument, as JSON. */
  argument?: unknown;
}

export interface PreparedTransactionReview {
  submitters: string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTime?: string;
  minLedgerEffectiveTime?: string;
  maxLedgerEffectiveTime?: string;
  maxRecordTime?: string;
  /** The same times as the hash encodes them: microseconds since the epoch. */
  preparationTimeMicros?: string;
  minLedgerEffectiveTimeMicros?: string;
  maxLedgerEffectiveTimeMicros?: string;
  roots: string[];
  nodes: ReviewNode[];
  inputContracts: { contractId: string; templateId?: string; createdAt?: string }[];
  /** The hash recomputed here (base64), when the scheme is one this can compute. */
  computedHash?: string;
  hashNote: string;
}

type Identifier = { packageId: string; moduleName: string; entityName: string } | undefined;
const templateIdOf = (t: Identifier) => (t ? `${t.packageId}:${t.moduleName}:${t.entityName}` : undefined);
const instant = (micros: bigint | undefined) =>
  micros === undefined ? undefined : new Date(Number(micros / 1000n)).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(micros % 1000n).padStart(3, '0')}Z`);

/** A Daml value of the protobuf model as plain JSON, as the JSON API would print it. */
export function valueToJson(v: unknown): unknown {
  const sum = (v as { sum?: { oneofKind?: string; [k: string]: unknown } } | undefined)?.sum;
  if (!sum || !sum.oneofKind) return null;
  const x = sum[sum.oneofKind] as never;
  switch (sum.oneofKind) {
    case 'unit':
      return {};
    case 'bool':
    case 'text':
    case 'party':
    case 'contractId':
    case 'numeric':
      return x;
    case 'int64':
      return String(x);
    case 'date':
      return new Date(Number(x) * 86_400_000).toISOString().slice(0, 10);
    case 'timestamp':
      return instant(BigInt(x));
    case 'optional':
      return valueToJson((x as { value?: unknown }).value);
    case 'list':
      return ((x as { elements: unknown[] }).elements ?? []).map(valueToJson);
    case 'textMap':
      return Object.fromEntries(((x as { entries: { key: string; value: unknown }[] }).entries ?? []).map((e) => [e.key, valueToJson(e.value)]));
    case 'genMap':
      return ((x as { entries: { key: unknown; value: unknown }[] }).entries ?? []).map((e) => [valueToJson(e.key), valueToJson(e.value)]);
    case 'record':
      return Object.fromEntries(
        ((x as { fields: { label: string; value: unknown }[] }).fields ?? []).map((f, i) => [f.label || `_${i + 1}`, valueToJson(f.value)]),
      );
    case 'variant':
      return { tag: (x as { constructor: string }).constructor, value: valueToJson((x as { value: unknown }).value) };
    case 'enum':
      return (x as { constructor: string }).constructor;
    default:
      return null;
  }
}

export async function reviewPreparedTransaction(base64: string, hashingSchemeVersion: string | undefined): Promise<PreparedTransactionReview> {
  const tx = decodePreparedTransaction(base64);
  const meta = tx.metadata;
  const nodes: ReviewNode[] = (tx.transaction?.nodes ?? []).map((n) => {
    const versioned = n.versionedNode as { oneofKind?: string; v1?: { nodeType: { oneofKind?: string; [k: string]: unknown } } };
    const type = versioned.v1?.nodeType;
    const kind = (type?.oneofKind ?? 'rollback') as ReviewNode['kind'];
    const node = (type && type.oneofKind ? type[type.oneofKind] : {}) as Record<string, unknown>;
    return {
      nodeId: n.nodeId,
      kind,
      templateId: templateIdOf(node.templateId as Identifier),
      contractId: node.contractId as string | undefined,
      choice: node.choiceId as string | undefined,
      consuming: node.consuming as boolean | undefined,
      actingParties: node.actingParties as string[] | undefined,
      signatories: node.signatories as string[] | undefined,
      stakeholders: node.stakeholders as string[] | undefined,
      argument: kind === 'create' ? valueToJson(node.argument) : kind === 'exercise' ? valueToJson(node.chosenValue) : undefined,
    };
  });
  const inputContracts = (meta?.inputContracts ?? []).map((c) => {
    const create = (c.contract as { oneofKind?: string; v1?: { contractId: string; templateId?: Identifier } }).v1;
    return { contractId: create?.contractId ?? '', templateId: templateIdOf(create?.templateId), createdAt: instant(c.createdAt) };
  });
  let computedHash: string | undefined;
  let hashNote: string;
  if (hashingSchemeVersion === 'HASHING_SCHEME_VERSION_V2') {
    computedHash = await hashPreparedTransaction(tx, 'base64');
    hashNote = l10n.t('Recomputed here with hashing scheme V2.');
  } else {
    hashNote = l10n.t('The hash is not recomputed for {0}: only V2 is supported here.', hashingSchemeVersion ?? l10n.t('an unspecified scheme'));
  }
  return {
    submitters: meta?.submitterInfo?.actAs ?? [],
    commandId: meta?.submitterInfo?.commandId ?? '',
    synchronizerId: meta?.synchronizerId ?? '',
    transactionUuid: meta?.transactionUuid ?? '',
    preparationTime: instant(meta?.preparationTime),
    minLedgerEffectiveTime: instant(meta?.minLedgerEffectiveTime),
    maxLedgerEffectiveTime: instant(meta?.maxLedgerEffectiveTime),
    maxRecordTime: instant(meta?.maxRecordTime),
    preparationTimeMicros: meta?.preparationTime?.toString(),
    minLedgerEffectiveTimeMicros: meta?.minLedgerEffectiveTime?.toString(),
    maxLedgerEffectiveTimeMicros: meta?.maxLedgerEffectiveTime?.toString(),
    roots: tx.transaction?.roots ?? [],
    nodes,
    inputContracts,
    computedHash,
    hashNote,
  };
}
