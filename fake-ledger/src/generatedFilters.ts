// Which generated contracts an event format asks for, without building their events: party,
// template, interface and package-name filters, as the node's filters match them. No `vscode` import.
import type { EventFormat, Filters } from './apiTypes';
import { interfacePackageName, type ContractMeta } from './generatedModel';

/** What a reader sees of a contract: the witnesses among its stakeholders, and what they asked for. */
export interface Seen {
  witnesses: string[];
  blob: boolean;
  views: string[];
}

/** Applies an event format (parties, template and interface filters) to a contract. */
export function matchFormat(format: EventFormat, meta: ContractMeta): Seen | undefined {
  const witnesses: string[] = [];
  let blob = false;
  const views: string[] = [];
  const apply = (f: Filters | undefined): boolean => {
    const cumulative = f?.cumulative ?? [];
    if (cumulative.length === 0) return true;
    let hit = false;
    for (const c of cumulative) {
      const idf = (c.identifierFilter ?? {}) as Record<
        string,
        { value?: { templateId?: string; interfaceId?: string; includeCreatedEventBlob?: boolean; includeInterfaceView?: boolean } }
      >;
      const [kind, inner] = Object.entries(idf)[0] ?? [];
      const v = inner?.value ?? {};
      let ok = false;
      if (kind === 'WildcardFilter') ok = true;
      else if (kind === 'TemplateFilter') ok = identifierMatches(v.templateId, meta.template.templateId, meta.template.packageName);
      else if (kind === 'InterfaceFilter') {
        const iface = meta.template.interfaces.find((x) => identifierMatches(v.interfaceId, x, interfacePackageName(x)));
        ok = iface !== undefined;
        if (ok && v.includeInterfaceView) views.push(iface!);
      }
      if (ok) {
        hit = true;
        if (v.includeCreatedEventBlob) blob = true;
      }
    }
    return hit;
  };
  if (format.filtersForAnyParty) {
    if (!apply(format.filtersForAnyParty)) return undefined;
    witnesses.push(...meta.stakeholders);
  } else {
    for (const p of meta.stakeholders) {
      const f = format.filtersByParty?.[p];
      if (f && apply(f)) witnesses.push(p);
    }
  }
  return witnesses.length > 0 ? { witnesses, blob, views } : undefined;
}

/** `pkgId:M:E` or `#package-name:M:E` against a template's id. */
export function identifierMatches(asked: string | undefined, templateId: string, packageName: string): boolean {
  if (!asked) return false;
  if (asked === templateId) return true;
  if (!asked.startsWith('#')) return false;
  const rest = templateId.slice(templateId.indexOf(':'));
  return asked === `#${packageName}${rest}`;
}
