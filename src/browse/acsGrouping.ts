// Active contracts counted by package name → module → template, for the tree. Template ids are
// `<package id>:<module>:<entity>`; the module may hold dots. Counts by template id, so a template
// of two package versions is two entries under one package name. No `vscode` import.

export interface TemplateCount {
  templateId: string;
  entity: string;
  count: number;
}
export interface ModuleGroup {
  module: string;
  count: number;
  templates: TemplateCount[];
}
export interface PackageGroup {
  packageName: string;
  count: number;
  modules: ModuleGroup[];
}

/** `pkg:Mod.Sub:Entity` → its parts; an id of another shape is all entity. */
export function splitTemplateId(templateId: string): { packageId: string; module: string; entity: string } {
  const first = templateId.indexOf(':');
  const last = templateId.lastIndexOf(':');
  if (first < 0 || last === first) return { packageId: '', module: '', entity: templateId };
  return { packageId: templateId.slice(0, first), module: templateId.slice(first + 1, last), entity: templateId.slice(last + 1) };
}

/** Counts contracts as pages arrive; `groups()` sorts them for the tree. */
export class TemplateCounter {
  private readonly counts = new Map<string, { packageName: string; count: number }>();
  total = 0;

  add(templateId: string, packageName: string): void {
    const c = this.counts.get(templateId);
    if (c) c.count++;
    else this.counts.set(templateId, { packageName, count: 1 });
    this.total++;
  }

  /** Forgets everything (the reading started again). */
  reset(): void {
    this.counts.clear();
    this.total = 0;
  }

  get templates(): number {
    return this.counts.size;
  }

  groups(): PackageGroup[] {
    const packages = new Map<string, Map<string, TemplateCount[]>>();
    for (const [templateId, { packageName, count }] of this.counts) {
      const { packageId, module, entity } = splitTemplateId(templateId);
      const name = packageName || packageId;
      let modules = packages.get(name);
      if (!modules) packages.set(name, (modules = new Map<string, TemplateCount[]>()));
      let list = modules.get(module);
      if (!list) modules.set(module, (list = []));
      list.push({ templateId, entity, count });
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...packages]
      .sort(([a], [b]) => byName(a, b))
      .map(([packageName, modules]) => {
        const mods = [...modules]
          .sort(([a], [b]) => byName(a, b))
          .map(([module, templates]) => {
            templates.sort((a, b) => byName(a.entity, b.entity) || byName(a.templateId, b.templateId));
            return { module, count: templates.reduce((n, t) => n + t.count, 0), templates };
          });
        return { packageName, count: mods.reduce((n, m) => n + m.count, 0), modules: mods };
      });
  }
}
