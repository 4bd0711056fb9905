// The nodes of a prepared transaction the fake did not prepare itself (another participant's, or
// changed after prepare and signed as it now is), read from the official bindings' decoding, with
// their values as the JSON API prints them. Canton commits such a transaction when its signatures
// hold; the fake commits what it can read of it.
import type { decodePrepared } from './cantonHashes';
import type { PreparedNode } from './interactiveSubmissions';

type Decoded = NonNullable<ReturnType<typeof decodePrepared>>;
type Identifier = { packageId: string; moduleName: string; entityName: string } | undefined;

const templateIdOf = (t: Identifier) => (t ? `${t.packageId}:${t.moduleName}:${t.entityName}` : '');
const instant = (micros: bigint) => new Date(Number(micros / 1000n)).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(micros % 1000n).padStart(3, '0')}Z`);

/** A Daml value of the protobuf model as the JSON API prints it. */
export function valueAsJson(v: unknown): unknown {
  const sum = (v as { sum?: { oneofKind?: string; [k: string]: unknown } } | undefined)?.sum;
  if (!sum?.oneofKind) return null;
  const x = sum[sum.oneofKind] as never;
  switch (sum.oneofKind) {
    case 'unit':
      return {};
    case 'int64':
      return String(x);
    case 'date':
      return new Date(Number(x) * 86_400_000).toISOString().slice(0, 10);
    case 'timestamp':
      return instant(BigInt(x));
    case 'optional':
      return valueAsJson((x as { value?: unknown }).value);
    case 'list':
      return ((x as { elements?: unknown[] }).elements ?? []).map(valueAsJson);
    case 'textMap':
      return Object.fromEntries(((x as { entries?: { key: string; value: unknown }[] }).entries ?? []).map((e) => [e.key, valueAsJson(e.value)]));
    case 'genMap':
      return ((x as { entries?: { key: unknown; value: unknown }[] }).entries ?? []).map((e) => [valueAsJson(e.key), valueAsJson(e.value)]);
    case 'record':
      return Object.fromEntries(
        ((x as { fields?: { label: string; value: unknown }[] }).fields ?? []).map((f, i) => [f.label || `_${i + 1}`, valueAsJson(f.value)]),
      );
    case 'variant':
      return { tag: (x as { constructor: string }).constructor, value: valueAsJson((x as { value: unknown }).value) };
    case 'enum':
      return (x as { constructor: string }).constructor;
    default:
      // bool, text, party, contractId, numeric: as they are.
      return x;
  }
}

/** The create and exercise nodes, in node order (fetches and rollbacks commit no event). */
export function nodesOfPrepared(tx: Decoded): PreparedNode[] {
  return (tx.transaction?.nodes ?? []).flatMap((n): PreparedNode[] => {
    const type = (n.versionedNode as { v1?: { nodeType?: { oneofKind?: string; [k: string]: unknown } } }).v1?.nodeType;
    const node = (type?.oneofKind ? type[type.oneofKind] : undefined) as Record<string, unknown> | undefined;
    if (!node || (type?.oneofKind !== 'create' && type?.oneofKind !== 'exercise')) return [];
    const common = {
      templateId: templateIdOf(node.templateId as Identifier),
      packageName: typeof node.packageName === 'string' ? node.packageName : '',
      contractId: typeof node.contractId === 'string' ? node.contractId : '',
      signatories: (node.signatories as string[] | undefined) ?? [],
      stakeholders: (node.stakeholders as string[] | undefined) ?? [],
    };
    return type.oneofKind === 'create'
      ? [{ kind: 'create', ...common, argument: valueAsJson(node.argument) }]
      : [
          {
            kind: 'exercise',
            ...common,
            choice: typeof node.choiceId === 'string' ? node.choiceId : '',
            ...(node.interfaceId ? { interfaceId: templateIdOf(node.interfaceId as Identifier) } : {}),
            consuming: node.consuming !== false,
            actingParties: (node.actingParties as string[] | undefined) ?? [],
            argument: valueAsJson(node.chosenValue),
          },
        ];
  });
}
