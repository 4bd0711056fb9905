// A filter's template or interface ids that the node's packages do not define. Canton refuses the
// whole read with 404 and names them (`PACKAGE_NAMES_NOT_FOUND`,
// `NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME`, `NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME`,
// `TEMPLATES_OR_INTERFACES_NOT_FOUND`): a workspace template not uploaded yet is one of them, and
// the others are still worth counting. No `vscode` import.
import type { JsCantonError } from '../ledger/apiTypes';

export const UNKNOWN_IDENTIFIER_CODES = new Set([
  'PACKAGE_NAMES_NOT_FOUND',
  'NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
  'NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
  'TEMPLATES_OR_INTERFACES_NOT_FOUND',
]);

/**
 * Which of `refs` (`#name:Module:Entity` or `pkgId:Module:Entity`) the error names as unknown;
 * undefined when it is not such an error. Matched by each ref's own text in the cause's list
 * (Canton prints sets, in no fixed order) or in the resources.
 */
export function refsUnknownToNode(e: JsCantonError | undefined, refs: readonly string[]): string[] | undefined {
  if (!e || !UNKNOWN_IDENTIFIER_CODES.has(e.code)) return undefined;
  const cause = String(e.cause ?? '');
  const list = /\[(.*)\]/s.exec(cause)?.[1] ?? '';
  const items = new Set(list.split(', '));
  const resources = new Set((Array.isArray(e.resources) ? e.resources : []).map((r) => (Array.isArray(r) ? String(r[1]) : '')));
  return refs.filter((ref) => {
    const first = ref.indexOf(':');
    const pkg = ref.slice(0, first);
    const qualified = ref.slice(first + 1);
    switch (e.code) {
      case 'PACKAGE_NAMES_NOT_FOUND':
        return pkg.startsWith('#') && items.has(pkg.slice(1));
      case 'TEMPLATES_OR_INTERFACES_NOT_FOUND':
        return resources.has(ref) || cause.includes(ref);
      default:
        return pkg.startsWith('#') && items.has(`(${pkg.slice(1)},${qualified})`);
    }
  });
}
