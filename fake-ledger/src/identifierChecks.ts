// Template and interface ids in a filter that the node's packages do not define: Canton refuses the
// whole request with 404 (`IndexServiceImpl.checkUnknownIdentifiers`, every release line), in this
// order: package names it does not know, `#name:Module:Entity` pairs that name no template (or
// interface) of a known package, then package-id forms it does not know. No `vscode` import.
import type { EventFormat, Filters } from './apiTypes';
import { cantonError, type ErrorReply } from './cantonErrorBodies';
import type { PackageCatalog } from './generatedLedger';

const NOT_FOUND = { status: 404, category: 11, grpc: 5 } as const;

export function unknownIdentifiers(format: EventFormat | undefined, catalog: PackageCatalog): ErrorReply | undefined {
  if (!format) return undefined;
  const names = new Set([...catalog.templates.values(), ...catalog.interfaces.values()].filter(Boolean));
  const unknownNames = new Set<string>();
  const noTemplate = new Set<string>();
  const noInterface = new Set<string>();
  const unknownIds: [string, string][] = [];
  const check = (ref: string | undefined, known: Map<string, string>, noSuch: Set<string>, resource: string) => {
    if (!ref) return;
    const first = ref.indexOf(':');
    const pkg = ref.slice(0, first);
    const qualified = ref.slice(first + 1);
    if (pkg.startsWith('#')) {
      const name = pkg.slice(1);
      if (!names.has(name)) unknownNames.add(name);
      else if (![...known].some(([id, n]) => n === name && id.slice(id.indexOf(':') + 1) === qualified)) noSuch.add(`(${name},${qualified})`);
    } else if (!known.has(ref)) unknownIds.push([resource, ref]);
  };
  const filters: (Filters | undefined)[] = [...Object.values(format.filtersByParty ?? {}), format.filtersForAnyParty];
  for (const f of filters) {
    for (const c of f?.cumulative ?? []) {
      const idf = (c.identifierFilter ?? {}) as Record<string, { value?: { templateId?: string; interfaceId?: string } } | undefined>;
      check(idf.TemplateFilter?.value?.templateId, catalog.templates, noTemplate, 'TEMPLATE_ID');
      check(idf.InterfaceFilter?.value?.interfaceId, catalog.interfaces, noInterface, 'INTERFACE_ID');
    }
  }
  const list = (s: Iterable<string>) => [...s].join(', ');
  if (unknownNames.size > 0)
    return notFound(
      'PACKAGE_NAMES_NOT_FOUND',
      `The following package names do not match upgradable packages uploaded on this participant: [${list(unknownNames)}].`,
    );
  if (noTemplate.size > 0)
    return notFound(
      'NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
      `The following package-name/template qualified-name pairs do not reference any template-id uploaded on this participant: [${list(noTemplate)}].`,
    );
  if (noInterface.size > 0)
    return notFound(
      'NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME',
      `The following package-name/interface qualified-name pairs do not reference any interface-id uploaded on this participant: [${list(noInterface)}].`,
    );
  if (unknownIds.length > 0) {
    const templates = unknownIds.filter(([r]) => r === 'TEMPLATE_ID').map(([, id]) => id);
    const interfaces = unknownIds.filter(([r]) => r === 'INTERFACE_ID').map(([, id]) => id);
    const cause = [
      templates.length > 0 ? `Templates do not exist: [${templates.join(', ')}].` : '',
      interfaces.length > 0 ? `Interfaces do not exist: [${interfaces.join(', ')}].` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return notFound('TEMPLATES_OR_INTERFACES_NOT_FOUND', cause, unknownIds);
  }
  return undefined;
}

const notFound = (code: string, cause: string, resources: [string, string][] = []) =>
  cantonError(NOT_FOUND.status, code, cause, NOT_FOUND.category, NOT_FOUND.grpc, resources);
